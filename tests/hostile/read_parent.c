/* Threat: reads the expected outputs (case files) through parent folders and /proc. Prints
   LEAK and what it read if anything opens. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
static void try_read(const char *path) {
    FILE *file = fopen(path, "r");
    if (file != NULL) {
        char line[200] = "";
        if (fgets(line, sizeof line, file) == NULL) {
            strcpy(line, "(empty)\n");
        }
        printf("LEAK %s: %s", path, line);
        fclose(file);
    }
}
int main(void) {
    char path[512];
    const char *prefix[] = {"", "../", "../../", "../../../", "../../../../", "../../../../../"};
    for (size_t i = 0; i < sizeof prefix / sizeof prefix[0]; i++) {
        snprintf(path, sizeof path, "%scases/reversi/program.toml", prefix[i]);
        try_read(path);
    }
    snprintf(path, sizeof path, "/proc/%d/cwd/cases/reversi/program.toml", (int) getppid());
    try_read(path);
    snprintf(path, sizeof path, "/proc/%d/environ", (int) getppid());
    try_read(path);
    return 0;
}
