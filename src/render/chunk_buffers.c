/* chunk_buffers.c — GPU geometry per chunk: the upload queue, its budget, and the quad index buffer.
 *
 * Design (CompileDrawSubsets-style): each chunk's seven subsets lie back to back in one range of a
 * geometry arena (chunk_arena.c), with a (first, count) per subset, so any choice of subsets of any
 * number of chunks in one arena is one multi-draw. Every arena's VAO shares a single element buffer with
 * the quad pattern (0,1,2, 0,2,3 per quad); draws use a base vertex so the pattern always starts at 0, and
 * the buffer grows (same name, so VAOs stay valid) to the largest run ever drawn. Each chunk also holds a
 * slot (a small integer, reused after release) that its vertices carry to the shader.
 * Chunks are found by coordinates through an open-addressing hash (linear probing, backward-shift delete)
 * over a dense array the draw loop walks. A mesh handed over is only queued; renderer_draw uploads the
 * pending meshes nearest the camera first for as long as the frame's time budget allows (at least one a
 * frame): a count budget starves when a slow frame is slow for other reasons, and a time budget lets the
 * loading screen, which draws nothing else, spend its frame uploading. Chunks the player just edited
 * are marked urgent: their meshes go up in the first draw after they arrive, before and outside the
 * budget, so a dig shows as soon as the worker has remeshed it. */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <math.h>
#include "render_internal.h"
#include "strata/log.h"

/* ---- quad index buffer ---- */

void render_quad_indices_ensure(RenderQuadIndices *indices, int quads)
{
    if (quads <= indices->quads)
        return;
    int capacity = indices->quads > 0 ? indices->quads : 16384;
    while (capacity < quads)
        capacity *= 2;
    uint32_t *data = malloc((size_t)capacity * 6 * sizeof *data);
    if (!data) {
        log_error(RENDER_TAG, "out of memory growing the quad index buffer to %d quads", capacity);
        return;
    }
    for (int q = 0; q < capacity; q++) {
        uint32_t v = (uint32_t)q * 4;
        uint32_t *i = data + (size_t)q * 6;
        i[0] = v; i[1] = v + 1; i[2] = v + 2;
        i[3] = v; i[4] = v + 2; i[5] = v + 3;
    }
    if (!indices->buffer)
        glGenBuffers(1, &indices->buffer);
    /* The copy-write target: binding GL_ELEMENT_ARRAY_BUFFER would touch whichever VAO is bound. */
    glBindBuffer(GL_COPY_WRITE_BUFFER, indices->buffer);
    glBufferData(GL_COPY_WRITE_BUFFER, (GLsizeiptr)((size_t)capacity * 6 * sizeof *data), data, GL_STATIC_DRAW);
    glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
    free(data);
    indices->quads = capacity;
}

/* ---- the coordinate hash ---- */

static uint32_t chunk_buffers_hash(int coord_x, int coord_z)
{
    uint32_t h = (uint32_t)coord_x * 0x9E3779B1u ^ ((uint32_t)coord_z + 0x7F4A7C15u) * 0x85EBCA77u;
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 13;
    return h;
}

static int chunk_buffers_slot_of(const ChunkBufferTable *table, int coord_x, int coord_z)
{
    uint32_t mask = (uint32_t)table->slot_capacity - 1;
    uint32_t s = chunk_buffers_hash(coord_x, coord_z) & mask;
    for (;;) {
        int32_t v = table->slots[s];
        if (v == 0)
            return -1;
        const RenderChunk *c = &table->chunks[v - 1];
        if (c->coord_x == coord_x && c->coord_z == coord_z)
            return (int)s;
        s = (s + 1) & mask;
    }
}

static void chunk_buffers_slot_insert(ChunkBufferTable *table, int dense_index)
{
    uint32_t mask = (uint32_t)table->slot_capacity - 1;
    const RenderChunk *c = &table->chunks[dense_index];
    uint32_t s = chunk_buffers_hash(c->coord_x, c->coord_z) & mask;
    while (table->slots[s] != 0)
        s = (s + 1) & mask;
    table->slots[s] = dense_index + 1;
}

