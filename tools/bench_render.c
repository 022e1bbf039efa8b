/* bench_render.c — strata-bench's rendering figures: triangles at view distance 8 (seed 42's spawn) and
 * far-terrain patch build time.
 *
 * Design. The threaded update worker brings seed 42's world to Valid at view distance 8 around the game's
 * spawn: the generator's coarse spawn, then spawn_choose's column (strata/spawn.h, src/gen/spawn.c) with the update
 * location moved there, as the game does. Then every Valid chunk is meshed again here, merged and
 * unmerged, so all figures come from the same cells:
 *   triangles_vd8            the triangles DRAWN in the game's first view (the F3 figure, far terrain off):
 *                            camera at the spawn's eye (feet + 1.62) facing spawn_choose's yaw at pitch -8,
 *                            75 degrees vertical field of view, 1280 x 720; chunks in the fog range (128
 *                            blocks) and the frustum, the camera-side opaque subsets, the alpha-tested parts
 *                            for the chunk's distance (render_alpha_parts), chunks from RENDER_LOD_FROM at
 *                            half resolution, and only the slices the occlusion walk reaches (visibility.h);
 *                            merged meshes. This is how the
 *                            issue's "342k today" was counted (the README screenshot's F3 line).
 *   triangles_vd8_no_occlusion  the same view without occlusion culling (the renderer before it).
 *   triangles_vd8_all        merged, every triangle of every Valid chunk whose centre lies within the view
 *                            distance, before any culling (what triangles_vd8 meant before), at full
 *                            resolution (the far leaves' half-resolution copies not counted).
 *   triangles_vd8_unmerged   the same with greedy merging off (one quad per face).
 *   occlusion_walk_us        median time of the renderer's per-frame occlusion work in that view (the walk and
 *                            the occluders' horizon, visibility_walk_run).
 * The view's rules (fog range, frustum box, subset mask, draw runs) mirror src/render/render.c; the walk
 * and the draw runs are the renderer's own code (src/mesh/visibility_walk.c). Figures, not tests: no
 * thresholds here. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cglm/cglm.h>

#include "bench_render.h"
#include "bench_world.h"
#include "strata/spawn.h"
#include "strata/far_terrain.h"
#include "strata/generator.h"
#include "strata/light.h"
#include "strata/mesher.h"
#include "strata/render.h"
#include "strata/terrain.h"
#include "strata/update.h"
#include "strata/visibility.h"
#include "strata/world_settings.h"

#define BENCH_RENDER_SEED 42
#define BENCH_RENDER_VD 8
#define BENCH_RENDER_EYE 1.62        /* PLAYER_EYE_HEIGHT */
#define BENCH_RENDER_PITCH -8.0f     /* WORLD_SPAWN_PITCH_DEG (session/world_session.h) */
#define BENCH_RENDER_FOV 75.0f       /* the settings' default field of view */
#define BENCH_RENDER_ASPECT (1280.0f / 720.0f)

