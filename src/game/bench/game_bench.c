/* game_bench.c — the game's benchmark modes: --bench-flight and --bench-frames.
 *
 * Design: the benchmark drives the player (the camera) itself, in real time (no lockstep): it waits until the world around
 * the spawn is ready and settled (loading screen gone, fade-ins over), then measures every frame for
 * opts.bench_seconds. --bench-flight flies a fixed path: from the spawn straight toward +X at
 * APP_BENCH_SPEED blocks per second of real time (a slow frame moves the camera further, as for a player),
 * APP_BENCH_CLEARANCE blocks over the higher of the ground below and the ground 32 blocks ahead (rising at
 * once, sinking slowly), looking APP_BENCH_PITCH down with the head sweeping +-25 degrees every 10 s.
 * --bench-frames stands still at the spawn. Per frame: wall time between swaps, the main thread's CPU time
 * (CLOCK_THREAD_CPUTIME_ID) and the whole process's (all threads: llvmpipe rasterizes on its own threads),
 * triangles and draw calls (RenderStats), the worker's backlog (chunks of the
 * view square not Valid with their mesh uploaded) and holes (chunks within APP_BENCH_HOLE_RANGE blocks in
 * the horizontal view wedge with no mesh to draw yet: a chunk meshed again, for an edit or for the copies it
 * now wants, draws its last mesh meanwhile). The report: percentiles, maxima and counts, as
 * JSON (--json) and a summary on stdout. */
#include "bench/game_bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "camera.h"
#include "strata/error.h"
#include "strata/log.h"

#define BENCH_TAG "bench"
#define APP_BENCH_SPEED 20.0          /* blocks per second */
#define APP_BENCH_CLEARANCE 30.0      /* blocks over the ground */
#define APP_BENCH_PITCH -20.0f
#define APP_BENCH_HOLE_RANGE 64.0     /* blocks ahead checked for holes */
#define APP_BENCH_LONG_FRAME_MS 100.0
#define APP_BENCH_SETTLE_CAP 20.0     /* seconds waited for fade-ins at most */

typedef struct BenchSample {
    float frame_ms, cpu_ms, process_ms;
    int draw_calls, backlog, holes, chunk_draws;
    long triangles;
} BenchSample;

struct GameBench {
    int phase;                    /* 0 waiting for the world, 1 measuring, 2 the --screenshot frame, 3 done */
    double start[3];
    float yaw0;
    double elapsed;               /* seconds measured */
    double settle;                /* seconds waited for fade-ins */
    double altitude;
    struct timespec wall_prev, cpu_prev, process_prev;
    BenchSample *samples;
    int count, capacity;
    double ready_seconds;         /* launch to the first measured frame */
};

static double bench_seconds_between(const struct timespec *a, const struct timespec *b)
{
    return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_nsec - a->tv_nsec) * 1e-9;
}

StResult game_bench_create(const CliOptions *opts, int width, int height, GameBench **out)
{
    *out = NULL;
    if (opts->bench == CLI_BENCH_NONE) return ST_OK;
    *out = calloc(1, sizeof **out);
    if (!*out) return st_fail(ST_ERR_NOMEM, "benchmark: out of memory");
    log_info(BENCH_TAG, "%s benchmark: seed %llu, view distance %d, far terrain %d blocks, %d s at %dx%d",
             opts->bench == CLI_BENCH_FLIGHT ? "flight" : "frames", (unsigned long long)opts->seed,
             opts->view_distance, opts->far_distance, opts->bench_seconds, width, height);
    return ST_OK;
}

void game_bench_destroy(GameBench *b)
{
    if (!b) return;
    free(b->samples);
    free(b);
}

/* The highest solid block of a column (main-thread view), or -1 where its chunk has no contents yet. */
static int bench_ground(const WorldSession *ws, int x, int z)
{
    for (int y = CHUNK_SIZE_Y - 1; y >= 0; y--)
        if (world_session_block_at(ws, x, y, z) != BLOCK_AIR) return y;
    return -1;
}

