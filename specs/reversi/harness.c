/* Unit-test harness for Lab 6: calls one of the student's helpers, as a case's script on
   stdin says, and prints the result in the form the Rust reference expects.

   Script:  printBoard N                       then N lines of cells
            positionInBounds N ROW COL          (ROW, COL as character codes)
            checkLegalInDirection N ROW COL COLOUR DROW DCOL   then N lines of cells

   The board is a char[26][26] whose last row ends at an unmapped page, and every cell
   outside the n x n board (columns and rows from n on, and the row above row 0) holds the
   COLOUR tile: a helper that reads past the edge sees a closing tile and answers wrongly,
   or crashes below row 25. A change the helper makes to the board is reported on stderr as
   a fact line (`referee fact: ...`), not graded: the handout asks only for the answer. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

void printBoard(char board[][26], int n);
bool positionInBounds(int n, char row, char col);
bool checkLegalInDirection(char board[][26], int n, char row, char col, char colour,
                           int deltaRow, int deltaCol);

typedef char Row[26];

/* A char[26][26] placed so that the byte after board[25][25] is on an unmapped page, with
   everything before it in its page filled with `outside`; NULL if the pages cannot be had. */
static Row *guarded_board(char outside) {
    long page = sysconf(_SC_PAGESIZE);
    char *pages = mmap(NULL, (size_t) page * 2, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (pages == MAP_FAILED || mprotect(pages + page, (size_t) page, PROT_NONE) != 0) {
        return NULL;
    }
    memset(pages, outside, (size_t) page);
    return (Row *) (pages + page - 26 * 26);
}

static int read_board(Row *board, int n) {
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
        Row *board = guarded_board('U');
        if (board == NULL || !read_board(board, n)) {
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
        if (scanf("%d %d %d %d %d", &row, &col, &colour, &delta_row, &delta_col) != 5) {
            return 3;
        }
        Row *board = guarded_board((char) colour);
        if (board == NULL || !read_board(board, n)) {
            return 3;
        }
        char before[26][26];
        memcpy(before, board, sizeof before);
        bool legal = checkLegalInDirection(board, n, (char) row, (char) col, (char) colour,
                                           delta_row, delta_col);
        printf("checkLegalInDirection('%c', '%c', '%c', %d, %d) = %s\n", row, col, colour,
               delta_row, delta_col, legal ? "true" : "false");
        if (memcmp(before, board, sizeof before) != 0) {
            fprintf(stderr, "referee fact: checkLegalInDirection: changed the board\n");
        }
    } else {
        fprintf(stderr, "harness: unknown function %s\n", function);
        return 3;
    }
    return 0;
}
