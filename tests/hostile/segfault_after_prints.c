/* Threat: prints the first board correctly with printf, starts the next line without
   finishing it, then crashes. The board item must still pass, and the unfinished line must
   appear in the diff (stdio buffers would lose it without the grader's crash flush). */
#include <stdio.h>
int main(void) {
    int n;
    printf("Enter the board dimension: ");
    if (scanf("%d", &n) != 1) {
        return 1;
    }
    printf("  ");
    for (int c = 0; c < n; c++) {
        printf("%c", 'a' + c);
    }
    printf("\n");
    for (int r = 0; r < n; r++) {
        printf("%c ", 'a' + r);
        for (int c = 0; c < n; c++) {
            char cell = 'U';
            if ((r == n / 2 - 1 && c == n / 2 - 1) || (r == n / 2 && c == n / 2)) {
                cell = 'W';
            } else if ((r == n / 2 - 1 && c == n / 2) || (r == n / 2 && c == n / 2 - 1)) {
                cell = 'B';
            }
            printf("%c", cell);
        }
        printf("\n");
    }
    printf("Enter board conf");
    volatile int *nowhere = NULL;
    *nowhere = 1;
    return 0;
}
