/* Threat (round 3, 4): does its work in children while the parent waits, so that a CPU limit
   that counts only the program's own process never meets it. Prints DONE after 30 s of
   children's CPU time. */
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
int main(void) {
    for (int i = 0; i < 2; i++) {
        if (fork() == 0) {
            while (clock() < 15 * CLOCKS_PER_SEC) {
            }
            _exit(0);
        }
    }
    while (wait(NULL) > 0) {
    }
    printf("DONE\n");
    return 0;
}
