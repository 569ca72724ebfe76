/* Unit-test harness for Lab 6: calls one of the student's helpers, as a case's script on
   stdin says, and prints the result in the form the Rust reference expects.

   Script:  printBoard N                       then N lines of cells
            positionInBounds N ROW COL          (ROW, COL as character codes)
            checkLegalInDirection N ROW COL COLOUR DROW DCOL   then N lines of cells */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

void printBoard(char board[][26], int n);
bool positionInBounds(int n, char row, char col);
bool checkLegalInDirection(char board[][26], int n, char row, char col, char colour,
                           int deltaRow, int deltaCol);

static char board[26][26];

static int read_board(int n) {
    char line[64];
    for (int r = 0; r < n; r++) {
        if (scanf("%63s", line) != 1 || (int) strlen(line) != n) {
            return 0;
        }
        memcpy(board[r], line, (size_t) n);
    }
    return 1;
}

int main(void) {
    char function[64];
    int n;
    if (scanf("%63s %d", function, &n) != 2 || n < 1 || n > 26) {
        fprintf(stderr, "harness: bad script\n");
        return 3;
    }
    if (strcmp(function, "printBoard") == 0) {
        if (!read_board(n)) {
            return 3;
        }
        printBoard(board, n);
    } else if (strcmp(function, "positionInBounds") == 0) {
        int row, col;
        if (scanf("%d %d", &row, &col) != 2) {
            return 3;
        }
        bool inside = positionInBounds(n, (char) row, (char) col);
        printf("positionInBounds(%d, '%c', '%c') = %s\n", n, row, col, inside ? "true" : "false");
    } else if (strcmp(function, "checkLegalInDirection") == 0) {
        int row, col, colour, delta_row, delta_col;
        if (scanf("%d %d %d %d %d", &row, &col, &colour, &delta_row, &delta_col) != 5 ||
            !read_board(n)) {
            return 3;
        }
        char before[26][26];
        memcpy(before, board, sizeof board);
        bool legal = checkLegalInDirection(board, n, (char) row, (char) col, (char) colour,
                                           delta_row, delta_col);
        printf("checkLegalInDirection('%c', '%c', '%c', %d, %d) = %s\n", row, col, colour,
               delta_row, delta_col, legal ? "true" : "false");
        puts(memcmp(before, board, sizeof board) == 0 ? "board unchanged" : "board changed");
    } else {
        fprintf(stderr, "harness: unknown function %s\n", function);
        return 3;
    }
    return 0;
}
