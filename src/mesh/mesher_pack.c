/* mesher_pack.c — handing geometry over: all slices into one ChunkMesh, and freeing both kinds.
 *
 * Design. The worker keeps per-slice lists between passes (so unchanged slices cost nothing); the main
 * thread gets one contiguous list per subset, exactly sized, which the renderer uploads and frees. The
 * vertical extent (min_y, max_y) for frustum culling combines the extents measured when each slice was
 * built (a single-block edit repacks 9 chunks: rescanning every vertex would cost more than copying).
 * The per-slice vertex counts and occlusion graphs go along, so the renderer can skip hidden slices; a
 * slice not built yet counts as open. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "strata/mesher.h"
#include "strata/visibility.h"

ChunkMesh *mesher_pack(const TerrainChunk *chunk)
{
    ChunkMesh *mesh = calloc(1, sizeof *mesh);
    if (!mesh) return NULL;
    mesh->coord_x = chunk->coord_x;
    mesh->coord_z = chunk->coord_z;
    for (int s = 0; s < CHUNK_SLICES; s++) mesh->slice_graph[s] = VISIBILITY_ALL_OPEN;
    const ChunkGeometry *g = chunk->worker_geometry;
    if (!g) return mesh;
    for (int s = 0; s < CHUNK_SLICES; s++)
        mesh->slice_graph[s] = g->slice_built[s] ? g->slice_graph[s] : (uint16_t)VISIBILITY_ALL_OPEN;
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
