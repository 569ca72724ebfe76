/*
 * referee's unit harness for Trouble. Linked with the student's main.c (built with
 * -DTEST_MAIN, which hides the template's main). Reads one script on stdin:
 *
 *     <function> [arguments]
 *     gPieces: 16 numbers
 *     gHome: 4 numbers
 *     gRing: 28 numbers
 *     gFinish: 16 numbers (row by row)
 *
 * sets the four global arrays, calls the function once, and prints
 *
 *     call <function> [arguments]
 *     ...whatever the function printed...
 *     return <value>            (just "return" for a void function)
 *     the four arrays, in the script's form (initializeBoard and movePiece only)
 *
 * printStatus, printMoves and checkWin are graded on what they print and return: a change
 * they make to the arrays is reported on stderr as a fact line (`referee fact: ...`), since
 * the handout does not forbid one.
 */

#include <stdio.h>
#include <string.h>

extern int gPieces[16];
extern int gHome[4];
extern int gRing[28];
extern int gFinish[4][4];

void initializeBoard();
void printStatus();
int printMoves(int player, int roll);
int movePiece(int player, int from, int spaces);
int checkWin(int player);

/* Reads a labelled line of n numbers into values; 0 if the script is malformed. */
static int readArray(int *values, int n) {
    int i;
    if (scanf(" %*s") != 0) return 0;
    for (i = 0; i < n; i++)
        if (scanf("%d", &values[i]) != 1) return 0;
    return 1;
}

/* Reports each cell of values that differs from before, as a fact about function. */
static void reportChanges(const char *function, const char *label, const int *before,
                          const int *values, int n) {
    int i;
    for (i = 0; i < n; i++)
        if (before[i] != values[i])
            fprintf(stderr, "referee fact: %s: changed %s[%d] %d -> %d\n", function, label, i,
                    before[i], values[i]);
}

static void printArray(const char *label, const int *values, int n) {
    int i;
    printf("%s:", label);
    for (i = 0; i < n; i++) printf(" %d", values[i]);
    printf("\n");
}

int main(void) {
    char function[32];
    int a = 0, b = 0, c = 0, result = 0;
    int arity;
    int pieces[16], home[4], ring[28], finish[16];

    if (scanf("%31s", function) != 1) return 2;
    if (strcmp(function, "initializeBoard") == 0 || strcmp(function, "printStatus") == 0)
        arity = 0;
    else if (strcmp(function, "checkWin") == 0)
        arity = 1;
    else if (strcmp(function, "printMoves") == 0)
        arity = 2;
    else if (strcmp(function, "movePiece") == 0)
        arity = 3;
    else
        return 2;
    if ((arity >= 1 && scanf("%d", &a) != 1) || (arity >= 2 && scanf("%d", &b) != 1) ||
        (arity >= 3 && scanf("%d", &c) != 1))
        return 2;
    if (!readArray(gPieces, 16) || !readArray(gHome, 4) || !readArray(gRing, 28) ||
        !readArray(&gFinish[0][0], 16))
        return 2;

    memcpy(pieces, gPieces, sizeof pieces);
    memcpy(home, gHome, sizeof home);
    memcpy(ring, gRing, sizeof ring);
    memcpy(finish, gFinish, sizeof finish);

    printf("call %s", function);
    if (arity >= 1) printf(" %d", a);
    if (arity >= 2) printf(" %d", b);
    if (arity >= 3) printf(" %d", c);
    printf("\n");

    if (strcmp(function, "initializeBoard") == 0) initializeBoard();
    else if (strcmp(function, "printStatus") == 0) printStatus();
    else if (strcmp(function, "checkWin") == 0) result = checkWin(a);
    else if (strcmp(function, "printMoves") == 0) result = printMoves(a, b);
    else result = movePiece(a, b, c);

    if (arity == 0) printf("return\n");
    else printf("return %d\n", result);
    if (strcmp(function, "initializeBoard") == 0 || strcmp(function, "movePiece") == 0) {
        printArray("gPieces", gPieces, 16);
        printArray("gHome", gHome, 4);
        printArray("gRing", gRing, 28);
        printArray("gFinish", &gFinish[0][0], 16);
    } else {
        reportChanges(function, "gPieces", pieces, gPieces, 16);
        reportChanges(function, "gHome", home, gHome, 4);
        reportChanges(function, "gRing", ring, gRing, 28);
        reportChanges(function, "gFinish", finish, &gFinish[0][0], 16);
    }
    return 0;
}
