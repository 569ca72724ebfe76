/* Linked into every build by referee.

   Output: stdout is line-buffered, so every complete line printed before a hang or a kill is
   kept (the default, full buffering, would lose it), at one write per line rather than one
   per character. On a crash, a handler flushes the unfinished last line too, then lets the
   signal take its normal course. It only flushes when it can take stdout's lock at once, so
   a crash inside stdio cannot deadlock it.

   Random numbers: REFEREE_SRANDOM seeds glibc's random() before main, so a case can choose
   the game a student's unseeded generator plays. Programs that seed with srand(time(NULL))
   play the game their clock picks: each run of a trace case gets its own second of the case
   in REFEREE_FIXED_TIME, and time() (wrapped: the link uses -Wl,--wrap=time),
   clock_gettime(CLOCK_REALTIME) and gettimeofday() read it, so the same submission plays the
   same games in every grading. The fixed clock still moves on with the run's own time (whole
   seconds since the first read), so a program that waits for the next second is not stuck
   for ever.

   Batches: with REFEREE_BATCH="TIMEOUT_MS OUTPUT_CAP SWEEP SLEEP_MS" set, the process runs many cases
   of one binary in one sandboxed run (see grade/batch.rs): before main, it reads the cases from
   stdin one at a time ("LENGTH\n" then LENGTH bytes of that case's stdin, repeated), so that a
   case inherits no other case's input, and forks one child per case. Before each case the
   working folder is emptied (but for the program) and, in the run's own IPC namespace, shared
   memory is cleared: each case starts as a run of its own would. The batch stops once its
   cases have slept SLEEP_MS in all. The child, in a process
   group of its own, with the case's stdin and its own stdout and stderr pipes, goes on to
   main; the parent never reaches main. For each
   case the parent writes a record on its stdout: "INDEX KIND VALUE MICROSECONDS SLEPT
   STDOUT_LENGTH STDERR_LENGTH\n" and then the two outputs, KIND being e (exit status VALUE),
   s (signal VALUE), t (timeout) or o (output cap), MICROSECONDS the CPU time the case used,
   SLEPT the microseconds it slept or was blocked. The parent's memory holds no earlier case's
   input or output when it forks (wiped, stack included). TIMEOUT_MS
   limits each case's CPU time; its wall clock is only a backstop (3 x that + 1 s). With SWEEP 1 (the run has a PID namespace of its own)
   it then kills every other process it can, so nothing a case left running meets the next. It
   stops after a timeout, or when a case's sockets outlive it, and referee runs what is left
   case by case. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

time_t __real_time(time_t *result);

/* Under REFEREE_FIXED_TIME, sets *second to the wall clock a run sees (that second plus the
   whole seconds the run has lasted since it first read the clock: all reads in the first
   second give the fixed second) and returns 1; otherwise returns 0 (the real clock). */
static int referee_fixed_clock(time_t *second) {
    const char *fixed = getenv("REFEREE_FIXED_TIME");
    if (fixed == NULL) {
        return 0;
    }
    static struct timespec first;
    static int read_before;
    struct timespec now;
    syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &now);
    if (!read_before) {
        first = now;
        read_before = 1;
    }
    time_t lasted = now.tv_sec - first.tv_sec - (now.tv_nsec < first.tv_nsec ? 1 : 0);
    *second = (time_t) strtol(fixed, NULL, 10) + lasted;
    return 1;
}

time_t __wrap_time(time_t *result) {
    time_t now;
    if (!referee_fixed_clock(&now)) {
        now = __real_time(NULL);
    }
    if (result != NULL) {
        *result = now;
    }
    return now;
}

/* Programs that seed from clock_gettime (with its nanoseconds) get the fixed clock too, but
   only under REFEREE_FIXED_TIME; otherwise this is the system call, untouched. */
int clock_gettime(clockid_t clock, struct timespec *now) {
    time_t second;
    if (clock == CLOCK_REALTIME && referee_fixed_clock(&second)) {
        now->tv_sec = second;
        now->tv_nsec = 0;
        return 0;
    }
    return (int) syscall(SYS_clock_gettime, clock, now);
}

