/* chunk_arena.c — chunk geometry in a few large GL buffers (arenas) instead of one VBO per chunk.
 *
 * Design: an arena is one big vertex buffer (RENDER_ARENA_VERTICES ArenaVertex: the mesher's vertices in
 * fixed point, each with its chunk's slot, which the terrain shader looks up in the per-frame slot table for
 * the chunk's camera offset and fog band) and one VAO over it and the shared quad index buffer. A
 * RangeAlloc (strata/range_alloc.h, first fit with coalescing) hands out vertex ranges rounded up to
 * RENDER_ARENA_GRANULE; when no arena has room a new one is made (one big enough for any chunk). A draw
 * addresses a chunk's subset with a base vertex (arena offset + subset start), so one
 * glMultiDrawElementsBaseVertex per arena draws a whole pass.
 * Writes are unsynchronized maps of fresh ranges: a range is never written while a frame in flight may
 * still read it, because a freed range only returns to its allocator once the frame that last drew it has
 * finished (chunk_arena_reclaim, after the renderer has waited for that frame's fence). So uploads never
 * wait for the GPU (a plain glBufferSubData on a busy buffer makes llvmpipe finish the frame in flight).
 * A new arena is expensive once: llvmpipe clears the whole buffer when it is created (~60 ms for 66 MiB here,
 * and every page of it resident from then on). So arenas are small (RENDER_ARENA_VERTICES, 16 MiB) and made
 * only when an upload finds no room: the geometry's own size decides the memory, not a guess. An arena made
 * in play costs a frame ~20 ms (the flight's longest frame was 134 ms when a 66 MiB one was made there). The
 * ones the view distance filled are kept while emptied (chunk_arena_set_reserve, set on loading frames), so
 * a player moving about does not make and drop them over and over. Made ahead on loading frames instead (a
 * reserve of 16k vertices a chunk, 132 MiB at view distance 8 for 74 MiB of geometry), they cost the
 * loading ~0.3 s of main-thread CPU on 2 cores and the game ~60 MB. */
#include <stdlib.h>
#include <string.h>
#include "render_internal.h"
#include "strata/log.h"

void chunk_arena_init(ChunkArenaSet *set)
{
    memset(set, 0, sizeof *set);
    set->arena_vertices = RENDER_ARENA_VERTICES;
    const char *env = getenv("STRATA_ARENA_VERTICES");
    if (env && *env) {
        char *end;
        long n = strtol(env, &end, 10);
        if (*end == 0 && n >= 1024 && n <= (1L << 24))
            set->arena_vertices = (int)n;
        else
            log_warn(RENDER_TAG, "STRATA_ARENA_VERTICES=%s is not 1024..16777216; arenas keep %d vertices", env,
                     set->arena_vertices);
    }
}

static bool chunk_arena_make(ChunkArenaSet *set, RenderArena *a, int capacity, GLuint quad_index_buffer)
{
    memset(a, 0, sizeof *a);
    if (!range_alloc_init(&a->ranges, capacity))
        return false;
    glGenVertexArrays(1, &a->vao);
    glGenBuffers(1, &a->vbo);
    glBindVertexArray(a->vao);
    glBindBuffer(GL_ARRAY_BUFFER, a->vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)((size_t)capacity * sizeof(ArenaVertex)), NULL, GL_STATIC_DRAW);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_SHORT, GL_FALSE, sizeof(ArenaVertex), (const void *)offsetof(ArenaVertex, x));
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 2, GL_SHORT, GL_FALSE, sizeof(ArenaVertex), (const void *)offsetof(ArenaVertex, tx));
    glEnableVertexAttribArray(2);
    glVertexAttribPointer(2, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(ArenaVertex),
                          (const void *)offsetof(ArenaVertex, color));
    glEnableVertexAttribArray(3);
    glVertexAttribIPointer(3, 1, GL_UNSIGNED_SHORT, sizeof(ArenaVertex), (const void *)offsetof(ArenaVertex, slot));
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, quad_index_buffer);
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    set->live++;
    log_info(RENDER_TAG, "geometry arena %d: %d vertices (%.0f MiB)", (int)(a - set->arenas), capacity,
             (double)capacity * sizeof(ArenaVertex) / (1024.0 * 1024.0));
    return true;
}

