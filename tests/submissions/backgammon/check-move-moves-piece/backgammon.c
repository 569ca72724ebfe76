/* backgammon.c: two players take turns; each turn rolls two dice and asks for two moves.
 * check_move both checks a move and makes it (see check.c), so main only prints the board.
 * "0 0" ends the program. */
#include <stdio.h>
#include <stdlib.h>
#include "backgammon.h"

int roll_die() { return ((random() % 6) + 1); }

/* Prompts until a move valid with one of dice[0..count) is typed; returns the index of
 * the die it used, or -1 for "0 0". */
static int take_move(int mover, const int dice[], int count) {
    int from, to;
    for (;;) {
        printf("%s's move:  ", mover == WHITE ? "White" : "Red");
        if (scanf("%d %d", &from, &to) != 2) return -1;
        if (from == 0 && to == 0) return -1;
        for (int i = 0; i < count; i++) {
            if (check_move(mover, from, to, dice[i]) == VALID_MOVE) {
                print_board();
                return i;
            }
        }
        printf("Invalid move\n");
    }
}

int main(void) {
    int mover = WHITE;
    print_board();
    for (;;) {
        int dice[2];
        dice[0] = roll_die();
        dice[1] = roll_die();
        printf("Rolling dice:  %d %d\n", dice[0], dice[1]);
        int used = take_move(mover, dice, 2);
        if (used < 0) return 0;
        int other[1] = {dice[1 - used]};
        if (take_move(mover, other, 1) < 0) return 0;
        mover = mover == WHITE ? RED : WHITE;
    }
}
