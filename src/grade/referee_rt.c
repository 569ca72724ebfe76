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
   the grader sets differently for each run of a trace case.

   Batches: with REFEREE_BATCH="TIMEOUT_MS OUTPUT_CAP SWEEP" set, the process runs many cases
   of one binary in one sandboxed run (see grade/batch.rs): before main, it reads the cases from
   stdin ("LENGTH\n" then LENGTH bytes of that case's stdin, repeated) and forks one child per
   case. The child, in a process group of its own, in a fresh folder, with the case's stdin and
   its own stdout and stderr pipes, goes on to main; the parent never reaches main. For each
   case the parent writes a record on its stdout: "INDEX KIND VALUE MICROSECONDS STDOUT_LENGTH
   STDERR_LENGTH\n" and then the two outputs, KIND being e (exit status VALUE), s (signal
   VALUE), t (timeout) or o (output cap), MICROSECONDS the CPU time the case used. TIMEOUT_MS
   limits each case's CPU time; its wall clock is only a backstop (3 x that + 1 s). With SWEEP 1 (the run has a PID namespace of its own)
   it then kills every other process it can, so nothing a case left running meets the next. It
   stops after a timeout, or when a case's sockets outlive it, and referee runs what is left
   case by case. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

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

/* After its process exits, how long a case's pipes may stay open (held by a process that left
   its group) before the parent stops reading them. */
#define REFEREE_DRAIN_GRACE_US 500000LL
/* A case's wall-clock backstop: this many times its CPU time limit, plus a second. */
#define REFEREE_WALL_FACTOR 3LL

struct referee_bytes {
    char *data;
    size_t length;
};

static long long referee_now_us(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long) now.tv_sec * 1000000LL + now.tv_nsec / 1000;
}

static int referee_write_all(int fd, const char *data, size_t length) {
    while (length > 0) {
        ssize_t written = write(fd, data, length);
        if (written < 0 && errno == EINTR) {
            continue;
        }
        if (written <= 0) {
            return -1;
        }
        data += written;
        length -= (size_t) written;
    }
    return 0;
}

/* All of standard input. */
static int referee_read_all(struct referee_bytes *input) {
    size_t capacity = 1 << 16;
    input->data = malloc(capacity);
    input->length = 0;
    while (input->data != NULL) {
        if (input->length == capacity) {
            capacity *= 2;
            char *grown = realloc(input->data, capacity);
            if (grown == NULL) {
                return -1;
            }
            input->data = grown;
        }
        ssize_t got = read(STDIN_FILENO, input->data + input->length, capacity - input->length);
        if (got < 0 && errno == EINTR) {
            continue;
        }
        if (got < 0) {
            return -1;
        }
        if (got == 0) {
            return 0;
        }
        input->length += (size_t) got;
    }
    return -1;
}

/* Reads what is there from one case pipe; closes it at its end. Returns 1 when the case went
   over the output cap. */
static int referee_drain(struct pollfd *pipe_end, struct referee_bytes *kept, size_t cap) {
    char chunk[16384];
    ssize_t got = read(pipe_end->fd, chunk, sizeof chunk);
    if (got < 0 && (errno == EINTR || errno == EAGAIN)) {
        return 0;
    }
    if (got <= 0) {
        close(pipe_end->fd);
        pipe_end->fd = -1;
        return 0;
    }
    size_t room = cap - kept->length;
    size_t take = (size_t) got < room ? (size_t) got : room;
    memcpy(kept->data + kept->length, chunk, take);
    kept->length += take;
    return (size_t) got > room;
}

/* The case's stdin: a pipe already holding all of it, as in a run of its own, or (an input
   larger than a pipe can hold) a file in memory. -1 on failure. */