static void bench_place_camera(GameBench *b, const BenchScene *scene, double dt)
{
    Player *p = scene->player;
    if (scene->opts->bench == CLI_BENCH_FLIGHT) {
        double x = b->start[0] + APP_BENCH_SPEED * b->elapsed, z = b->start[2];
        int here = bench_ground(scene->world, (int)floor(x), (int)floor(z));
        int ahead = bench_ground(scene->world, (int)floor(x + 32.0), (int)floor(z));
        double target = fmax((double)(here > ahead ? here : ahead) + APP_BENCH_CLEARANCE, b->altitude - 4.0 * dt);
        b->altitude = target;
        p->position[0] = x;
        p->position[1] = b->altitude;
        p->position[2] = z;
        p->yaw_deg = camera_wrap_yaw(90.0f + 25.0f * (float)sin(b->elapsed * 2.0 * 3.14159265358979 / 10.0));
        p->pitch_deg = APP_BENCH_PITCH;
    } else {
        memcpy(p->position, b->start, sizeof p->position);
        p->yaw_deg = b->yaw0;
        p->pitch_deg = WORLD_SPAWN_PITCH_DEG;
    }
    p->velocity[0] = p->velocity[1] = p->velocity[2] = 0.0;
}

void game_bench_before_frame(GameBench *b, const BenchScene *scene, double real_dt)
{
    if (!b || b->phase >= 2) return;
    WorldSession *ws = scene->world;
    Renderer *r = scene->view->renderer;
    if (b->phase == 0) {
        if (ws->loading.active || !world_session_ready(ws, r)) return;
        b->settle += real_dt;
        if (!world_session_settled(ws, r) && b->settle < APP_BENCH_SETTLE_CAP) return;
        b->phase = 1;
        memcpy(b->start, scene->player->position, sizeof b->start);
        b->yaw0 = scene->player->yaw_deg;
        b->altitude = scene->player->position[1] + APP_BENCH_CLEARANCE;
        scene->player->flying = true;
        clock_gettime(CLOCK_MONOTONIC, &b->wall_prev);
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b->cpu_prev);
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b->process_prev);
        b->ready_seconds = (double)(SDL_GetPerformanceCounter() - ws->loading.launch_counter) /
                           (double)SDL_GetPerformanceFrequency();
        log_info(BENCH_TAG, "world ready after %.2f s: measuring", b->ready_seconds);
        bench_place_camera(b, scene, 0.0);
        return;
    }
    b->elapsed += real_dt;
    bench_place_camera(b, scene, real_dt);
}

/* Chunks whose footprint comes within APP_BENCH_HOLE_RANGE blocks of the eye inside the horizontal view
 * wedge (half angle from the vertical field of view and the aspect, plus a chunk's margin), that have no mesh
 * to draw (renderer_chunk_drawable). */
static int bench_count_holes(const BenchScene *scene)
{
    double eye[3];
    player_eye(scene->player, eye);
    double yaw = scene->player->yaw_deg * 3.14159265358979 / 180.0;
    double fx = sin(yaw), fz = -cos(yaw);
    const GameView *v = scene->view;
    double aspect = v->drawable_h > 0 ? (double)v->drawable_w / v->drawable_h : 1.0;
    double half_v = scene->fov_deg * 0.5 * 3.14159265358979 / 180.0;
    double cos_half = cos(atan(tan(half_v) * aspect));
    int r = (int)ceil(APP_BENCH_HOLE_RANGE / CHUNK_SIZE_X) + 1;
    int ex = chunk_coord_of((int)floor(eye[0])), ez = chunk_coord_of((int)floor(eye[2]));
    int holes = 0;
    for (int cz = ez - r; cz <= ez + r; cz++)
        for (int cx = ex - r; cx <= ex + r; cx++) {
            double x0 = (double)cx * CHUNK_SIZE_X, z0 = (double)cz * CHUNK_SIZE_Z;
            double nx = fmax(x0, fmin(eye[0], x0 + CHUNK_SIZE_X)), nz = fmax(z0, fmin(eye[2], z0 + CHUNK_SIZE_Z));
            if (hypot(nx - eye[0], nz - eye[2]) > APP_BENCH_HOLE_RANGE) continue;
            bool in_view = nx == eye[0] && nz == eye[2]; /* the eye's own chunk */
            for (int k = 0; k < 4 && !in_view; k++) {
                double dx = x0 + (k & 1) * CHUNK_SIZE_X - eye[0], dz = z0 + (k >> 1) * CHUNK_SIZE_Z - eye[2];
                double len = hypot(dx, dz);
                in_view = len < 1e-6 || (dx * fx + dz * fz) / len >= cos_half;
            }
            if (!in_view) continue;
            if (!renderer_chunk_drawable(v->renderer, cx, cz)) holes++;   /* a chunk meshed again draws its last mesh */
        }
    return holes;
}

