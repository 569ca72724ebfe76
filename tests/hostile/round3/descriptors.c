/* Threat (round 3, 5): writes to every descriptor above 2 it may have inherited (a TA's
   `exec 7>>grades.log` before running referee). Prints LEAK for each one it could write. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
int main(void) {
    for (int fd = 3; fd < 256; fd++) {
        const char *text = "LEAK written by a student program\n";
        if (write(fd, text, strlen(text)) > 0) {
            printf("LEAK fd %d\n", fd);
        }
    }
    return 0;
}