/* Backward-shift deletion keeps probe chains intact without tombstones. */
static void chunk_buffers_slot_delete(ChunkBufferTable *table, int slot)
{
    uint32_t mask = (uint32_t)table->slot_capacity - 1;
    uint32_t hole = (uint32_t)slot, s = hole;
    for (;;) {
        s = (s + 1) & mask;
        int32_t v = table->slots[s];
        if (v == 0)
            break;
        const RenderChunk *c = &table->chunks[v - 1];
        uint32_t home = chunk_buffers_hash(c->coord_x, c->coord_z) & mask;
        /* Move the entry back if its home is not cyclically within (hole, s]. */
        bool stays = (hole <= s) ? (home > hole && home <= s) : (home > hole || home <= s);
        if (!stays) {
            table->slots[hole] = v;
            hole = s;
        }
    }
    table->slots[hole] = 0;
}

static bool chunk_buffers_rehash(ChunkBufferTable *table, int slot_capacity)
{
    int32_t *slots = calloc((size_t)slot_capacity, sizeof *slots);
    if (!slots)
        return false;
    free(table->slots);
    table->slots = slots;
    table->slot_capacity = slot_capacity;
    for (int i = 0; i < table->count; i++)
        chunk_buffers_slot_insert(table, i);
    return true;
}

StResult chunk_buffers_init(ChunkBufferTable *table, int expected_chunks)
{
    memset(table, 0, sizeof *table);
    table->occluders_epoch = 1;
    /* Sized for the view square at once: grown by doubling while a world of view distance 16 loaded, the
     * table (1.6 KiB a chunk) was copied three times on the main thread. */
    table->capacity = expected_chunks > 256 ? expected_chunks : 256;
    table->chunks = calloc((size_t)table->capacity, sizeof *table->chunks);
    table->slot_capacity = 512;
    while (table->slot_capacity < 2 * table->capacity)
        table->slot_capacity *= 2;
    table->slots = calloc((size_t)table->slot_capacity, sizeof *table->slots);
    if (!table->chunks || !table->slots) {
        free(table->chunks);
        free(table->slots);
        memset(table, 0, sizeof *table);
        return st_fail(ST_ERR_NOMEM, "renderer: out of memory for the chunk table");
    }
    chunk_arena_init(&table->arenas);
    render_quad_indices_ensure(&table->quad_indices, 16384);
    return ST_OK;
}

/* The chunk's range goes back to its arena (once the frames in flight are done with it). */
static void chunk_buffers_free_range(ChunkBufferTable *table, RenderChunk *c)
{
    chunk_arena_release(&table->arenas, c->arena, c->arena_offset, c->arena_size);
    c->arena = -1;
    c->arena_offset = c->arena_size = 0;
}

void chunk_buffers_free(ChunkBufferTable *table)
{
    for (int i = 0; i < table->count; i++)
        chunk_mesh_destroy(table->chunks[i].pending);
    chunk_arena_free_all(&table->arenas);
    if (table->quad_indices.buffer)
        glDeleteBuffers(1, &table->quad_indices.buffer);
    free(table->chunks);
    free(table->slots);
    free(table->pick_scratch);
    free(table->free_slots);
    memset(table, 0, sizeof *table);
}

/* A slot for a new chunk: a released one first. -1 when all RENDER_SLOT_MAX are taken. */
static int chunk_buffers_take_slot(ChunkBufferTable *table)
{
    if (table->free_slot_count > 0)
        return table->free_slots[--table->free_slot_count];
    if (table->slot_high >= RENDER_SLOT_MAX)
        return -1;
    return table->slot_high++;
}

static void chunk_buffers_give_slot(ChunkBufferTable *table, uint16_t slot)
{
    if (table->free_slot_count == table->free_slot_capacity) {
        int capacity = table->free_slot_capacity ? table->free_slot_capacity * 2 : 256;
        uint16_t *grown = realloc(table->free_slots, (size_t)capacity * sizeof *grown);
        if (!grown)
            return; /* the slot is lost: the table grows by one, nothing breaks */
        table->free_slots = grown;
        table->free_slot_capacity = capacity;
    }
    table->free_slots[table->free_slot_count++] = slot;
}

RenderChunk *chunk_buffers_find(ChunkBufferTable *table, int coord_x, int coord_z)
{
    int slot = chunk_buffers_slot_of(table, coord_x, coord_z);
    return slot < 0 ? NULL : &table->chunks[table->slots[slot] - 1];
}

