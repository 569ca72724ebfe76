/* Threat (round 3, 3): prints blank lines until it is stopped at the output cap: a line diff
   of the expected output against them is quadratic. */
#include <stdio.h>
int main(void) {
    for (long i = 0; i < 400000000L; i++) {
        putchar('\n');
    }
    return 0;
}
