/* backgammon.h: the course interface for project 1 (constants, the six globals of
 * board.c, the required functions). Supplied by the grader; a student's copy is replaced. */
#ifndef BACKGAMMON_H
#define BACKGAMMON_H

/* random() and printf() for files that rely on the header for them. */
#include <stdio.h>
#include <stdlib.h>

#define NUM_PIECES 15
#define WHITE 1
#define RED 2
#define VALID_MOVE 1
#define INVALID_MOVE 2
#define TRUE 1
#define FALSE 0
#define BOARD_SIZE 24

/* Checkers per point, index 1..24 (0 unused). */
extern int the_board_white[BOARD_SIZE+1];
extern int the_board_red[BOARD_SIZE+1];
/* Checkers on the bar. */
extern int the_bar_white, the_bar_red;
/* Checkers still in play (points and bar). */
extern int num_white, num_red;

void print_board();
int check_move(int mover, int from, int to, int die);
int check_basic_move(int mover, int from, int to, int die);
int check_entry_move(int mover, int from, int to, int die);
int check_bear_off_move(int mover, int from, int to, int die);
int check_die(int mover, int from, int to, int die);
int check_board_bounds(int index);

/* Each program defines, and is the only user of random() through, this one function:
 *   int roll_die(void) { return ((random() % 6) + 1); }                                  */

#endif
