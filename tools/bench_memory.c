/* bench_memory.c — strata-bench's memory figures: chunk_resident_bytes_median / _p95 (every chunk loaded
 * around spawn at view distance 8, seeds 1 and 2, once the world is ready and the idle worker has packed
 * it), sections by kind, rss_mb_vd16 / rss_mb_vd32 (a child strata-bench that loads only that world, so
 * the figure is not the earlier benches' heap) and rss_mb_game_vd8 (the real game beside strata-bench,
 * SDL's offscreen driver, its VmRSS from /proc/PID/status 5 s after its log says it is ready).
 *
 * Design. A world is loaded as strata-bench's world_ready does (threaded updater, one location, meshes
 * dropped). "Packed" is waited for as chunk_scratch_in_use() reaching 0: the idle worker packs every hot
 * chunk. The game runs with a script that waits until the world is ready, then idles; the parent reads the
 * game's log and samples VmRSS 5 s after the "launch to ready" line, then stops the game (an earlier version
 * kept the last sample before the game quit, which could fall in its teardown, after the geometry was freed). */
#define _POSIX_C_SOURCE 200809L
#include "bench_memory.h"
#include "bench_spawn.h"
#include "bench_world.h"

#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "strata/generator.h"
#include "strata/light.h"
#include "strata/log.h"
#include "strata/mesher.h"
#include "strata/terrain.h"
#include "strata/update.h"
#include "strata/world_settings.h"

double bench_memory_rss_mb(int pid)
{
    char path[64];
    if (pid) snprintf(path, sizeof path, "/proc/%d/status", pid);
    else snprintf(path, sizeof path, "/proc/self/status");
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    char line[256];
    double mb = -1;
    while (fgets(line, sizeof line, f)) {
        long kb;
        if (sscanf(line, "VmRSS: %ld kB", &kb) == 1) {
            mb = (double)kb / 1024.0;
            break;
        }
    }
    fclose(f);
    return mb;
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int bench_memory_probe_main(int argc, char **argv)
{
    if (argc < 4) return 2;
    int vd = atoi(argv[2]);
    log_set_level(LOG_WARN);
    char path[1024];
    snprintf(path, sizeof path, "%s/blocks.json", argv[3]);
    BlockRegistry *blocks = NULL;
    if (block_registry_load(path, &blocks) != ST_OK) {
        fprintf(stderr, "strata-bench: %s\n", st_error_message());
        return 1;
    }
    BenchWorld world;
    if (bench_world_load(argv[3], blocks, 1, vd, true, &world) != ST_OK) {
        fprintf(stderr, "strata-bench: %s\n", st_error_message());
        block_registry_destroy(blocks);
        return 1;
    }
    printf("%.1f\n", bench_memory_rss_mb(0));
    bench_world_free(&world);
    block_registry_destroy(blocks);
    return 0;
}

static double memory_probe_child(const char *self, int vd, const char *asset_dir)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "'%s' --memory-probe %d '%s'", self, vd, asset_dir);
    FILE *p = popen(cmd, "r");
    if (!p) return -1;
    double mb = -1;
    if (fscanf(p, "%lf", &mb) != 1) mb = -1;
    if (pclose(p) != 0) mb = -1;
    return mb;
}

/* The game at view distance 8 (seed 1, no save), window on SDL's offscreen driver: its VmRSS 5 s after the
 * log's "launch to ready" line (read from its stderr through a pipe), then the game is stopped. The figure
 * is never a sample of the game's teardown. */
static double memory_game_rss(const char *self_dir, const char *asset_dir)
{
    char game[1100], script[] = "/tmp/strata-bench-rss-XXXXXX";
    snprintf(game, sizeof game, "%s/strata", self_dir);
    if (access(game, X_OK) != 0) return -1;
    int fd = mkstemp(script);
    if (fd < 0) return -1;
    const char *text = "wait_ready\nwait 1000000\nquit\n";   /* stopped by the parent long before */
    if (write(fd, text, strlen(text)) != (ssize_t)strlen(text)) {
        close(fd);
        unlink(script);
        return -1;
    }
    close(fd);
    int out[2];
    if (pipe(out) != 0) {
        unlink(script);
        return -1;
    }
    char *argv[] = {game, "--seed", "1", "--view-distance", "8", "--no-save", "--assets", (char *)asset_dir, "--width",
                    "1280", "--height", "720", "--script", script, NULL};
    const char *env[] = {"SDL_VIDEODRIVER=offscreen", "SDL_AUDIODRIVER=dummy", NULL};
    BenchSpawn how = {.out_fd = BENCH_SPAWN_NULL, .err_fd = out[1], .close_fd = out[0], .dir = NULL, .env = env};
    pid_t pid = bench_spawn(game, argv, &how);
    if (pid < 0) {
        close(out[0]);
        close(out[1]);
        unlink(script);
        return -1;
    }
    close(out[1]);
    fcntl(out[0], F_SETFL, fcntl(out[0], F_GETFL) | O_NONBLOCK);
    const char *marker = "launch to ready";
    char tail[256] = "";   /* the last bytes read, so a marker split across reads is still found */
    double mb = -1;
    int ready_at = -1, status = 0;
    bool exited = false;
    for (int t = 0; t < 6000; t++) { /* 10 minutes at most */
        char buf[4096];
        ssize_t n;
        while ((n = read(out[0], buf, sizeof buf - 1)) > 0) {
            buf[n] = '\0';
            size_t keep = strlen(tail);
            char joined[sizeof tail + sizeof buf];
            snprintf(joined, sizeof joined, "%s%s", tail, buf);
            if (ready_at < 0 && strstr(joined, marker)) ready_at = t;
            size_t len = keep + (size_t)n, from = len > sizeof tail - 1 ? len - (sizeof tail - 1) : 0;
            snprintf(tail, sizeof tail, "%s", joined + from);
        }
        if (waitpid(pid, &status, WNOHANG) == pid) {
            exited = true;
            break;
        }
        if (ready_at >= 0 && t - ready_at >= 50) {   /* 5 s after ready */
            mb = bench_memory_rss_mb((int)pid);
            break;
        }
        sleep_ms(100);
    }
    if (!exited) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
    }
    close(out[0]);
    unlink(script);
    return mb;
}

