/* referee's launcher: sets up one run (a sandboxed student program, or the compiler), then execs it.
 *
 * referee starts it with posix_spawn, which costs the same however large referee has grown;
 * doing this set-up between fork and exec in referee itself made every run pay for copying
 * referee's page tables. Built by build.rs and embedded in the referee executable.
 *
 *   launcher TOKEN run [OPTION]... -- PROGRAM [ARG]...    (PROGRAM without a slash: found in PATH)
 *     --isolate separate|user   new mount, network and IPC namespaces (user: inside a new
 *                               user namespace, mapped to --map-uid/--map-gid)
 *     --netns PATH              with --isolate separate: join this (empty) network namespace
 *                               instead of making one; referee lends each to one run at a time
 *     --program FILE --tmp-size B --tmp-owner UID --tmp-group GID
 *                               with --isolate: /tmp is a new tmpfs of B bytes owned by UID
 *                               and GID (the working folder, empty but for a copy of FILE
 *                               as /tmp/program)
 *     --hide DIR                with --isolate: DIR is covered by an empty read-only tmpfs
 *     --uid N                   become uid and gid N (after the set-up, before the exec)
 *     --cpu S --fsize B --nofile N --nproc N [--as B]   resource limits
 *   launcher TOKEN sweep UID    kill every process running as UID
 *   launcher TOKEN hold         make an empty network namespace, say "ready", and keep it
 *                               until standard input closes (referee's end of the pipe)
 *
 * A failure before the exec prints "TOKEN what: reason" on stderr and exits with status
 * 125; the token (random per referee process) tells referee that the message is its own.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define SETUP_FAILED 125
#define MAX_HIDDEN 16

static const char *token = "referee-launcher";

static void fail(const char *what)
{
    fprintf(stderr, "%s %s: %s\n", token, what, strerror(errno));
    _exit(SETUP_FAILED);
}

static void usage(const char *what)
{
    fprintf(stderr, "%s launcher usage: %s\n", token, what);
    _exit(SETUP_FAILED);
}

static unsigned long long number(const char *text)
{
    char *end;
    errno = 0;
    unsigned long long value = strtoull(text, &end, 10);
    if (errno || end == text || *end)
        usage("not a number");
    return value;
}

static void write_proc(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY);
    if (fd < 0)
        fail(path);
    ssize_t length = (ssize_t)strlen(text);
    if (write(fd, text, (size_t)length) != length)
        fail(path);
    close(fd);
}

static void limit(int resource, unsigned long long value, const char *what)
{
    struct rlimit rl = {value, value};
    if (setrlimit(resource, &rl) < 0)
        fail(what);
}

/* Copies the open file `from` to a new executable file `path`. */
static void copy_program(int from, const char *path)
{
    char chunk[1 << 16];
    int to = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0755);
    if (to < 0)
        fail("create /tmp/program");
    for (;;) {
        ssize_t got = read(from, chunk, sizeof chunk);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            fail("read the program");
        if (got == 0)
            break;
        for (ssize_t done = 0; done < got;) {
            ssize_t written = write(to, chunk + done, (size_t)(got - done));
            if (written < 0)
                fail("copy the program");
            done += written;
        }
    }
    close(to);
    close(from);
}

static void sweep(const char *uid_text)
{
    uid_t uid = (uid_t)number(uid_text);
    if (setgroups(0, NULL) < 0 || setgid(uid) < 0 || setuid(uid) < 0)
        fail("become the run's uid");
    /* As that uid, -1 reaches exactly its processes (this one is spared). */
    kill(-1, SIGKILL);
    _exit(0);
}

static void hold(void)
{
    char byte;
    if (unshare(CLONE_NEWNET) < 0)
        fail("unshare the network namespace");
    if (write(STDOUT_FILENO, "ready\n", 6) != 6)
        fail("write");
    while (read(STDIN_FILENO, &byte, 1) > 0)
        ;
    _exit(0);
}

