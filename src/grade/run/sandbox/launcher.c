/* referee's launcher: sets up one run (a sandboxed student program, or the compiler), then execs it.
 *
 * referee starts it with posix_spawn, which costs the same however large referee has grown;
 * doing this set-up between fork and exec in referee itself made every run pay for copying
 * referee's page tables. Built by build.rs and embedded in the referee executable.
 *
 *   launcher TOKEN run [OPTION]... -- PROGRAM [ARG]...    (PROGRAM without a slash: found in PATH)
 *     --parent PID              referee's pid: the launcher dies with it (and with it the run)
 *     --isolate separate|user   new mount, network, IPC and PID namespaces (user: inside a new
 *                               user namespace whose uid and gid 0 are the invoking user's,
 *                               the program without any capability), a minimal root
 *                               file system, and the launcher as the namespace's init
 *     --root DIR                with --isolate: an empty folder the new root is built on
 *     --netns PATH              with --isolate: join this (empty) network namespace instead of
 *                               making one; referee lends each to one run at a time
 *     --userns PATH             with --isolate user and --netns: the user namespace that owns
 *                               that network namespace, joined first (the run's own user
 *                               namespace is then made inside it)
 *     --tmp-size B --tmp-owner UID --tmp-group GID
 *                               with --isolate: /tmp is a new tmpfs of B bytes owned by UID
 *                               and GID, the working folder unless --workdir says otherwise
 *     --program FILE            with --isolate: a copy of FILE is /tmp/program
 *     --bind DIR, --bind-rw DIR with --isolate: DIR is seen at the same place, read-only or not
 *     --workdir DIR             with --isolate: the working folder inside
 *     --hide DIR                with --isolate: DIR is covered by an empty read-only tmpfs
 *     --shm B                   with --isolate: System V and POSIX shared memory up to B bytes
 *     --uid N                   become uid and gid N (after the set-up, before the exec)
 *     --cgroup FILE             a cgroup's `cgroup.procs`: the program joins it before the exec
 *                               (repeatable: cgroup v1 has one folder per controller)
 *     --cpu-usage FILE          without --isolate: the run's cgroup CPU counter (cgroup v1
 *                               `cpuacct.usage`, v2 `cpu.stat`), for --cpu-ms over every process
 *     --report FILE             write "CPU_NS SLEEP_NS" there at the end: the CPU time of every
 *                               process of the run, and the wall-clock time the program spent
 *                               neither running nor waiting for a CPU (it slept or was blocked)
 *     --cpu-ms MS               the run's CPU time limit, over all its processes (reported as
 *                               SIGXCPU of the program)
 *     --cpu S --fsize B --nofile N --nproc N [--as B]   resource limits (of each process)
 *   launcher TOKEN sweep UID    kill every process running as UID
 *   launcher TOKEN hold [user]  make an empty network namespace (user: inside a new user
 *                               namespace whose uid and gid 0 are the invoking user's), say
 *                               "ready", and keep it until standard input closes (referee's
 *                               end of the pipe)
 *
 * With --isolate the processes are: this one (in referee's PID namespace, the process group
 * leader referee waits for), the namespace's init (a fork of this one: it builds the root,
 * starts the program, reaps what the program leaves and measures its CPU time), and the
 * program. The init passes the program's wait status back through a pipe and this process
 * ends the same way. When the init ends, the kernel kills everything left in the namespace.
 *
 * Every program the launcher starts has no descriptor but 0, 1 and 2 (nothing the TA's shell
 * left open reaches it), no capability, no new privileges, and a seccomp filter that refuses
 * new namespaces (a user namespace would let it mount a tmpfs outside the memory limit),
 * mounts, file handles (`open_by_handle_at` reaches the host's root from a bind mount), kernel
 * keyrings, BPF, perf events, userfaultfd and io_uring, and kills any other system call ABI.
 *
 * A failure before the exec prints "TOKEN what: reason" on stderr and exits with status
 * 125; the token (random per referee process) tells referee that the message is its own.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <linux/audit.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <linux/securebits.h>
#include <stddef.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SETUP_FAILED 125
#define MAX_LISTED 16
#define MAX_CGROUPS 4

static const char *token = "referee-launcher";
/* The init's own arguments, wiped once the program has started: its /proc/1/cmdline would show
 * the program referee's token and folders. */
static int wiped_count;
static char **wiped;

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
    int fd = open(path, O_WRONLY | O_CLOEXEC);
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

/* Closes every descriptor above 2: whatever the caller left open (a TA's `exec 7>>grades.log`)
 * must not reach the program or the compiler. */
static void close_other_descriptors(void)
{
#ifdef SYS_close_range
    if (syscall(SYS_close_range, 3U, ~0U, 0U) == 0)
        return;
#endif
    struct rlimit open_files;
    int highest = getrlimit(RLIMIT_NOFILE, &open_files) == 0 && open_files.rlim_cur != RLIM_INFINITY &&
                          open_files.rlim_cur < (1U << 20)
                      ? (int)open_files.rlim_cur
                      : (1 << 20);
    for (int fd = 3; fd < highest; fd++)
        close(fd);
}

