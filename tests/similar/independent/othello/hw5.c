/*
 * BBM103 PA5 - Othello with flip-count scoring.
 *
 * Written apart from reference/othello/hw5.c (a second solution for `referee similar`'s
 * tests): the board is one calloc'd row-major array of pieces, the eight directions are two
 * step tables, and a move line is read into a growing buffer and parsed by hand.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EMPTY '.'
#define BLACK 'X'
#define WHITE 'O'
#define FLIP_CAP 4
#define LARGEST_SIZE 10000

typedef struct {
    char colour;
    long value;
    int timesFlipped;
} Piece;

typedef struct {
    int size;
    Piece *cells; /* size * size pieces, row after row */
} Othello;

/* the size argument: digits only, even, at least 4; -1 when it is not */
int sizeFromArgument(const char *text) {
    size_t length = strlen(text);
    long size = 0;

    if (length == 0) {
        return -1;
    }
    for (size_t i = 0; i < length; i++) {
        if (text[i] < '0' || text[i] > '9') {
            return -1;
        }
        if (size <= LARGEST_SIZE) {
            size = size * 10 + (text[i] - '0');
        }
    }
    if ((text[length - 1] - '0') % 2 != 0 || size < 4) {
        return -1;
    }
    if (size > LARGEST_SIZE) {
        return 0;
    }
    return (int) size;
}

Piece *at(Othello *game, int row, int col) {
    return &game->cells[row * game->size + col];
}

bool onBoard(const Othello *game, int row, int col) {
    return row >= 0 && col >= 0 && row < game->size && col < game->size;
}

void put(Othello *game, int row, int col, char colour) {
    Piece *piece = at(game, row, col);
    piece->colour = colour;
    piece->value = 1;
    piece->timesFlipped = 0;
}

Othello *newGame(int size) {
    Othello *game = malloc(sizeof(Othello));
    if (game == NULL) {
        return NULL;
    }
    game->size = size;
    game->cells = calloc((size_t) size * (size_t) size, sizeof(Piece));
    if (game->cells == NULL) {
        free(game);
        return NULL;
    }
    for (int i = 0; i < size * size; i++) {
        game->cells[i].colour = EMPTY;
    }
    int half = size / 2;
    put(game, half - 1, half - 1, WHITE);
    put(game, half, half, WHITE);
    put(game, half - 1, half, BLACK);
    put(game, half, half - 1, BLACK);
    return game;
}

void endGame(Othello *game) {
    free(game->cells);
    free(game);
}

void show(Othello *game) {
    printf("   ");
    for (int col = 1; col <= game->size; col++) {
        printf("%3d", col);
    }
    putchar('\n');
    for (int row = 0; row < game->size; row++) {
        printf("%3d", row + 1);
        for (int col = 0; col < game->size; col++) {
            printf("%3c", at(game, row, col)->colour);
        }
        putchar('\n');
    }
}

char opponent(char colour) {
    return colour == BLACK ? WHITE : BLACK;
}

const char *nameOf(char colour) {
    return colour == BLACK ? "Black" : "White";
}

/* how many opponent pieces the mover would close in by playing (row, col) heading
   (dRow, dCol): 0 when the run is empty, open, or leaves the board */
int closedRun(Othello *game, int row, int col, char mover, int dRow, int dCol) {
    int length = 0;
    int r = row + dRow, c = col + dCol;

    while (onBoard(game, r, c) && at(game, r, c)->colour == opponent(mover)) {
        length++;
        r += dRow;
        c += dCol;
    }
    if (!onBoard(game, r, c) || at(game, r, c)->colour != mover) {
        return 0;
    }
    return length;
}

/* every piece a move would flip, over the eight directions; 0 means the move is illegal */
int piecesFlippedBy(Othello *game, int row, int col, char mover) {
    const int rowStep[8] = {-1, -1, -1, 0, 0, 1, 1, 1};
    const int colStep[8] = {-1, 0, 1, -1, 1, -1, 0, 1};
    int total = 0;

    if (!onBoard(game, row, col) || at(game, row, col)->colour != EMPTY) {
        return 0;
    }
    for (int d = 0; d < 8; d++) {
        total += closedRun(game, row, col, mover, rowStep[d], colStep[d]);
    }
    return total;
}

bool canMove(Othello *game, char mover) {
    for (int row = 0; row < game->size; row++) {
        for (int col = 0; col < game->size; col++) {
            if (piecesFlippedBy(game, row, col, mover) > 0) {
                return true;
            }
        }
    }
    return false;
}

bool boardFull(Othello *game) {
    for (int i = 0; i < game->size * game->size; i++) {
        if (game->cells[i].colour == EMPTY) {
            return false;
        }
    }
    return true;
}

/* plays a legal move: each flipped piece gains the move's flip count until it has been
   flipped FLIP_CAP times */