static RenderChunk *chunk_buffers_add(ChunkBufferTable *table, int coord_x, int coord_z)
{
    if (table->count == table->capacity) {
        int capacity = table->capacity * 2;
        RenderChunk *chunks = realloc(table->chunks, (size_t)capacity * sizeof *chunks);
        if (!chunks)
            return NULL;
        table->chunks = chunks;
        table->capacity = capacity;
    }
    if ((table->count + 1) * 2 > table->slot_capacity && !chunk_buffers_rehash(table, table->slot_capacity * 2))
        return NULL;
    int slot = chunk_buffers_take_slot(table);
    if (slot < 0)
        return NULL;
    RenderChunk *c = &table->chunks[table->count];
    memset(c, 0, sizeof *c);
    c->coord_x = coord_x;
    c->coord_z = coord_z;
    c->arena = -1;
    c->slot = (uint16_t)slot;
    chunk_buffers_slot_insert(table, table->count);
    table->count++;
    return c;
}

void chunk_buffers_queue_mesh(ChunkBufferTable *table, int coord_x, int coord_z, ChunkMesh *mesh)
{
    RenderChunk *c = chunk_buffers_find(table, coord_x, coord_z);
    if (!c) {
        c = chunk_buffers_add(table, coord_x, coord_z);
        if (!c) {
            log_error(RENDER_TAG, "out of memory queueing chunk %d,%d; its geometry is dropped", coord_x, coord_z);
            chunk_mesh_destroy(mesh);
            return;
        }
    }
    if (c->pending)
        chunk_mesh_destroy(c->pending);
    else
        table->pending_count++;
    c->pending = mesh;
}

void chunk_buffers_release(ChunkBufferTable *table, int coord_x, int coord_z)
{
    int slot = chunk_buffers_slot_of(table, coord_x, coord_z);
    if (slot < 0)
        return;
    int index = table->slots[slot] - 1;
    RenderChunk *c = &table->chunks[index];
    chunk_buffers_free_range(table, c);
    chunk_buffers_give_slot(table, c->slot);
    if (c->pending) {
        chunk_mesh_destroy(c->pending);
        table->pending_count--;
    }
    chunk_buffers_slot_delete(table, slot);
    table->occluders_epoch++;
    int last = table->count - 1;
    if (index != last) {
        /* Move the last entry into the hole and repoint its slot. */
        int last_slot = chunk_buffers_slot_of(table, table->chunks[last].coord_x, table->chunks[last].coord_z);
        table->chunks[index] = table->chunks[last];
        table->slots[last_slot] = index + 1;
    }
    table->count--;
}

float chunk_buffers_nearest_distance(int coord_x, int coord_z, const double camera[3])
{
    double min_x = (double)coord_x * CHUNK_SIZE_X, min_z = (double)coord_z * CHUNK_SIZE_Z;
    double dx = camera[0] < min_x ? min_x - camera[0] : camera[0] > min_x + CHUNK_SIZE_X ? camera[0] - (min_x + CHUNK_SIZE_X) : 0.0;
    double dz = camera[2] < min_z ? min_z - camera[2] : camera[2] > min_z + CHUNK_SIZE_Z ? camera[2] - (min_z + CHUNK_SIZE_Z) : 0.0;
    return (float)sqrt(dx * dx + dz * dz);
}