#if defined(__x86_64__)
#define SECCOMP_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define SECCOMP_ARCH AUDIT_ARCH_AARCH64
#elif defined(__i386__)
#define SECCOMP_ARCH AUDIT_ARCH_I386
#endif

/* Every clone flag that makes a namespace. */
#define NAMESPACE_FLAGS                                                                        \
    (CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER |              \
     CLONE_NEWPID | CLONE_NEWNET | 0x00000080 /* CLONE_NEWTIME */)

/* Installs the filter described at the top: refused calls fail with EPERM, clone3 with ENOSYS
 * (the C library then falls back to clone, whose flags the filter can read), a call of
 * another ABI (x32, 32-bit) kills the process. */
static void install_seccomp(void)
{
#ifdef SECCOMP_ARCH
    static const int refused[] = {
        SYS_unshare,        SYS_setns,           SYS_mount,           SYS_umount2,
        SYS_pivot_root,     SYS_chroot,          SYS_open_by_handle_at, SYS_name_to_handle_at,
        SYS_keyctl,         SYS_add_key,         SYS_request_key,     SYS_bpf,
        SYS_perf_event_open, SYS_userfaultfd,    SYS_kexec_load,      SYS_init_module,
        SYS_finit_module,   SYS_delete_module,   SYS_swapon,          SYS_swapoff,
        SYS_reboot,         SYS_acct,            SYS_quotactl,
#ifdef SYS_io_uring_setup
        SYS_io_uring_setup, SYS_io_uring_enter,  SYS_io_uring_register,
#endif
#ifdef SYS_fsopen
        SYS_fsopen,         SYS_fsconfig,        SYS_fsmount,         SYS_fspick,
        SYS_move_mount,     SYS_open_tree,
#endif
#ifdef SYS_mount_setattr
        SYS_mount_setattr,
#endif
    };
    enum { REFUSED = sizeof refused / sizeof refused[0] };
    struct sock_filter filter[8 + 2 * REFUSED + 8];
    unsigned length = 0;
#define ADD(statement) (filter[length++] = (struct sock_filter)statement)
    ADD(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)));
    ADD(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SECCOMP_ARCH, 1, 0));
    ADD(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS));
    ADD(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)));
#ifdef __x86_64__
    /* x32 system calls share the architecture and set this bit. */
    ADD(BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000U, 0, 1));
    ADD(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS));
#endif
    for (unsigned i = 0; i < REFUSED; i++) {
        ADD(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)refused[i], 0, 1));
        ADD(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM));
    }
#ifdef SYS_clone3
    ADD(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone3, 0, 1));
    ADD(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS));
#endif
    /* clone with a namespace flag (the flags are its first argument, in the low word). */
    ADD(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone, 0, 3));
    ADD(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])));
    ADD(BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, NAMESPACE_FLAGS, 0, 1));
    ADD(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM));
    ADD(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
#undef ADD
    struct sock_fprog program = {(unsigned short)length, filter};
    if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) < 0)
        fail("install the seccomp filter");
#endif
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

/* Maps uid and gid 0 of this process's new user namespace to `uid` and `gid` (of the
 * namespace above it), without supplementary groups. */
static void map_ids(uid_t uid, gid_t gid)
{
    char map[64];
    write_proc("/proc/self/setgroups", "deny");
    snprintf(map, sizeof map, "0 %u 1\n", (unsigned)uid);
    write_proc("/proc/self/uid_map", map);
    snprintf(map, sizeof map, "0 %u 1\n", (unsigned)gid);
    write_proc("/proc/self/gid_map", map);
}

static void hold(int user)
{
    char byte;
    uid_t uid = geteuid();
    gid_t gid = getegid();
    if (unshare(CLONE_NEWNET | (user ? CLONE_NEWUSER : 0)) < 0)
        fail("unshare the network namespace");
    if (user)
        map_ids(uid, gid);
    if (write(STDOUT_FILENO, "ready\n", 6) != 6)
        fail("write");
    while (read(STDIN_FILENO, &byte, 1) > 0)
        ;
    _exit(0);
}

/* "ROOT" followed by PATH (which starts with a slash). */
static void under(char *out, const char *root, const char *path)
{
    if (snprintf(out, PATH_MAX, "%s%s", root, path) >= PATH_MAX) {
        errno = ENAMETOOLONG;
        fail(path);
    }
}

/* mkdir -p of an absolute path (its parents made 0755). */
static void make_folders(const char *path)
{
    char partial[PATH_MAX];
    size_t length = strlen(path);
    if (length >= sizeof partial) {
        errno = ENAMETOOLONG;
        fail(path);
    }
    for (size_t i = 1; i <= length; i++) {
        if (path[i] == '/' || path[i] == 0) {
            memcpy(partial, path, i);
            partial[i] = 0;
            if (mkdir(partial, 0755) < 0 && errno != EEXIST)
                fail(partial);
        }
    }
}

