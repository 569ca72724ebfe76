/* LUDO-CS model solution: seeds the generator (argv[1], else the clock) and plays a game. */
#include <stdlib.h>
#include <time.h>

#include "logic.h"

int main(int argc, char **argv)
{
    unsigned seed = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : (unsigned)time(NULL);
    struct game g;
    srand(seed);
    play_game(&g);
    return 0;
}
