/* test_thread_priority.c — a background thread runs below the thread that started it: on Linux its own nice
 * value rises by THREAD_BACKGROUND_NICE (or STRATA_WORKER_NICE), capped at 19, and the starting thread's
 * stays as it was. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "check.h"
#include "strata/thread_priority.h"

static int own_nice(void)
{
    errno = 0;
    return getpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid));
}

static int seen_before, seen_after;

static void *background(void *arg)
{
    (void)arg;
    seen_before = own_nice();
    thread_make_background();
    seen_after = own_nice();
    return NULL;
}

static void run_thread(void)
{
    pthread_t t;
    CHECK_EQ_INT(pthread_create(&t, NULL, background, NULL), 0);
    pthread_join(t, NULL);
}

static void test_background_thread_lowers_itself(void)
{
    int main_before = own_nice();
    unsetenv("STRATA_WORKER_NICE");
    run_thread();
    int want = seen_before + THREAD_BACKGROUND_NICE > 19 ? 19 : seen_before + THREAD_BACKGROUND_NICE;
    CHECK_EQ_INT(seen_after, want);
    CHECK_EQ_INT(own_nice(), main_before);
    /* the environment's value, and 0 leaves the thread alone; a bad value falls back to the default */
    setenv("STRATA_WORKER_NICE", "2", 1);
    run_thread();
    CHECK_EQ_INT(seen_after, seen_before + 2 > 19 ? 19 : seen_before + 2);
    setenv("STRATA_WORKER_NICE", "0", 1);
    run_thread();
    CHECK_EQ_INT(seen_after, seen_before);
    setenv("STRATA_WORKER_NICE", "lots", 1);
    run_thread();
    CHECK_EQ_INT(seen_after, want);
    unsetenv("STRATA_WORKER_NICE");
}

int main(void)
{
    RUN(test_background_thread_lowers_itself);
    return check_report();
}
