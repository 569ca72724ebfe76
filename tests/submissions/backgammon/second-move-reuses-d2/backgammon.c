/* BUG: die bookkeeping: the second move is always checked against D2, even when the first
 * move already used D2 (it should then be D1).
 * Must lose: game. Keeps every unit item. */
/* backgammon.c: two players take turns; each turn rolls two dice and asks for two moves,
 * checked with check_move. "0 0" (or end of input) ends the program. */
#include <stdio.h>
#include <stdlib.h>
#include "backgammon.h"

int roll_die() { return ((random() % 6) + 1); }

/* Applies a move check_move accepted: entry, bearing off or basic, with hits. */
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
                apply_move(mover, from, to);
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
        int other[1] = {dice[1 + 0 * used]};
        if (take_move(mover, other, 1) < 0) return 0;
        mover = mover == WHITE ? RED : WHITE;
    }
}
