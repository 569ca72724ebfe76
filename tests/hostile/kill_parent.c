/* Threat: kills its parent (the grader). */
#include <signal.h>
#include <stdio.h>
#include <unistd.h>
int main(void) {
    if (kill(getppid(), SIGKILL) == 0) {
        printf("KILLED PARENT\n");
    }
    return 0;
}
