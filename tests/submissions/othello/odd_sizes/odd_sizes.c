/* Buggy submission for the othello tests.
 * Bug: odd sizes are accepted (only "at least 4" is checked).
 * Must lose: arguments. Must keep: board, moves, passing, scoring.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EMPTY '.'
#define BLACK 'X'
#define WHITE 'O'
/* A piece's value grows only during its first few flips. */
#define SCORING_FLIPS 4
/* Boards larger than this are refused instead of exhausting memory. */
#define LARGEST_SIZE 10000

typedef struct {
    char colour;   /* EMPTY, BLACK or WHITE */
    long value;    /* points the piece is worth */
    int flips;     /* how many times it was flipped */
} Piece;

typedef struct {
    int size;
    Piece **cells; /* cells[row][col], 0-based */
} Board;

typedef struct {
    int row_step, col_step;
} Direction;

#define DIRECTIONS 8

/* Returns the size, or 0 after printing why the command line is refused. */
static int parse_size(int argc, char **argv)
{
    const char *text;
    size_t length, i;
    long size = 0;

    if (argc != 2) {
        printf("Error : Invalid number of command line arguments.\n");
        return 0;
    }
    text = argv[1];
    length = strlen(text);
    for (i = 0; i < length; i++) {
        if (text[i] < '0' || text[i] > '9')
            break;
        if (size <= LARGEST_SIZE)
            size = size * 10 + (text[i] - '0');
    }
    /* Parity comes from the last digit, so overflow cannot hide an odd number. */
    if (length == 0 || i < length || size < 4) {
        printf("Error : Invalid format for command line arguments. The size argument should be an even positive integer number greater then or equal to 4.\n");
        return 0;
    }
    if (size > LARGEST_SIZE) {
        printf("Error : The board size is too large.\n");
        return 0;
    }
    return (int)size;
}

static Board *create_board(int size)
{
    Board *board = malloc(sizeof *board);
    int row, col, half = size / 2;

    if (board == NULL)
        return NULL;
    board->size = size;
    board->cells = calloc((size_t)size, sizeof *board->cells);
    if (board->cells == NULL) {
        free(board);
        return NULL;
    }
    for (row = 0; row < size; row++) {
        board->cells[row] = calloc((size_t)size, sizeof **board->cells);
        if (board->cells[row] == NULL) {
            while (row-- > 0)
                free(board->cells[row]);
            free(board->cells);
            free(board);
            return NULL;
        }
        for (col = 0; col < size; col++)
            board->cells[row][col].colour = EMPTY;
    }
    board->cells[half - 1][half - 1] = (Piece){WHITE, 1, 0};
    board->cells[half][half] = (Piece){WHITE, 1, 0};
    board->cells[half - 1][half] = (Piece){BLACK, 1, 0};
    board->cells[half][half - 1] = (Piece){BLACK, 1, 0};
    return board;
}

static void free_board(Board *board)
{
    int row;

    for (row = 0; row < board->size; row++)
        free(board->cells[row]);
    free(board->cells);
    free(board);
}

static void print_board(const Board *board)
{
    int row, col;

    printf("   ");
    for (col = 1; col <= board->size; col++)
        printf("%3d", col);
    printf("\n");
    for (row = 0; row < board->size; row++) {
        printf("%3d", row + 1);
        for (col = 0; col < board->size; col++)
            printf("%3c", board->cells[row][col].colour);
        printf("\n");
    }
}

static int on_board(const Board *board, int row, int col)
{
    return row >= 0 && row < board->size && col >= 0 && col < board->size;
}

static char opponent(char colour)
{
    return colour == BLACK ? WHITE : BLACK;
}

/* The index-th of the eight directions around a cell (the 3 x 3 block without its centre). */
static Direction direction_at(int index)
{
    int cell = index < 4 ? index : index + 1;
    Direction direction = {cell / 3 - 1, cell % 3 - 1};
    return direction;
}

/* How many pieces a move at (row, col) captures in one direction. */
static int run_length(const Board *board, int row, int col, char colour, Direction direction)
{
    int count = 0;
    int r = row + direction.row_step, c = col + direction.col_step;

    while (on_board(board, r, c) && board->cells[r][c].colour == opponent(colour)) {
        count++;
        r += direction.row_step;
        c += direction.col_step;
    }
    if (count > 0 && on_board(board, r, c) && board->cells[r][c].colour == colour)
        return count;
    return 0;
}

/* How many pieces a move captures in all directions; 0 when the move is illegal. */
static int captures(const Board *board, int row, int col, char colour)
{
    int index, total = 0;

    if (!on_board(board, row, col) || board->cells[row][col].colour != EMPTY)
        return 0;
    for (index = 0; index < DIRECTIONS; index++)
        total += run_length(board, row, col, colour, direction_at(index));
    return total;
}

