/* Threat (round 3, 4): makes a user and mount namespace of its own, mounts a tmpfs there and
   fills it, which no per-process limit counts; then fills /dev/shm with files of 1 MB each
   and holds heap memory. Prints ESCAPED if the namespace was made, HELD if all of it fit. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>
static char chunk[1 << 20];
static int fill(const char *folder, int megabytes) {
    int written = 0;
    for (; written < megabytes; written++) {
        char name[128];
        snprintf(name, sizeof name, "%s/hog%d", folder, written);
        int fd = open(name, O_CREAT | O_WRONLY, 0600);
        if (fd < 0 || write(fd, chunk, sizeof chunk) != (ssize_t) sizeof chunk) {
            break;
        }
        close(fd);
    }
    return written;
}
int main(void) {
    memset(chunk, 'x', sizeof chunk);
    if (unshare(CLONE_NEWUSER | CLONE_NEWNS) == 0) {
        printf("ESCAPED into a namespace of its own\n");
        fflush(stdout);
        if (mount("tmpfs", "/tmp", "tmpfs", 0, "size=2g") == 0) {
            printf("ESCAPED: %d MB in a private tmpfs\n", fill("/tmp", 1024));
        }
    }
    int in_shm = fill("/dev/shm", 1024);
    size_t heap = (size_t) 400 << 20;
    char *held = malloc(heap);
    if (held != NULL) {
        memset(held, 1, heap);
        printf("HELD %d MB in /dev/shm and 400 MB of heap\n", in_shm);
    }
    return 0;
}
