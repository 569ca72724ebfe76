/* Threat: floods stderr (stops after 200 MB). */
#include <stdio.h>
int main(void) {
    for (long i = 0; i < 200L * 1024 * 1024 / 64; i++) {
        fputs("floodfloodfloodfloodfloodfloodfloodfloodfloodfloodfloodflood!!\n", stderr);
    }
    return 0;
}
