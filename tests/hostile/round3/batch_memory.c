/* Threat (round 3, 6): echoes its input (as many programs do), then looks through its own
   memory for the stdin of the other cases of its batch, to tell that it is batched (and print
   something else than alone). Prints LEAK if a case's input other than its own is there. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(void) {
    char own[256] = "";
    if (fgets(own, sizeof own, stdin) == NULL) {
        return 0;
    }
    own[strcspn(own, "\n")] = 0;
    printf("echo: %s\n", own);
    fflush(stdout);
    FILE *maps = fopen("/proc/self/maps", "r");
    FILE *mem = fopen("/proc/self/mem", "r");
    if (maps == NULL || mem == NULL) {
        return 0;
    }
    char line[512];
    while (fgets(line, sizeof line, maps) != NULL) {
        unsigned long start, end;
        char permissions[8];
        if (sscanf(line, "%lx-%lx %7s", &start, &end, permissions) != 3 || permissions[0] != 'r' ||
            strstr(line, "[vvar]") != NULL || end - start > (64UL << 20)) {
            continue;
        }
        char *copy = malloc(end - start);
        if (copy == NULL || fseek(mem, (long) start, SEEK_SET) != 0) {
            free(copy);
            continue;
        }
        size_t got = fread(copy, 1, end - start, mem);
        /* Inputs are "MARKER-<n>": any other than its own is a leak. */
        for (size_t i = 0; i + 9 < got; i++) {
            if (memcmp(copy + i, "MARKER-", 7) == 0 && strncmp(copy + i, own, strlen(own)) != 0 &&
                copy[i + 7] >= '0' && copy[i + 7] <= '9') {
                printf("LEAK %.9s in case %s\n", copy + i, own);
                break;
            }
        }
        free(copy);
    }
    return 0;
}
