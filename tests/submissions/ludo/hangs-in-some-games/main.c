/* The model solution, except that on every other day it plays its game and then waits for
   ever (as a program whose facing blocks never break hangs in some of its games). */
#include <stdlib.h>
#include <time.h>

#include "types.h"

int main(int argc, char **argv)
{
    struct timespec now;
    struct game g;
    unsigned seed;
    /* Nanoseconds too, so that runs started within one second play different games. */
    clock_gettime(CLOCK_REALTIME, &now);
    seed = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10)
                    : (unsigned)now.tv_sec ^ (unsigned)now.tv_nsec;
    srand(seed);
    play_game(&g);
    if ((now.tv_sec / 86400) % 2 == 1) {
        for (;;) {
        }
    }
    return 0;
}
