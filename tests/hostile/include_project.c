/* Threat: includes the model solution from referee's project folder by its absolute path
   (tests/hostile.rs writes the project's path in place of the marker when it copies this
   file), so that it would score as the model does. */
#include "@PROJECT@/reference/reversi/Lab6.c"