/* Chunks of the view square around the player not Valid with their mesh uploaded. */
static int bench_backlog(const BenchScene *scene)
{
    int r = scene->opts->view_distance;
    const Player *p = scene->player;
    int px = chunk_coord_of((int)floor(p->position[0])), pz = chunk_coord_of((int)floor(p->position[2]));
    int n = 0;
    for (int cz = pz - r; cz <= pz + r; cz++)
        for (int cx = px - r; cx <= px + r; cx++) {
            const TerrainChunk *c = terrain_get_chunk(scene->world->terrain, cx, cz);
            if (!c || c->state != CHUNK_STATE_VALID || !renderer_chunk_uploaded(scene->view->renderer, cx, cz)) n++;
        }
    return n;
}

bool game_bench_after_frame(GameBench *b, const BenchScene *scene)
{
    if (b && b->phase == 2) {   /* the screenshot is written: done */
        b->phase = 3;
        return true;
    }
    if (!b || b->phase != 1) return false;
    struct timespec wall, cpu, process;
    clock_gettime(CLOCK_MONOTONIC, &wall);
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &process);
    if (b->count == b->capacity) {
        int capacity = b->capacity ? b->capacity * 2 : 4096;
        BenchSample *grown = realloc(b->samples, (size_t)capacity * sizeof *grown);
        if (!grown) {
            log_error(BENCH_TAG, "out of memory for frame samples; the benchmark ends early");
            b->phase = 3;
            return true;
        }
        b->samples = grown;
        b->capacity = capacity;
    }
    RenderStats rs;
    renderer_get_stats(scene->view->renderer, &rs);
    BenchSample *s = &b->samples[b->count++];
    s->frame_ms = (float)(bench_seconds_between(&b->wall_prev, &wall) * 1000.0);
    s->cpu_ms = (float)(bench_seconds_between(&b->cpu_prev, &cpu) * 1000.0);
    s->process_ms = (float)(bench_seconds_between(&b->process_prev, &process) * 1000.0);
    s->draw_calls = rs.draw_calls;
    s->chunk_draws = rs.chunk_draws;
    s->triangles = rs.triangles_drawn;
    s->backlog = bench_backlog(scene);
    s->holes = bench_count_holes(scene);
    b->wall_prev = wall;
    b->cpu_prev = cpu;
    b->process_prev = process;
    const CliOptions *o = scene->opts;
    if (b->elapsed < o->bench_seconds) return false;
    /* --screenshot: one more frame, written whole (not measured); then quit */
    b->phase = o->screenshot_path ? 2 : 3;
    if (!o->screenshot_path) return true;
    game_view_request_screenshot(scene->view, o->screenshot_path);
    return false;
}

static int bench_compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

typedef enum BenchField {
    BENCH_FRAME_MS, BENCH_CPU_MS, BENCH_PROCESS_MS, BENCH_DRAW_CALLS, BENCH_CHUNK_DRAWS, BENCH_TRIANGLES, BENCH_BACKLOG, BENCH_HOLES
} BenchField;

static double bench_field(const BenchSample *s, BenchField field)
{
    switch (field) {
    case BENCH_FRAME_MS: return s->frame_ms;
    case BENCH_CPU_MS: return s->cpu_ms;
    case BENCH_PROCESS_MS: return s->process_ms;
    case BENCH_DRAW_CALLS: return s->draw_calls;
    case BENCH_CHUNK_DRAWS: return s->chunk_draws;
    case BENCH_TRIANGLES: return (double)s->triangles;
    case BENCH_BACKLOG: return s->backlog;
    case BENCH_HOLES: return s->holes;
    }
    return 0.0;
}

/* The p-th percentile (0..100, nearest rank) of one field of the samples. */
static double bench_percentile(const GameBench *b, double *scratch, BenchField field, double p)
{
    for (int i = 0; i < b->count; i++) scratch[i] = bench_field(&b->samples[i], field);
    qsort(scratch, (size_t)b->count, sizeof *scratch, bench_compare_double);
    int rank = (int)ceil(p / 100.0 * b->count) - 1;
    if (rank < 0) rank = 0;
    if (rank >= b->count) rank = b->count - 1;
    return scratch[rank];
}

