/* board.c: the course's globals, at the start position. Added by the grader when a
 * submission has no board.c of its own; print_board is the student's to write. */
#include "backgammon.h"

int the_board_white[BOARD_SIZE+1] = {0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0,
                                     5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2};
int the_board_red[BOARD_SIZE+1] = {0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5,
                                   0, 0, 0, 0, 3, 0, 5, 0, 0, 0, 0, 0};
int the_bar_white = 0, the_bar_red = 0;
int num_white = NUM_PIECES, num_red = NUM_PIECES;
