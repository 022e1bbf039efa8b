/* bench_flight.c — strata-bench --flight (bench_flight.h).
 *
 * Design: as bench_game.c, runs the `strata` executable beside strata-bench with SDL's offscreen driver and
 * default settings (XDG_CONFIG_HOME pointed nowhere), here in its benchmark modes, which write their report
 * as one flat JSON object (--json FILE); the figures are read back by key. The game does the measuring (its
 * own frames, its own thread's CPU time); this file only starts it and collects. */
#include "bench_flight.h"
#include "bench_game.h"
#include "bench_spawn.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define BENCH_FLIGHT_JSON_MAX 8192

/* A number after "key": in a flat JSON object, or -1. */
static double bench_flight_key(const char *json, const char *key)
{
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"%s\":", key);
    const char *hit = strstr(json, pattern);
    double v;
    if (!hit || sscanf(hit + strlen(pattern), " %lf", &v) != 1) return -1.0;
    return v;
}

/* Runs the game with `mode` and its flags; the report's text in json (empty on failure). */
static bool bench_flight_game(const char *binary, const char *mode, const char *seed, const char *far, char *json,
                              size_t size)
{
    json[0] = 0;
    char out_path[] = "/tmp/strata-bench-flight-XXXXXX", log_path[] = "/tmp/strata-bench-flight-log-XXXXXX";
    int out_fd = mkstemp(out_path);
    if (out_fd < 0) return false;
    close(out_fd);
    int log_fd = mkstemp(log_path);
    if (log_fd < 0) {
        unlink(out_path);
        return false;
    }
    char *argv[] = {(char *)binary, (char *)mode, "--seed", (char *)seed, "--far-distance", (char *)far,
                    "--view-distance", "8", "--width", "1280", "--height", "720", "--json", out_path, NULL};
    const char *env[] = {"SDL_VIDEODRIVER=offscreen",
                         "XDG_CONFIG_HOME=/nonexistent/strata-bench", /* default settings, never the user's */
                         NULL};
    BenchSpawn how = {.out_fd = log_fd, .err_fd = log_fd, .close_fd = -1, .dir = NULL, .env = env};
    pid_t pid = bench_spawn(binary, argv, &how);
    close(log_fd);
    bool ok = pid > 0 && bench_spawn_wait(pid, 900.0, NULL);
    FILE *f = fopen(out_path, "rb");
    size_t len = 0;
    if (f) {
        len = fread(json, 1, size - 1, f);
        fclose(f);
    }
    json[len] = 0;
    if (!ok || len == 0) {
        static char tail[BENCH_FLIGHT_JSON_MAX];
        FILE *lf = fopen(log_path, "rb");
        size_t n = 0;
        if (lf) {
            fseek(lf, 0, SEEK_END);
            long end = ftell(lf);
            fseek(lf, end > 600 ? end - 600 : 0, SEEK_SET);
            n = fread(tail, 1, sizeof tail - 1, lf);
            fclose(lf);
        }
        tail[n] = 0;
        fprintf(stderr, "strata-bench: the game's %s run failed; its output ends:\n%s\n", mode, tail);
        json[0] = 0;
        ok = false;
    }
    unlink(out_path);
    unlink(log_path);
    return ok;
}

void bench_flight_unmeasured(BenchFlightResults *r)
{
    double *v = (double *)r;
    for (size_t i = 0; i < sizeof *r / sizeof(double); i++) v[i] = -1.0;
}

bool bench_flight_run(BenchFlightResults *r)
{
    bench_flight_unmeasured(r);
    char binary[PATH_MAX + 16];
    bench_game_binary(binary, sizeof binary);
    if (!binary[0] || access(binary, X_OK) != 0) {
        fprintf(stderr, "strata-bench: no game binary beside strata-bench (%s): the flight figures are -1\n",
                binary[0] ? binary : "unknown folder");
        return false;
    }
    static char json[BENCH_FLIGHT_JSON_MAX];
    bool flown = bench_flight_game(binary, "--bench-flight", "1", "2048", json, sizeof json);
    if (flown) {
        r->frame_ms_p50 = bench_flight_key(json, "frame_ms_p50");
        r->frame_ms_p95 = bench_flight_key(json, "frame_ms_p95");
        r->frame_ms_p99 = bench_flight_key(json, "frame_ms_p99");
        r->frame_ms_max = bench_flight_key(json, "frame_ms_max");
        r->frames_over_100ms = bench_flight_key(json, "frames_over_100ms");
        r->main_cpu_ms_p50 = bench_flight_key(json, "main_cpu_ms_p50");
        r->draw_calls_p50 = bench_flight_key(json, "draw_calls_p50");
        r->chunk_draws_p50 = bench_flight_key(json, "chunk_draws_p50");
        r->triangles_p50 = bench_flight_key(json, "triangles_p50");
        r->backlog_max = bench_flight_key(json, "backlog_max");
        r->holes_max = bench_flight_key(json, "holes_max");
    }
    if (bench_flight_game(binary, "--bench-frames", "42", "0", json, sizeof json))
        r->fps_spawn_vd8 = bench_flight_key(json, "fps");
    if (bench_flight_game(binary, "--bench-frames", "42", "2048", json, sizeof json))
        r->fps_spawn_vd8_far2k = bench_flight_key(json, "fps");
    return flown;
}

void bench_flight_print_json(FILE *f, const BenchFlightResults *r)
{
    fprintf(f, ", \"frame_ms_p50\": %.2f, \"frame_ms_p95\": %.2f, \"frame_ms_p99\": %.2f, \"frame_ms_max\": %.2f, "
               "\"frames_over_100ms\": %.0f, \"main_cpu_ms_p50\": %.2f, \"draw_calls_p50\": %.0f, "
               "\"chunk_draws_p50\": %.0f, \"triangles_p50\": %.0f, \"backlog_max\": %.0f, \"holes_max\": %.0f, "
               "\"fps_spawn_vd8\": %.2f, \"fps_spawn_vd8_far2k\": %.2f",
            r->frame_ms_p50, r->frame_ms_p95, r->frame_ms_p99, r->frame_ms_max, r->frames_over_100ms,
            r->main_cpu_ms_p50, r->draw_calls_p50, r->chunk_draws_p50, r->triangles_p50, r->backlog_max,
            r->holes_max, r->fps_spawn_vd8, r->fps_spawn_vd8_far2k);
}

void bench_flight_print_table(FILE *f, const BenchFlightResults *r)
{
    fprintf(f, "  %-28s %10.1f / %.1f / %.1f / %.1f ms (%.0f over 100 ms)\n", "flight frame p50/p95/p99/max",
            r->frame_ms_p50, r->frame_ms_p95, r->frame_ms_p99, r->frame_ms_max, r->frames_over_100ms);
    fprintf(f, "  %-28s %10.1f ms\n", "flight main-thread CPU p50", r->main_cpu_ms_p50);
    fprintf(f, "  %-28s %10.0f (per-chunk draws %.0f)\n", "flight draw calls p50", r->draw_calls_p50,
            r->chunk_draws_p50);
    fprintf(f, "  %-28s %10.0f\n", "flight triangles p50", r->triangles_p50);
    fprintf(f, "  %-28s %10.0f chunks, holes %.0f\n", "flight backlog max", r->backlog_max, r->holes_max);
    fprintf(f, "  %-28s %10.1f fps (far 2 km: %.1f)\n", "seed 42 spawn, vd 8", r->fps_spawn_vd8,
            r->fps_spawn_vd8_far2k);
}
