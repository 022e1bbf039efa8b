/* huge_pages.c — see huge_pages.h. */
#define _GNU_SOURCE
#include "strata/huge_pages.h"
#include "strata/thread_name.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define HUGE_TUNABLE "glibc.malloc.hugetlb=1"
#define ONE_ARENA_TUNABLE "glibc.malloc.arena_max=1"
/* "SECONDS NAME": CLOCK_MONOTONIC seconds of the start before the re-execution, and the process's name then (the
 * kernel names a process after the file it executes: "exe" for /proc/self/exe, which ps, top and pgrep would show) */
#define HUGE_STARTED_ENV "STRATA_FIRST_START"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define HUGE_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define HUGE_SANITIZED 1
#endif
#endif
#ifndef HUGE_SANITIZED
#define HUGE_SANITIZED 0
#endif

static double head_seconds;

static double monotonic_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The start before the re-execution, read once and taken out of the environment (a child the process starts
 * must not count from it); the process takes back the name it had. */
static void take_first_start(void)
{
    const char *text = getenv(HUGE_STARTED_ENV);
    if (!text) return;
    char *end = NULL;
    double started = strtod(text, &end);
    double now = monotonic_seconds();
    if (end && end != text && *end == ' ' && started > 0.0 && started <= now && now - started < 60.0) {
        head_seconds = now - started;
        if (end[1]) thread_name_self(end + 1, -1);   /* the main thread's name is the process's */
    }
    unsetenv(HUGE_STARTED_ENV);
}

bool process_huge_pages_offered(void)
{
    FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
    if (!f) return false;
    char mode[128] = {0};
    bool offered = fgets(mode, sizeof mode, f) && !strstr(mode, "[never]");
    fclose(f);
    return offered;
}

void process_prefer_huge_pages(char **argv)
{
    take_first_start();
#if defined(__linux__)
    if (HUGE_SANITIZED || !argv || !argv[0]) return;
    const char *choice = getenv("STRATA_HUGE_PAGES");
    if (choice && !strcmp(choice, "0")) return;
    const char *preload = getenv("LD_PRELOAD");
    if (preload && strstr(preload, "vgpreload")) return; /* under valgrind, which would not follow the exec */
    const char *tunables = getenv("GLIBC_TUNABLES");
    if (tunables && strstr(tunables, "glibc.malloc.hugetlb")) return; /* set (by us, or chosen by the user) */
    if (!process_huge_pages_offered()) return;
    char before[1024] = {0}, value[1100], started[64], name[16];
    if (tunables && strlen(tunables) >= sizeof before) return;
    if (tunables) memcpy(before, tunables, strlen(tunables) + 1);
    bool arenas_chosen = strstr(before, "glibc.malloc.arena_max") != NULL;
    snprintf(value, sizeof value, "%s%s%s%s%s", before, before[0] ? ":" : "", HUGE_TUNABLE,
             arenas_chosen ? "" : ":", arenas_chosen ? "" : ONE_ARENA_TUNABLE);
    thread_name_get(name);   /* the process's name: this is its main thread */
    snprintf(started, sizeof started, "%.9f %s", monotonic_seconds(), name);
    if (setenv("GLIBC_TUNABLES", value, 1) == 0 && setenv(HUGE_STARTED_ENV, started, 1) == 0)
        execv("/proc/self/exe", argv);
    /* No re-execution (no /proc, say): go on as started. */
    if (tunables) setenv("GLIBC_TUNABLES", before, 1);
    else unsetenv("GLIBC_TUNABLES");
    unsetenv(HUGE_STARTED_ENV);
#endif
}

double process_start_head_seconds(void)
{
    return head_seconds;
}
