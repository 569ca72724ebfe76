/* Threat: sleeps instead of answering (20 s). */
#include <unistd.h>
int main(void) {
    sleep(20);
    return 0;
}