static int has_legal_move(const Board *board, char colour)
{
    int row, col;

    for (row = 0; row < board->size; row++)
        for (col = 0; col < board->size; col++)
            if (captures(board, row, col, colour) > 0)
                return 1;
    return 0;
}

static int is_full(const Board *board)
{
    int row, col;

    for (row = 0; row < board->size; row++)
        for (col = 0; col < board->size; col++)
            if (board->cells[row][col].colour == EMPTY)
                return 0;
    return 1;
}

/* Places a piece and flips the captured ones; each flipped piece gains the number of
 * captured pieces while it has been flipped fewer than SCORING_FLIPS times. */
static void play_move(Board *board, int row, int col, char colour)
{
    int gained = captures(board, row, col, colour);
    int index, step;

    for (index = 0; index < DIRECTIONS; index++) {
        Direction direction = direction_at(index);
        int length = run_length(board, row, col, colour, direction);
        for (step = 1; step <= length; step++) {
            Piece *piece = &board->cells[row + step * direction.row_step]
                                        [col + step * direction.col_step];
            piece->colour = colour;
            if (piece->flips < SCORING_FLIPS)
                piece->value += gained;
            piece->flips++;
        }
    }
    board->cells[row][col] = (Piece){colour, 1, 0};
}

static int is_blank(char c)
{
    return c == ' ' || c == '\t';
}

/* Reads one decimal number at *text; 0 when there are no digits. Large values are clipped,
 * which keeps them off the board. */
static int read_number(const char **text, long *number)
{
    const char *p = *text;

    *number = 0;
    if (*p < '0' || *p > '9')
        return 0;
    while (*p >= '0' && *p <= '9') {
        if (*number <= LARGEST_SIZE)
            *number = *number * 10 + (*p - '0');
        p++;
    }
    *text = p;
    return 1;
}

/* A move line is exactly two decimal numbers separated by blanks, blanks around allowed. */
static int parse_move(const char *line, long *row, long *col)
{
    const char *p = line;

    while (is_blank(*p))
        p++;
    if (!read_number(&p, row) || !is_blank(*p))
        return 0;
    while (is_blank(*p))
        p++;
    if (!read_number(&p, col))
        return 0;
    while (is_blank(*p))
        p++;
    return *p == '\0';
}

static void print_scores(const Board *board)
{
    long black_points = 0, white_points = 0;
    int black_pieces = 0, white_pieces = 0, row, col;

    for (row = 0; row < board->size; row++) {
        for (col = 0; col < board->size; col++) {
            const Piece *piece = &board->cells[row][col];
            if (piece->colour == BLACK) {
                black_pieces++;
                black_points += piece->value;
            } else if (piece->colour == WHITE) {
                white_pieces++;
                white_points += piece->value;
            }
        }
    }
    printf("Game over.\n");
    printf("Black: %d pieces, %ld points\n", black_pieces, black_points);
    printf("White: %d pieces, %ld points\n", white_pieces, white_points);
}

static const char *player_name(char colour)
{
    return colour == BLACK ? "Black" : "White";
}

/* Reads lines until one is a legal move for colour; returns 0 at end of input. */
static int read_move(Board *board, char colour, char **line, size_t *capacity)
{
    long row, col;
    ssize_t length;

    printf("%s's move: ", player_name(colour));
    while ((length = getline(line, capacity, stdin)) != -1) {
        if (length > 0 && (*line)[length - 1] == '\n')
            (*line)[length - 1] = '\0';
        if (parse_move(*line, &row, &col) && row >= 1 && col >= 1 &&
            captures(board, (int)(row - 1), (int)(col - 1), colour) > 0) {
            play_move(board, (int)(row - 1), (int)(col - 1), colour);
            return 1;
        }
        printf("Error : Invalid move. Please make another move : ");
    }
    return 0;
}

static void play_game(Board *board)
{
    char mover = BLACK;
    char *line = NULL;
    size_t capacity = 0;

    print_board(board);
    for (;;) {
        int can_move = has_legal_move(board, mover);
        if (is_full(board) || (!can_move && !has_legal_move(board, opponent(mover))))
            break;
        if (!can_move) {
            printf("%s has no legal move and passes.\n", player_name(mover));
            mover = opponent(mover);
        }
        if (!read_move(board, mover, &line, &capacity))
            break;
        print_board(board);
        mover = opponent(mover);
    }
    print_scores(board);
    free(line);
}

int main(int argc, char **argv)
{
    int size = parse_size(argc, argv);
    Board *board;

    if (size == 0)
        return 1;
    board = create_board(size);
    if (board == NULL) {
        printf("Error : Not enough memory for the board.\n");
        return 1;
    }
    play_game(board);
    free_board(board);
    return 0;
}
