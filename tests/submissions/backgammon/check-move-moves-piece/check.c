/* check.c: the move-validity functions of section 8.1. */
#include "backgammon.h"

static int *points_of(int colour) {
    return colour == WHITE ? the_board_white : the_board_red;
}

static int bar_of(int colour) {
    return colour == WHITE ? the_bar_white : the_bar_red;
}

/* Condition 5: at most one opposing checker on the destination. */
static int open_for(int mover, int to) {
    return points_of(mover == WHITE ? RED : WHITE)[to] <= 1;
}

static int all_home(int mover) {
    int *points = points_of(mover);
    if (bar_of(mover) > 0) return FALSE;
    for (int point = 1; point <= BOARD_SIZE; point++) {
        int home = mover == WHITE ? point <= 6 : point >= 19;
        if (points[point] > 0 && !home) return FALSE;
    }
    return TRUE;
}

int check_board_bounds(int index) {
    return index >= 1 && index <= BOARD_SIZE ? VALID_MOVE : INVALID_MOVE;
}

int check_die(int mover, int from, int to, int die) {
    int forward = mover == WHITE ? from - to : to - from;
    return forward > 0 && forward == die ? VALID_MOVE : INVALID_MOVE;
}

int check_basic_move(int mover, int from, int to, int die) {
    if (check_board_bounds(from) != VALID_MOVE || check_board_bounds(to) != VALID_MOVE)
        return INVALID_MOVE;
    if (check_die(mover, from, to, die) != VALID_MOVE) return INVALID_MOVE;
    if (points_of(mover)[from] < 1) return INVALID_MOVE;
    return open_for(mover, to) ? VALID_MOVE : INVALID_MOVE;
}

int check_entry_move(int mover, int from, int to, int die) {
    /* Entering is a move from just off the far edge: point 25 for white, 0 for red. */
    int edge = mover == WHITE ? BOARD_SIZE + 1 : 0;
    if (from != 0 || bar_of(mover) < 1) return INVALID_MOVE;
    if (check_board_bounds(to) != VALID_MOVE) return INVALID_MOVE;
    if (check_die(mover, edge, to, die) != VALID_MOVE) return INVALID_MOVE;
    return open_for(mover, to) ? VALID_MOVE : INVALID_MOVE;
}

int check_bear_off_move(int mover, int from, int to, int die) {
    int distance = mover == WHITE ? from : BOARD_SIZE + 1 - from;
    if (to != 0 || check_board_bounds(from) != VALID_MOVE) return INVALID_MOVE;
    if (points_of(mover)[from] < 1 || !all_home(mover)) return INVALID_MOVE;
    return distance <= die ? VALID_MOVE : INVALID_MOVE;
}

/* Makes a valid move: entry, bearing off or basic, with hits. */
static void apply_move(int mover, int from, int to) {
    int *own = mover == WHITE ? the_board_white : the_board_red;
    int *other = mover == WHITE ? the_board_red : the_board_white;
    int *own_bar = mover == WHITE ? &the_bar_white : &the_bar_red;
    int *other_bar = mover == WHITE ? &the_bar_red : &the_bar_white;

    if (from == 0)
        (*own_bar)--;
    else
        own[from]--;
    if (to == 0) {
        if (mover == WHITE)
            num_white--;
        else
            num_red--;
        return;
    }
    if (other[to] == 1) {
        other[to] = 0;
        (*other_bar)++;
    }
    own[to]++;
}

/* Checks the move and, when it is valid, makes it at once: the caller only prints. */
int check_move(int mover, int from, int to, int die) {
    int valid;
    if (bar_of(mover) > 0)
        valid = check_entry_move(mover, from, to, die);
    else if (check_basic_move(mover, from, to, die) == VALID_MOVE)
        valid = VALID_MOVE;
    else
        valid = check_bear_off_move(mover, from, to, die);
    if (valid == VALID_MOVE) apply_move(mover, from, to);
    return valid;
}