static int referee_stdin(const char *input, size_t length) {
    int ends[2];
    if (pipe2(ends, O_CLOEXEC | O_NONBLOCK) == 0) {
        if (length > 65536) {
            fcntl(ends[1], F_SETPIPE_SZ, (int) (length < (1 << 30) ? length : (1 << 30)));
        }
        /* Non-blocking: an input that does not fit fails here instead of waiting. */
        int written = referee_write_all(ends[1], input, length);
        close(ends[1]);
        if (written == 0 && fcntl(ends[0], F_SETFL, 0) == 0) {
            return ends[0];
        }
        close(ends[0]);
    }
    int file = memfd_create("referee-stdin", MFD_CLOEXEC);
    if (file < 0 || referee_write_all(file, input, length) < 0 || lseek(file, 0, SEEK_SET) < 0) {
        return -1;
    }
    return file;
}

/* Runs one case in a child; returns 0 in the child (which goes on to main), 1 in the parent
   when the batch goes on, 2 when it stops. */
static int referee_run_case(int index, const char *input, size_t input_length,
                            long long timeout_us, size_t cap, struct referee_bytes out[2]) {
    int stdin_file = referee_stdin(input, input_length);
    int out_pipe[2], err_pipe[2];
    if (stdin_file < 0 || pipe2(out_pipe, O_CLOEXEC) < 0 || pipe2(err_pipe, O_CLOEXEC) < 0) {
        return 2;
    }
    long long start = referee_now_us();
    pid_t child = fork();
    if (child < 0) {
        return 2;
    }
    if (child == 0) {
        setpgid(0, 0);
        char folder[32];
        snprintf(folder, sizeof folder, "case-%d", index);
        if (mkdir(folder, 0700) == 0 && chdir(folder) != 0) {
            _exit(126);
        }
        dup2(stdin_file, STDIN_FILENO);
        dup2(out_pipe[1], STDOUT_FILENO);
        dup2(err_pipe[1], STDERR_FILENO);
        close(stdin_file);
        close(out_pipe[0]);
        close(out_pipe[1]);
        close(err_pipe[0]);
        close(err_pipe[1]);
        prctl(PR_SET_DUMPABLE, 1);
        unsetenv("REFEREE_BATCH");
        return 0;
    }
    setpgid(child, child);
    close(stdin_file);
    close(out_pipe[1]);
    close(err_pipe[1]);
    int process = (int) syscall(SYS_pidfd_open, child, 0);
    if (process < 0) {
        /* No record: referee runs this case on its own. */
        killpg(child, SIGKILL);
        return 2;
    }
    struct pollfd watched[3] = {
        {out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}, {process, POLLIN, 0}};
    out[0].length = out[1].length = 0;
    char kind = 0;
    /* The limit is on the case's CPU time, which load does not change; the wall clock is a
       backstop that only a sleeping or blocked case meets. */
    clockid_t cpu_clock;
    int have_clock = clock_getcpuclockid(child, &cpu_clock) == 0;
    long long deadline = start + REFEREE_WALL_FACTOR * timeout_us + 1000000LL;
    int exited = 0;
    while (!kind && (watched[0].fd >= 0 || watched[1].fd >= 0 || !exited)) {
        long long left = deadline - referee_now_us();
        if (left <= 0) {
            if (!exited) {
                kind = 't';
            }
            break;
        }
        if (!exited && have_clock) {
            struct timespec used;
            if (clock_gettime(cpu_clock, &used) == 0) {
                long long cpu_left = timeout_us - ((long long) used.tv_sec * 1000000LL +
                                                   used.tv_nsec / 1000);
                if (cpu_left <= 0) {
                    kind = 't';
                    break;
                }
                /* It cannot use more CPU time than the wall clock gives it. */
                left = cpu_left < left ? cpu_left : left;
            }
        }
        if (poll(watched, 3, (int) ((left + 999) / 1000)) < 0 && errno != EINTR) {
            kind = 't';
            break;
        }
        for (int stream = 0; stream < 2; stream++) {
            if (watched[stream].fd >= 0 && watched[stream].revents &&
                referee_drain(&watched[stream], &out[stream], cap)) {
                kind = 'o';
            }
        }
        if (!exited && watched[2].revents) {
            /* Its whole group goes with it, as after a run of its own. */
            exited = 1;
            killpg(child, SIGKILL);
            watched[2].fd = -1;
            deadline = referee_now_us() + REFEREE_DRAIN_GRACE_US;
        }
    }
    killpg(child, SIGKILL);
    int status = 0;
    struct rusage usage;
    memset(&usage, 0, sizeof usage);
    while (wait4(child, &status, 0, &usage) < 0 && errno == EINTR) {
    }
    /* The time reported is the CPU time the case used (with what it waited for). */
    long long elapsed = (long long) (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000000LL +
                        usage.ru_utime.tv_usec + usage.ru_stime.tv_usec;
    for (int i = 0; i < 3; i++) {
        if (watched[i].fd >= 0) {
            close(watched[i].fd);
        }
    }
    close(process);
    int value = 0;
    if (!kind && WIFSIGNALED(status)) {
        kind = 's';
        value = WTERMSIG(status);
    } else if (!kind) {
        kind = 'e';
        value = WEXITSTATUS(status);
    }
    char header[128];
    int header_length = snprintf(header, sizeof header, "%d %c %d %lld %zu %zu\n", index, kind,
                                 value, elapsed, out[0].length, out[1].length);
    if (referee_write_all(STDOUT_FILENO, header, (size_t) header_length) < 0 ||
        referee_write_all(STDOUT_FILENO, out[0].data, out[0].length) < 0 ||
        referee_write_all(STDOUT_FILENO, out[1].data, out[1].length) < 0) {
        return 2;
    }
    return kind == 't' ? 2 : 1;
}

/* The count on the "sockets: used N" line of this network namespace's sockstat, or -1. */
static long referee_sockets_in_use(void) {
    char text[256];
    int file = open("/proc/self/net/sockstat", O_RDONLY | O_CLOEXEC);
    if (file < 0) {
        return -1;
    }
    ssize_t got = read(file, text, sizeof text - 1);
    close(file);
    long count = -1;
    if (got > 0) {
        text[got] = 0;
        sscanf(text, "sockets: used %ld", &count);
    }
    return count;
}

/* Kills every other process of the run (what the case left running) and waits briefly for
   their sockets to close; 0 when nothing is left. */
static int referee_sweep(void) {
    kill(-1, SIGKILL);
    for (int attempt = 0; attempt < 100; attempt++) {
        if (referee_sockets_in_use() == 0) {
            return 0;
        }
        struct timespec pause = {0, 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    return -1;
}

/* Runs before any other constructor, so each case's child runs the program's own set-up. */
__attribute__((constructor(101))) static void referee_batch(void) {
    const char *batch = getenv("REFEREE_BATCH");
    long long timeout_ms = 0;
    unsigned long long cap = 0;
    int sweep = 0;
    if (batch == NULL || sscanf(batch, "%lld %llu %d", &timeout_ms, &cap, &sweep) != 3 ||
        cap == 0) {
        return;
    }
    /* Cases cannot open this process's descriptors or memory through /proc. */
    prctl(PR_SET_DUMPABLE, 0);
    struct referee_bytes input, out[2];
    out[0].data = malloc(cap);
    out[1].data = malloc(cap);
    if (referee_read_all(&input) < 0 || out[0].data == NULL || out[1].data == NULL) {
        _exit(3);
    }
    size_t at = 0;
    for (int index = 0; at < input.length; index++) {
        char *end;
        unsigned long long length = strtoull(input.data + at, &end, 10);
        if (end == input.data + at || *end != '\n' ||
            length > input.length - (size_t) (end + 1 - input.data)) {
            _exit(3);
        }
        const char *case_input = end + 1;
        at = (size_t) (case_input - input.data) + length;
        int outcome = referee_run_case(index, case_input, length, timeout_ms * 1000LL, cap, out);
        if (outcome == 0) {
            free(input.data);
            free(out[0].data);
            free(out[1].data);
            return;
        }
        if (outcome == 2 || (sweep && referee_sweep() != 0)) {
            break;
        }
    }
    _exit(0);
}
