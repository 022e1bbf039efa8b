/* test_bench_flight.c — the game's flight benchmark end to end: `strata --bench-flight --bench-seconds 3
 * --json FILE` (offscreen, small window, view distance 4, no far terrain) writes one well-formed JSON object
 * with every documented key and sane values: frames measured, ordered percentiles, the main thread's CPU time
 * within its wall time, triangles drawn, and the arena batching at work (one call per pass and arena, far
 * fewer than the per-chunk draws). No timing threshold. Exit 77 (skip) when no GL context can be made here. */
#include "check.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char out_text[65536];

static double key(const cJSON *root, const char *name)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(root, name);
    CHECK(cJSON_IsNumber(item));
    if (!cJSON_IsNumber(item)) fprintf(stderr, "missing or not a number: %s\n", name);
    return cJSON_IsNumber(item) ? item->valuedouble : -1.0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_bench_flight STRATA_BINARY\n");
        return 2;
    }
    char json_path[] = "/tmp/strata-test-flight-XXXXXX", log_path[] = "/tmp/strata-test-flight-log-XXXXXX";
    int jfd = mkstemp(json_path), lfd = mkstemp(log_path);
    CHECK(jfd >= 0 && lfd >= 0);
    if (jfd < 0 || lfd < 0) return check_report();
    close(jfd);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(lfd, 1);
        dup2(lfd, 2);
        setenv("XDG_CONFIG_HOME", "/nonexistent/strata-test", 1); /* default settings */
        /* Under ASan, Mesa and LLVM leak driver allocations from modules unloaded at exit (as in the e2e tests):
         * they are reported, but do not change the exit code; the check below fails on a leak in Strata's code. */
        setenv("LSAN_OPTIONS", "exitcode=0", 0);
        execl(argv[1], argv[1], "--bench-flight", "--bench-seconds", "3", "--json", json_path, "--view-distance", "4",
              "--far-distance", "0", "--width", "640", "--height", "360", (char *)NULL);
        _exit(127);
    }
    close(lfd);
    int status = 0;
    while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    FILE *lf = fopen(log_path, "rb");
    size_t n = lf ? fread(out_text, 1, sizeof out_text - 1, lf) : 0;
    if (lf) fclose(lf);
    out_text[n] = 0;
    unlink(log_path);
    int rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    if (rc == 1 && (strstr(out_text, "cannot create an OpenGL") || strstr(out_text, "cannot initialise SDL video") ||
                    strstr(out_text, "cannot create the window"))) {
        fprintf(stderr, "skip: no GL context here:\n%s\n", out_text);
        unlink(json_path);
        return 77;
    }
    CHECK_EQ_INT(rc, 0);
    CHECK_STR_CONTAINS(out_text, "flight benchmark, seed 1");
    const char *leak = strstr(out_text, "LeakSanitizer");
    if (leak) {   /* frames in the source tree's src/ or tools/ (this file is <root>/tests/test_bench_flight.c) */
        char root[512], ours[600];
        snprintf(root, sizeof root, "%s", __FILE__);
        char *cut = strstr(root, "tests/test_bench_flight.c");
        if (cut) *cut = 0;
        snprintf(ours, sizeof ours, "%ssrc/", root);
        bool strata_src = strstr(leak, ours) != NULL;
        snprintf(ours, sizeof ours, "%stools/", root);
        CHECK(!strata_src && !strstr(leak, ours));
    }
    static char json[16384];
    FILE *jf = fopen(json_path, "rb");
    size_t len = jf ? fread(json, 1, sizeof json - 1, jf) : 0;
    if (jf) fclose(jf);
    json[len] = 0;
    unlink(json_path);
    cJSON *root = cJSON_Parse(json);
    CHECK(cJSON_IsObject(root));
    if (!cJSON_IsObject(root)) {
        fprintf(stderr, "not a JSON object: '%s'\ngame output:\n%s\n", json, out_text);
        return check_report();
    }
    const cJSON *mode = cJSON_GetObjectItemCaseSensitive(root, "mode");
    CHECK(cJSON_IsString(mode) && strcmp(mode->valuestring, "flight") == 0);
    CHECK_EQ_INT(key(root, "seed"), 1);
    CHECK_EQ_INT(key(root, "width"), 640);
    CHECK_EQ_INT(key(root, "view_distance"), 4);
    double frames = key(root, "frames");
    CHECK(frames >= 1);
    CHECK(key(root, "seconds") >= 3.0);
    double p50 = key(root, "frame_ms_p50"), p95 = key(root, "frame_ms_p95"), p99 = key(root, "frame_ms_p99");
    double max = key(root, "frame_ms_max");
    CHECK(p50 > 0.0 && p50 <= p95 && p95 <= p99 && p99 <= max);
    /* every frame's thread CPU time lies within its wall time, so the medians keep that order too */
    double cpu = key(root, "main_cpu_ms_p50");
    CHECK(cpu > 0.0 && cpu <= p50 + 0.5);
    CHECK(key(root, "frames_over_100ms") >= 0 && key(root, "frames_over_100ms") <= frames);
    CHECK(key(root, "triangles_p50") > 0);
    double calls = key(root, "draw_calls_p50"), chunk_draws = key(root, "chunk_draws_p50");
    /* one arena; opaque, far leaves, cut-out, transparent, each clear of the fog and fogged, and the chunks
     * dissolving between resolutions in two builds more in the first three (none in the cut-out's half); no
     * far terrain */
    CHECK(calls >= 1 && calls <= 13);
    CHECK(chunk_draws > calls);                       /* a per-chunk renderer would have made these */
    CHECK(key(root, "backlog_max") >= 0);
    double holes = key(root, "holes_max");
    CHECK(holes >= 0 && holes <= 100);
    CHECK(key(root, "frames_with_holes") >= 0 && key(root, "frames_with_holes") <= frames);
    cJSON_Delete(root);
    if (check_failed_) fprintf(stderr, "json: %s\ngame output:\n%s\n", json, out_text);
    return check_report();
}
