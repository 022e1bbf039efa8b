/* far_terrain.c — far terrain streaming: the patch worker, the cache and the switch between cuts.
 *
 * Design. One pthread of its own (mutex + condition variable; the voxel update worker is never touched)
 * takes build jobs from a list the main thread rewrites each frame (only the missing leaves of the cut it
 * wants, so stale jobs vanish), best first: nearest (DistanceBased) or nearest weighted by how far off
 * the view direction (DirectionBased). Finished patches wait in a done list; far_terrain_update adopts at
 * most StreamingBudgetPerFrame of them into the main thread's cache, and switches the drawn set to the
 * wanted cut only once every leaf of it is in the cache: the previous cut stays drawn until then, so
 * patches never leave holes or overlap while they stream. Cached patches that neither cut uses and that
 * lie beyond UnloadRadius (or when the cache outgrows four times the cut) are freed. The worker keeps the
 * generator's samples in a FarLattice of its own (far_terrain_lattice.c): a patch next to, over or under one
 * already built finds most of its samples made, which is what keeps the far terrain streaming in a flight.
 * A cached patch whose mesh another holder keeps (the renderer: far_terrain_release_meshes) drops its own
 * vertices and indices; when the cache drops such a patch its key is reported (far_terrain_take_forgotten)
 * so the holder lets go too, and a patch wanted again is built again like any missing one. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "far_internal.h"
#include "strata/log.h"
#include "strata/thread_name.h"
#include "strata/thread_priority.h"

#define FAR_MAX_LEAVES 4096
#define FAR_LATTICE_LOG2 15   /* the worker's grid samples: 32768 (1.5 MB), about a 2 km cut's */
#define FAR_SINK 2.0f   /* blocks the far land stands lower (never under the sea; the sea keeps its level): the
                          * voxel chunks' half-resolution copies round their ground a block up or down, and a
                          * far column over it showed its side as a brown line along the voxel chunks' edge
                          * (from inside, a step down to the far terrain is never seen) */

typedef struct FarJob {
    FarPatch leaf;     /* level, px, pz, coarser, key */
    float priority;    /* lower first */
} FarJob;

struct FarTerrain {
    FarTerrainSettings settings;
    const Generator *gen;
    FarPalette palette;
    FarLattice *lattice;           /* the worker's: the grid samples its patches share */
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    bool quit;
    /* shared under lock */
    FarJob *jobs;
    int job_count, job_capacity;
    FarPatch **done;
    int done_count, done_capacity;
    uint64_t building;             /* key being built, when building_active */
    bool building_active;
    /* main thread */
    FarPatch **cache;
    int cache_count, cache_capacity;
    FarPatch *wanted;              /* the wanted cut (leaves, no meshes) */
    int wanted_count;
    const FarPatch **drawn;        /* the drawn cut (cache entries) */
    int drawn_count;
    const FarPatch **scratch;
    double cam_x, cam_z;
    uint64_t *forgotten;           /* released patches dropped from the cache (far_terrain_take_forgotten) */
    int forgotten_count, forgotten_capacity, forgotten_taken;
};

static bool far_grow(void **data, int *capacity, int need, size_t item)
{
    if (need <= *capacity) return true;
    int cap = *capacity ? *capacity : 64;
    while (cap < need) cap *= 2;
    void *p = realloc(*data, (size_t)cap * item);
    if (!p) return false;
    *data = p;
    *capacity = cap;
    return true;
}

