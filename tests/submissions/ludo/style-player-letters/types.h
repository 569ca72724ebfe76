/* LUDO-CS model solution: the types shared by the game logic and main. */
#ifndef LUDO_TYPES_H
#define LUDO_TYPES_H

#define SQUARES 52
#define HOME_CELLS 5
#define PLAYERS 4
#define PIECES 4
#define EFFECT_ROUNDS 4  /* Bhawana's aura and Kotuwa's briefing last four rounds */
#define MYSTERY_ROUNDS 4
#define MAX_ROUNDS 5000  /* a safety stop; real games end long before */

/* Clockwise seating, which is also the order the dice passes in. */
enum colour { RED, GREEN, YELLOW, BLUE };
enum direction { CLOCKWISE, COUNTER_CLOCKWISE };
enum where { BASE, SQUARE, HOME_PATH, HOME };
enum aura { NO_AURA, ENERGISED, SICK };
enum walk_result { REACHED, BLOCKED, OVERSHOOT };

struct location {
    enum where kind;
    int n; /* the square (0..51) or home-path cell (0..4) */
};

struct piece {
    struct location loc;
    enum direction dir;
    int captures;
    int passes;        /* arrivals at the own Approach by walking */
    enum aura aura;
    int aura_round;
    int briefing_round; /* -1 when not attending a briefing */
};

/* Where a walk of some steps ends, or what stops it. */
struct walk {
    enum walk_result result;
    struct location dest; /* REACHED: the end; BLOCKED: the cell before the block */
    int passes;
    int steps_done;
    int blocker_colour;
    int blocker_index;
};

struct game {
    struct piece pieces[PLAYERS][PIECES];
    int order[PLAYERS];
    int round;
    int mystery;      /* -1 before the first one spawns */
    int mystery_left;
    int last_mystery;
    int first_entry_round;
    int blue_next;
    int threes[PLAYERS];
};

/* Plays one whole game with the C library's generator (seed it first) and prints it. */
void play_game(struct game *g);

#endif
