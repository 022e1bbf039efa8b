/* test_huge_pages.c — process_prefer_huge_pages starts the binary again, once, with glibc's malloc on huge
 * pages and one arena: the same pid and arguments, GLIBC_TUNABLES holding glibc.malloc.hugetlb=1 and
 * glibc.malloc.arena_max=1 (an arena count already chosen is kept), the first start's time handed over and
 * taken out of the environment. Nothing changes with STRATA_HUGE_PAGES=0, when the tunable is already set,
 * under valgrind, under a sanitizer, or where the kernel offers no transparent huge pages.
 *
 * The parent runs this binary as a child with "probe": the child calls process_prefer_huge_pages and writes
 * what it sees (tunables, head seconds, the hand-over variable, its pid, its last argument and the name the
 * kernel shows for it) to a file. */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "strata/huge_pages.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifndef SANITIZED
#define SANITIZED 0
#endif

static char report_path[256];

static int probe_main(char **argv)
{
    process_prefer_huge_pages(argv);
    void *block = malloc(4 << 20); /* malloc still works after the re-execution */
    if (block) memset(block, 1, 4 << 20);
    FILE *f = fopen(argv[2], "w");
    if (!f) return 3;
    const char *t = getenv("GLIBC_TUNABLES"), *first = getenv("STRATA_FIRST_START");
    char comm[64] = "(unknown)";
    FILE *c = fopen("/proc/self/comm", "r");
    if (c) {
        if (!fgets(comm, sizeof comm, c)) snprintf(comm, sizeof comm, "(unread)");
        comm[strcspn(comm, "\n")] = 0;
        fclose(c);
    }
    fprintf(f, "tunables=%s\nhead=%.6f\nfirst=%s\npid=%ld\nlast=%s\ncomm=%s\n", t ? t : "(none)",
            process_start_head_seconds(), first ? first : "(none)", (long)getpid(), argv[3], comm);
    fclose(f);
    free(block);
    return 0;
}

typedef struct Probe {
    char tunables[512], first[64], last[64], comm[64];
    double head;
    long pid, child;
} Probe;

/* Runs the probe with the given environment changes (NAME=VALUE, or NAME alone to unset). */
static bool run_probe(const char *self, const char *const *env, Probe *out)
{
    memset(out, 0, sizeof *out);
    unlink(report_path);
    pid_t pid = fork();
    if (pid < 0) return false;
    if (pid == 0) {
        unsetenv("GLIBC_TUNABLES");
        unsetenv("STRATA_HUGE_PAGES");
        unsetenv("STRATA_FIRST_START");
        for (int i = 0; env && env[i]; i++) {
            const char *eq = strchr(env[i], '=');
            if (!eq) {
                unsetenv(env[i]);
                continue;
            }
            char name[64];
            snprintf(name, sizeof name, "%.*s", (int)(eq - env[i]), env[i]);
            setenv(name, eq + 1, 1);
        }
        execl(self, self, "probe", report_path, "arg with spaces", (char *)NULL);
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    out->child = pid;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return false;
    FILE *f = fopen(report_path, "r");
    if (!f) return false;
    char line[600];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        if (!strncmp(line, "tunables=", 9)) snprintf(out->tunables, sizeof out->tunables, "%.500s", line + 9);
        else if (!strncmp(line, "head=", 5)) out->head = atof(line + 5);
        else if (!strncmp(line, "first=", 6)) snprintf(out->first, sizeof out->first, "%.60s", line + 6);
        else if (!strncmp(line, "pid=", 4)) out->pid = atol(line + 4);
        else if (!strncmp(line, "last=", 5)) snprintf(out->last, sizeof out->last, "%.60s", line + 5);
        else if (!strncmp(line, "comm=", 5)) snprintf(out->comm, sizeof out->comm, "%.60s", line + 5);
    }
    fclose(f);
    return true;
}

static const char *self;
static char expected_comm[16];   /* the kernel's name for this binary: its file name's first 15 bytes */

