/* Threat: stops its parent with SIGSTOP, which cannot be caught or ignored: in a batch the
   parent is the batch of cases, which then hangs with the run's whole time limit ahead of
   it unless referee notices the silence. Only its own parent is signalled. */
#include <signal.h>
#include <stdio.h>
#include <unistd.h>
int main(void) {
    if (kill(getppid(), SIGSTOP) == 0) {
        printf("STOPPED PARENT\n");
    }
    return 0;
}
