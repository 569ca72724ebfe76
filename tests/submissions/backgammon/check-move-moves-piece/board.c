/* board.c: the course's globals at the start position, and print_board (homework 1). */
#include <stdio.h>
#include "backgammon.h"

int the_board_white[BOARD_SIZE+1] = {0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0,
                                     5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2};
int the_board_red[BOARD_SIZE+1] = {0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5,
                                   0, 0, 0, 0, 3, 0, 5, 0, 0, 0, 0, 0};
int the_bar_white = 0, the_bar_red = 0;
int num_white = NUM_PIECES, num_red = NUM_PIECES;

#define MAX_DRAWN 5

/* 'W', 'R' or '|' for `point` at stack height `level` (0 nearest the edge). */
static char glyph(int point, int level) {
    if (the_board_white[point] > level) return 'W';
    if (the_board_red[point] > level) return 'R';
    return '|';
}

static void print_numbers(int first, int step) {
    for (int column = 0; column < 12; column++) {
        int point = first + column * step;
        if (column == 6) printf("   ");
        printf(point >= 10 ? "%d " : "%d  ", point);
    }
    printf("\n");
}

static void print_row(int first, int step, int level) {
    for (int column = 0; column < 12; column++) {
        if (column == 6) printf("   ");
        printf("%c  ", glyph(first + column * step, level));
    }
    printf("\n");
}

void print_board() {
    print_numbers(13, 1);
    for (int level = 0; level < MAX_DRAWN; level++) print_row(13, 1, level);
    printf("\n");
    for (int level = MAX_DRAWN - 1; level >= 0; level--) print_row(12, -1, level);
    print_numbers(12, -1);
    printf("  Bar:  White-%d  Red-%d\n", the_bar_white, the_bar_red);
}