int main(int argc, char **argv)
{
    if (argc < 3)
        usage("TOKEN run|sweep|hold ...");
    token = argv[1];
    if (strcmp(argv[2], "sweep") == 0) {
        if (argc != 4)
            usage("TOKEN sweep UID");
        sweep(argv[3]);
    }
    if (strcmp(argv[2], "hold") == 0)
        hold();
    if (strcmp(argv[2], "run") != 0)
        usage("TOKEN run|sweep|hold ...");

    const char *isolate = NULL, *program = NULL, *netns = NULL, *hidden[MAX_HIDDEN];
    int hidden_count = 0, program_at = 0;
    long long uid = -1, map_uid = -1, map_gid = -1, tmp_owner = -1, tmp_group = -1;
    unsigned long long tmp_size = 0;
    unsigned long long cpu = 0, fsize = 0, nofile = 0, nproc = 0, address_space = 0;
    int have_as = 0;
    for (int i = 3; i < argc; i++) {
        const char *option = argv[i];
        if (strcmp(option, "--") == 0) {
            program_at = i + 1;
            break;
        }
        if (i + 1 >= argc)
            usage("an option without its value");
        const char *value = argv[++i];
        if (strcmp(option, "--isolate") == 0)
            isolate = value;
        else if (strcmp(option, "--program") == 0)
            program = value;
        else if (strcmp(option, "--tmp-size") == 0)
            tmp_size = number(value);
        else if (strcmp(option, "--tmp-owner") == 0)
            tmp_owner = (long long)number(value);
        else if (strcmp(option, "--tmp-group") == 0)
            tmp_group = (long long)number(value);
        else if (strcmp(option, "--netns") == 0)
            netns = value;
        else if (strcmp(option, "--hide") == 0) {
            if (hidden_count == MAX_HIDDEN)
                usage("too many --hide folders");
            hidden[hidden_count++] = value;
        } else if (strcmp(option, "--uid") == 0)
            uid = (long long)number(value);
        else if (strcmp(option, "--map-uid") == 0)
            map_uid = (long long)number(value);
        else if (strcmp(option, "--map-gid") == 0)
            map_gid = (long long)number(value);
        else if (strcmp(option, "--cpu") == 0)
            cpu = number(value);
        else if (strcmp(option, "--fsize") == 0)
            fsize = number(value);
        else if (strcmp(option, "--nofile") == 0)
            nofile = number(value);
        else if (strcmp(option, "--nproc") == 0)
            nproc = number(value);
        else if (strcmp(option, "--as") == 0) {
            address_space = number(value);
            have_as = 1;
        } else
            usage("an unknown option");
    }
    if (!program_at || program_at >= argc)
        usage("no program after --");

    /* Its own session, so that referee can kill the run and everything it started. */
    if (setsid() < 0)
        fail("setsid");

    if (isolate) {
        int user = strcmp(isolate, "user") == 0;
        if (!user && strcmp(isolate, "separate") != 0)
            usage("--isolate separate|user");
        if (!program || !tmp_size || tmp_owner < 0 || tmp_group < 0)
            usage("--isolate needs --program, --tmp-size, --tmp-owner and --tmp-group");
        /* Opened before any mount can cover it. */
        int program_file = open(program, O_RDONLY | O_CLOEXEC);
        if (program_file < 0)
            fail("open the program");
        int flags = CLONE_NEWNS | CLONE_NEWIPC | (user ? CLONE_NEWUSER : 0);
        if (netns) {
            int fd = open(netns, O_RDONLY | O_CLOEXEC);
            if (fd < 0 || setns(fd, CLONE_NEWNET) < 0)
                fail("join the network namespace");
            close(fd);
        } else {
            flags |= CLONE_NEWNET;
        }
        if (unshare(flags) < 0)
            fail("unshare");
        if (user) {
            char map[64];
            write_proc("/proc/self/setgroups", "deny");
            snprintf(map, sizeof map, "%lld %lld 1\n", map_uid, map_uid);
            write_proc("/proc/self/uid_map", map);
            snprintf(map, sizeof map, "%lld %lld 1\n", map_gid, map_gid);
            write_proc("/proc/self/gid_map", map);
        }
        if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
            fail("make mounts private");
        /* A file system in memory: a fresh working folder costs nothing to make or remove
         * (a folder on disk does), and all of it goes with the run's last process. */
        char options[128];
        snprintf(options, sizeof options, "size=%llu,nr_inodes=4096,mode=0700,uid=%lld,gid=%lld",
                 tmp_size, tmp_owner, tmp_group);
        if (mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, options) < 0)
            fail("mount a tmpfs on /tmp");
        copy_program(program_file, "/tmp/program");
        /* Missing on some systems: nothing to protect there then. */
        mount("tmpfs", "/var/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "size=16m");
        mount("tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, "size=16m");
        for (int i = 0; i < hidden_count; i++) {
            /* A hidden folder that is not there (e.g. inside the new /tmp) needs no cover. */
            if (mount("tmpfs", hidden[i], "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV,
                      "size=4k") < 0 && errno != ENOENT)
                fail("hide a folder");
        }
        if (chdir("/tmp") < 0)
            fail("chdir /tmp");
    }

    limit(RLIMIT_CPU, cpu, "limit CPU time");
    if (have_as)
        limit(RLIMIT_AS, address_space, "limit memory");
    limit(RLIMIT_FSIZE, fsize, "limit file size");
    limit(RLIMIT_NOFILE, nofile, "limit open files");
    limit(RLIMIT_NPROC, nproc, "limit processes");
    limit(RLIMIT_CORE, 0, "disable core dumps");

    if (uid >= 0) {
        if (setgroups(0, NULL) < 0 || setgid((gid_t)uid) < 0 || setuid((uid_t)uid) < 0)
            fail("become the run's uid");
    }

    /* "Text file busy": another process may briefly hold a descriptor that was open for
     * writing the program (until it execs); wait for it to go. */
    for (int attempt = 0;; attempt++) {
        execvp(argv[program_at], argv + program_at);
        if (errno != ETXTBSY || attempt == 50)
            break;
        struct timespec pause = {0, 10 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    fail("exec");
    return SETUP_FAILED;
}
