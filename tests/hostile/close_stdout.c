/* Threat: closes stdout and keeps running (20 s). */
#include <unistd.h>
int main(void) {
    close(1);
    sleep(20);
    return 0;
}
