/* Threat (round 3, 6): without namespaces, finds referee's project folder in the command
   lines under /proc and reads the model solution and the cases there. Prints LEAK and the
   first line of each file it could read. */
#include <dirent.h>
#include <stdio.h>
#include <string.h>
static void try_read(const char *folder, const char *file) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", folder, file);
    FILE *opened = fopen(path, "r");
    if (opened != NULL) {
        char line[200] = "(empty)\n";
        if (fgets(line, sizeof line, opened) == NULL) {
            strcpy(line, "(empty)\n");
        }
        printf("LEAK %s: %s", path, line);
        fclose(opened);
    }
}
int main(void) {
    DIR *proc = opendir("/proc");
    struct dirent *entry;
    while (proc != NULL && (entry = readdir(proc)) != NULL) {
        char path[300], arguments[8192];
        snprintf(path, sizeof path, "/proc/%s/cmdline", entry->d_name);
        FILE *cmdline = fopen(path, "r");
        if (cmdline == NULL) {
            continue;
        }
        size_t got = fread(arguments, 1, sizeof arguments - 1, cmdline);
        fclose(cmdline);
        arguments[got] = 0;
        /* The arguments are separated by NULs: the one after --root is the project. */
        for (size_t at = 0; at < got; at += strlen(arguments + at) + 1) {
            if (strcmp(arguments + at, "--root") == 0 && at + 7 < got) {
                const char *root = arguments + at + 7;
                try_read(root, "reference/reversi/Lab6.c");
                try_read(root, "cases/reversi/program.toml");
                try_read(root, "specs/reversi/spec.toml");
            }
        }
    }
    return 0;
}
