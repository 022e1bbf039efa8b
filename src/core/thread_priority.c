/* thread_priority.c — see thread_priority.h. Linux keeps a nice value per thread (setpriority on the
 * thread id); the process's own value is the base, so a game started under `nice` stays below it. */
#define _GNU_SOURCE
#include "strata/thread_priority.h"

#include <stdlib.h>

#if defined(__linux__)
#include <errno.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

void thread_make_background(void)
{
#if defined(__linux__)
    int delta = THREAD_BACKGROUND_NICE;
    const char *env = getenv("STRATA_WORKER_NICE");
    if (env && *env) {
        char *end = NULL;
        long v = strtol(env, &end, 10);
        if (end && *end == '\0' && v >= 0 && v <= 19) delta = (int)v;
    }
    if (delta == 0) return;
    pid_t tid = (pid_t)syscall(SYS_gettid);
    errno = 0;
    int current = getpriority(PRIO_PROCESS, (id_t)tid);
    if (current == -1 && errno != 0) return;
    int target = current + delta > 19 ? 19 : current + delta;
    (void)setpriority(PRIO_PROCESS, (id_t)tid, target);
#endif
}