/* An empty file to bind a file onto. */
static void make_file(const char *path)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
        fail(path);
    close(fd);
}

/* Binds `from` onto `to`; read-only unless `writable`. A remount of a bind must keep the
 * flags the source mount has (a user namespace may not clear them), so they are read first. */
static void bind(const char *from, const char *to, int writable)
{
    if (mount(from, to, NULL, MS_BIND | MS_REC, NULL) < 0)
        fail(from);
    if (writable)
        return;
    struct statvfs source;
    if (statvfs(to, &source) < 0)
        fail(to);
    unsigned long flags = MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID;
    const unsigned long kept[][2] = {{ST_NOSUID, MS_NOSUID},     {ST_NODEV, MS_NODEV},
                                     {ST_NOEXEC, MS_NOEXEC},     {ST_NOATIME, MS_NOATIME},
                                     {ST_NODIRATIME, MS_NODIRATIME}, {ST_RELATIME, MS_RELATIME}};
    for (size_t i = 0; i < sizeof kept / sizeof kept[0]; i++)
        if (source.f_flag & kept[i][0])
            flags |= kept[i][1];
    if (mount(NULL, to, NULL, flags, NULL) < 0)
        fail(to);
}

/* Binds `from` onto `to` with set-uid programs inert (writable, for device files). */
static void bind_writable(const char *from, const char *to)
{
    if (mount(from, to, NULL, MS_BIND, NULL) < 0)
        fail(from);
}

/* A top-level folder of the host (/usr, /lib64...): bound read-only, or the same symbolic
 * link (merged /usr); nothing if the host has none. */
static void bind_system_folder(const char *root, const char *name)
{
    char host[64], inside[PATH_MAX], link[PATH_MAX];
    struct stat info;
    snprintf(host, sizeof host, "/%s", name);
    if (lstat(host, &info) < 0)
        return;
    under(inside, root, host);
    if (S_ISLNK(info.st_mode)) {
        ssize_t length = readlink(host, link, sizeof link - 1);
        if (length < 0)
            fail(host);
        link[length] = 0;
        if (symlink(link, inside) < 0)
            fail(inside);
    } else if (S_ISDIR(info.st_mode)) {
        if (mkdir(inside, 0755) < 0)
            fail(inside);
        bind(host, inside, 0);
    }
}

/* The minimal root file system: what a C program and the toolchain need, read-only, and
 * nothing else of the host. */
struct root_plan {
    const char *root;
    unsigned long long tmp_size, shm_size;
    long long tmp_owner, tmp_group;
    const char *binds[MAX_LISTED];
    int writable[MAX_LISTED];
    int bind_count;
    const char *hidden[MAX_LISTED];
    int hidden_count;
    int program_file;
    const char *workdir;
};