/* And gettimeofday (seconds and microseconds), for programs that seed from it. */
int gettimeofday(struct timeval *restrict now, void *restrict zone) {
    time_t second;
    if (referee_fixed_clock(&second)) {
        now->tv_sec = second;
        now->tv_usec = 0;
        return 0;
    }
    return (int) syscall(SYS_gettimeofday, now, zone);
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
/* How often at most the processes of a case other than its main one are counted (a walk over
   /proc), and how long at most between two counts while it runs. */
#define REFEREE_SCAN_INTERVAL_US 10000LL
#define REFEREE_SCAN_WAIT_US 100000LL

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

/* Exactly `length` bytes of standard input; -1 when it ends first. */
static int referee_read_exactly(char *into, size_t length) {
    while (length > 0) {
        ssize_t got = read(STDIN_FILENO, into, length);
        if (got < 0 && errno == EINTR) {
            continue;
        }
        if (got <= 0) {
            return -1;
        }
        into += got;
        length -= (size_t) got;
    }
    return 0;
}

/* The next case's input from standard input ("LENGTH\n" then LENGTH bytes), read only now:
   the parent never holds another case's input, which a case would inherit. 1 when there is
   one, 0 at the end, -1 on malformed input. */
static int referee_next_input(struct referee_bytes *input) {
    char header[24];
    size_t used = 0;
    for (;;) {
        ssize_t got = read(STDIN_FILENO, header + used, 1);
        if (got < 0 && errno == EINTR) {
            continue;
        }
        if (got <= 0) {
            return used == 0 ? 0 : -1;
        }
        if (header[used] == '\n') {
            break;
        }
        if (header[used] < '0' || header[used] > '9' || ++used == sizeof header) {
            return -1;
        }
    }
    header[used] = 0;
    size_t length = (size_t) strtoull(header, NULL, 10);
    char *data = malloc(length + 1);
    if (used == 0 || data == NULL || referee_read_exactly(data, length) < 0) {
        free(data);
        return -1;
    }
    input->data = data;
    input->length = length;
    return 1;
}

/* Removes everything in the folder `dir` but, at the top (`keep` set), the program itself;
   what a case made unreadable is made readable first. -1 when something stays. The listing
   is read straight from the descriptor (a directory stream would cost a copy of it and
   several system calls more for each case). */
static int referee_empty_folder(int dir, int keep) {
    char listing[4096];
    int result = 0;
    /* An earlier listing left the offset at the end. */
    if (lseek(dir, 0, SEEK_SET) < 0) {
        return -1;
    }
    for (;;) {
        long got = syscall(SYS_getdents64, dir, listing, sizeof listing);
        if (got < 0) {
            return -1;
        }
        if (got == 0) {
            return result;
        }
        for (long at = 0; at < got;) {
            const struct dirent64 *entry = (const struct dirent64 *) (listing + at);
            at += entry->d_reclen;
            const char *name = entry->d_name;
            if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0 ||
                (keep && strcmp(name, "program") == 0)) {
                continue;
            }
            if (unlinkat(dir, name, 0) == 0) {
                continue;
            }
            fchmodat(dir, name, 0700, 0);
            int inner = openat(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (inner < 0 || referee_empty_folder(inner, 0) < 0 ||
                unlinkat(dir, name, AT_REMOVEDIR) < 0) {
                result = -1;
            }
            if (inner >= 0) {
                close(inner);
            }
        }
    }
}

/* Removes what a case left in the run's shared memory: System V segments, semaphores and
   message queues of this IPC namespace (the run's own), and POSIX objects in /dev/shm
   (`shm_folder`, open; -1 if there is none). */
static int referee_clear_ipc(int shm_folder) {
    struct shmid_ds segment;
    struct seminfo semaphores;
    struct msqid_ds queue;
    int highest = shmctl(0, SHM_INFO, (struct shmid_ds *) (void *) &(struct shm_info){0});
    for (int i = 0; i <= highest; i++) {
        int id = shmctl(i, SHM_STAT, &segment);
        if (id >= 0) {
            shmctl(id, IPC_RMID, NULL);
        }
    }
    highest = semctl(0, 0, SEM_INFO, &semaphores);
    for (int i = 0; i <= highest; i++) {
        struct semid_ds set;
        int id = semctl(i, 0, SEM_STAT, &set);
        if (id >= 0) {
            semctl(id, 0, IPC_RMID);
        }
    }
    highest = msgctl(0, MSG_INFO, (struct msqid_ds *) (void *) &(struct msginfo){0});
    for (int i = 0; i <= highest; i++) {
        int id = msgctl(i, MSG_STAT, &queue);
        if (id >= 0) {
            msgctl(id, IPC_RMID, NULL);
        }
    }
    return shm_folder < 0 ? 0 : referee_empty_folder(shm_folder, 0);
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

/* A process's main thread's time on a CPU and waiting for one (/proc/PID/schedstat), in
   microseconds; zeros if unknown. */
static void referee_schedule_times(pid_t pid, long long *on_cpu, long long *delay) {
    char path[64], text[128];
    snprintf(path, sizeof path, "/proc/%d/schedstat", (int) pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return;
    }
    ssize_t got = read(fd, text, sizeof text - 1);
    close(fd);
    long long cpu_ns = 0, delay_ns = 0;
    if (got > 0) {
        text[got] = 0;
        if (sscanf(text, "%lld %lld", &cpu_ns, &delay_ns) == 2) {
            *on_cpu = cpu_ns / 1000;
            *delay = delay_ns / 1000;
        }
    }
}

/* From a /proc/PID/stat line: the process's parent and group, its own CPU time and what it
   reaped (utime + stime, cutime + cstime), in microseconds; 0 when read. */
static int referee_process_stat(const char *pid, pid_t *parent, pid_t *group, long long *own_us,
                                long long *reaped_us) {
    char path[64], text[1024];
    snprintf(path, sizeof path, "/proc/%s/stat", pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return -1;
    }
    ssize_t got = read(fd, text, sizeof text - 1);
    close(fd);
    if (got <= 0) {
        return -1;
    }
    text[got] = 0;
    /* "PID (COMMAND) STATE PPID PGRP ...": the command may hold spaces and parentheses. */
    char *after = strrchr(text, ')');
    int ppid, pgrp;
    long long utime, stime, cutime, cstime;
    long per_second = sysconf(_SC_CLK_TCK);
    if (after == NULL || per_second <= 0 ||
        sscanf(after + 1, " %*c %d %d %*d %*d %*d %*u %*u %*u %*u %*u %lld %lld %lld %lld", &ppid,
               &pgrp, &utime, &stime, &cutime, &cstime) != 6) {
        return -1;
    }
    *parent = ppid;
    *group = pgrp;
    *own_us = (utime + stime) * (1000000LL / per_second);
    *reaped_us = (cutime + cstime) * (1000000LL / per_second);
    return 0;
}

/* The CPU time of a case but its main process's own (read from its clock): what that process
   reaped, and every other process of the case with what each reaped. In the run's own PID
   namespace every process but its init and the batch is the case's (the sweep left nothing
   else); otherwise the case's are the processes of its group and its main process's children
   (one that left both is out of reach, as it is of the kill at the case's end). `others` gets
   how many processes besides the main one the case has. */
static long long referee_case_children_us(pid_t child, int whole_namespace, int *others) {
    *others = 0;
    DIR *proc = opendir("/proc");
    if (proc == NULL) {
        return 0;
    }
    pid_t self = getpid();
    long long total = 0;
    struct dirent *entry;
    while ((entry = readdir(proc)) != NULL) {
        char *end;
        long pid = strtol(entry->d_name, &end, 10);
        pid_t parent, group;
        long long own, reaped;
        if (*end || pid <= 1 || pid == self ||
            referee_process_stat(entry->d_name, &parent, &group, &own, &reaped) < 0) {
            continue;
        }
        if (pid == child) {
            total += reaped;
        } else if (whole_namespace || group == child || parent == child) {
            total += own + reaped;
            ++*others;
        }
    }
    closedir(proc);
    return total;
}

/* Overwrites the stack below the batch's loop, where earlier cases' input, output and file
   names were read: the next case's process is a copy of this one. */
__attribute__((noinline)) static void referee_wipe_stack(void) {
    char stale[1 << 16];
    explicit_bzero(stale, sizeof stale);
    __asm__ __volatile__("" : : "r"(stale) : "memory");
}

/* Runs one case in a child; returns 0 in the child (which goes on to main), 1 in the parent
   when the batch goes on, 2 when it stops (after a timeout: 'c' for the CPU-time limit, 't'
   for the wall-clock backstop). */
static int referee_run_case(int index, const char *input, size_t input_length,
                            long long timeout_us, size_t cap, int sweep,
                            struct referee_bytes out[2], long long *slept_us) {
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
    /* The limit is on the CPU time of the case's processes together, which load does not
       change; the wall clock is a backstop that only a sleeping or blocked case meets. */
    clockid_t cpu_clock;
    int have_clock = clock_getcpuclockid(child, &cpu_clock) == 0;
    long long deadline = start + REFEREE_WALL_FACTOR * timeout_us + 1000000LL;
    long long children_us = 0, scanned_at = start, case_cpu_us = 0;
    int others = 0;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    int exited = 0;
    while (!kind && (watched[0].fd >= 0 || watched[1].fd >= 0 || !exited)) {
        long long now = referee_now_us(), left = deadline - now;
        if (left <= 0) {
            if (!exited) {
                kind = 't';
            }
            break;
        }
        if (!exited && have_clock) {
            struct timespec used;
            if (clock_gettime(cpu_clock, &used) == 0) {
                if (now - scanned_at >= REFEREE_SCAN_INTERVAL_US) {
                    children_us = referee_case_children_us(child, sweep, &others);
                    scanned_at = now;
                }
                case_cpu_us = (long long) used.tv_sec * 1000000LL + used.tv_nsec / 1000 +
                              children_us;
                long long cpu_left = timeout_us - case_cpu_us;
                if (cpu_left <= 0) {
                    kind = 'c';
                    break;
                }
                /* Its processes cannot use more CPU time than the wall clock gives each CPU,
                   and are looked at again at least every REFEREE_SCAN_WAIT_US. */
                long long running = 1 + others;
                if (cpus > 0 && running > cpus) {
                    running = cpus;
                }
                cpu_left /= running;
                if (cpu_left < REFEREE_SCAN_INTERVAL_US) {
                    cpu_left = REFEREE_SCAN_INTERVAL_US;
                }
                if (cpu_left > REFEREE_SCAN_WAIT_US) {
                    cpu_left = REFEREE_SCAN_WAIT_US;
                }
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
    /* Its wall-clock time, and its main thread's time on a CPU and waiting for one, read
       before it is reaped. */
    long long wall = referee_now_us() - start, on_cpu = 0, delay = 0;
    referee_schedule_times(child, &on_cpu, &delay);
    killpg(child, SIGKILL);
    int status = 0;
    struct rusage usage;
    memset(&usage, 0, sizeof usage);
    while (wait4(child, &status, 0, &usage) < 0 && errno == EINTR) {
    }
    /* The time reported is the CPU time the case used (with what it reaped), or what its
       processes together were seen to use if more. */
    long long elapsed = (long long) (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000000LL +
                        usage.ru_utime.tv_usec + usage.ru_stime.tv_usec;
    if (case_cpu_us > elapsed) {
        elapsed = case_cpu_us;
    }
    /* What it slept or was blocked: neither running nor waiting for a CPU. */
    long long slept = wall - (elapsed > on_cpu ? elapsed : on_cpu) - delay;
    if (slept < 0) {
        slept = 0;
    }
    *slept_us += slept;
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
    int header_length = snprintf(header, sizeof header, "%d %c %d %lld %lld %zu %zu\n", index, kind,
                                 value, elapsed, slept, out[0].length, out[1].length);
    if (referee_write_all(STDOUT_FILENO, header, (size_t) header_length) < 0 ||
        referee_write_all(STDOUT_FILENO, out[0].data, out[0].length) < 0 ||
        referee_write_all(STDOUT_FILENO, out[1].data, out[1].length) < 0) {
        return 2;
    }
    return kind == 't' || kind == 'c' ? 2 : 1;
}

/* The count on the "sockets: used N" line of this network namespace's sockstat (`sockstat`,
   kept open: the path costs more to look up than the file to read), or -1. */
static long referee_sockets_in_use(int sockstat) {
    char text[256];
    /* A read from the start makes the kernel write the file anew. */
    ssize_t got = sockstat < 0 ? -1 : pread(sockstat, text, sizeof text - 1, 0);
    long count = -1;
    if (got > 0) {
        text[got] = 0;
        sscanf(text, "sockets: used %ld", &count);
    }
    return count;
}

/* Reaps every child that has ended; 1 while one still runs, 0 when there is none. */
static int referee_reap(void) {
    for (;;) {
        pid_t reaped = waitpid(-1, NULL, WNOHANG | __WALL);
        if (reaped > 0 || (reaped < 0 && errno == EINTR)) {
            continue;
        }
        return reaped == 0;
    }
}

/* Kills every other process of the run (what the case left running) and waits briefly for
   them to end and their sockets to close; 0 when nothing is left. The batch is the subreaper
   of everything its cases start, so what outlived a case is its child: when it has none, no
   other process is left but the namespace's init, and there is nothing to kill (the usual
   case: signalling every process it may costs a walk over every process of the machine). */
static int referee_sweep(int sockstat) {
    int signalled = 0;
    for (int attempt = 0; attempt < 100; attempt++) {
        int running = referee_reap();
        if (running && !signalled) {
            kill(-1, SIGKILL);
            signalled = 1;
            continue;
        }
        if (!running && referee_sockets_in_use(sockstat) == 0) {
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
    long long timeout_ms = 0, sleep_ms = 0, slept_us = 0;
    unsigned long long cap = 0;
    int sweep = 0;
    if (batch == NULL ||
        sscanf(batch, "%lld %llu %d %lld", &timeout_ms, &cap, &sweep, &sleep_ms) != 4 ||
        cap == 0) {
        return;
    }
    /* Cases cannot open this process's descriptors or memory through /proc. */
    prctl(PR_SET_DUMPABLE, 0);
    struct referee_bytes input, out[2];
    out[0].data = malloc(cap);
    out[1].data = malloc(cap);
    int working_folder = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    int sockstat = -1, shm_folder = -1;
    if (sweep) {
        /* What a case leaves behind becomes this process's child (see referee_sweep). */
        prctl(PR_SET_CHILD_SUBREAPER, 1);
        sockstat = open("/proc/self/net/sockstat", O_RDONLY | O_CLOEXEC);
        shm_folder = open("/dev/shm", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    }
    if (out[0].data == NULL || out[1].data == NULL || working_folder < 0) {
        _exit(3);
    }
    for (int index = 0;; index++) {
        /* Each case starts as a run of its own: its folder holds only the program, and
           (in the run's own IPC namespace) no shared memory is left from the case before. */
        if (referee_empty_folder(working_folder, 1) < 0 || (sweep && referee_clear_ipc(shm_folder) < 0)) {
            break;
        }
        int next = referee_next_input(&input);
        if (next < 0) {
            _exit(3);
        }
        if (next == 0) {
            break;
        }
        int outcome = referee_run_case(index, input.data, input.length, timeout_ms * 1000LL, cap,
                                       sweep, out, &slept_us);
        if (outcome == 0) {
            close(working_folder);
            if (sockstat >= 0) {
                close(sockstat);
            }
            if (shm_folder >= 0) {
                close(shm_folder);
            }
            free(input.data);
            free(out[0].data);
            free(out[1].data);
            return;
        }
        /* Nothing of this case stays in memory the next case inherits. */
        explicit_bzero(input.data, input.length);
        free(input.data);
        explicit_bzero(out[0].data, out[0].length);
        explicit_bzero(out[1].data, out[1].length);
        referee_wipe_stack();
        /* The submission's cases have slept what they may: referee decides what is not run. */
        if (outcome == 2 || slept_us >= sleep_ms * 1000LL ||
            (sweep && referee_sweep(sockstat) != 0)) {
            break;
        }
    }
    _exit(0);
}
