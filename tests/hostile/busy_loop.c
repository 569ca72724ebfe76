/* Threat: spins on the CPU (stops by itself after 20 s). */
#include <time.h>
int main(void) {
    time_t end = time(NULL) + 20;
    volatile unsigned long spins = 0;
    while (time(NULL) < end) {
        spins++;
    }
    return 0;
}