static void build_root(const struct root_plan *plan)
{
    static const char *const system_folders[] = {"usr", "bin", "sbin", "lib", "lib32",
                                                 "lib64", "libx32"};
    /* What the C library reads (the loader's cache, users, time zone), all world-readable,
     * and Debian's links to the default tools (cc is one). */
    static const char *const etc_files[] = {"/etc/ld.so.cache", "/etc/ld.so.conf",
                                            "/etc/localtime", "/etc/passwd", "/etc/group",
                                            "/etc/nsswitch.conf", "/etc/alternatives"};
    static const char *const devices[] = {"/dev/null", "/dev/zero", "/dev/urandom",
                                          "/dev/random"};
    const char *root = plan->root;
    char inside[PATH_MAX], options[160];

    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
        fail("make mounts private");
    if (mount("tmpfs", root, "tmpfs", MS_NOSUID | MS_NODEV, "size=1m,nr_inodes=1024,mode=0755") < 0)
        fail("mount the new root");
    for (size_t i = 0; i < sizeof system_folders / sizeof system_folders[0]; i++)
        bind_system_folder(root, system_folders[i]);

    under(inside, root, "/etc");
    make_folders(inside);
    for (size_t i = 0; i < sizeof etc_files / sizeof etc_files[0]; i++) {
        struct stat info;
        if (access(etc_files[i], R_OK) < 0 || stat(etc_files[i], &info) < 0)
            continue;
        under(inside, root, etc_files[i]);
        if (S_ISDIR(info.st_mode))
            make_folders(inside);
        else
            make_file(inside);
        bind(etc_files[i], inside, 0);
    }

    under(inside, root, "/dev");
    make_folders(inside);
    for (size_t i = 0; i < sizeof devices / sizeof devices[0]; i++) {
        under(inside, root, devices[i]);
        make_file(inside);
        bind_writable(devices[i], inside);
    }
    static const char *const links[][2] = {{"/proc/self/fd", "/dev/fd"},
                                           {"/proc/self/fd/0", "/dev/stdin"},
                                           {"/proc/self/fd/1", "/dev/stdout"},
                                           {"/proc/self/fd/2", "/dev/stderr"}};
    for (size_t i = 0; i < sizeof links / sizeof links[0]; i++) {
        under(inside, root, links[i][1]);
        if (symlink(links[i][0], inside) < 0)
            fail(inside);
    }
    /* POSIX shared memory lives here: in memory, so no more than the memory limit. */
    under(inside, root, "/dev/shm");
    make_folders(inside);
    snprintf(options, sizeof options, "size=%llu,mode=01777", plan->shm_size);
    if (mount("tmpfs", inside, "tmpfs", MS_NOSUID | MS_NODEV, options) < 0)
        fail("mount a tmpfs on /dev/shm");

    /* A file system in memory: a fresh working folder costs nothing to make or remove (a
     * folder on disk does), and all of it goes with the run's last process. */
    under(inside, root, "/tmp");
    make_folders(inside);
    snprintf(options, sizeof options, "size=%llu,nr_inodes=4096,mode=0700,uid=%lld,gid=%lld",
             plan->tmp_size, plan->tmp_owner, plan->tmp_group);
    if (mount("tmpfs", inside, "tmpfs", MS_NOSUID | MS_NODEV, options) < 0)
        fail("mount a tmpfs on /tmp");
    if (plan->program_file >= 0) {
        under(inside, root, "/tmp/program");
        copy_program(plan->program_file, inside);
    }

    for (int i = 0; i < plan->bind_count; i++) {
        under(inside, root, plan->binds[i]);
        make_folders(inside);
        bind(plan->binds[i], inside, plan->writable[i]);
    }
    for (int i = 0; i < plan->hidden_count; i++) {
        under(inside, root, plan->hidden[i]);
        /* A hidden folder that is not there needs no cover. */
        if (mount("tmpfs", inside, "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV, "size=4k") < 0 &&
            errno != ENOENT)
            fail("hide a folder");
    }
    under(inside, root, "/proc");
    make_folders(inside);
    /* This process is the PID namespace's init: the new /proc shows only the run. */
    if (mount("proc", inside, "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0)
        fail("mount /proc");
    /* Its sysctls (the shared memory limits among them) stay as set for the run. */
    under(inside, root, "/proc/sys");
    bind(inside, inside, 0);

    if (chdir(root) < 0)
        fail("chdir to the new root");
    if (syscall(SYS_pivot_root, ".", ".") < 0)
        fail("pivot_root");
    /* The old root is stacked under the new one: detach it. */
    if (umount2(".", MNT_DETACH) < 0)
        fail("detach the old root");
    if (mount(NULL, "/", NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV, NULL) < 0)
        fail("make the new root read-only");
    if (chdir(plan->workdir) < 0)
        fail("chdir to the working folder");
}

/* Limits System V shared memory of this IPC namespace to `bytes` in all. */
static void limit_shared_memory(unsigned long long bytes)
{
    char text[32];
    unsigned long long pages = bytes / (unsigned long long)sysconf(_SC_PAGESIZE);
    snprintf(text, sizeof text, "%llu", bytes);
    write_proc("/proc/sys/kernel/shmmax", text);
    snprintf(text, sizeof text, "%llu", pages);
    write_proc("/proc/sys/kernel/shmall", text);
}

static void on_child(int signal_number)
{
    (void)signal_number;
}

static long long cpu_ns(clockid_t clock)
{
    struct timespec used;
    if (clock_gettime(clock, &used) < 0)
        return -1;
    return (long long)used.tv_sec * 1000000000LL + used.tv_nsec;
}

static long long now_ns(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000000000LL + now.tv_nsec;
}

static long long timeval_ns(struct timeval t)
{
    return (long long)t.tv_sec * 1000000000LL + (long long)t.tv_usec * 1000LL;
}

/* How a run ended and what it used (passed from the namespace's init to the launcher). */
struct ending {
    int status;
    /* CPU time of every process of the run that could be counted. */
    long long cpu_ns;
    /* Wall-clock time the program spent neither running nor waiting for a CPU. */
    long long sleep_ns;
};

/* What `supervise` watches and how it counts. */
struct supervision {
    long long cpu_limit_ns;
    /* A pipe whose other end closes if the launcher above dies, or -1. */
    int parent_gone;
    /* This process is the init of the run's PID namespace: every process in /proc is the run's. */
    int whole_namespace;
    /* The run's cgroup CPU counter, or -1. */
    int cpu_usage_file;
    long long started_ns;
};

/* CPU time of the children this process reaped, with all they reaped in turn. */
static long long reaped_ns;

static void reap(pid_t pid, int *status)
{
    struct rusage used;
    memset(&used, 0, sizeof used);
    while (wait4(pid, status, 0, &used) < 0 && errno == EINTR)
        ;
    reaped_ns += timeval_ns(used.ru_utime) + timeval_ns(used.ru_stime);
}

/* The numbers of a /proc/PID/stat line from field 14 (utime) on: utime, stime, cutime, cstime
 * in clock ticks, as nanoseconds in all; -1 if it cannot be read. */
static long long stat_cpu_ns(pid_t pid, int with_own)
{
    char path[64], text[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t got = read(fd, text, sizeof text - 1);
    close(fd);
    if (got <= 0)
        return -1;
    text[got] = 0;
    /* "PID (COMMAND) STATE PPID ...": the command may hold spaces and parentheses. */
    char *after = strrchr(text, ')');
    unsigned long long utime, stime;
    long long cutime, cstime;
    if (!after || sscanf(after + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %lld %lld",
                         &utime, &stime, &cutime, &cstime) != 4)
        return -1;
    long long ticks = cutime + cstime + (with_own ? (long long)(utime + stime) : 0);
    long per_second = sysconf(_SC_CLK_TCK);
    return per_second > 0 ? ticks * (1000000000LL / per_second) : -1;
}

/* The run's CPU time: from its cgroup's counter when there is one; else what this process
 * reaped, the program's while it runs and, in the run's own PID namespace, every other live
 * process's. `processes` gets how many processes may be running. */
static long long run_cpu_ns(const struct supervision *watch, pid_t program, int *processes)
{
    *processes = 1;
    if (watch->cpu_usage_file >= 0) {
        char text[512];
        ssize_t got = pread(watch->cpu_usage_file, text, sizeof text - 1, 0);
        if (got > 0) {
            text[got] = 0;
            unsigned long long value;
            /* cgroup v2: "usage_usec N" first; v1's cpuacct.usage: nanoseconds. */
            if (sscanf(text, "usage_usec %llu", &value) == 1)
                return (long long)value * 1000LL;
            if (sscanf(text, "%llu", &value) == 1)
                return (long long)value;
        }
    }
    long long total = reaped_ns;
    clockid_t clock;
    if (program > 0 && clock_getcpuclockid(program, &clock) == 0) {
        long long own = cpu_ns(clock), children = stat_cpu_ns(program, 0);
        total += (own > 0 ? own : 0) + (children > 0 ? children : 0);
    }
    if (!watch->whole_namespace)
        return total;
    DIR *proc = opendir("/proc");
    if (!proc)
        return total;
    struct dirent *entry;
    while ((entry = readdir(proc)) != NULL) {
        char *end;
        long pid = strtol(entry->d_name, &end, 10);
        if (*end || pid <= 1 || pid == program)
            continue;
        long long used = stat_cpu_ns((pid_t)pid, 1);
        if (used > 0)
            total += used;
        ++*processes;
    }
    closedir(proc);
    return total;
}

/* The program's time on a CPU and waiting for one (its main thread's /proc/PID/schedstat),
 * read before it is reaped; zeros if unknown. */
static void schedule_times(pid_t program, long long *on_cpu, long long *delay)
{
    char path[64], text[256];
    *on_cpu = *delay = 0;
    snprintf(path, sizeof path, "/proc/%d/schedstat", (int)program);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    ssize_t got = read(fd, text, sizeof text - 1);
    close(fd);
    if (got <= 0)
        return;
    text[got] = 0;
    if (sscanf(text, "%lld %lld", on_cpu, delay) != 2)
        *on_cpu = *delay = 0;
}

/* Kills the whole run: as the namespace's init, every other process in it. */
static void kill_run(const struct supervision *watch, pid_t program)
{
    if (watch->whole_namespace)
        kill(-1, SIGKILL);
    else
        kill(program, SIGKILL);
}

/* Waits for `program` (a child of this process), reaping any other child meanwhile (as a
 * namespace's init must), and returns how it ended. With a CPU limit, the run is killed once
 * all its processes together have used that much CPU time, and the status says SIGXCPU: CPU
 * time does not depend on the machine's load, as the wall clock does. Returns status -1 as
 * soon as the parent-gone pipe's other end closes (the launcher above died). SIGCHLD must be
 * blocked. */
static struct ending supervise(pid_t program, const struct supervision *watch)
{
    int over_limit = 0;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    sigset_t waiting;
    sigemptyset(&waiting);
    struct pollfd watched = {watch->parent_gone, POLLIN, 0};
    for (;;) {
        siginfo_t info;
        for (;;) {
            memset(&info, 0, sizeof info);
            if (waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT) < 0 || info.si_pid == 0)
                break;
            int status = 0;
            if (info.si_pid != program) {
                reap(info.si_pid, &status);
                continue;
            }
            /* Its wall-clock time less its CPU time and its waits for a CPU: what it slept or
             * was blocked, which load does not change. */
            long long on_cpu, delay, wall = now_ns() - watch->started_ns;
            schedule_times(program, &on_cpu, &delay);
            reap(program, &status);
            int processes;
            struct ending ending = {0, run_cpu_ns(watch, 0, &processes), 0};
            long long slept = wall - (ending.cpu_ns > on_cpu ? ending.cpu_ns : on_cpu) - delay;
            ending.sleep_ns = slept > 0 ? slept : 0;
            ending.status = over_limit ? SIGXCPU : status;
            return ending;
        }
        struct timespec wait, *until = NULL;
        if (watch->cpu_limit_ns > 0 && !over_limit) {
            int processes;
            long long used = run_cpu_ns(watch, program, &processes);
            if (used >= watch->cpu_limit_ns) {
                over_limit = 1;
                kill_run(watch, program);
                continue;
            }
            /* The run cannot use more CPU time than the wall clock gives each CPU. */
            long long running = processes < cpus ? processes : (cpus > 0 ? cpus : 1);
            long long left = (watch->cpu_limit_ns - used) / (running > 0 ? running : 1);
            if (left < 1000000LL)
                left = 1000000LL;
            wait.tv_sec = left / 1000000000LL;
            wait.tv_nsec = left % 1000000000LL;
            until = &wait;
        }
        if (ppoll(&watched, watch->parent_gone >= 0 ? 1 : 0, until, &waiting) > 0)
            return (struct ending){-1, 0, 0};
    }
}

/* Ends this process the way the wait status says (the relay of the program's ending). */
static void end_like(int status)
{
    if (WIFSIGNALED(status)) {
        int signal_number = WTERMSIG(status);
        sigset_t only;
        signal(signal_number, SIG_DFL);
        sigemptyset(&only);
        sigaddset(&only, signal_number);
        sigprocmask(SIG_UNBLOCK, &only, NULL);
        raise(signal_number);
        _exit(128 + signal_number);
    }
    _exit(WIFEXITED(status) ? WEXITSTATUS(status) : SETUP_FAILED);
}

struct program_plan {
    char **argv;
    unsigned long long cpu, fsize, nofile, nproc, address_space;
    int have_as;
    long long uid;
    int drop_capabilities;
    /* Start the program in a session of its own (see main). */
    int new_session;
    /* `cgroup.procs` files of the run's cgroups, opened before the root changed. */
    int cgroups[MAX_CGROUPS];
    int cgroup_count;
};

/* Leaves this process no capability, now or after the exec, though its uid is 0 (in a user
 * namespace, where 0 is the invoking user: the namespace's root must own its IPC sysctls). */
static void drop_capabilities(void)
{
    if (prctl(PR_SET_SECUREBITS, SECBIT_NOROOT | SECBIT_NOROOT_LOCKED | SECBIT_NO_SETUID_FIXUP |
                                     SECBIT_NO_SETUID_FIXUP_LOCKED | SECBIT_KEEP_CAPS_LOCKED) < 0)
        fail("securebits");
    for (int capability = 0; prctl(PR_CAPBSET_READ, capability) >= 0; capability++)
        if (prctl(PR_CAPBSET_DROP, capability) < 0)
            fail("drop the capability bounding set");
    struct __user_cap_header_struct header = {_LINUX_CAPABILITY_VERSION_3, 0};
    struct __user_cap_data_struct none[2];
    memset(none, 0, sizeof none);
    if (syscall(SYS_capset, &header, none) < 0)
        fail("drop capabilities");
}

/* In the program's process: limits, uid, exec. */
static void start_program(const struct program_plan *plan, const sigset_t *original_mask)
{
    signal(SIGCHLD, SIG_DFL);
    sigprocmask(SIG_SETMASK, original_mask, NULL);
    if (plan->new_session && setsid() < 0)
        fail("setsid");
    limit(RLIMIT_CPU, plan->cpu, "limit CPU time");
    if (plan->have_as)
        limit(RLIMIT_AS, plan->address_space, "limit memory");
    limit(RLIMIT_FSIZE, plan->fsize, "limit file size");
    limit(RLIMIT_NOFILE, plan->nofile, "limit open files");
    limit(RLIMIT_NPROC, plan->nproc, "limit processes");
    limit(RLIMIT_CORE, 0, "disable core dumps");
    /* Its memory (tmpfs and shared memory included), processes and CPU time are counted
     * together with all it starts, from here on. */
    for (int i = 0; i < plan->cgroup_count; i++) {
        if (write(plan->cgroups[i], "0\n", 2) != 2)
            fail("join the run's cgroup");
        close(plan->cgroups[i]);
    }
    if (plan->uid >= 0) {
        if (setgroups(0, NULL) < 0 || setgid((gid_t)plan->uid) < 0 || setuid((uid_t)plan->uid) < 0)
            fail("become the run's uid");
    }
    if (plan->drop_capabilities)
        drop_capabilities();
    /* Set-uid programs in the system folders give nothing. */
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
        fail("no new privileges");
    install_seccomp();
    /* "Text file busy": another process may briefly hold a descriptor that was open for
     * writing the program (until it execs); wait for it to go. */
    for (int attempt = 0;; attempt++) {
        execvp(plan->argv[0], plan->argv);
        if (errno != ETXTBSY || attempt == 50)
            break;
        struct timespec pause = {0, 10 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    fail("exec");
}

/* Forks the program and supervises it; returns how it ended (status -1: the parent died). */
static struct ending run_program(const struct program_plan *plan, struct supervision *watch)
{
    sigset_t child_signal, original_mask;
    sigemptyset(&child_signal);
    sigaddset(&child_signal, SIGCHLD);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_child;
    sigemptyset(&action.sa_mask);
    sigaction(SIGCHLD, &action, NULL);
    sigprocmask(SIG_BLOCK, &child_signal, &original_mask);
    watch->started_ns = now_ns();
    pid_t program = fork();
    if (program < 0)
        fail("fork the program");
    if (program == 0)
        start_program(plan, &original_mask);
    for (int i = 0; i < plan->cgroup_count; i++)
        close(plan->cgroups[i]);
    for (int i = 0; i < wiped_count; i++)
        memset(wiped[i], 0, strlen(wiped[i]));
    return supervise(program, watch);
}

/* Writes the run's CPU and sleep times to the report file, if there is one. */
static void report(int file, const struct ending *ending)
{
    if (file < 0)
        return;
    char text[64];
    int length = snprintf(text, sizeof text, "%lld %lld\n", ending->cpu_ns, ending->sleep_ns);
    if (write(file, text, (size_t)length) != length)
        fail("write the report");
    close(file);
}

/* Opens a file referee named, before the root changes (-1 for none). */
static int open_named(const char *path, int flags)
{
    if (!path)
        return -1;
    int fd = open(path, flags | O_CLOEXEC, 0600);
    if (fd < 0)
        fail(path);
    return fd;
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
    if (strcmp(argv[2], "hold") == 0) {
        if (argc > 4 || (argc == 4 && strcmp(argv[3], "user") != 0))
            usage("TOKEN hold [user]");
        hold(argc == 4);
    }
    if (strcmp(argv[2], "run") != 0)
        usage("TOKEN run|sweep|hold ...");
    close_other_descriptors();

    const char *isolate = NULL, *program = NULL, *netns = NULL, *userns = NULL;
    const char *cpu_usage = NULL, *report_path = NULL;
    const char *cgroups[MAX_CGROUPS];
    struct root_plan root = {0};
    struct program_plan plan = {0};
    root.program_file = -1;
    root.workdir = "/tmp";
    root.tmp_owner = root.tmp_group = -1;
    root.shm_size = 16 << 20;
    plan.uid = -1;
    long long parent = -1;
    unsigned long long cpu_ms = 0, shm = 0;
    int program_at = 0;
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
        else if (strcmp(option, "--parent") == 0)
            parent = (long long)number(value);
        else if (strcmp(option, "--root") == 0)
            root.root = value;
        else if (strcmp(option, "--program") == 0)
            program = value;
        else if (strcmp(option, "--workdir") == 0)
            root.workdir = value;
        else if (strcmp(option, "--tmp-size") == 0)
            root.tmp_size = number(value);
        else if (strcmp(option, "--tmp-owner") == 0)
            root.tmp_owner = (long long)number(value);
        else if (strcmp(option, "--tmp-group") == 0)
            root.tmp_group = (long long)number(value);
        else if (strcmp(option, "--shm") == 0)
            shm = number(value);
        else if (strcmp(option, "--netns") == 0)
            netns = value;
        else if (strcmp(option, "--userns") == 0)
            userns = value;
        else if (strcmp(option, "--bind") == 0 || strcmp(option, "--bind-rw") == 0) {
            if (root.bind_count == MAX_LISTED)
                usage("too many --bind folders");
            root.writable[root.bind_count] = strcmp(option, "--bind-rw") == 0;
            root.binds[root.bind_count++] = value;
        } else if (strcmp(option, "--hide") == 0) {
            if (root.hidden_count == MAX_LISTED)
                usage("too many --hide folders");
            root.hidden[root.hidden_count++] = value;
        } else if (strcmp(option, "--cgroup") == 0) {
            if (plan.cgroup_count == MAX_CGROUPS)
                usage("too many --cgroup files");
            cgroups[plan.cgroup_count++] = value;
        } else if (strcmp(option, "--cpu-usage") == 0)
            cpu_usage = value;
        else if (strcmp(option, "--report") == 0)
            report_path = value;
        else if (strcmp(option, "--uid") == 0)
            plan.uid = (long long)number(value);
        else if (strcmp(option, "--cpu-ms") == 0)
            cpu_ms = number(value);
        else if (strcmp(option, "--cpu") == 0)
            plan.cpu = number(value);
        else if (strcmp(option, "--fsize") == 0)
            plan.fsize = number(value);
        else if (strcmp(option, "--nofile") == 0)
            plan.nofile = number(value);
        else if (strcmp(option, "--nproc") == 0)
            plan.nproc = number(value);
        else if (strcmp(option, "--as") == 0) {
            plan.address_space = number(value);
            plan.have_as = 1;
        } else
            usage("an unknown option");
    }
    if (!program_at || program_at >= argc)
        usage("no program after --");
    plan.argv = argv + program_at;
    struct supervision watch = {(long long)cpu_ms * 1000000LL, -1, 0, -1, 0};
    /* Opened before any mount can cover them. */
    for (int i = 0; i < plan.cgroup_count; i++)
        plan.cgroups[i] = open_named(cgroups[i], O_WRONLY);
    int report_file = open_named(report_path, O_WRONLY | O_CREAT | O_TRUNC);

    /* Dies with referee, even by SIGKILL; if referee is already gone, there is nothing to do. */
    if (parent >= 0) {
        if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0)
            fail("prctl");
        if (getppid() != (pid_t)parent)
            _exit(SETUP_FAILED);
    }
    /* Its own process group, so that referee can kill the run and everything it started;
     * without namespaces also its own session, with no controlling terminal. With them, only
     * the program gets a session (below), the last process to start: a new session is the
     * launcher's largest cost on a busy machine (the kernel gives it a scheduling group of
     * its own, autogroup, and preempts the process moving into it), and its own scheduling
     * group is what keeps the program's share of the CPU, and so whether it ends before the
     * wall-clock backstop, from depending on what else runs in referee's session. */
    if ((isolate ? setpgid(0, 0) : setsid()) < 0)
        fail(isolate ? "setpgid" : "setsid");
    plan.new_session = isolate != NULL;
    limit(RLIMIT_CORE, 0, "disable core dumps");

    if (!isolate) {
        watch.cpu_usage_file = open_named(cpu_usage, O_RDONLY);
        struct ending ending = run_program(&plan, &watch);
        report(report_file, &ending);
        end_like(ending.status);
    }

    int user = strcmp(isolate, "user") == 0;
    if (!user && strcmp(isolate, "separate") != 0)
        usage("--isolate separate|user");
    if (!root.root || !root.tmp_size || root.tmp_owner < 0 || root.tmp_group < 0)
        usage("--isolate needs --root, --tmp-size, --tmp-owner and --tmp-group");
    if (shm)
        root.shm_size = shm;
    /* Opened before any mount can cover it. */
    if (program) {
        root.program_file = open(program, O_RDONLY | O_CLOEXEC);
        if (root.program_file < 0)
            fail("open the program");
    }
    if (userns && (!user || !netns))
        usage("--userns needs --isolate user and --netns");
    int flags = CLONE_NEWNS | CLONE_NEWIPC | CLONE_NEWPID | (user ? CLONE_NEWUSER : 0);
    /* Without root, the network namespace belongs to the user namespace it was made in: joining
     * that one first gives this process the right to join it (as the user who made both). */
    if (userns) {
        int fd = open(userns, O_RDONLY | O_CLOEXEC);
        if (fd < 0 || setns(fd, CLONE_NEWUSER) < 0)
            fail("join the user namespace of the network namespace");
        close(fd);
    }
    if (netns) {
        int fd = open(netns, O_RDONLY | O_CLOEXEC);
        if (fd < 0 || setns(fd, CLONE_NEWNET) < 0)
            fail("join the network namespace");
        close(fd);
    } else {
        flags |= CLONE_NEWNET;
    }
    /* This process's own ids, as the user namespace it is in sees them. */
    uid_t own_uid = geteuid();
    gid_t own_gid = getegid();
    if (unshare(flags) < 0)
        fail("unshare");
    if (user) {
        map_ids(own_uid, own_gid);
        plan.drop_capabilities = 1;
    }

    /* The init reports how the program ended on `status`; it sees `alive` close if this
     * process dies. */
    int status_pipe[2], alive_pipe[2];
    if (pipe2(status_pipe, O_CLOEXEC) < 0 || pipe2(alive_pipe, O_CLOEXEC) < 0)
        fail("pipe");
    pid_t init = fork();
    if (init < 0)
        fail("fork the namespace's init");
    if (init == 0) {
        close(status_pipe[0]);
        close(alive_pipe[1]);
        if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0)
            fail("prctl");
        struct pollfd parent_end = {alive_pipe[0], POLLIN, 0};
        if (poll(&parent_end, 1, 0) > 0)
            _exit(SETUP_FAILED);
        limit_shared_memory(shm ? shm : root.shm_size);
        build_root(&root);
        wiped_count = argc;
        wiped = argv;
        if (report_file >= 0)
            close(report_file);
        watch.parent_gone = alive_pipe[0];
        watch.whole_namespace = 1;
        struct ending ending = run_program(&plan, &watch);
        if (ending.status == -1 || write(status_pipe[1], &ending, sizeof ending) != sizeof ending)
            _exit(SETUP_FAILED);
        _exit(0);
    }
    close(status_pipe[1]);
    close(alive_pipe[0]);
    if (root.program_file >= 0)
        close(root.program_file);
    for (int i = 0; i < plan.cgroup_count; i++)
        close(plan.cgroups[i]);
    int init_status = 0;
    struct ending ending;
    while (waitpid(init, &init_status, 0) < 0)
        if (errno != EINTR)
            fail("wait for the namespace's init");
    /* No status: the init itself failed (its message is on stderr) or was killed. */
    if (read(status_pipe[0], &ending, sizeof ending) != sizeof ending)
        end_like(init_status);
    report(report_file, &ending);
    end_like(ending.status);
    return SETUP_FAILED;
}