StResult bench_memory_run(const char *asset_dir, const BlockRegistry *blocks, BenchMemory *out)
{
    memset(out, 0, sizeof *out);
    int cap = 0, n = 0;
    double *bytes = NULL;
    for (uint64_t seed = 1; seed <= 2; seed++) {
        BenchWorld world;
        StResult rc = bench_world_load(asset_dir, blocks, seed, 8, true, &world);
        Terrain *terrain = world.terrain;
        if (rc != ST_OK) {
            free(bytes);
            return rc;
        }
        int count = terrain_chunk_count(terrain);
        if (n + count > cap) {
            cap = n + count;
            double *grown = realloc(bytes, sizeof *bytes * (size_t)cap);
            if (!grown) {
                free(bytes);
                bench_world_free(&world);
                return st_fail(ST_ERR_NOMEM, "out of memory");
            }
            bytes = grown;
        }
        int kinds[SECTION_KIND_COUNT] = {0};
        for (int i = 0; i < count; i++)
            bytes[n++] = (double)chunk_resident_bytes(terrain_chunk_at(terrain, i), kinds);
        for (int k = 0; k < SECTION_KIND_COUNT; k++) out->sections[k] += kinds[k];
        bench_world_free(&world);
    }
    qsort(bytes, (size_t)n, sizeof *bytes, compare_double);
    out->chunks = n;
    out->chunk_resident_bytes_median = n ? (n & 1 ? bytes[n / 2] : (bytes[n / 2 - 1] + bytes[n / 2]) / 2) : 0;
    out->chunk_resident_bytes_p95 = n ? bytes[(int)((n - 1) * 0.95 + 0.5)] : 0;
    free(bytes);

    char self[1024];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len <= 0) {
        out->rss_mb_vd16 = out->rss_mb_vd32 = out->rss_mb_game_vd8 = -1;
        return ST_OK;
    }
    self[len] = '\0';
    out->rss_mb_vd16 = memory_probe_child(self, 16, asset_dir);
    out->rss_mb_vd32 = memory_probe_child(self, 32, asset_dir);
    char *slash = strrchr(self, '/');
    if (slash) *slash = '\0';
    out->rss_mb_game_vd8 = memory_game_rss(self, asset_dir);
    return ST_OK;
}

void bench_memory_print_json(FILE *f, const BenchMemory *m)
{
    fprintf(f, ", \"chunk_resident_bytes_median\": %.0f, \"chunk_resident_bytes_median_idle\": %.0f, "
               "\"chunk_resident_bytes_p95\": %.0f, "
               "\"sections_by_kind\": {\"uniform\": %ld, \"bits1\": %ld, \"bits2\": %ld, \"bits4\": %ld, "
               "\"bits8\": %ld, \"bits16\": %ld}, \"rss_mb_vd16\": %.1f, \"rss_mb_vd32\": %.1f, "
               "\"rss_mb_game_vd8\": %.1f",
            m->chunk_resident_bytes_median, m->chunk_resident_bytes_median_idle, m->chunk_resident_bytes_p95, m->sections[0], m->sections[1],
            m->sections[2], m->sections[3], m->sections[4], m->sections[5], m->rss_mb_vd16, m->rss_mb_vd32,
            m->rss_mb_game_vd8);
}

void bench_memory_print_table(FILE *f, const BenchMemory *m)
{
    fprintf(f, "  %-28s %10.0f B at world ready (idle: median %.0f, p95 %.0f; %d chunks, vd 8, seeds 1 and 2)\n",
            "chunk resident bytes", m->chunk_resident_bytes_median, m->chunk_resident_bytes_median_idle,
            m->chunk_resident_bytes_p95, m->chunks);
    fprintf(f, "  %-28s uniform %ld, 1 bit %ld, 2 bits %ld, 4 bits %ld, 8 bits %ld, 16 bits %ld\n", "sections",
            m->sections[0], m->sections[1], m->sections[2], m->sections[3], m->sections[4], m->sections[5]);
    fprintf(f, "  %-28s %10.1f MB (vd 32 %.1f MB)\n", "RSS, world ready, vd 16", m->rss_mb_vd16, m->rss_mb_vd32);
    fprintf(f, "  %-28s %10.1f MB\n", "RSS, the game, vd 8", m->rss_mb_game_vd8);
}
