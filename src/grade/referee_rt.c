/* Linked into every build by referee. Unbuffered stdout keeps what a program printed
   before it crashed; REFEREE_SRANDOM seeds glibc's random() before main, so a case can
   choose the game a student's unseeded generator plays. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((constructor)) static void referee_runtime_start(void) {
    setvbuf(stdout, NULL, _IONBF, 0);
    const char *seed = getenv("REFEREE_SRANDOM");
    if (seed != NULL) {
        srandom((unsigned) strtoul(seed, NULL, 10));
    }
}
