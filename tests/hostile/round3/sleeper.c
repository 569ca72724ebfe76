/* Threat (round 3, 6): sleeps just under the wall-clock backstop in every case, so that no
   case times out and grading takes cases x seconds. Here 0.6 s a case, under a test
   limit of 2 s of sleep for the submission. */
#include <stdio.h>
#include <time.h>
int main(void) {
    struct timespec pause = {0, 600 * 1000 * 1000};
    nanosleep(&pause, NULL);
    printf("woke up\n");
    return 0;
}