static void chunk_arena_drop(ChunkArenaSet *set, RenderArena *a)
{
    if (!a->vao)
        return;
    glDeleteVertexArrays(1, &a->vao);
    glDeleteBuffers(1, &a->vbo);
    range_alloc_free(&a->ranges);
    memset(a, 0, sizeof *a);
    set->live--;
}

long chunk_arena_live_capacity(const ChunkArenaSet *set)
{
    long total = 0;
    for (int i = 0; i < set->count; i++)
        if (set->arenas[i].vao)
            total += set->arenas[i].ranges.capacity;
    return total;
}

void chunk_arena_set_reserve(ChunkArenaSet *set, long vertices)
{
    set->reserve_vertices = vertices > 0 ? vertices : 0;
}

/* A new arena of `capacity` in the first unused entry (or a new one); its index, or -1. */
static int chunk_arena_add(ChunkArenaSet *set, int capacity, GLuint quad_index_buffer)
{
    int index = -1;
    for (int i = 0; i < set->count && index < 0; i++)
        if (!set->arenas[i].vao)
            index = i;
    if (index < 0) {
        RenderArena *grown = realloc(set->arenas, (size_t)(set->count + 1) * sizeof *grown);
        if (!grown)
            return -1;
        set->arenas = grown;
        index = set->count++;
        memset(&set->arenas[index], 0, sizeof set->arenas[index]);
    }
    return chunk_arena_make(set, &set->arenas[index], capacity, quad_index_buffer) ? index : -1;
}

void chunk_arena_free_all(ChunkArenaSet *set)
{
    for (int i = 0; i < set->count; i++)
        chunk_arena_drop(set, &set->arenas[i]);
    free(set->arenas);
    free(set->deferred);
    chunk_arena_init(set);
}

bool chunk_arena_alloc(ChunkArenaSet *set, int vertices, GLuint quad_index_buffer, int *arena, int *offset,
                       int *size)
{
    int want = (vertices + RENDER_ARENA_GRANULE - 1) / RENDER_ARENA_GRANULE * RENDER_ARENA_GRANULE;
    for (int i = 0; i < set->count; i++) {
        if (!set->arenas[i].vao)
            continue;
        int o = range_alloc_take(&set->arenas[i].ranges, want);
        if (o >= 0) {
            *arena = i;
            *offset = o;
            *size = want;
            return true;
        }
    }
    /* no room: a new arena, in a dropped entry's place if there is one */
    int index = chunk_arena_add(set, want > set->arena_vertices ? want : set->arena_vertices, quad_index_buffer);
    if (index < 0)
        return false;
    *arena = index;
    *offset = range_alloc_take(&set->arenas[index].ranges, want);
    *size = want;
    return *offset >= 0;
}

void chunk_arena_release(ChunkArenaSet *set, int arena, int offset, int size)
{
    if (arena < 0 || size <= 0)
        return;
    if (set->deferred_count == set->deferred_capacity) {
        int capacity = set->deferred_capacity ? set->deferred_capacity * 2 : 256;
        ChunkArenaFree *grown = realloc(set->deferred, (size_t)capacity * sizeof *grown);
        if (!grown) {
            log_error(RENDER_TAG, "out of memory deferring an arena free; %d vertices are lost to arena %d", size, arena);
            return;
        }
        set->deferred = grown;
        set->deferred_capacity = capacity;
    }
    /* the last frame that could draw it is the one submitted last */
    set->deferred[set->deferred_count++] = (ChunkArenaFree){ arena, offset, size, set->frames_ended - 1 };
}

