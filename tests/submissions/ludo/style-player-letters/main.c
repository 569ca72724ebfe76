/* LUDO-CS model solution: seeds the generator (argv[1], else the clock) and plays a game. */
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
    return 0;
}
