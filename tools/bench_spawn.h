/* bench_spawn.h — starting the game from strata-bench without fork (see bench_spawn.c). */
#ifndef STRATA_BENCH_SPAWN_H
#define STRATA_BENCH_SPAWN_H

#include <stdbool.h>
#include <sys/types.h>

#define BENCH_SPAWN_NULL (-2)   /* an output slot sent to /dev/null; -1 keeps strata-bench's own */

typedef struct {
    int out_fd, err_fd;            /* the child's stdout and stderr: an fd, -1 (inherit) or BENCH_SPAWN_NULL */
    int close_fd;                  /* an fd the child must not keep (a pipe's other end), or -1 */
    const char *dir;               /* the child's working folder, or NULL */
    const char *const *env;        /* "NAME=value" settings added to (or replacing in) strata-bench's, NULL-ended */
} BenchSpawn;

/* Starts `path` with `argv` (NULL-ended); the child's pid, or -1 (errno set). */
pid_t bench_spawn(const char *path, char *const argv[], const BenchSpawn *how);

/* Waits for `pid` at most `seconds` (killing it then); whether it exited with status 0. *status gets its
 * wait status when not NULL. */
bool bench_spawn_wait(pid_t pid, double seconds, int *status);

#endif
