/* mesher_pack.c — handing geometry over: all slices into one ChunkMesh, and freeing both kinds.
 *
 * Design. The worker keeps per-slice lists between passes (so unchanged slices cost nothing); the main
 * thread gets one contiguous list per subset, exactly sized, which the renderer uploads and frees. The
 * vertical extent (min_y, max_y) for frustum culling combines the extents measured when each slice was
 * built (a single-block edit repacks 9 chunks: rescanning every vertex would cost more than copying).
 * The per-slice vertex counts, occlusion graphs and occluders go along, so the renderer can skip hidden slices; a
 * slice not built yet counts as open. chunk_mesh_alpha_runs reads the alpha-tested subset's per-slice parts
 * (far leaves, leaves, the rest) for the renderer and strata-bench alike. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "strata/mesher.h"

ChunkMesh *mesher_pack(const TerrainChunk *chunk)
{
    ChunkMesh *mesh = calloc(1, sizeof *mesh);
    if (!mesh) return NULL;
    mesh->coord_x = chunk->coord_x;
    mesh->coord_z = chunk->coord_z;
    mesh->lod = chunk->worker_geometry && (chunk->worker_geometry->copies & MESH_COPY_FAR);
    mesh->far_only = chunk->worker_geometry && !(chunk->worker_geometry->copies & MESH_COPY_FULL);
    visibility_chunk_init(&mesh->visibility);
    const ChunkGeometry *g = chunk->worker_geometry;
    if (!g) return mesh;
    mesh->visibility = g->visibility;
    mesh->visibility.known = true;
    for (int s = 0; s < CHUNK_SLICES; s++) {
        VisibilityChunk *v = &mesh->visibility;
        if (!g->slice_built[s]) {
            v->slice_graph[s] = VISIBILITY_ALL_OPEN;
            v->slice_low[s] = 0;
            v->slice_high[s] = CHUNK_SLICE_HEIGHT;
        } else if (g->slice_min_y[s] > g->slice_max_y[s]) {
            v->slice_low[s] = 1;   /* no geometry */
            v->slice_high[s] = 0;
        } else {
            float base = (float)(s * CHUNK_SLICE_HEIGHT);
            float low = floorf(g->slice_min_y[s] - base), high = ceilf(g->slice_max_y[s] - base);
            v->slice_low[s] = (uint8_t)(low < 0 ? 0 : low > 16 ? 16 : low);
            v->slice_high[s] = (uint8_t)(high < 0 ? 0 : high > 16 ? 16 : high);
        }
    }
    float min_y = CHUNK_SIZE_Y, max_y = 0;
    for (int subset = 0; subset < MESH_SUBSET_COUNT; subset++) {
        int total = 0;
        for (int s = 0; s < CHUNK_SLICES; s++) total += g->slices[s][subset].count;
        if (!total) continue;
        VertexList *out = &mesh->subsets[subset];
        out->data = malloc((size_t)total * sizeof *out->data);
        if (!out->data) {
            chunk_mesh_destroy(mesh);
            return NULL;
        }
        out->capacity = total;
        for (int s = 0; s < CHUNK_SLICES; s++) {
            const VertexList *in = &g->slices[s][subset];
            if (!in->count) continue;
            memcpy(out->data + out->count, in->data, (size_t)in->count * sizeof *in->data);
            out->count += in->count;
            mesh->slice_vertices[subset][s] = in->count;
            mesh->lod_vertices[subset][s] = g->slice_lod_vertices[s][subset];
            if (subset == MESH_SUBSET_ALPHA_TESTED) mesh->alpha_leaf_vertices[s] = g->slice_leaf_vertices[s];
        }
    }
    for (int s = 0; s < CHUNK_SLICES; s++) {
        int count = 0;
        for (int subset = 0; subset < MESH_SUBSET_COUNT; subset++) count += g->slices[s][subset].count;
        if (!count || g->slice_min_y[s] > g->slice_max_y[s]) continue;
        if (g->slice_min_y[s] < min_y) min_y = g->slice_min_y[s];
        if (g->slice_max_y[s] > max_y) max_y = g->slice_max_y[s];
    }
    if (min_y <= max_y) {
        mesh->min_y = (int)floorf(min_y);
        mesh->max_y = (int)ceilf(max_y);
    }
    return mesh;
}

int chunk_mesh_vertex_count(const ChunkMesh *mesh)
{
    if (!mesh) return 0;
    int total = 0;
    for (int i = 0; i < MESH_SUBSET_COUNT; i++) total += mesh->subsets[i].count;
    return total;
}

void chunk_geometry_destroy(ChunkGeometry *geometry)
{
    if (!geometry) return;
    for (int s = 0; s < CHUNK_SLICES; s++)
        for (int i = 0; i < MESH_SUBSET_COUNT; i++) free(geometry->slices[s][i].data);
    free(geometry);
}