static void *far_worker(void *arg)
{
    FarTerrain *ft = arg;
    thread_name_self("strata-far", -1);
    thread_make_background();
    pthread_mutex_lock(&ft->lock);
    for (;;) {
        while (!ft->quit && ft->job_count == 0) pthread_cond_wait(&ft->wake, &ft->lock);
        if (ft->quit) break;
        int best = 0;
        for (int i = 1; i < ft->job_count; i++)
            if (ft->jobs[i].priority < ft->jobs[best].priority) best = i;
        FarPatch leaf = ft->jobs[best].leaf;
        ft->jobs[best] = ft->jobs[--ft->job_count];
        ft->building = leaf.key;
        ft->building_active = true;
        pthread_mutex_unlock(&ft->lock);
        FarPatch *p = malloc(sizeof *p);
        if (p && far_patch_build_in(ft->lattice, ft->gen, &ft->palette, leaf.level, leaf.px, leaf.pz, leaf.coarser,
                                    FAR_SINK, p) != ST_OK) {
            free(p);
            p = NULL;
        }
        pthread_mutex_lock(&ft->lock);
        ft->building_active = false;
        if (!p) {
            log_error("lod", "far patch %d (%d, %d): out of memory", leaf.level, leaf.px, leaf.pz);
            continue;
        }
        if (!far_grow((void **)&ft->done, &ft->done_capacity, ft->done_count + 1, sizeof *ft->done)) {
            far_patch_free(p);
            free(p);
            continue;
        }
        ft->done[ft->done_count++] = p;
    }
    pthread_mutex_unlock(&ft->lock);
    return NULL;
}

StResult far_terrain_create(const Generator *gen, const FarPalette *palette, const FarTerrainSettings *s,
                            FarTerrain **out)
{
    *out = NULL;
    FarTerrain *ft = calloc(1, sizeof *ft);
    if (!ft) return st_fail(ST_ERR_NOMEM, "far terrain: out of memory");
    ft->settings = *s;
    if (ft->settings.load_radius <= 0) ft->settings.load_radius = ft->settings.far_distance;
    if (ft->settings.unload_radius < ft->settings.load_radius) ft->settings.unload_radius = ft->settings.load_radius * 1.25f;
    if (ft->settings.streaming_budget_per_frame < 1) ft->settings.streaming_budget_per_frame = 1;
    ft->gen = gen;
    ft->palette = *palette;
    ft->wanted = malloc(FAR_MAX_LEAVES * sizeof *ft->wanted);
    ft->drawn = malloc(FAR_MAX_LEAVES * sizeof *ft->drawn);
    ft->scratch = malloc(FAR_MAX_LEAVES * sizeof *ft->scratch);
    ft->lattice = far_lattice_create(FAR_LATTICE_LOG2);
    if (!ft->wanted || !ft->drawn || !ft->scratch || !ft->lattice) {
        far_terrain_destroy(ft);
        return st_fail(ST_ERR_NOMEM, "far terrain: out of memory");
    }
    pthread_mutex_init(&ft->lock, NULL);
    pthread_cond_init(&ft->wake, NULL);
    if (pthread_create(&ft->thread, NULL, far_worker, ft) != 0) {
        pthread_mutex_destroy(&ft->lock);
        pthread_cond_destroy(&ft->wake);
        free(ft->wanted);
        free(ft->drawn);
        free(ft->scratch);
        far_lattice_destroy(ft->lattice);
        free(ft);
        return st_fail(ST_ERR_STATE, "far terrain: cannot start the patch worker");
    }
    *out = ft;
    return ST_OK;
}

void far_terrain_destroy(FarTerrain *ft)
{
    if (!ft) return;
    if (ft->wanted && ft->drawn && ft->scratch && ft->lattice) {
        pthread_mutex_lock(&ft->lock);
        ft->quit = true;
        pthread_cond_signal(&ft->wake);
        pthread_mutex_unlock(&ft->lock);
        pthread_join(ft->thread, NULL);
        pthread_mutex_destroy(&ft->lock);
        pthread_cond_destroy(&ft->wake);
    }
    for (int i = 0; i < ft->done_count; i++) {
        far_patch_free(ft->done[i]);
        free(ft->done[i]);
    }
    for (int i = 0; i < ft->cache_count; i++) {
        far_patch_free(ft->cache[i]);
        free(ft->cache[i]);
    }
    free(ft->done);
    free(ft->cache);
    free(ft->jobs);
    free(ft->wanted);
    free(ft->drawn);
    free(ft->scratch);
    free(ft->forgotten);
    far_lattice_destroy(ft->lattice);
    free(ft);
}

