/* Lab 6 written with Lab 7's helper signatures: rows and columns are 0-based int indices,
 * not letters. The program prints exactly what Lab 6 asks; only the two helpers' prototypes
 * differ from the handout's. */
#include <stdbool.h>
#include <stdio.h>

void printBoard(char board[][26], int n);
bool positionInBounds(int n, int row, int col);
bool checkLegalInDirection(char board[][26], int n, int row, int col, char colour,
                           int deltaRow, int deltaCol);

static bool isLegalMove(char board[][26], int n, int row, int col, char colour);
static void flipInDirection(char board[][26], int row, int col, char colour, int deltaRow,
                            int deltaCol);

void printBoard(char board[][26], int n) {
    printf("  ");
    for (int col = 0; col < n; col++) {
        printf("%c", 'a' + col);
    }
    printf("\n");
    for (int row = 0; row < n; row++) {
        printf("%c ", 'a' + row);
        for (int col = 0; col < n; col++) {
            printf("%c", board[row][col]);
        }
        printf("\n");
    }
}

bool positionInBounds(int n, int row, int col) {
    return row >= 0 && row < n && col >= 0 && col < n;
}

bool checkLegalInDirection(char board[][26], int n, int row, int col, char colour,
                           int deltaRow, int deltaCol) {
    char opponent = (colour == 'W') ? 'B' : 'W';
    int r = row + deltaRow;
    int c = col + deltaCol;
    int run = 0;
    while (positionInBounds(n, r, c) && board[r][c] == opponent) {
        r += deltaRow;
        c += deltaCol;
        run++;
    }
    return run > 0 && positionInBounds(n, r, c) && board[r][c] == colour;
}

static bool isLegalMove(char board[][26], int n, int row, int col, char colour) {
    if (!positionInBounds(n, row, col) || board[row][col] != 'U') {
        return false;
    }
    for (int dr = -1; dr <= 1; dr++) {
        for (int dc = -1; dc <= 1; dc++) {
            if ((dr != 0 || dc != 0) && checkLegalInDirection(board, n, row, col, colour, dr, dc)) {
                return true;
            }
        }
    }
    return false;
}

static void flipInDirection(char board[][26], int row, int col, char colour, int deltaRow,
                            int deltaCol) {
    int r = row + deltaRow;
    int c = col + deltaCol;
    while (board[r][c] != colour) {
        board[r][c] = colour;
        r += deltaRow;
        c += deltaCol;
    }
}

static void printMovesFor(char board[][26], int n, char colour) {
    printf("Available moves for %c:\n", colour);
    for (int row = 0; row < n; row++) {
        for (int col = 0; col < n; col++) {
            if (isLegalMove(board, n, row, col, colour)) {
                printf("%c%c\n", 'a' + row, 'a' + col);
            }
        }
    }
}

int main(void) {
    char board[26][26];
    int n;
    printf("Enter the board dimension: ");
    if (scanf("%d", &n) != 1) {
        return 1;
    }
    for (int row = 0; row < n; row++) {
        for (int col = 0; col < n; col++) {
            board[row][col] = 'U';
        }
    }
    board[n / 2 - 1][n / 2 - 1] = 'W';
    board[n / 2][n / 2] = 'W';
    board[n / 2 - 1][n / 2] = 'B';
    board[n / 2][n / 2 - 1] = 'B';
    printBoard(board, n);

    printf("Enter board configuration:\n");
    char colour, row, col;
    while (scanf(" %c%c%c", &colour, &row, &col) == 3 && !(colour == '!' && row == '!' && col == '!')) {
        if (positionInBounds(n, row - 'a', col - 'a')) {
            board[row - 'a'][col - 'a'] = colour;
        }
    }
    printBoard(board, n);

    printMovesFor(board, n, 'W');
    printMovesFor(board, n, 'B');

    printf("Enter a move:\n");
    if (scanf(" %c%c%c", &colour, &row, &col) != 3) {
        return 1;
    }
    int r = row - 'a', c = col - 'a';
    if (isLegalMove(board, n, r, c, colour)) {
        for (int dr = -1; dr <= 1; dr++) {
            for (int dc = -1; dc <= 1; dc++) {
                if ((dr != 0 || dc != 0) && checkLegalInDirection(board, n, r, c, colour, dr, dc)) {
                    flipInDirection(board, r, c, colour, dr, dc);
                }
            }
        }
        board[row - 'a'][col - 'a'] = colour;
        printf("Valid move.\n");
    } else {
        printf("Invalid move.\n");
    }
    printBoard(board, n);
    return 0;
}
