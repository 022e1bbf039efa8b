/* test_run.h — running a real binary from a test (the game, a tool) and capturing what it printed.
 *
 * Header-only (static functions); a test includes it after defining _GNU_SOURCE or _POSIX_C_SOURCE.
 * Ownership: the output lands in the caller's buffer and in the file it names (the caller's temporary folder).
 * Threads: main thread of a test only (it forks). */
#ifndef STRATA_TEST_RUN_H
#define STRATA_TEST_RUN_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

/* Runs argv[0] with argv (NULL-terminated) in a child whose stdout and stderr go to out_path, then reads
 * that file into out (NUL-terminated, cut at size - 1). `env` lists NAME, VALUE, NAME, VALUE, ..., NULL to
 * set in the child (NULL: none). Under ASan, Mesa and SDL leak a few driver allocations from modules
 * unloaded at exit, so LSAN_OPTIONS defaults to exitcode=0 (leaks are still printed, and a test may look
 * for Strata's own frames in them). A child still running after 400 s is killed, so a hung game fails
 * the test instead of hanging it. Returns the exit code, or 128 + the signal that killed it. */
static inline int test_run_capture(char *const argv[], const char *out_path, char *out, size_t size,
                                   const char *const *env)
{
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
            close(fd);
        }
        setenv("LSAN_OPTIONS", "exitcode=0", 0);
        for (int i = 0; env && env[i] && env[i + 1]; i += 2) setenv(env[i], env[i + 1], 1);
        alarm(400);
        execv(argv[0], argv);
        _exit(127);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    out[0] = 0;
    FILE *f = fopen(out_path, "rb");
    if (f) {
        size_t n = fread(out, 1, size - 1, f);
        out[n] = 0;
        fclose(f);
    }
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

#endif