static FarPatch *far_cache_find(const FarTerrain *ft, uint64_t key)
{
    for (int i = 0; i < ft->cache_count; i++)
        if (ft->cache[i]->key == key) return ft->cache[i];
    return NULL;
}

static float far_priority(const FarTerrain *ft, const FarPatch *leaf, float dir_x, float dir_z)
{
    double size = far_terrain_patch_size(leaf->level);
    double dx = leaf->origin_x + size / 2 - ft->cam_x, dz = leaf->origin_z + size / 2 - ft->cam_z;
    float d = (float)sqrt(dx * dx + dz * dz);
    if (ft->settings.priority_mode == FAR_PRIORITY_DIRECTION_BASED && d > 1.0f) {
        float c = (float)((dx * dir_x + dz * dir_z) / d);   /* 1 ahead, -1 behind */
        d *= 2.0f - c;
    }
    return d;
}

static bool far_in_drawn(const FarTerrain *ft, const FarPatch *p)
{
    for (int i = 0; i < ft->drawn_count; i++)
        if (ft->drawn[i] == p) return true;
    return false;
}

static bool far_in_wanted(const FarTerrain *ft, uint64_t key)
{
    for (int i = 0; i < ft->wanted_count; i++)
        if (ft->wanted[i].key == key) return true;
    return false;
}

static void far_evict(FarTerrain *ft)
{
    int limit = 4 * (ft->wanted_count > 64 ? ft->wanted_count : 64);
    for (int i = 0; i < ft->cache_count;) {
        FarPatch *p = ft->cache[i];
        double size = far_terrain_patch_size(p->level);
        double dx = p->origin_x + size / 2 - ft->cam_x, dz = p->origin_z + size / 2 - ft->cam_z;
        bool far = sqrt(dx * dx + dz * dz) - size * 0.71 > ft->settings.unload_radius;
        if ((far || ft->cache_count > limit) && !far_in_drawn(ft, p) && !far_in_wanted(ft, p->key)) {
            if (!p->vertices && far_grow((void **)&ft->forgotten, &ft->forgotten_capacity, ft->forgotten_count + 1,
                                         sizeof *ft->forgotten))
                ft->forgotten[ft->forgotten_count++] = p->key;
            far_patch_free(p);
            free(p);
            ft->cache[i] = ft->cache[--ft->cache_count];
            continue;
        }
        i++;
    }
}

