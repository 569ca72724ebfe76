/* Threat: allocates and touches memory until refused (at most 4 GiB). */
#include <stdlib.h>
#include <string.h>
int main(void) {
    for (int i = 0; i < 64; i++) {
        char *block = malloc(64u << 20);
        if (block == NULL) {
            return 1;
        }
        memset(block, 1, 64u << 20);
    }
    return 0;
}
