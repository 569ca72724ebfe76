/* Threat: reads every process's command line in /proc, looking for referee's (which names the
   class folder, so a classmate's file could be compiled and run), and signals every process
   it can see but its own. Prints LEAK with what it found. */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
int main(void) {
    DIR *proc = opendir("/proc");
    struct dirent *entry;
    while (proc != NULL && (entry = readdir(proc)) != NULL) {
        int pid = atoi(entry->d_name);
        if (pid <= 0 || pid == getpid()) {
            continue;
        }
        char path[300], line[4096];
        snprintf(path, sizeof path, "/proc/%d/cmdline", pid);
        FILE *file = fopen(path, "r");
        size_t length = file != NULL ? fread(line, 1, sizeof line - 1, file) : 0;
        if (file != NULL) {
            fclose(file);
        }
        for (size_t i = 0; i < length; i++) {
            line[i] = line[i] == 0 ? ' ' : line[i];
        }
        line[length] = 0;
        if (strstr(line, "referee") != NULL || strstr(line, "grade") != NULL ||
            strstr(line, "--") != NULL) {
            printf("LEAK %d: %s\n", pid, line);
        }
        /* SIGCONT harms nothing, and its delivery shows the process is within reach. */
        if (pid != getppid() && pid != 1 && kill(pid, SIGCONT) == 0 && strstr(line, "/tmp/program") == NULL) {
            printf("LEAK signalled %d: %s\n", pid, line);
        }
    }
    if (proc != NULL) {
        closedir(proc);
    }
    return 0;
}
