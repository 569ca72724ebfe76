/* Threat: counts its runs in a file in /tmp, which a batch's cases would share (each case of
   a run of its own starts with an empty /tmp). Prints LEAK when it finds an earlier case's. */
#include <stdio.h>
int main(void) {
    FILE *file = fopen("/tmp/referee-hostile-count", "a+");
    if (file == NULL) {
        return 1;
    }
    fputc('x', file);
    fflush(file);
    if (ftell(file) > 1) {
        printf("LEAK count %ld\n", ftell(file));
    }
    fclose(file);
    return 0;
}
