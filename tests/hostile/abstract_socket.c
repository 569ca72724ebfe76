/* Threat: leaves a listener on an abstract Unix socket (a name in the network namespace, no
   file) for the runs after it, in a daemon that left the run's session; connects to such a
   listener first and prints LEAK if an earlier run's is still there. The daemon exits by
   itself after 20 s. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static socklen_t name_socket(struct sockaddr_un *address) {
    static const char name[] = "referee-hostile-abstract";
    memset(address, 0, sizeof *address);
    address->sun_family = AF_UNIX;
    /* sun_path[0] == 0: the abstract namespace. */
    memcpy(address->sun_path + 1, name, sizeof name - 1);
    return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + sizeof name - 1);
}

int main(void) {
    struct sockaddr_un address;
    socklen_t length = name_socket(&address);
    int probe = socket(AF_UNIX, SOCK_STREAM, 0);
    if (probe >= 0 && connect(probe, (struct sockaddr *) &address, length) == 0) {
        printf("LEAK: an earlier run's listener answered\n");
    }
    if (fork() == 0) {
        setsid();
        if (fork() == 0) {
            int listener = socket(AF_UNIX, SOCK_STREAM, 0);
            if (listener >= 0 && bind(listener, (struct sockaddr *) &address, length) == 0) {
                listen(listener, 4);
            }
            sleep(20);
        }
        _exit(0);
    }
    return 0;
}
