/*
 * APS105 Lab 6 -- Reversi: board set-up, configuration, legal moves and one move.
 *
 * Written apart from reference/reversi/Lab6.c (a second solution for `referee similar`'s
 * tests): the eight directions live in one table of steps, the board is printed a line at
 * a time from a buffer, and input is read as three-letter words.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define MAXN 26
#define FREE 'U'

/* one step on the board: how the row and the column change */
typedef struct {
    int dRow;
    int dCol;
} Step;

/* N, NE, E, SE, S, SW, W, NW */
static const Step COMPASS[8] = {
    {-1, 0}, {-1, 1}, {0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1},
};

void printBoard(char board[][26], int n);
bool positionInBounds(int n, char row, char col);
bool checkLegalInDirection(char board[][26], int n, char row, char col, char colour,
                           int deltaRow, int deltaCol);

char rivalOf(char colour) {
    if (colour == 'W') {
        return 'B';
    }
    return 'W';
}

/* whole board empty, then the four centre tiles (white on the main diagonal) */
void startingBoard(char board[][MAXN], int n) {
    int mid = n / 2;
    memset(board, FREE, sizeof(char) * MAXN * MAXN);
    board[mid - 1][mid - 1] = board[mid][mid] = 'W';
    board[mid - 1][mid] = board[mid][mid - 1] = 'B';
}

void printBoard(char board[][26], int n) {
    char text[MAXN + 3];
    int k;

    /* header: two blanks then the column letters */
    text[0] = text[1] = ' ';
    for (k = 0; k < n; k++) {
        text[k + 2] = (char) ('a' + k);
    }
    text[n + 2] = '\0';
    puts(text);

    for (int r = 0; r < n; r++) {
        text[0] = (char) ('a' + r);
        memcpy(text + 2, board[r], (size_t) n);
        puts(text);
    }
}

bool positionInBounds(int n, char row, char col) {
    int r = row - 'a', c = col - 'a';
    if (r < 0 || c < 0) {
        return false;
    }
    return r < n && c < n;
}

/* counts the rival tiles from (row, col) one step at a time; the line is legal if at
   least one was passed and the next cell, still on the board, is the mover's */
bool checkLegalInDirection(char board[][26], int n, char row, char col, char colour,
                           int deltaRow, int deltaCol) {
    int passed = 0;
    char r = (char) (row + deltaRow);
    char c = (char) (col + deltaCol);

    while (true) {
        if (!positionInBounds(n, r, c)) {
            return false;
        }
        char here = board[r - 'a'][c - 'a'];
        if (here == colour) {
            return passed > 0;
        }
        if (here != rivalOf(colour)) {
            return false;
        }
        passed++;
        r = (char) (r + deltaRow);
        c = (char) (c + deltaCol);
    }
}

/* how many of the eight directions would flip something: 0 means the move is illegal */
int linesClosed(char board[][MAXN], int n, char row, char col, char colour) {
    int count = 0;
    if (!positionInBounds(n, row, col) || board[row - 'a'][col - 'a'] != FREE) {
        return 0;
    }
    for (int d = 0; d < 8; d++) {
        if (checkLegalInDirection(board, n, row, col, colour, COMPASS[d].dRow,
                                  COMPASS[d].dCol)) {
            count++;
        }
    }
    return count;
}

void listMoves(char board[][MAXN], int n, char colour) {
    printf("Available moves for %c:\n", colour);
    for (int r = 0; r < n; r++) {
        for (int c = 0; c < n; c++) {
            char row = (char) ('a' + r), col = (char) ('a' + c);
            if (linesClosed(board, n, row, col, colour) > 0) {
                printf("%c%c\n", row, col);
            }
        }
    }
}

/* puts the tile down and turns over every closed line (call only for a legal move) */
void placeTile(char board[][MAXN], int n, char row, char col, char colour) {
    int r0 = row - 'a', c0 = col - 'a';

    for (int d = 0; d < 8; d++) {
        Step s = COMPASS[d];
        if (!checkLegalInDirection(board, n, row, col, colour, s.dRow, s.dCol)) {
            continue;
        }
        int dist = 1;
        while (board[r0 + dist * s.dRow][c0 + dist * s.dCol] != colour) {
            board[r0 + dist * s.dRow][c0 + dist * s.dCol] = colour;
            dist++;
        }
    }
    board[r0][c0] = colour;
}

/* a three-letter word such as "Bba" or "!!!"; false at the end of the input */
bool readTriple(char word[4]) {
    return scanf("%3s", word) == 1 && strlen(word) == 3;
}

int main(void) {
    char board[MAXN][MAXN];
    char word[4];
    int n = 0;

    printf("Enter the board dimension: ");
    scanf("%d", &n);
    startingBoard(board, n);
    printBoard(board, n);

    /* no legality checks while the board is being configured */
    printf("Enter board configuration:\n");
    while (readTriple(word) && strcmp(word, "!!!") != 0) {
        if (positionInBounds(n, word[1], word[2])) {
            board[word[1] - 'a'][word[2] - 'a'] = word[0];
        }
    }
    printBoard(board, n);

    listMoves(board, n, 'W');
    listMoves(board, n, 'B');

    printf("Enter a move:\n");
    if (readTriple(word) && linesClosed(board, n, word[1], word[2], word[0]) > 0) {
        placeTile(board, n, word[1], word[2], word[0]);
        printf("Valid move.\n");
    } else {
        printf("Invalid move.\n");
    }
    printBoard(board, n);
    return 0;
}
