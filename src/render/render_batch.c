/* render_batch.c — a pass's draws: the runs of chunk geometry it queues, drawn one multi-draw per arena, and
 * the shader build each chunk takes.
 *
 * Design: a pass walks its chunks in its order (near to far, or far to near) and queues each chunk's runs
 * (chunk_mesh_subset_runs, chunk_mesh_alpha_runs) as (count, base vertex) pairs for
 * glMultiDrawElementsBaseVertex; what is queued is drawn when the next chunk lies in another arena, when the
 * pass switches to another build of its shader (renderer_pass_use), and at the pass's end. So a pass costs a
 * call or two per arena, whatever the number of chunks. */
#include <stdlib.h>
#include "render_internal.h"
#include "strata/log.h"

/* Room for `runs` more runs in the batch. False when out of memory (the caller draws less). */
static bool renderer_batch_reserve(RenderBatch *b, int runs)
{
    if (b->count + runs <= b->capacity)
        return true;
    int capacity = b->capacity ? b->capacity : 1024;
    while (capacity < b->count + runs)
        capacity *= 2;
    GLsizei *counts = realloc(b->counts, (size_t)capacity * sizeof *counts);
    if (counts)
        b->counts = counts;
    GLint *bases = realloc(b->bases, (size_t)capacity * sizeof *bases);
    if (bases)
        b->bases = bases;
    const void **offsets = realloc(b->offsets, (size_t)capacity * sizeof *offsets);
    if (offsets)
        b->offsets = offsets;
    if (!counts || !bases || !offsets) {
        log_error(RENDER_TAG, "out of memory for %d draw runs", capacity);
        return false;
    }
    for (int i = b->capacity; i < capacity; i++)
        b->offsets[i] = NULL;
    b->capacity = capacity;
    return true;
}

void renderer_batch_flush(Renderer *r)
{
    RenderBatch *b = &r->batch;
    if (b->count > 0) {
        glBindVertexArray(r->chunks.arenas.arenas[b->arena].vao);
        if (b->count == 1)
            glDrawElementsBaseVertex(GL_TRIANGLES, b->counts[0], GL_UNSIGNED_INT, NULL, b->bases[0]);
        else
            glMultiDrawElementsBaseVertex(GL_TRIANGLES, b->counts, GL_UNSIGNED_INT, b->offsets, b->count, b->bases);
        r->stats.draw_calls++;
    }
    b->count = 0;
    b->arena = -1;
}

/* Queues runs of one chunk's vertices (first vertex and count, relative to the chunk's range), drawing what is
 * queued first when the chunk lies in another arena; the batch has room for them. Returns triangles. */
static long renderer_batch_runs(Renderer *r, const RenderChunk *c, int runs, const int *firsts, const int *vertices)
{
    RenderBatch *b = &r->batch;
    long triangles = 0;
    for (int i = 0; i < runs; i++) {
        if (vertices[i] <= 0)
            continue;
        if (b->arena != c->arena) {
            renderer_batch_flush(r);
            b->arena = c->arena;
        }
        b->counts[b->count] = vertices[i] / 4 * 6;
        b->bases[b->count] = c->arena_offset + firsts[i];
        b->count++;
        triangles += vertices[i] / 2;
    }
    r->stats.chunk_draws += triangles > 0;
    return triangles;
}

long renderer_batch_subsets(Renderer *r, const RenderChunk *c, unsigned mask, uint16_t slices, bool lod)
{
    if (c->arena < 0 || !renderer_batch_reserve(&r->batch, MESH_SUBSET_COUNT * CHUNK_SLICES))
        return 0;
    int firsts[MESH_SUBSET_COUNT * CHUNK_SLICES], vertices[MESH_SUBSET_COUNT * CHUNK_SLICES];
    int runs = chunk_mesh_subset_runs(c->first, c->count, (const int (*)[CHUNK_SLICES])c->slice_vertices,
                                      (const int (*)[CHUNK_SLICES])c->lod_vertices, mask, lod, slices, firsts,
                                      vertices);
    return renderer_batch_runs(r, c, runs, firsts, vertices);
}

long renderer_batch_alpha_part(Renderer *r, const RenderChunk *c, uint16_t slices, MeshAlphaPart part)
{
    const int k = MESH_SUBSET_ALPHA_TESTED;
    if (c->arena < 0 || c->count[k] == 0 || !renderer_batch_reserve(&r->batch, CHUNK_SLICES))
        return 0;
    int firsts[CHUNK_SLICES], vertices[CHUNK_SLICES];
    int runs = chunk_mesh_alpha_runs(c->first[k], c->count[k], c->slice_vertices[k], c->lod_vertices[k],
                                     c->alpha_leaf_vertices, part, slices, firsts, vertices);
    return renderer_batch_runs(r, c, runs, firsts, vertices);
}

void renderer_pass_use(Renderer *r, RenderPass *pass, int build)
{
    if (pass->bound == build)
        return;
    renderer_batch_flush(r);
    const TerrainProgram *p = renderer_terrain_program(r, pass->shader, build);
    glUseProgram(p->program);
    glUniformMatrix4fv(p->u_view_proj, 1, GL_FALSE, pass->view_proj);
    glUniform3fv(p->u_fog_color, 1, pass->fog_color);
    pass->bound = build;
}