static void far_step(FarTerrain *ft, double cam_x, double cam_z, float dir_x, float dir_z, int budget)
{
    if (ft->forgotten_taken) {   /* the keys handed out last time have been read */
        ft->forgotten_count = 0;
        ft->forgotten_taken = 0;
    }
    ft->cam_x = cam_x;
    ft->cam_z = cam_z;
    ft->wanted_count = far_terrain_select(&ft->settings, cam_x, cam_z, ft->wanted, FAR_MAX_LEAVES);
    pthread_mutex_lock(&ft->lock);
    /* adopt finished patches within the budget */
    int adopt = ft->done_count < budget ? ft->done_count : budget;
    if (far_grow((void **)&ft->cache, &ft->cache_capacity, ft->cache_count + adopt, sizeof *ft->cache)) {
        for (int i = 0; i < adopt; i++) {
            FarPatch *p = ft->done[i];
            if (far_cache_find(ft, p->key)) {
                far_patch_free(p);
                free(p);
            } else {
                ft->cache[ft->cache_count++] = p;
            }
        }
        if (ft->done_count > adopt)   /* memmove's pointers must be valid even for 0 bytes (done may be NULL) */
            memmove(ft->done, ft->done + adopt, (size_t)(ft->done_count - adopt) * sizeof *ft->done);
        ft->done_count -= adopt;
    }
    /* jobs: the missing leaves, neither being built nor waiting in the done list */
    ft->job_count = 0;
    int missing = 0;
    for (int i = 0; i < ft->wanted_count; i++) {
        const FarPatch *leaf = &ft->wanted[i];
        FarPatch *cached = far_cache_find(ft, leaf->key);
        if (cached) {
            ft->scratch[i] = cached;
            continue;
        }
        missing++;
        bool pending = ft->building_active && leaf->key == ft->building;
        for (int k = 0; k < ft->done_count && !pending; k++) pending = ft->done[k]->key == leaf->key;
        if (pending) continue;
        if (!far_grow((void **)&ft->jobs, &ft->job_capacity, ft->job_count + 1, sizeof *ft->jobs)) break;
        ft->jobs[ft->job_count].leaf = *leaf;
        ft->jobs[ft->job_count].priority = far_priority(ft, leaf, dir_x, dir_z);
        ft->job_count++;
    }
    if (ft->job_count) pthread_cond_signal(&ft->wake);
    pthread_mutex_unlock(&ft->lock);
    if (missing == 0) {   /* the wanted cut is complete: draw it */
        memcpy(ft->drawn, ft->scratch, (size_t)ft->wanted_count * sizeof *ft->drawn);
        ft->drawn_count = ft->wanted_count;
    }
    far_evict(ft);
}

void far_terrain_update(FarTerrain *ft, double cam_x, double cam_z, float dir_x, float dir_z)
{
    far_step(ft, cam_x, cam_z, dir_x, dir_z, ft->settings.streaming_budget_per_frame);
}

void far_terrain_flush(FarTerrain *ft, double cam_x, double cam_z)
{
    for (int tries = 0; tries < 200000; tries++) {
        far_step(ft, cam_x, cam_z, 0.0f, -1.0f, 1 << 20);
        if (ft->drawn_count == ft->wanted_count) {
            bool same = true;
            for (int i = 0; i < ft->wanted_count && same; i++) same = ft->drawn[i]->key == ft->wanted[i].key;
            if (same) return;
        }
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
}

void far_terrain_release_meshes(FarTerrain *ft, FarKeepFn keep, void *user)
{
    for (int i = 0; i < ft->cache_count; i++) {
        FarPatch *p = ft->cache[i];
        if (!p->vertices || !keep(user, p->key)) continue;
        free(p->vertices);
        free(p->indices);
        p->vertices = NULL;
        p->indices = NULL;
    }
}

int far_terrain_take_forgotten(FarTerrain *ft, const uint64_t **keys)
{
    if (ft->forgotten_taken) {
        ft->forgotten_count = 0;
        ft->forgotten_taken = 0;
    }
    *keys = ft->forgotten;
    ft->forgotten_taken = ft->forgotten_count > 0;
    return ft->forgotten_count;
}

int far_terrain_patches(const FarTerrain *ft, const FarPatch *const **out)
{
    *out = ft->drawn;
    return ft->drawn_count;
}

void far_terrain_get_stats(const FarTerrain *ft, FarTerrainStats *stats)
{
    memset(stats, 0, sizeof *stats);
    stats->patches_drawn = ft->drawn_count;
    stats->patches_cached = ft->cache_count;
    for (int i = 0; i < ft->drawn_count; i++) stats->triangles += ft->drawn[i]->index_count / 3;
    pthread_mutex_lock((pthread_mutex_t *)&ft->lock);
    stats->jobs_pending = ft->job_count;
    pthread_mutex_unlock((pthread_mutex_t *)&ft->lock);
}

const FarTerrainSettings *far_terrain_settings(const FarTerrain *ft)
{
    return &ft->settings;
}

void far_terrain_set_voxel_distance(FarTerrain *ft, float voxel_distance)
{
    ft->settings.voxel_distance = voxel_distance > 0.0f ? voxel_distance : 0.0f; /* the worker never reads it */
}