void chunk_arena_reclaim(ChunkArenaSet *set, long finished_frame)
{
    int kept = 0;
    for (int i = 0; i < set->deferred_count; i++) {
        ChunkArenaFree f = set->deferred[i];
        if (f.frame > finished_frame) {
            set->deferred[kept++] = f;
            continue;
        }
        RenderArena *a = &set->arenas[f.arena];
        if (!range_alloc_give(&a->ranges, f.offset, f.size))
            log_error(RENDER_TAG, "out of memory freeing %d vertices of arena %d; they stay taken", f.size, f.arena);
    }
    set->deferred_count = kept;
    /* an emptied arena past the first goes back (llvmpipe keeps a buffer's pages in the process), unless the
     * reserve needs it */
    long live = chunk_arena_live_capacity(set);
    for (int i = 1; i < set->count; i++) {
        RenderArena *a = &set->arenas[i];
        if (a->vao && a->ranges.used == 0 && live - a->ranges.capacity >= set->reserve_vertices) {
            bool pending = false;
            for (int k = 0; k < set->deferred_count && !pending; k++)
                pending = set->deferred[k].arena == i;
            if (!pending) {
                live -= a->ranges.capacity;
                chunk_arena_drop(set, a);
            }
        }
    }
}

/* Maps `bytes` at byte `at` of `buffer` for writing, unsynchronized; NULL where it cannot (the caller then
 * writes with glBufferSubData: the buffer stays bound). */
static void *chunk_arena_map(GLuint buffer, size_t at, size_t bytes)
{
    glBindBuffer(GL_ARRAY_BUFFER, buffer);
    return glMapBufferRange(GL_ARRAY_BUFFER, (GLintptr)at, (GLsizeiptr)bytes,
                            GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_RANGE_BIT | GL_MAP_UNSYNCHRONIZED_BIT);
}

static void chunk_arena_convert(ArenaVertex *dst, const TerrainVertex *src, int n, uint16_t slot)
{
    for (int i = 0; i < n; i++) {
        dst[i].x = render_fixed16(src[i].x, (float)ARENA_POSITION_STEPS);
        dst[i].y = render_fixed16(src[i].y, (float)ARENA_POSITION_STEPS);
        dst[i].z = render_fixed16(src[i].z, (float)ARENA_POSITION_STEPS);
        dst[i].slot = slot;
        dst[i].tx = src[i].tx;
        dst[i].ty = src[i].ty;
        memcpy(dst[i].color, src[i].color, 4);
    }
}

void chunk_arena_write(ChunkArenaSet *set, int arena, int offset, const ChunkMesh *mesh, const int first[],
                       const int count[], uint16_t slot, int total)
{
    RenderArena *a = &set->arenas[arena];
    size_t base = (size_t)offset * sizeof(ArenaVertex);
    ArenaVertex *dst = chunk_arena_map(a->vbo, base, (size_t)total * sizeof(ArenaVertex));
    for (int s = 0; s < MESH_SUBSET_COUNT; s++) {
        if (count[s] <= 0)
            continue;
        if (dst) {
            chunk_arena_convert(dst + first[s], mesh->subsets[s].data, count[s], slot);
            continue;
        }
        ArenaVertex part[256];   /* no map: converted and written a part at a time */
        for (int done = 0; done < count[s]; done += 256) {
            int n = count[s] - done < 256 ? count[s] - done : 256;
            chunk_arena_convert(part, mesh->subsets[s].data + done, n, slot);
            glBufferSubData(GL_ARRAY_BUFFER, (GLintptr)(base + (size_t)(first[s] + done) * sizeof(ArenaVertex)),
                            (GLsizeiptr)((size_t)n * sizeof(ArenaVertex)), part);
        }
    }
    if (dst)
        glUnmapBuffer(GL_ARRAY_BUFFER);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
}
