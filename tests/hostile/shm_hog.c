/* Threat: holds System V shared memory, which outlives the process (it belongs to the IPC
   namespace, not to the program) and escapes the address-space limit: asks for 32 MB
   segments, touching each, up to 1 GB, and leaves them all behind. Prints LEAK past 512 MB
   (more than the memory limit allows). Bounded: 1 GB at most, then it exits. */
#include <stdio.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/shm.h>
int main(void) {
    const size_t segment = 32u << 20;
    size_t held = 0;
    while (held < (1u << 30)) {
        int id = shmget(IPC_PRIVATE, segment, IPC_CREAT | 0600);
        if (id < 0) {
            break;
        }
        char *memory = shmat(id, NULL, 0);
        if (memory == (char *) -1) {
            break;
        }
        memset(memory, 1, segment);
        shmdt(memory);
        held += segment;
    }
    if (held > (512u << 20)) {
        printf("LEAK held %zu MB of shared memory\n", held >> 20);
    }
    return 0;
}
