/* Linked into every build by referee.

   Output: stdout is line-buffered, so every complete line printed before a hang or a kill is
   kept (the default, full buffering, would lose it), at one write per line rather than one
   per character. On a crash, a handler flushes the unfinished last line too, then lets the
   signal take its normal course. It only flushes when it can take stdout's lock at once, so
   a crash inside stdio cannot deadlock it.

   Random numbers: REFEREE_SRANDOM seeds glibc's random() before main, so a case can choose
   the game a student's unseeded generator plays. Programs that seed with srand(time(NULL))
   would play one game in every run started within the same second: calls to time() are
   wrapped (the link uses -Wl,--wrap=time) and shifted by REFEREE_TIME_OFFSET seconds, which
   the grader sets differently for each run of a trace case. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

time_t __real_time(time_t *result);

time_t __wrap_time(time_t *result) {
    time_t now = __real_time(NULL);
    const char *offset = getenv("REFEREE_TIME_OFFSET");
    if (offset != NULL) {
        now += (time_t) strtol(offset, NULL, 10);
    }
    if (result != NULL) {
        *result = now;
    }
    return now;
}

static void referee_flush_on_crash(int signal_number) {
    (void) signal_number;
    if (ftrylockfile(stdout) == 0) {
        fflush_unlocked(stdout);
        funlockfile(stdout);
    }
    /* SA_RESETHAND restored the default action: the fault repeats, or abort() raises again. */
}

__attribute__((constructor)) static void referee_runtime_start(void) {
    static char buffer[BUFSIZ];
    setvbuf(stdout, buffer, _IOLBF, sizeof buffer);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = referee_flush_on_crash;
    action.sa_flags = (int) (SA_RESETHAND | SA_NODEFER);
    sigemptyset(&action.sa_mask);
    const int fatal[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
    for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++) {
        sigaction(fatal[i], &action, NULL);
    }
    const char *seed = getenv("REFEREE_SRANDOM");
    if (seed != NULL) {
        srandom((unsigned) strtoul(seed, NULL, 10));
    }
}