void chunk_mesh_destroy(ChunkMesh *mesh)
{
    if (!mesh) return;
    for (int i = 0; i < MESH_SUBSET_COUNT; i++) free(mesh->subsets[i].data);
    free(mesh);
}

int chunk_mesh_alpha_runs(int first, int count, const int slice_vertices[CHUNK_SLICES],
                          const int lod[CHUNK_SLICES], const int leaf[CHUNK_SLICES], MeshAlphaPart part,
                          uint16_t slices, int *run_first, int *run_count)
{
    if (count <= 0) return 0;
    int sum = 0;
    for (int s = 0; s < CHUNK_SLICES; s++) sum += slice_vertices[s];
    if (sum != count) {   /* no per-slice layout: all of it is the rest */
        if (part == MESH_ALPHA_LEAVES || part == MESH_ALPHA_LOD_LEAVES || !slices) return 0;
        run_first[0] = first;
        run_count[0] = count;
        return 1;
    }
    int runs = 0, at = first;
    for (int s = 0; s < CHUNK_SLICES; s++) {
        int n = slice_vertices[s];
        int a = lod[s] < 0 ? 0 : lod[s] > n ? n : lod[s];
        int b = leaf[s] < 0 ? 0 : leaf[s] > n - a ? n - a : leaf[s];
        int start = part == MESH_ALPHA_LEAVES ? a : part == MESH_ALPHA_REST ? a + b : part == MESH_ALPHA_NEAR ? a : 0;
        int end = part == MESH_ALPHA_LEAVES ? a + b : part == MESH_ALPHA_LOD_LEAVES ? a : n;
        int base = at + start, length = end - start;
        at += n;
        if (!(slices >> s & 1u) || length <= 0) continue;
        runs = mesh_runs_append(run_first, run_count, runs, base, length);
    }
    return runs;
}

int chunk_mesh_alpha_part_vertices(const ChunkMesh *mesh, MeshAlphaPart part)
{
    const int k = MESH_SUBSET_ALPHA_TESTED;
    int first[CHUNK_SLICES], count[CHUNK_SLICES], total = 0;
    int runs = chunk_mesh_alpha_runs(0, mesh->subsets[k].count, mesh->slice_vertices[k], mesh->lod_vertices[k],
                                     mesh->alpha_leaf_vertices, part, 0xFFFF, first, count);
    for (int i = 0; i < runs; i++) total += count[i];
    return total;
}

int chunk_mesh_lod_runs(int first, int count, const int slice_vertices[CHUNK_SLICES], const int lod[CHUNK_SLICES],
                        bool lod_part, uint16_t slices, int *run_first, int *run_count)
{
    static const int none[CHUNK_SLICES];
    return chunk_mesh_alpha_runs(first, count, slice_vertices, lod, none,
                                 lod_part ? MESH_ALPHA_LOD_LEAVES : MESH_ALPHA_NEAR, slices, run_first, run_count);
}

/* Subset k's per-slice first parts as a pass draws them: a near chunk draws the transparent subset whole (its
 * first part is what far chunks keep, not a copy), so for it there is no part to leave out. */
static const int *mesh_subset_first_parts(int k, bool lod_part, const int *lod)
{
    static const int none[CHUNK_SLICES];
    return k == MESH_SUBSET_TRANSPARENT && !lod_part ? none : lod;
}

int chunk_mesh_subset_vertices(const ChunkMesh *mesh, int subset, bool lod)
{
    int first[CHUNK_SLICES], count[CHUNK_SLICES], total = 0;
    int runs = chunk_mesh_lod_runs(0, mesh->subsets[subset].count, mesh->slice_vertices[subset],
                                   mesh_subset_first_parts(subset, lod, mesh->lod_vertices[subset]), lod, 0xFFFF,
                                   first, count);
    for (int i = 0; i < runs; i++) total += count[i];
    return total;
}

int chunk_mesh_subset_runs(const int first[MESH_SUBSET_COUNT], const int count[MESH_SUBSET_COUNT],
                           const int (*slice_vertices)[CHUNK_SLICES], const int (*lod)[CHUNK_SLICES], unsigned mask,
                           bool lod_part, uint16_t slices, int *run_first, int *run_count)
{
    int runs = 0;
    for (int k = 0; k < MESH_SUBSET_COUNT; k++) {
        if (!(mask >> k & 1u)) continue;
        int f[CHUNK_SLICES], n[CHUNK_SLICES];
        int m = chunk_mesh_lod_runs(first[k], count[k], slice_vertices[k], mesh_subset_first_parts(k, lod_part, lod[k]),
                                    lod_part, slices, f, n);
        for (int i = 0; i < m; i++) runs = mesh_runs_append(run_first, run_count, runs, f[i], n[i]);
    }
    return runs;
}