void play(Othello *game, int row, int col, char mover) {
    const int rowStep[8] = {-1, -1, -1, 0, 0, 1, 1, 1};
    const int colStep[8] = {-1, 0, 1, -1, 1, -1, 0, 1};
    int gain = piecesFlippedBy(game, row, col, mover);

    for (int d = 0; d < 8; d++) {
        int run = closedRun(game, row, col, mover, rowStep[d], colStep[d]);
        for (int step = 1; step <= run; step++) {
            Piece *piece = at(game, row + step * rowStep[d], col + step * colStep[d]);
            if (piece->timesFlipped < FLIP_CAP) {
                piece->value += gain;
            }
            piece->timesFlipped++;
            piece->colour = mover;
        }
    }
    put(game, row, col, mover);
}

/* one line of input without its newline, in a buffer that grows; NULL at the end of input */
char *readLine(char **buffer, size_t *capacity) {
    size_t used = 0;
    int ch = getchar();

    if (ch == EOF) {
        return NULL;
    }
    while (ch != EOF && ch != '\n') {
        if (used + 1 >= *capacity) {
            size_t bigger = *capacity * 2 + 16;
            char *grown = realloc(*buffer, bigger);
            if (grown == NULL) {
                return NULL;
            }
            *buffer = grown;
            *capacity = bigger;
        }
        (*buffer)[used++] = (char) ch;
        ch = getchar();
    }
    if (*buffer == NULL) {
        *capacity = 16;
        *buffer = malloc(*capacity);
        if (*buffer == NULL) {
            return NULL;
        }
    }
    (*buffer)[used] = '\0';
    return *buffer;
}

bool isBlank(char ch) {
    return ch == ' ' || ch == '\t';
}

/* reads digits at *pos into *number (kept past the largest board once it is too big) */
bool readNumber(const char *line, size_t *pos, long *number) {
    size_t start = *pos;
    *number = 0;
    while (line[*pos] >= '0' && line[*pos] <= '9') {
        if (*number <= LARGEST_SIZE) {
            *number = *number * 10 + (line[*pos] - '0');
        }
        (*pos)++;
    }
    return *pos > start;
}

/* "ROW COL" with blanks between and around, nothing else */
bool parseMove(const char *line, long *row, long *col) {
    size_t pos = 0;

    while (isBlank(line[pos])) {
        pos++;
    }
    if (!readNumber(line, &pos, row) || !isBlank(line[pos])) {
        return false;
    }
    while (isBlank(line[pos])) {
        pos++;
    }
    if (!readNumber(line, &pos, col)) {
        return false;
    }
    while (isBlank(line[pos])) {
        pos++;
    }
    return line[pos] == '\0';
}

void printScores(Othello *game) {
    char colours[2] = {BLACK, WHITE};
    for (int k = 0; k < 2; k++) {
        int pieces = 0;
        long points = 0;
        for (int i = 0; i < game->size * game->size; i++) {
            if (game->cells[i].colour == colours[k]) {
                pieces++;
                points += game->cells[i].value;
            }
        }
        printf("%s: %d pieces, %ld points\n", nameOf(colours[k]), pieces, points);
    }
}

int main(int argc, char *argv[]) {
    if (argc != 2) {
        printf("Error : Invalid number of command line arguments.\n");
        return 1;
    }
    int size = sizeFromArgument(argv[1]);
    if (size < 0) {
        printf("Error : Invalid format for command line arguments. The size argument should be "
               "an even positive integer number greater then or equal to 4.\n");
        return 1;
    }
    if (size == 0) {
        printf("Sorry, boards larger than %d are not supported.\n", LARGEST_SIZE);
        return 1;
    }

    Othello *game = newGame(size);
    if (game == NULL) {
        printf("Out of memory.\n");
        return 1;
    }
    char *line = NULL;
    size_t capacity = 0;
    char turn = BLACK;
    bool inputLeft = true;

    show(game);
    while (inputLeft && !boardFull(game) && (canMove(game, BLACK) || canMove(game, WHITE))) {
        if (!canMove(game, turn)) {
            printf("%s has no legal move and passes.\n", nameOf(turn));
            turn = opponent(turn);
            continue;
        }
        printf("%s's move: ", nameOf(turn));
        bool moved = false;
        while (!moved) {
            long row, col;
            if (readLine(&line, &capacity) == NULL) {
                inputLeft = false;
                break;
            }
            if (parseMove(line, &row, &col) && row >= 1 && col >= 1 && row <= size &&
                col <= size && piecesFlippedBy(game, (int) row - 1, (int) col - 1, turn) > 0) {
                play(game, (int) row - 1, (int) col - 1, turn);
                moved = true;
            } else {
                printf("Error : Invalid move. Please make another move : ");
            }
        }
        if (moved) {
            show(game);
            turn = opponent(turn);
        }
    }
    printf("Game over.\n");
    printScores(game);

    free(line);
    endGame(game);
    return 0;
}