/* Uploads one pending mesh into the chunk's VBO and frees the CPU copy. Returns bytes uploaded. */
static size_t chunk_buffers_upload_one(ChunkBufferTable *table, RenderChunk *c, const double camera[3])
{
    ChunkMesh *mesh = c->pending;
    c->pending = NULL;
    table->pending_count--;

    int total = 0;
    for (int s = 0; s < MESH_SUBSET_COUNT; s++) {
        int n = mesh->subsets[s].count & ~3; /* whole quads only */
        if (n != mesh->subsets[s].count)
            log_warn(RENDER_TAG, "chunk %d,%d subset %d: %d vertices is not whole quads; drawing %d",
                     c->coord_x, c->coord_z, s, mesh->subsets[s].count, n);
        c->first[s] = total;
        c->count[s] = n;
        total += n;
    }
    bool had_geometry = c->has_geometry;
    c->total_vertices = total;
    c->min_y = mesh->min_y;
    c->max_y = mesh->max_y;
    memcpy(c->slice_vertices, mesh->slice_vertices, sizeof c->slice_vertices);
    memcpy(c->lod_vertices, mesh->lod_vertices, sizeof c->lod_vertices);
    c->has_lod = mesh->lod;
    c->far_only = mesh->far_only;
    memcpy(c->alpha_leaf_vertices, mesh->alpha_leaf_vertices, sizeof c->alpha_leaf_vertices);
    c->visibility = mesh->visibility;
    c->graph_known = mesh->visibility.known;
    table->occluders_epoch++;
    size_t bytes = (size_t)total * sizeof(ArenaVertex);

    /* the old range stays drawable by the frames in flight; the new geometry goes to a fresh range */
    chunk_buffers_free_range(table, c);
    if (total == 0) {
        c->has_geometry = false;
        chunk_mesh_destroy(mesh);
        return 0;
    }
    render_quad_indices_ensure(&table->quad_indices, total / 4);
    if (!chunk_arena_alloc(&table->arenas, total, table->quad_indices.buffer, &c->arena, &c->arena_offset,
                           &c->arena_size)) {
        log_error(RENDER_TAG, "out of memory for chunk %d,%d's geometry (%d vertices); it is not drawn",
                  c->coord_x, c->coord_z, total);
        c->arena = -1;
        c->has_geometry = false;
        chunk_mesh_destroy(mesh);
        return 0;
    }
    chunk_arena_write(&table->arenas, c->arena, c->arena_offset, mesh, c->first, c->count, c->slot, total);
    c->has_geometry = true;
    if (!had_geometry) {
        c->haze_end = chunk_buffers_nearest_distance(c->coord_x, c->coord_z, camera);
        c->lod_share = -1.0f;   /* it arrives at its distance's resolution (render.c), not dissolving */
    }
    chunk_mesh_destroy(mesh);
    return bytes;
}

static double chunk_buffers_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

typedef struct PendingPick {
    float distance;
    int index;
} PendingPick;

static bool chunk_buffers_grow_pick(ChunkBufferTable *table, int n)
{
    if (n <= table->pick_capacity)
        return true;
    int capacity = table->pick_capacity ? table->pick_capacity : 64;
    while (capacity < n)
        capacity *= 2;
    struct PendingPick *picks = realloc(table->pick_scratch, (size_t)capacity * sizeof *picks);
    if (!picks)
        return false;
    table->pick_scratch = picks;
    table->pick_capacity = capacity;
    return true;
}

static int chunk_buffers_compare_pick(const void *a, const void *b)
{
    float da = ((const PendingPick *)a)->distance, db = ((const PendingPick *)b)->distance;
    return (da > db) - (da < db);
}

int chunk_buffers_upload(ChunkBufferTable *table, const double camera[3], double budget_ms)
{
    if (table->pending_count == 0)
        return 0;
    bool everything = budget_ms < 0.0;
    int urgent = 0;
    if (!everything) {
        for (int i = 0; i < table->count; i++) {
            RenderChunk *c = &table->chunks[i];
            if (c->pending && c->urgent_draws > 0) {
                chunk_buffers_upload_one(table, c, camera);
                urgent++;
            }
        }
        if (table->pending_count == 0)
            return urgent;
    }
    double start = chunk_buffers_now_ms();
    int uploaded = 0;
    if (everything || !chunk_buffers_grow_pick(table, table->pending_count)) {
        for (int i = 0; i < table->count; i++) {
            if (!table->chunks[i].pending)
                continue;
            chunk_buffers_upload_one(table, &table->chunks[i], camera);
            uploaded++;
            if (!everything && chunk_buffers_now_ms() - start >= budget_ms)
                break;
        }
        return urgent + uploaded;
    }
    /* Nearest first, until the time is spent (at least one: a slow frame never starves the queue). */
    PendingPick *picks = table->pick_scratch;
    int n = 0;
    for (int i = 0; i < table->count; i++) {
        if (!table->chunks[i].pending)
            continue;
        picks[n].index = i;
        picks[n].distance = chunk_buffers_nearest_distance(table->chunks[i].coord_x, table->chunks[i].coord_z, camera);
        n++;
    }
    qsort(picks, (size_t)n, sizeof *picks, chunk_buffers_compare_pick);
    for (int k = 0; k < n; k++) {
        chunk_buffers_upload_one(table, &table->chunks[picks[k].index], camera);
        uploaded++;
        if (chunk_buffers_now_ms() - start >= budget_ms)
            break;
    }
    return urgent + uploaded;
}