static double bench_render_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int bench_render_compare(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static ChunkMesh *bench_render_mesh(const Terrain *t, TerrainChunk *c, const BlockRegistry *blocks, MesherContext *ctx)
{
    ChunkGeometry *saved = c->worker_geometry;
    c->worker_geometry = NULL;
    mesher_build_pass(t, c, blocks, ctx, 1);
    mesher_build_pass(t, c, blocks, ctx, 2);
    ChunkMesh *m = mesher_pack(c);
    chunk_geometry_destroy(c->worker_geometry);
    c->worker_geometry = saved;
    return m;
}

typedef struct BenchMeshes {
    ChunkMesh **meshes;
    int count;
} BenchMeshes;

static const VisibilityChunk *bench_render_graphs(void *user, int coord_x, int coord_z)
{
    const BenchMeshes *b = user;
    for (int i = 0; i < b->count; i++)
        if (b->meshes[i] && b->meshes[i]->coord_x == coord_x && b->meshes[i]->coord_z == coord_z)
            return &b->meshes[i]->visibility;
    return NULL;
}

/* The renderer's view matrix (renderer_build_matrices): camera-relative, rotation only. */
static void bench_render_view(float yaw_deg, float pitch_deg, float far_plane, mat4 view_proj)
{
    mat4 proj, view;
    glm_perspective(glm_rad(BENCH_RENDER_FOV), BENCH_RENDER_ASPECT, 0.05f, far_plane, proj);
    glm_mat4_identity(view);
    glm_rotate(view, glm_rad(-pitch_deg), (vec3){1.0f, 0.0f, 0.0f});
    glm_rotate(view, glm_rad(yaw_deg), (vec3){0.0f, 1.0f, 0.0f});
    glm_mat4_mul(proj, view, view_proj);
}

static bool bench_render_box_in_view(const float planes[6][4], const float lo[3], const float hi[3])
{
    for (int i = 0; i < 6; i++) {
        const float *p = planes[i];
        float d = p[0] * (p[0] > 0.0f ? hi[0] : lo[0]) + p[1] * (p[1] > 0.0f ? hi[1] : lo[1]) +
                  p[2] * (p[2] > 0.0f ? hi[2] : lo[2]);
        if (d < -p[3]) return false;
    }
    return true;
}

/* Triangles of one chunk the renderer draws from `camera` (renderer_collect_visible, renderer_opaque_mask,
 * renderer_draw_subsets): 0 when it is in the fog or outside the frustum. */
static long bench_render_drawn(const ChunkMesh *m, const double camera[3], const float planes[6][4], float fog_end,
                               uint16_t slices)
{
    if (chunk_mesh_vertex_count(m) == 0 || slices == 0) return 0;
    double min_x = (double)m->coord_x * CHUNK_SIZE_X, min_z = (double)m->coord_z * CHUNK_SIZE_Z;
    double dx = camera[0] < min_x ? min_x - camera[0] : camera[0] > min_x + 16 ? camera[0] - (min_x + 16) : 0.0;
    double dz = camera[2] < min_z ? min_z - camera[2] : camera[2] > min_z + 16 ? camera[2] - (min_z + 16) : 0.0;
    if ((float)sqrt(dx * dx + dz * dz) >= fog_end) return 0;
    float lo[3] = {(float)(min_x - camera[0]), (float)((double)m->min_y - camera[1]), (float)(min_z - camera[2])};
    float hi[3] = {lo[0] + 16, (float)((double)m->max_y + 1.0 - camera[1]), lo[2] + 16};
    if (!bench_render_box_in_view(planes, lo, hi)) return 0;
    unsigned mask = 1u << MESH_SUBSET_OPAQUE_OTHER;
    if (camera[2] > min_z) mask |= 1u << MESH_SUBSET_OPAQUE_POS_Z;
    if (camera[0] > min_x) mask |= 1u << MESH_SUBSET_OPAQUE_POS_X;
    if (camera[2] < min_z + 16) mask |= 1u << MESH_SUBSET_OPAQUE_NEG_Z;
    if (camera[0] < min_x + 16) mask |= 1u << MESH_SUBSET_OPAQUE_NEG_X;
    int first[MESH_SUBSET_COUNT], count[MESH_SUBSET_COUNT], at = 0;
    for (int k = 0; k < MESH_SUBSET_COUNT; k++) {
        first[k] = at;
        count[k] = m->subsets[k].count;
        at += count[k];
    }
    /* opaque at the chunk's resolution (render_uses_lod), transparent whole or a far chunk's part, the alpha-tested parts the
     * renderer draws at that distance (render_alpha_parts) */
    double cx = min_x + 8.0 - camera[0], cz = min_z + 8.0 - camera[2];
    float distance = (float)sqrt(cx * cx + cz * cz);
    int run_first[MESH_SUBSET_COUNT * CHUNK_SLICES], run_count[MESH_SUBSET_COUNT * CHUNK_SLICES];
    const int (*vertices)[CHUNK_SLICES] = (const int (*)[CHUNK_SLICES])m->slice_vertices;
    const int (*lod)[CHUNK_SLICES] = (const int (*)[CHUNK_SLICES])m->lod_vertices;
    bool half = render_chunk_draws_far(m->lod, m->far_only, distance, RENDER_LOD_FROM);
    int runs = chunk_mesh_subset_runs(first, count, vertices, lod, mask, half, slices, run_first, run_count);
    long tri = 0;
    for (int i = 0; i < runs; i++) tri += run_count[i] / 2;
    runs = chunk_mesh_subset_runs(first, count, vertices, lod, 1u << MESH_SUBSET_TRANSPARENT, half, slices, run_first,
                                  run_count);
    for (int i = 0; i < runs; i++) tri += run_count[i] / 2;
    int parts[2];
    render_alpha_parts(distance, RENDER_FAR_LEAVES_FROM, half, &parts[0], &parts[1]);
    if (half && m->far_only) {   /* as the renderer: its half-resolution leaves alone, at any distance */
        parts[0] = MESH_ALPHA_LOD_LEAVES;
        parts[1] = -1;
    }
    const int k = MESH_SUBSET_ALPHA_TESTED;
    for (int p = 0; p < 2; p++) {
        if (parts[p] < 0) continue;
        runs = chunk_mesh_alpha_runs(first[k], count[k], m->slice_vertices[k], m->lod_vertices[k],
                                     m->alpha_leaf_vertices, (MeshAlphaPart)parts[p], slices, run_first, run_count);
        for (int i = 0; i < runs; i++) tri += run_count[i] / 2;
    }
    return tri;
}

/* A chunk's triangles at full resolution: all but its half-resolution copy. */
static long bench_render_full_triangles(const ChunkMesh *m)
{
    long vertices = 0;
    for (int k = 0; k < MESH_SUBSET_COUNT; k++) vertices += chunk_mesh_subset_vertices(m, k, false);
    return vertices / 2;
}

static StResult bench_render_triangles(const BlockRegistry *blocks, const char *asset_dir, BenchRender *out)
{
    BenchWorld world;
    StResult rc = bench_world_load(asset_dir, blocks, BENCH_RENDER_SEED, BENCH_RENDER_VD, false, &world);
    if (rc != ST_OK) return rc;
    Terrain *terrain = world.terrain;
    /* the game's spawn (session/world_session_spawn.c): the chosen column, facing its view */
    SpawnChoice choice;
    if (spawn_choose(terrain, blocks, world.spawn_x, world.spawn_z, &choice) != SPAWN_FOUND) {
        bench_world_free(&world);
        return st_fail(ST_ERR_STATE, "seed %d: no spawn column found near %d, %d", BENCH_RENDER_SEED, world.spawn_x,
                       world.spawn_z);
    }
    double camera[3] = {choice.x + 0.5, choice.y + BENCH_RENDER_EYE, choice.z + 0.5};
    rc = bench_world_move(&world, camera[0], camera[2], BENCH_RENDER_VD);
    if (rc != ST_OK) {
        bench_world_free(&world);
        return rc;
    }
    updater_destroy(world.updater);   /* joins the worker: the chunks are ours now */
    world.updater = NULL;
    MesherContext *merged = mesher_context_create(), *plain = mesher_context_create();
    VisibilityWalk *walk = visibility_walk_create();
    BenchMeshes b = {calloc((size_t)terrain_chunk_count(terrain) + 1, sizeof(ChunkMesh *)), 0};
    if (!merged || !plain || !walk || !b.meshes) rc = st_fail(ST_ERR_NOMEM, "out of memory");
    if (rc == ST_OK) {
        mesher_context_set_merge(plain, false);
        long tri_all = 0, tri_plain = 0;
        double r = BENCH_RENDER_VD * CHUNK_SIZE_X;
        for (int i = 0; i < terrain_chunk_count(terrain) && rc == ST_OK; i++) {
            TerrainChunk *c = terrain_chunk_at(terrain, i);
            if (c->state != CHUNK_STATE_VALID) continue;
            ChunkMesh *m = bench_render_mesh(terrain, c, blocks, merged);
            if (!m) {
                rc = st_fail(ST_ERR_NOMEM, "out of memory");
                break;
            }
            b.meshes[b.count++] = m;
            double dx = c->origin_x + 8.0 - camera[0], dz = c->origin_z + 8.0 - camera[2];
            if (dx * dx + dz * dz > r * r) continue;
            tri_all += bench_render_full_triangles(m);
            ChunkMesh *p = bench_render_mesh(terrain, c, blocks, plain);
            tri_plain += p ? bench_render_full_triangles(p) : 0;
            chunk_mesh_destroy(p);
        }
        /* the first view: the renderer's fog range with far terrain off, its frustum, its walk */
        float fog_end = (float)(BENCH_RENDER_VD * CHUNK_SIZE_X);
        float far_plane = sqrtf(2.0f * (fog_end + 16.0f) * (fog_end + 16.0f) + 256.0f * 256.0f);
        mat4 view_proj;
        bench_render_view(choice.yaw_deg, BENCH_RENDER_PITCH, far_plane, view_proj);
        VisibilityView view = {.radius_chunks = (int)ceilf(fog_end / CHUNK_SIZE_X) + 1};
        memcpy(view.camera, camera, sizeof camera);
        visibility_planes_from_matrix((const float *)view_proj, view.planes);
        visibility_walk_run(walk, &view, bench_render_graphs, &b);   /* the cave walk alone */
        long drawn_walk = 0, drawn = 0, drawn_all_slices = 0;
        for (int i = 0; i < b.count; i++) {
            const ChunkMesh *m = b.meshes[i];
            drawn_walk += bench_render_drawn(m, camera, view.planes, fog_end,
                                             visibility_walk_slices(walk, m->coord_x, m->coord_z));
            drawn_all_slices += bench_render_drawn(m, camera, view.planes, fog_end, 0xFFFF);
        }
        view.occlusion = true;                                         /* and the occluders, as the renderer */
        double times[15];
        for (int run = 0; run < 15; run++) {
            double t0 = bench_render_now_us();
            visibility_walk_run(walk, &view, bench_render_graphs, &b);
            times[run] = bench_render_now_us() - t0;
        }
        qsort(times, 15, sizeof *times, bench_render_compare);
        out->occlusion_walk_us = times[7];
        for (int i = 0; i < b.count; i++) {
            const ChunkMesh *m = b.meshes[i];
            drawn += bench_render_drawn(m, camera, view.planes, fog_end,
                                        visibility_walk_slices(walk, m->coord_x, m->coord_z));
        }
        out->triangles_vd8 = (double)drawn;
        out->triangles_vd8_cave_walk = (double)drawn_walk;
        out->triangles_vd8_no_occlusion = (double)drawn_all_slices;
        out->triangles_vd8_all = (double)tri_all;
        out->triangles_vd8_unmerged = (double)tri_plain;
        out->spawn[0] = camera[0];
        out->spawn[1] = camera[1];
        out->spawn[2] = camera[2];
        out->spawn_yaw = choice.yaw_deg;
    }
    for (int i = 0; i < b.count; i++) chunk_mesh_destroy(b.meshes[i]);
    free(b.meshes);
    visibility_walk_destroy(walk);
    mesher_context_destroy(merged);
    mesher_context_destroy(plain);
    bench_world_free(&world);
    return rc;
}

/* Median time of one far patch (seed 1), over 48 patches of every level around the origin. */
static StResult bench_render_far(const BlockRegistry *blocks, const char *asset_dir, BenchRender *out)
{
    WorldSettings s;
    world_settings_default(&s);
    s.seed = 1;
    char path[1024];
    snprintf(path, sizeof path, "%s/worldgen.json", asset_dir);
    Generator *gen = NULL;
    StResult rc = generator_create(&s, blocks, path, &gen);
    if (rc != ST_OK) return rc;
    FarPalette palette;
    far_palette_init(&palette, blocks);
    double times[48];
    int n = 0;
    for (int i = 0; i < 48 && rc == ST_OK; i++) {
        int level = i % FAR_LEVELS;
        uint8_t coarser[4] = {(uint8_t)level, (uint8_t)level, (uint8_t)level, (uint8_t)level};
        FarPatch p;
        double t0 = bench_render_now_us();
        rc = far_patch_build(gen, &palette, level, i % 7 - 3, i / 7 - 3, coarser, 6.0f, &p);
        if (rc != ST_OK) break;
        times[n++] = bench_render_now_us() - t0;
        far_patch_free(&p);
    }
    qsort(times, (size_t)n, sizeof *times, bench_render_compare);
    out->far_patch_build_us = n ? times[n / 2] : 0;
    generator_destroy(gen);
    return rc;
}

StResult bench_render_run(const BlockRegistry *blocks, const char *asset_dir, BenchRender *out)
{
    memset(out, 0, sizeof *out);
    StResult rc = bench_render_triangles(blocks, asset_dir, out);
    if (rc == ST_OK) rc = bench_render_far(blocks, asset_dir, out);
    return rc;
}

void bench_render_print_json(FILE *f, const BenchRender *r)
{
    fprintf(f, ", \"triangles_vd8\": %.0f, \"triangles_vd8_cave_walk\": %.0f, \"triangles_vd8_no_occlusion\": %.0f, "
               "\"triangles_vd8_all\": %.0f, \"triangles_vd8_unmerged\": %.0f, \"occlusion_walk_us\": %.1f, "
               "\"far_patch_build_us\": %.1f",
            r->triangles_vd8, r->triangles_vd8_cave_walk, r->triangles_vd8_no_occlusion, r->triangles_vd8_all,
            r->triangles_vd8_unmerged, r->occlusion_walk_us, r->far_patch_build_us);
}

void bench_render_print_table(FILE *f, const BenchRender *r)
{
    fprintf(f, "  %-28s %10.0f (cave walk only %.0f, no occlusion culling %.0f; spawn %.1f %.1f %.1f yaw %.0f)\n",
            "triangles drawn, vd 8, s42", r->triangles_vd8, r->triangles_vd8_cave_walk, r->triangles_vd8_no_occlusion,
            r->spawn[0], r->spawn[1], r->spawn[2], r->spawn_yaw);
    fprintf(f, "  %-28s %10.0f (unmerged %.0f)\n", "triangles all, vd 8, s42", r->triangles_vd8_all,
            r->triangles_vd8_unmerged);
    fprintf(f, "  %-28s %10.1f us\n", "occlusion walk (spawn view)", r->occlusion_walk_us);
    fprintf(f, "  %-28s %10.1f us\n", "far patch build", r->far_patch_build_us);
}
