/* HABIT: handed in next to test.c, the student's own test program with its own main. Lab6.c is the graded file and is correct. */
#include <stdbool.h>
#include <stdio.h>

void printBoard(char board[][26], int n);
bool positionInBounds(int n, char row, char col);
bool checkLegalInDirection(char board[][26], int n, char row, char col, char colour,
                           int deltaRow, int deltaCol);

static bool isLegalMove(char board[][26], int n, char row, char col, char colour);
static void flipInDirection(char board[][26], char row, char col, char colour, int deltaRow,
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

bool positionInBounds(int n, char row, char col) {
    return row >= 'a' && row < 'a' + n && col >= 'a' && col < 'a' + n;
}

bool checkLegalInDirection(char board[][26], int n, char row, char col, char colour,
                           int deltaRow, int deltaCol) {
    char opponent = (colour == 'W') ? 'B' : 'W';
    char r = row + deltaRow;
    char c = col + deltaCol;
    int run = 0;
    while (positionInBounds(n, r, c) && board[r - 'a'][c - 'a'] == opponent) {
        r += deltaRow;
        c += deltaCol;
        run++;
    }
    return run > 0 && positionInBounds(n, r, c) && board[r - 'a'][c - 'a'] == colour;
}

static bool isLegalMove(char board[][26], int n, char row, char col, char colour) {
    if (!positionInBounds(n, row, col) || board[row - 'a'][col - 'a'] != 'U') {
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

static void flipInDirection(char board[][26], char row, char col, char colour, int deltaRow,
                            int deltaCol) {
    char r = row + deltaRow;
    char c = col + deltaCol;
    while (board[r - 'a'][c - 'a'] != colour) {
        board[r - 'a'][c - 'a'] = colour;
        r += deltaRow;
        c += deltaCol;
    }
}

static void printMovesFor(char board[][26], int n, char colour) {
    printf("Available moves for %c:\n", colour);
    for (char row = 'a'; row < 'a' + n; row++) {
        for (char col = 'a'; col < 'a' + n; col++) {
            if (isLegalMove(board, n, row, col, colour)) {
                printf("%c%c\n", row, col);
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
        if (positionInBounds(n, row, col)) {
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
    if (isLegalMove(board, n, row, col, colour)) {
        for (int dr = -1; dr <= 1; dr++) {
            for (int dc = -1; dc <= 1; dc++) {
                if ((dr != 0 || dc != 0) && checkLegalInDirection(board, n, row, col, colour, dr, dc)) {
                    flipInDirection(board, row, col, colour, dr, dc);
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
