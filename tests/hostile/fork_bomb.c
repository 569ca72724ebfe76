/* Threat: leaves 200 sleeping children behind, some in sessions of their own (each child
   exits after 20 s by itself). */
#include <unistd.h>
int main(void) {
    for (int i = 0; i < 200; i++) {
        pid_t pid = fork();
        if (pid == 0) {
            if (i % 2 == 0) {
                setsid();
            }
            sleep(20);
            _exit(0);
        }
        if (pid < 0) {
            break;
        }
    }
    return 0;
}
