/* Unit-test harness: reads one call and the six globals on stdin, sets the globals, calls
 * the student's function once and prints its result by the header's constants. A global the
 * call changed is reported on stderr as a fact line (`referee fact: ...`), not graded: the
 * handout asks the check functions only for their return value.
 *
 * Script:  line 1  print_board | check_board_bounds INDEX | NAME COLOUR FROM TO DIE
 *          line 2  the_board_white[0..24]
 *          line 3  the_board_red[0..24]
 *          line 4  the_bar_white the_bar_red num_white num_red                          */
#include <stdio.h>
#include <string.h>
#include "backgammon.h"

static int saved_white[BOARD_SIZE+1], saved_red[BOARD_SIZE+1];
static int saved_bar_white, saved_bar_red, saved_num_white, saved_num_red;

static int read_globals(void) {
    for (int i = 0; i <= BOARD_SIZE; i++)
        if (scanf("%d", &the_board_white[i]) != 1) return 0;
    for (int i = 0; i <= BOARD_SIZE; i++)
        if (scanf("%d", &the_board_red[i]) != 1) return 0;
    return scanf("%d %d %d %d", &the_bar_white, &the_bar_red, &num_white, &num_red) == 4;
}

static void save_globals(void) {
    memcpy(saved_white, the_board_white, sizeof saved_white);
    memcpy(saved_red, the_board_red, sizeof saved_red);
    saved_bar_white = the_bar_white;
    saved_bar_red = the_bar_red;
    saved_num_white = num_white;
    saved_num_red = num_red;
}

static void report_change(const char *called, const char *name, int before, int after) {
    if (before != after)
        fprintf(stderr, "referee fact: %s: changed %s %d -> %d\n", called, name, before, after);
}

/* Reports each global that `called` changed. */
static void report_globals(const char *called) {
    char name[40];
    for (int i = 0; i <= BOARD_SIZE; i++) {
        snprintf(name, sizeof name, "the_board_white[%d]", i);
        report_change(called, name, saved_white[i], the_board_white[i]);
    }
    for (int i = 0; i <= BOARD_SIZE; i++) {
        snprintf(name, sizeof name, "the_board_red[%d]", i);
        report_change(called, name, saved_red[i], the_board_red[i]);
    }
    report_change(called, "the_bar_white", saved_bar_white, the_bar_white);
    report_change(called, "the_bar_red", saved_bar_red, the_bar_red);
    report_change(called, "num_white", saved_num_white, num_white);
    report_change(called, "num_red", saved_num_red, num_red);
}

/* The result by the header's constants, never by literal numbers. */
static const char *verdict(int result) {
    static char other[32];
    if (result == VALID_MOVE) return "VALID_MOVE";
    if (result == INVALID_MOVE) return "INVALID_MOVE";
    snprintf(other, sizeof other, "unexpected %d", result);
    return other;
}

int main(void) {
    char function[32], colour[8];
    int mover, from, to, die, index, result;

    if (scanf("%31s", function) != 1) return 2;
    if (strcmp(function, "print_board") == 0) {
        if (!read_globals()) return 2;
        save_globals();
        printf("print_board()\n");
        print_board();
        report_globals("print_board");
        return 0;
    }
    if (strcmp(function, "check_board_bounds") == 0) {
        if (scanf("%d", &index) != 1 || !read_globals()) return 2;
        save_globals();
        result = check_board_bounds(index);
        printf("check_board_bounds(%d) = %s\n", index, verdict(result));
        report_globals("check_board_bounds");
        return 0;
    }
    if (scanf("%7s %d %d %d", colour, &from, &to, &die) != 4 || !read_globals()) return 2;
    mover = strcmp(colour, "WHITE") == 0 ? WHITE : RED;
    save_globals();
    if (strcmp(function, "check_move") == 0)
        result = check_move(mover, from, to, die);
    else if (strcmp(function, "check_basic_move") == 0)
        result = check_basic_move(mover, from, to, die);
    else if (strcmp(function, "check_entry_move") == 0)
        result = check_entry_move(mover, from, to, die);
    else if (strcmp(function, "check_bear_off_move") == 0)
        result = check_bear_off_move(mover, from, to, die);
    else if (strcmp(function, "check_die") == 0)
        result = check_die(mover, from, to, die);
    else
        return 2;
    printf("%s(%s, %d, %d, %d) = %s\n", function, colour, from, to, die, verdict(result));
    report_globals(function);
    return 0;
}
