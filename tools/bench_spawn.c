/* bench_spawn.c — starting the game from strata-bench without fork.
 *
 * Design. strata-bench runs the game binary beside it for its game figures (bench_game.c, bench_flight.c,
 * bench_edit.c, bench_memory.c) and keeps working in the same process afterwards. A fork() marks every
 * private page of strata-bench copy-on-write until the child execs, and the pages stay write-protected in
 * the parent: the next benchmark then paid a page fault on the first write to each page it reuses (perf:
 * world_ready_ms after the editing benchmark's game run spent ~15% of its time in such faults, on pooled chunk
 * scratches, which the real game never pays). posix_spawn (glibc: clone with CLONE_VM | CLONE_VFORK) copies
 * no page tables, so no figure depends on which benchmark ran before it. The child's set-up is what
 * posix_spawn's file actions can do: its output files, one fd closed, its working folder; its environment is
 * strata-bench's with the given settings. */
#define _GNU_SOURCE
#include "bench_spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* strata-bench's environment with `set` applied; a malloc'd NULL-ended array (strings not copied). */
static char **bench_spawn_environment(const char *const *set)
{
    size_t have = 0, extra = 0;
    while (environ[have]) have++;
    while (set && set[extra]) extra++;
    char **env = malloc((have + extra + 1) * sizeof *env);
    if (!env) return NULL;
    size_t n = 0;
    for (size_t i = 0; i < have; i++) {
        bool replaced = false;
        for (size_t k = 0; k < extra && !replaced; k++) {
            size_t name = strcspn(set[k], "=");
            replaced = strncmp(environ[i], set[k], name + 1) == 0;
        }
        if (!replaced) env[n++] = environ[i];
    }
    for (size_t k = 0; k < extra; k++) env[n++] = (char *)set[k];
    env[n] = NULL;
    return env;
}

static int bench_spawn_output(posix_spawn_file_actions_t *fa, int fd, int slot)
{
    if (fd == BENCH_SPAWN_NULL) return posix_spawn_file_actions_addopen(fa, slot, "/dev/null", O_WRONLY, 0);
    if (fd >= 0) return posix_spawn_file_actions_adddup2(fa, fd, slot);
    return 0;
}

pid_t bench_spawn(const char *path, char *const argv[], const BenchSpawn *how)
{
    posix_spawn_file_actions_t fa;
    if (posix_spawn_file_actions_init(&fa) != 0) return -1;
    int rc = bench_spawn_output(&fa, how->out_fd, STDOUT_FILENO);
    if (rc == 0) rc = bench_spawn_output(&fa, how->err_fd, STDERR_FILENO);
    /* the sources of the copies are not the child's to keep (a pipe's end kept open would hide its end) */
    if (rc == 0 && how->out_fd > STDERR_FILENO) rc = posix_spawn_file_actions_addclose(&fa, how->out_fd);
    if (rc == 0 && how->err_fd > STDERR_FILENO && how->err_fd != how->out_fd)
        rc = posix_spawn_file_actions_addclose(&fa, how->err_fd);
    if (rc == 0 && how->close_fd >= 0) rc = posix_spawn_file_actions_addclose(&fa, how->close_fd);
    if (rc == 0 && how->dir) rc = posix_spawn_file_actions_addchdir_np(&fa, how->dir);
    char **env = rc == 0 ? bench_spawn_environment(how->env) : NULL;
    pid_t pid = -1;
    if (rc == 0 && !env) rc = ENOMEM;
    if (rc == 0) rc = posix_spawn(&pid, path, &fa, NULL, argv, env);
    free(env);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) {
        errno = rc;
        return -1;
    }
    return pid;
}

bool bench_spawn_wait(pid_t pid, double seconds, int *status)
{
    int st = 0;
    struct timespec start, now, tick = {0, 10 * 1000 * 1000};
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (;;) {
        pid_t r = waitpid(pid, &st, WNOHANG);
        if (r == pid) break;
        if (r < 0 && errno != EINTR) {
            if (status) *status = 0;
            return false;
        }
        clock_gettime(CLOCK_MONOTONIC, &now);
        if ((double)(now.tv_sec - start.tv_sec) + (double)(now.tv_nsec - start.tv_nsec) / 1e9 > seconds) {
            kill(pid, SIGKILL);
            while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
            if (status) *status = st;
            return false;
        }
        nanosleep(&tick, NULL);
    }
    if (status) *status = st;
    return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}
