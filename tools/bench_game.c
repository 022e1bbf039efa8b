/* bench_game.c — strata-bench's game figures: launch to ready through the real game binary.
 *
 * Design: runs the `strata` executable found beside strata-bench (same build folder) with SDL's offscreen
 * video driver at 1280x720, an unsaved world of the bench's seed, and a two-line script (wait_ready, quit),
 * and reads the "launch to ready: S s" line the game logs when its loading screen ends: window creation,
 * renderer start-up, generation and uploads included. Each figure is the median of BENCH_GAME_RUNS runs. A
 * missing binary or a game that cannot start (no GL here) gives -1 and a warning, not a failure: the engine's
 * figures stand on their own. */
#include "bench_game.h"
#include "bench_spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define BENCH_GAME_RUNS 3
#define BENCH_GAME_OUTPUT 65536

void bench_game_binary(char *out, size_t size)
{
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    out[0] = 0;
    if (n <= 0) return;
    self[n] = 0;
    char *slash = strrchr(self, '/');
    if (!slash) return;
    slash[1] = 0;
    snprintf(out, size, "%sstrata", self);
}

/* One run: the logged launch-to-ready seconds in *ms (milliseconds), or -1 on failure. */
static void bench_game_run(const char *binary, const char *script, unsigned long long seed, int view_distance,
                           double *ms)
{
    *ms = -1.0;
    char log_path[] = "/tmp/strata-bench-game-XXXXXX";
    int fd = mkstemp(log_path);
    if (fd < 0) return;
    char seed_text[32], vd_text[16];
    snprintf(seed_text, sizeof seed_text, "%lld", (long long)seed); /* the game reads it back as an integer */
    snprintf(vd_text, sizeof vd_text, "%d", view_distance);
    char *argv[] = {(char *)binary, "--no-save", "--seed", seed_text, "--view-distance", vd_text, "--width", "1280",
                    "--height", "720", "--script", (char *)script, NULL};
    const char *env[] = {"SDL_VIDEODRIVER=offscreen",
                         "XDG_CONFIG_HOME=/nonexistent/strata-bench", /* default settings, never the user's */
                         NULL};
    BenchSpawn how = {.out_fd = fd, .err_fd = fd, .close_fd = -1, .dir = NULL, .env = env};
    pid_t pid = bench_spawn(binary, argv, &how);
    close(fd);
    if (pid < 0) {
        unlink(log_path);
        return;
    }
    int status = 0;
    bench_spawn_wait(pid, 900.0, &status);
    static char text[BENCH_GAME_OUTPUT];
    FILE *f = fopen(log_path, "rb");
    size_t len = 0;
    if (f) {
        len = fread(text, 1, sizeof text - 1, f);
        fclose(f);
    }
    text[len] = 0;
    unlink(log_path);
    const char *hit = strstr(text, "launch to ready: ");
    double seconds = 0.0;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || !hit ||
        sscanf(hit + strlen("launch to ready: "), "%lf", &seconds) != 1) {
        const char *last = len > 400 ? text + len - 400 : text;
        fprintf(stderr, "strata-bench: the game run failed (view distance %d); its output ends:\n%s\n", view_distance,
                last);
        return;
    }
    *ms = seconds * 1000.0;
}

static int bench_game_compare(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double bench_game_ready_ms(unsigned long long seed, int view_distance)
{
    char binary[PATH_MAX + 16];
    bench_game_binary(binary, sizeof binary);
    if (!binary[0] || access(binary, X_OK) != 0) {
        fprintf(stderr, "strata-bench: no game binary beside strata-bench (%s): game_ready_ms is -1\n",
                binary[0] ? binary : "unknown folder");
        return -1.0;
    }
    char script[] = "/tmp/strata-bench-script-XXXXXX";
    int fd = mkstemp(script);
    if (fd < 0) return -1.0;
    static const char text[] = "wait_ready\nquit\n";
    ssize_t written = write(fd, text, sizeof text - 1);
    close(fd);
    if (written != (ssize_t)(sizeof text - 1)) {
        unlink(script);
        return -1.0;
    }
    double runs[BENCH_GAME_RUNS];
    int n = 0;
    for (int i = 0; i < BENCH_GAME_RUNS; i++) {
        double ms;
        bench_game_run(binary, script, seed, view_distance, &ms);
        if (ms < 0.0) break; /* a failing game fails every time: do not wait for it twice more */
        runs[n++] = ms;
    }
    unlink(script);
    if (n == 0) return -1.0;
    qsort(runs, (size_t)n, sizeof runs[0], bench_game_compare);
    return runs[n / 2];
}
