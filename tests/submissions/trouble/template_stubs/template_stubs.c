/*
 * Buggy submission for referee's tests: the project's student template handed in unchanged.
 * Bug: the six functions are the template's stubs. It compiles and runs with seed -1; stubs
 * that happen to print or return the right thing for a case still pass that case.
 * Must lose: initializeBoard, printStatus, printMoves, checkWin, movePiece, playerTurn.
 * Must keep: compiles.
 */

#include <assert.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

/* ---- Random numbers (do not change) ---------------------------------------------------- */

int lfsr = 0; /* state of the pseudorandom generator */

/* One step of a 32-bit xorshift generator; the result is never negative. */
int lfsrNext(void) {
    lfsr ^= lfsr >> 7;
    lfsr ^= lfsr << 9;
    lfsr ^= lfsr >> 13;
    return lfsr & INT_MAX;
}

/* Starts the sequence from seed; a zero seed keeps the current state. */
void seedRandom(int seed) {
    if (seed) lfsr = seed;
}

/* A pseudorandom integer from 0 to limit-1. */
int getRandom(int limit) {
    return lfsrNext() % limit;
}

/* Rolls the die: 1 to 6. */
int pop_o_matic(void) {
    return getRandom(6) + 1;
}

/* ---- Global variables (do not change; do not add any) ----------------------------------- */

const int Red = 0;
const int Green = 1;
const int Yellow = 2;
const int Blue = 3;
const char * const gPlayerNames[] = {"Red", "Green", "Yellow", "Blue"};

int gPieces[16];   /* location of each piece: -1 home, 0..27 ring, 100+10*color+k finish */
int gHome[4];      /* number of pieces in each color's Home area */
int gRing[28];     /* piece on each Ring location, or -1 */
int gFinish[4][4]; /* piece on each Finish Line location [color][k], or -1 */

/* ---- Required functions (do not change these declarations) ------------------------------ */

void initializeBoard();
void printStatus();
int playerTurn(int player);
int printMoves(int player, int roll);
int movePiece(int player, int from, int spaces);
int checkWin(int player);

/* ---- Declarations of your own helper functions go here ---------------------------------- */


/* ---- main (do not change) ---------------------------------------------------------------- */

#ifndef TEST_MAIN
int main() {
    int seed = 0;
    int numPlayers = 0;
    int player;
    int gameOver = 0;
    int i, j;

    initializeBoard();
    for (i = 0; i < 4; i++) assert(gHome[i] == 4);
    for (i = 0; i < 16; i++) assert(gPieces[i] == -1);
    for (i = 0; i < 28; i++) assert(gRing[i] == -1);
    for (i = 0; i < 4; i++)
        for (j = 0; j < 4; j++) assert(gFinish[i][j] == -1);

    printf("Enter a random seed: ");
    scanf("%d", &seed);
    if (seed == -1) return 0;
    seedRandom(seed);

    do {
        printf("Enter the number of players (2, 3, 4): ");
        scanf("%d", &numPlayers);
    } while (numPlayers < 2 || numPlayers > 4);

    player = Red;
    while (!gameOver) {
        gameOver = playerTurn(player);
        if (numPlayers == 2) player = (player + 2) % 4;
        else player = (player + 1) % numPlayers;
    }
    return 0;
}
#endif

/* ---- Your function definitions go below this line ---------------------------------------- */

void initializeBoard() {
}

void printStatus() {
}

int printMoves(int player, int roll) {
    return 0;
}

int movePiece(int player, int from, int spaces) {
    return 0;
}

int checkWin(int player) {
    return 0;
}

int playerTurn(int player) {
    return 1;
}
