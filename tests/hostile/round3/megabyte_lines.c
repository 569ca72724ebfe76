/* Threat (round 3, 6): prints one line of a megabyte on stdout and another on stderr in every
   case, so that a report keeping them would weigh hundreds of megabytes. */
#include <stdio.h>
int main(void) {
    for (int i = 0; i < 1000000; i++) {
        putchar('a');
        fputc('e', stderr);
    }
    putchar('\n');
    return 0;
}
