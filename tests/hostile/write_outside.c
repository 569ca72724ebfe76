/* Threat: creates files outside its working directory. */
#include <stdio.h>
#include <stdlib.h>
static void try_create(const char *path) {
    FILE *file = fopen(path, "w");
    if (file != NULL) {
        fputs("escaped\n", file);
        fclose(file);
    }
}
int main(void) {
    const char *targets[] = {
        "../referee-hostile-escape",
        "../../referee-hostile-escape",
        "../../../referee-hostile-escape",
        "/referee-hostile-escape",
        "/var/tmp/referee-hostile-escape",
        "/dev/shm/referee-hostile-escape",
        "/root/referee-hostile-escape",
        "/run/lock/referee-hostile-escape",
        "/var/lock/referee-hostile-escape",
        "/etc/referee-hostile-escape",
        "/usr/referee-hostile-escape",
    };
    for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++) {
        try_create(targets[i]);
    }
    const char *tmp = getenv("TMPDIR");
    if (tmp != NULL) {
        char path[512];
        snprintf(path, sizeof path, "%s/referee-hostile-escape", tmp);
        try_create(path);
    }
    return 0;
}
