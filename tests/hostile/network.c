/* Threat: opens a network connection (only to the port on 127.0.0.1 where the test
   listens; the test writes its number for @PORT@). Prints CONNECTED if it gets through. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>
int main(void) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) {
        return 0;
    }
    struct sockaddr_in address = {0};
    address.sin_family = AF_INET;
    address.sin_port = htons(@PORT@);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *) &address, sizeof address) == 0) {
        printf("CONNECTED\n");
    }
    close(fd);
    return 0;
}
