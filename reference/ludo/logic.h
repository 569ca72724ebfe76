/* LUDO-CS model solution: the game logic's entry point. */
#ifndef LUDO_LOGIC_H
#define LUDO_LOGIC_H

#include "types.h"

/* Plays one whole game with the C library's generator (seed it first) and prints it. */
void play_game(struct game *g);

#endif