StResult game_bench_report(const GameBench *b, const BenchScene *scene)
{
    if (!b) return ST_OK;
    const CliOptions *o = scene->opts;
    int width = scene->view->drawable_w, height = scene->view->drawable_h;
    if (b->count == 0)
        return st_fail(ST_ERR_STATE, "benchmark: no frame was measured (the world never became ready)");
    double *scratch = malloc((size_t)b->count * sizeof *scratch);
    if (!scratch) return st_fail(ST_ERR_NOMEM, "benchmark: out of memory for the report");
    double fp50 = bench_percentile(b, scratch, BENCH_FRAME_MS, 50);
    double fp95 = bench_percentile(b, scratch, BENCH_FRAME_MS, 95);
    double fp99 = bench_percentile(b, scratch, BENCH_FRAME_MS, 99);
    double fmax_ms = bench_percentile(b, scratch, BENCH_FRAME_MS, 100);
    double cpu50 = bench_percentile(b, scratch, BENCH_CPU_MS, 50);
    double cpu99 = bench_percentile(b, scratch, BENCH_CPU_MS, 99);
    double process50 = bench_percentile(b, scratch, BENCH_PROCESS_MS, 50);
    double calls50 = bench_percentile(b, scratch, BENCH_DRAW_CALLS, 50);
    double chunk_draws50 = bench_percentile(b, scratch, BENCH_CHUNK_DRAWS, 50);
    double tris50 = bench_percentile(b, scratch, BENCH_TRIANGLES, 50);
    double backlog_max = bench_percentile(b, scratch, BENCH_BACKLOG, 100);
    double holes_max = bench_percentile(b, scratch, BENCH_HOLES, 100);
    free(scratch);
    double total_ms = 0.0;
    int long_frames = 0, frames_with_holes = 0;
    for (int i = 0; i < b->count; i++) {
        total_ms += b->samples[i].frame_ms;
        long_frames += b->samples[i].frame_ms > APP_BENCH_LONG_FRAME_MS;
        frames_with_holes += b->samples[i].holes > 0;
    }
    double fps = total_ms > 0.0 ? b->count * 1000.0 / total_ms : 0.0;
    const char *mode = o->bench == CLI_BENCH_FLIGHT ? "flight" : "frames";
    char json[2048];
    snprintf(json, sizeof json,
             "{\"mode\": \"%s\", \"seed\": %llu, \"view_distance\": %d, \"far_distance\": %d, \"width\": %d, "
             "\"height\": %d, \"seconds\": %.2f, \"frames\": %d, \"ready_s\": %.2f, \"fps\": %.2f, "
             "\"frame_ms_p50\": %.3f, \"frame_ms_p95\": %.3f, \"frame_ms_p99\": %.3f, \"frame_ms_max\": %.3f, "
             "\"frames_over_100ms\": %d, \"main_cpu_ms_p50\": %.3f, \"main_cpu_ms_p99\": %.3f, \"process_cpu_ms_p50\": %.3f, "
             "\"draw_calls_p50\": %.0f, \"chunk_draws_p50\": %.0f, \"triangles_p50\": %.0f, \"backlog_max\": %.0f, "
             "\"holes_max\": %.0f, \"frames_with_holes\": %d}",
             mode, (unsigned long long)o->seed, o->view_distance, o->far_distance,
             width, height, b->elapsed, b->count, b->ready_seconds, fps, fp50, fp95, fp99, fmax_ms,
             long_frames, cpu50, cpu99, process50, calls50, chunk_draws50, tris50, backlog_max, holes_max, frames_with_holes);
    printf("%s benchmark, seed %llu, view distance %d, far %d: %d frames in %.1f s, %.1f fps; frame ms p50 %.1f p95 "
           "%.1f p99 %.1f max %.1f (%d over 100 ms); main CPU ms p50 %.1f (all threads %.1f); draw calls p50 %.0f (per-chunk draws "
           "%.0f); triangles p50 %.0f; backlog max %.0f; holes max %.0f\n",
           mode, (unsigned long long)o->seed, o->view_distance, o->far_distance, b->count,
           b->elapsed, fps, fp50, fp95, fp99, fmax_ms, long_frames, cpu50, process50, calls50, chunk_draws50, tris50,
           backlog_max, holes_max);
    if (!o->json_path) return ST_OK;
    if (strcmp(o->json_path, "-") == 0) {
        printf("%s\n", json);
        return ST_OK;
    }
    FILE *f = fopen(o->json_path, "w");
    if (!f) return st_fail(ST_ERR_IO, "benchmark: cannot write %s", o->json_path);
    fprintf(f, "%s\n", json);
    if (fclose(f) != 0) return st_fail(ST_ERR_IO, "benchmark: cannot write %s", o->json_path);
    return ST_OK;
}
