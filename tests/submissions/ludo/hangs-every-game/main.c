/* Prints the introduction of a LUDO-CS game, then waits forever: the kind of program
   (a turn loop that never advances) that used to cost its twenty runs the full time limit
   each. */
#include <stdio.h>

int main(void)
{
    printf("The red player has four (04) pieces named R1, R2, R3, and R4.\n");
    fflush(stdout);
    volatile unsigned long spin = 0;
    for (;;) {
        spin++;
    }
    return 0;
}