static void test_restarts_once_with_the_tunables(void)
{
    Probe p;
    CHECK(run_probe(self, NULL, &p));
    CHECK_EQ_INT(p.pid, p.child);               /* exec keeps the process */
    CHECK(!strcmp(p.last, "arg with spaces"));  /* and its arguments */
    CHECK(!strcmp(p.first, "(none)"));          /* the hand-over is taken out of the environment */
    /* ps, top and pgrep show the process under its own name, not /proc/self/exe's "exe" */
    CHECK(!strcmp(p.comm, expected_comm));
    if (SANITIZED || !process_huge_pages_offered()) {
        CHECK(!strcmp(p.tunables, "(none)"));
        CHECK(p.head == 0.0);
        return;
    }
    CHECK(!strcmp(p.tunables, "glibc.malloc.hugetlb=1:glibc.malloc.arena_max=1"));
    CHECK(p.head > 0.0 && p.head < 10.0);
}

static void test_keeps_the_users_tunables(void)
{
    if (SANITIZED || !process_huge_pages_offered()) return;
    Probe p;
    CHECK(run_probe(self, (const char *const[]){"GLIBC_TUNABLES=glibc.malloc.arena_max=4:glibc.malloc.tcache_count=9",
                                                NULL}, &p));
    CHECK(!strcmp(p.tunables, "glibc.malloc.arena_max=4:glibc.malloc.tcache_count=9:glibc.malloc.hugetlb=1"));
    CHECK(p.head > 0.0);
    CHECK(run_probe(self, (const char *const[]){"GLIBC_TUNABLES=glibc.malloc.tcache_count=9", NULL}, &p));
    CHECK(!strcmp(p.tunables, "glibc.malloc.tcache_count=9:glibc.malloc.hugetlb=1:glibc.malloc.arena_max=1"));
}

static void test_nothing_when_told_or_already_set(void)
{
    Probe p;
    CHECK(run_probe(self, (const char *const[]){"STRATA_HUGE_PAGES=0", NULL}, &p));
    CHECK(!strcmp(p.tunables, "(none)"));
    CHECK(p.head == 0.0);
    /* Valgrind's preload (a path that is not there: the loader only warns) means no exec: it would not follow. */
    CHECK(run_probe(self, (const char *const[]){"LD_PRELOAD=/nonexistent/vgpreload_memcheck-amd64-linux.so", NULL}, &p));
    CHECK(!strcmp(p.tunables, "(none)"));
    CHECK(p.head == 0.0);
    CHECK(run_probe(self, (const char *const[]){"GLIBC_TUNABLES=glibc.malloc.hugetlb=0", NULL}, &p));
    CHECK(!strcmp(p.tunables, "glibc.malloc.hugetlb=0"));   /* the user's choice stands */
    CHECK(p.head == 0.0);
    /* A hand-over variable left in the environment by a parent is dropped and counts for nothing. */
    CHECK(run_probe(self, (const char *const[]){"GLIBC_TUNABLES=glibc.malloc.hugetlb=1", "STRATA_FIRST_START=1.0",
                                                NULL}, &p));
    CHECK(!strcmp(p.first, "(none)"));
    CHECK(p.head == 0.0);
    CHECK(run_probe(self, (const char *const[]){"GLIBC_TUNABLES=glibc.malloc.hugetlb=1", "STRATA_FIRST_START=1.0 spoof",
                                                NULL}, &p));
    CHECK(!strcmp(p.first, "(none)"));
    CHECK(p.head == 0.0);
    CHECK(!strcmp(p.comm, expected_comm));   /* a stale name is not taken either */
}

int main(int argc, char **argv)
{
    if (argc == 4 && !strcmp(argv[1], "probe")) return probe_main(argv);
    self = "/proc/self/exe";
    char exe[256];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = 0;
        self = exe;
    }
    const char *base = strrchr(self, '/');
    snprintf(expected_comm, sizeof expected_comm, "%s", base ? base + 1 : self);
    snprintf(report_path, sizeof report_path, "/tmp/strata_huge_pages_%ld.txt", (long)getpid());
    RUN(test_restarts_once_with_the_tunables);
    RUN(test_keeps_the_users_tunables);
    RUN(test_nothing_when_told_or_already_set);
    unlink(report_path);
    return check_report();
}
