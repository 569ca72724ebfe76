/* My tests for Lab 6: build with  gcc test.c -o test  after pasting the functions below. */
#include <stdbool.h>
#include <stdio.h>

bool positionInBounds(int n, char row, char col) {
    return row >= 'a' && row < 'a' + n && col >= 'a' && col < 'a' + n;
}

int main(void) {
    int failures = 0;
    if (!positionInBounds(4, 'a', 'a')) {
        printf("FAIL: aa is on a 4x4 board\n");
        failures++;
    }
    if (positionInBounds(4, 'e', 'a')) {
        printf("FAIL: ea is off a 4x4 board\n");
        failures++;
    }
    printf("%d failures\n", failures);
    return failures;
}
