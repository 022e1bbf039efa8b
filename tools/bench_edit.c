/* bench_edit.c — the editing benchmark: loads a 9x9-chunk area (non-threaded worker), then times on the main
 * thread only (no worker steps inside the timing) compile + paint of a radius-16 sphere, the undo of that
 * stroke, and a radius-16 flatten to 4 blocks below the surface, each 9 times (undone between runs).
 * edit_visible_frames needs the whole game (worker, renderer, uploads): it runs the `strata` binary that
 * sits beside this one with SDL_VIDEODRIVER=offscreen and a script of three brush_visible_within strokes
 * (each undone), and parses the "brush visible after K frames" lines; the game paces those frames at 60 Hz,
 * so K is what a player at 60 FPS sees. */
#define _GNU_SOURCE
#include "bench_edit.h"
#include "bench_spawn.h"

#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "strata/edit.h"
#include "strata/shapes.h"
#include "strata/terrain_tools.h"
#include "strata/update.h"

static double bench_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void drop(void *user, TerrainChunk *c, ChunkMesh *m) { (void)user; (void)c; chunk_mesh_destroy(m); }
static void keep(void *user, TerrainChunk *c) { (void)user; (void)c; }

StResult bench_edit_run(const Generator *gen, const BlockRegistry *blocks, BenchEditResults *out)
{
    Terrain *terrain = terrain_create();
    UpdaterConfig cfg = {.terrain = terrain, .generator = gen, .blocks = blocks, .sky_light = LIGHT_MAX, .threaded = false};
    TerrainUpdater *up = NULL;
    StResult rc = updater_create(&cfg, &up);
    if (rc != ST_OK) { terrain_destroy(terrain); return rc; }
    UpdateLocation loc = {.active = true, .x = 8, .z = 8, .visibility_chunks = 2, .content_chunks = 4};
    UpdaterCallbacks cb = {.mesh_ready = drop, .chunk_released = keep};
    updater_set_location(up, 0, &loc);
    for (int guard = 0; guard < 100000 && !updater_is_ready(up, 0); guard++) {
        updater_exchange(up, &cb);
        updater_run_steps(up, 64);
    }
    Editor *ed = NULL;
    EditorConfig ec = {.terrain = terrain, .updater = up, .blocks = blocks};
    if ((rc = editor_create(&ec, &ed)) != ST_OK) goto done;
    int surface = terrain_tool_surface_height(ed, 8, 8);
    enum { RUNS = 9 };
    double brush[RUNS], undo[RUNS], flat[RUNS];
    for (int i = 0; i < RUNS; i++) {
        double t0 = bench_now_us();
        ShapeSpec sp = {.kind = SHAPE_SPHERE, .sizes = {16}, .block = BLOCK_STONE};
        ShapeVolume v;
        if ((rc = shape_compile(&sp, &v)) != ST_OK) goto done;
        shape_paint(ed, &v, SHAPE_PAINT_REPLACE, 8, surface, 8);
        shape_volume_free(&v);
        brush[i] = bench_now_us() - t0;
        t0 = bench_now_us();
        editor_undo(ed);
        undo[i] = bench_now_us() - t0;
        updater_exchange(up, &cb);
        t0 = bench_now_us();
        terrain_tool_flatten(ed, 8, 8, 16, surface - 4, 1.0f, NULL);
        flat[i] = bench_now_us() - t0;
        editor_undo(ed);
        updater_exchange(up, &cb);
    }
    qsort(brush, RUNS, sizeof(double), cmp);
    qsort(undo, RUNS, sizeof(double), cmp);
    qsort(flat, RUNS, sizeof(double), cmp);
    out->brush_sphere_r16_us = brush[RUNS / 2];
    out->undo_r16_us = undo[RUNS / 2];
    out->flatten_r16_us = flat[RUNS / 2];
done:
    editor_destroy(ed);
    updater_destroy(up);
    terrain_destroy(terrain);
    return rc;
}

/* ---- edit_visible_frames: the real game, offscreen ---- */

static bool run_game(const char *game, const char *dir, const char *script, uint64_t seed, int view_distance,
                     const char *out_path)
{
    char seed_text[32], vd_text[16];
    snprintf(seed_text, sizeof seed_text, "%llu", (unsigned long long)seed);
    snprintf(vd_text, sizeof vd_text, "%d", view_distance);
    int fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) return false;
    char *argv[] = {(char *)game, "--seed", seed_text, "--view-distance", vd_text, "--width", "640", "--height", "400",
                    "--no-save", "--script", (char *)script, NULL};
    const char *env[] = {"SDL_VIDEODRIVER=offscreen", NULL};
    BenchSpawn how = {.out_fd = fd, .err_fd = fd, .close_fd = -1, .dir = dir, .env = env};
    pid_t pid = bench_spawn(game, argv, &how);
    close(fd);
    return pid > 0 && bench_spawn_wait(pid, 600.0, NULL);
}

void bench_edit_visible_frames(uint64_t seed, int view_distance, BenchEditResults *out)
{
    out->edit_visible_frames = -1;
    char self[4096];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len <= 0) return;
    self[len] = 0;
    char game[4200];
    snprintf(game, sizeof game, "%s/strata", dirname(self));
    if (access(game, X_OK) != 0) {
        fprintf(stderr, "strata-bench: edit_visible_frames: no game binary at %s (build the strata target)\n", game);
        return;
    }
    char dir[] = "/tmp/strata-bench-XXXXXX";
    if (!mkdtemp(dir)) return;
    char script[64], log_path[64];
    snprintf(script, sizeof script, "%s/visible.script", dir);
    snprintf(log_path, sizeof log_path, "%s/out.txt", dir);
    FILE *f = fopen(script, "w");
    if (f) {
        fputs("time 0.5\nwait_ready\nlook 0 -50\n"
              "brush_visible_within 100000 sphere 8 stone\nundo\n"
              "brush_visible_within 100000 sphere 8 stone\nundo\n"
              "brush_visible_within 100000 sphere 8 stone\nquit\n", f);
        fclose(f);
    }
    bool ok = f && run_game(game, dir, script, seed, view_distance, log_path);
    double k[3];
    int n = 0;
    FILE *log = fopen(log_path, "r");
    char line[1024];
    while (log && fgets(line, sizeof line, log)) {
        const char *p = strstr(line, "brush visible after ");
        if (p && n < 3) k[n++] = strtod(p + strlen("brush visible after "), NULL);
    }
    if (log) fclose(log);
    if (ok && n == 3) {
        qsort(k, 3, sizeof(double), cmp);
        out->edit_visible_frames = k[1];
    } else {
        fprintf(stderr, "strata-bench: edit_visible_frames: the game did not measure 3 strokes (see %s)\n", log_path);
        return; /* keep the folder for a look */
    }
    unlink(script);
    unlink(log_path);
    rmdir(dir);
}
