/* light_propagate.c — the InvalidPropagatedLight step: light that crosses chunk borders.
 *
 * Design. The sunlight step leaves every chunk holding its own light: the brightest light that reaches
 * each cell from the chunk's own sources (sky, emitters) along paths inside the chunk. A chunk that has
 * propagated holds its final light. Either way a cell's light bits v0 lie between its own light and its
 * final light, and within one chunk they already satisfy the flood rule (no cell could pass a neighbour
 * in the same chunk more light than it has). So the only places where the world's light can still rise
 * are chunk borders, and this step:
 *   1. seeds, on every border between two chunks of the 3x3 neighbourhood (region 48 x 48 columns, this
 *      chunk at 16..31), each cell that its neighbour across the border would pass more light than it has;
 *   2. floods from those seeds (Dial's bucket queue, brightest first) across the whole region, reading
 *      neighbour cells' light and contents but writing only this chunk's cells; raised neighbour cells are
 *      kept in a generation-stamped scratch array, so nothing is cleared between calls.
 * The result is exact, and so independent of the order in which chunks propagate: final light is the
 * least fixpoint of the flood rule above the sources, v0 lies between the sources and that fixpoint,
 * and any path that brings light into this chunk from outside the region is longer than 15. Light at a
 * cell whose horizontal distance to this chunk is D can only matter if it is more than D, so nothing
 * dimmer is raised or seeded. Reading a neighbour's light is safe because any change of contents in the
 * 3x3 around a chunk sends that chunk back to InvalidLight (its own light is recomputed), and stale
 * light further away cannot reach this chunk.
 * Rows: a border pair can only pass light in rows where one side holds light >= 2 that is not the plain
 * sky above its column's top (the chunks' border-ring rows, kept by both steps), or where one side is sky
 * and the other is not (between the two TopHeights); other rows are skipped without reading them. A
 * chunk that has propagated since its sunlight step (LIGHT_WORKER_FLAG_PROPAGATED) holds its final
 * light: nothing can brighten it, so borders between two such chunks are skipped and light is never
 * offered into one.
 * Missing neighbour chunks (not possible under the state machine) block light like opaque rock. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "light_internal.h"
#include "strata/cell.h"
#include "strata/log.h"

#define LIGHT_REGION      48                       /* 3 chunks */
#define LIGHT_STRIDE_X    256                      /* packed cell: y | rx << 8 | rz << 14 */
#define LIGHT_STRIDE_Z    (1 << 14)
#define LIGHT_PACKED_MAX  (LIGHT_REGION << 14)
#define LIGHT_GENERATIONS 4095                     /* 12 stamp bits */

/* Horizontal distance from region coordinate r to the centre chunk's span 16..31. */
static const uint8_t LIGHT_DISTANCE[64] = {
    16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64,
    64, 64, 64, 64};

typedef struct PropagateRun {
    LightContext *ctx;
    TerrainChunk *chunk;                   /* the centre */
    CellView views[9];                     /* the cells of ctx->chunks[i], for this step (unset where NULL) */
    const uint8_t *attenuation;
    uint16_t gen;
    uint64_t rows[4];                      /* border-ring rows of the centre raised by this call */
} PropagateRun;

static inline TerrainChunk *propagate_chunk_of(const PropagateRun *r, int rx, int rz)
{
    return r->ctx->chunks[(rz >> 4) * 3 + (rx >> 4)];
}

/* The cell at region coordinates (rx, y, rz), which must lie in a chunk that is present. */
static inline int32_t *propagate_cell_at(const PropagateRun *r, int rx, int y, int rz)
{
    return cell_view_at(r->views[(rz >> 4) * 3 + (rx >> 4)], CHUNK_INDEX(rx & 15, y, rz & 15));
}

/* The light a region cell has now: its raised value in this call, else its light bits (value v). */
static inline int propagate_current(const PropagateRun *r, const TerrainChunk *k, uint32_t packed, int32_t v)
{
    if (k != r->chunk) {
        uint16_t s = r->ctx->stamp[packed];
        if ((s >> 4) == r->gen) return s & 15;
    }
    return cell_light(v);
}

/* Raises a region cell (in chunk k, cell pointer p) to `light` and queues it. */
static inline void propagate_raise(PropagateRun *r, TerrainChunk *k, int32_t *p, uint32_t packed, int light)
{
    if (k == r->chunk) {
        cell_store_light(p, light);
        int x = (int)((packed >> 8) & 15), z = (int)((packed >> 14) & 15);
        if (light >= 2 && light_is_border_column(x, z)) light_mark_row(r->rows, (int)(packed & 255));
    } else {
        r->ctx->stamp[packed] = (uint16_t)((r->gen << 4) | light);
    }
    if (light >= 2) level_buckets_push(&r->ctx->buckets, light, packed);
}

/* Tries to pass light from a cell at `from` into the region cell `packed` (in chunk k, value v read). */
static inline void propagate_offer(PropagateRun *r, TerrainChunk *k, int32_t *p, int32_t v, uint32_t packed, int from)
{
    int rx = (int)((packed >> 8) & 63), rz = (int)(packed >> 14);
    int floor = LIGHT_DISTANCE[rx] + LIGHT_DISTANCE[rz];
    int light = from - 1 - r->attenuation[cell_contents(v)];
    if (light <= floor || light <= cell_light(v)) return;
    if (light <= propagate_current(r, k, packed, v)) return;
    propagate_raise(r, k, p, packed, light);
}

/* ---- seeds on the borders between chunks ---- */

/* Rows where one column is above its TopHeight (sky) and the other is not: (lo, hi]. */
static void propagate_rows_between(uint64_t rows[4], int lo, int hi)
{
    for (int y = lo + 1; y <= hi; y++) light_mark_row(rows, y);
}

/* A pair of columns on a border between two chunks of the region, and the rows to compare. */
typedef struct PropagatePair {
    TerrainChunk *ka, *kb;
    int32_t *ca, *cb;                      /* the two columns' cells */
    uint32_t pa, pb;                       /* their packed region coordinates (y 0) */
    int da, db;                            /* the distance each side must beat to be raised; LIGHT_MAX: never */
    uint64_t rows[4];
} PropagatePair;

/* Plans the pair (ax, az) | (bx, bz): false when no light can cross there. Asks for the memory of the
 * rows it will read, so the misses of all pairs overlap instead of each waiting for the last. */
static bool propagate_plan_pair(const PropagateRun *r, PropagatePair *pair, int ax, int az, int bx, int bz)
{
    TerrainChunk *ka = propagate_chunk_of(r, ax, az), *kb = propagate_chunk_of(r, bx, bz);
    if (!ka || !kb) return false;
    /* a chunk holding its final light cannot be brightened (and passes on only what it holds) */
    bool final_a = ka->worker_flags & LIGHT_WORKER_FLAG_PROPAGATED;
    bool final_b = kb->worker_flags & LIGHT_WORKER_FLAG_PROPAGATED;
    int da = LIGHT_DISTANCE[ax] + LIGHT_DISTANCE[az], db = LIGHT_DISTANCE[bx] + LIGHT_DISTANCE[bz];
    if (final_a || da >= LIGHT_MAX - 1) da = LIGHT_MAX;
    if (final_b || db >= LIGHT_MAX - 1) db = LIGHT_MAX;
    if (da == LIGHT_MAX && db == LIGHT_MAX) return false;
    int ta = shaft_top_height(ka->shafts[CHUNK_SHAFT_INDEX(ax & 15, az & 15)]);
    int tb = shaft_top_height(kb->shafts[CHUNK_SHAFT_INDEX(bx & 15, bz & 15)]);
    /* rows where a side that can still be brightened has a brighter neighbour */
    for (int w = 0; w < 4; w++)
        pair->rows[w] = (db < LIGHT_MAX ? ka->worker_dark_rows[w] : 0) | (da < LIGHT_MAX ? kb->worker_dark_rows[w] : 0);
    int lo = ta < tb ? ta : tb, hi = ta < tb ? tb : ta;
    if (ka->worker_sky_light != kb->worker_sky_light) hi = CHUNK_SIZE_Y - 1;
    propagate_rows_between(pair->rows, lo, hi);
    pair->ka = ka;
    pair->kb = kb;
    pair->ca = propagate_cell_at(r, ax, 0, az);
    pair->cb = propagate_cell_at(r, bx, 0, bz);
    pair->pa = (uint32_t)ax << 8 | (uint32_t)az << 14;
    pair->pb = (uint32_t)bx << 8 | (uint32_t)bz << 14;
    pair->da = da;
    pair->db = db;
    for (int y = 0; y < CHUNK_SIZE_Y; y += 16)   /* 16 cells per cache line */
        if ((pair->rows[y >> 6] >> (y & 63)) & 0xFFFFu) {
            __builtin_prefetch(&pair->ca[y]);
            __builtin_prefetch(&pair->cb[y]);
        }
    return true;
}

static void propagate_seed_pair(PropagateRun *r, const PropagatePair *pair)
{
    int32_t *ca = pair->ca, *cb = pair->cb;
    for (int w = 0; w < 4; w++) {
        for (uint64_t bits = pair->rows[w]; bits; bits &= bits - 1) {
            int y = w * 64 + __builtin_ctzll(bits);
            int32_t va = cell_load(&ca[y]), vb = cell_load(&cb[y]);
            int la = cell_light(va), lb = cell_light(vb);
            if (la >= lb + 2 && la - 1 > pair->db)
                propagate_offer(r, pair->kb, &cb[y], vb, pair->pb | (uint32_t)y, la);
            else if (lb >= la + 2 && lb - 1 > pair->da)
                propagate_offer(r, pair->ka, &ca[y], va, pair->pa | (uint32_t)y, lb);
        }
    }
}

/* The 4 borders inside the region, 48 column pairs each: planned first, then compared. */
static void propagate_seed_borders(PropagateRun *r)
{
    PropagatePair pairs[4 * LIGHT_REGION];
    int n = 0;
    for (int b = 16; b <= 32; b += 16)
        for (int i = 0; i < LIGHT_REGION; i++) {
            n += propagate_plan_pair(r, &pairs[n], b - 1, i, b, i);   /* between columns x = b - 1 and x = b */
            n += propagate_plan_pair(r, &pairs[n], i, b - 1, i, b);   /* between rows z = b - 1 and z = b */
        }
    for (int i = 0; i < n; i++) propagate_seed_pair(r, &pairs[i]);
}

/* ---- flood ---- */

static void propagate_flood(PropagateRun *r)
{
    static const int32_t step[6] = {1, -1, LIGHT_STRIDE_X, -LIGHT_STRIDE_X, LIGHT_STRIDE_Z, -LIGHT_STRIDE_Z};
    LevelBuckets *q = &r->ctx->buckets;
    for (int level = LIGHT_MAX; level >= 2; level--) {
        for (int i = 0; i < q->count[level]; i++) {
            uint32_t p = q->data[level][i];
            int y = (int)(p & 255), rx = (int)((p >> 8) & 63), rz = (int)(p >> 14);
            TerrainChunk *k = propagate_chunk_of(r, rx, rz);
            int32_t v = cell_load(propagate_cell_at(r, rx, y, rz));
            if (propagate_current(r, k, p, v) != level) continue;   /* raised again since */
            for (int d = 0; d < 6; d++) {
                if ((d == 0 && y == CHUNK_SIZE_Y - 1) || (d == 1 && y == 0)) continue;
                uint32_t n = (uint32_t)((int32_t)p + step[d]);
                int nx = (int)((n >> 8) & 63), nz = (int)(n >> 14);
                if (nx >= LIGHT_REGION || nz >= LIGHT_REGION) continue;
                if (level - 1 <= LIGHT_DISTANCE[nx] + LIGHT_DISTANCE[nz]) continue;
                TerrainChunk *nk = propagate_chunk_of(r, nx, nz);
                if (!nk || (nk->worker_flags & LIGHT_WORKER_FLAG_PROPAGATED)) continue;
                int32_t *np = propagate_cell_at(r, nx, (int)(n & 255), nz);
                propagate_offer(r, nk, np, cell_load(np), n, level);
            }
        }
        q->count[level] = 0;
    }
}

void light_propagate(const Terrain *terrain, TerrainChunk *chunk, const BlockRegistry *blocks, LightContext *ctx)
{
    if (!ctx->stamp) {
        ctx->stamp = calloc(LIGHT_PACKED_MAX, sizeof *ctx->stamp);
        if (!ctx->stamp) {
            log_error("light", "chunk %d,%d: out of memory for the propagation scratch; light stays local",
                      chunk->coord_x, chunk->coord_z);
            return;
        }
    }
    if (++ctx->generation > LIGHT_GENERATIONS) {
        memset(ctx->stamp, 0, (size_t)LIGHT_PACKED_MAX * sizeof *ctx->stamp);
        ctx->generation = 1;
    }
    /* this chunk is recomputed whatever it holds (its light bits are at least its own light) */
    chunk->worker_flags &= ~LIGHT_WORKER_FLAG_PROPAGATED;
    PropagateRun run = {.ctx = ctx, .chunk = chunk, .attenuation = blocks->attenuation, .gen = ctx->generation};
    for (int dz = 0; dz < 3; dz++)
        for (int dx = 0; dx < 3; dx++)
            ctx->chunks[dz * 3 + dx] = dx == 1 && dz == 1 ? chunk
                : terrain_get_chunk(terrain, chunk->coord_x + dx - 1, chunk->coord_z + dz - 1);
    for (int i = 0; i < 9; i++)
        if (ctx->chunks[i]) run.views[i] = chunk_cell_view(ctx->chunks[i]);
    LevelBuckets *q = &ctx->buckets;
    q->failed = false;
    for (int level = 0; level <= LIGHT_MAX; level++) q->count[level] = 0;
    propagate_seed_borders(&run);
    propagate_flood(&run);
    for (int w = 0; w < 4; w++) chunk->worker_dark_rows[w] |= run.rows[w];
    if (!q->failed) chunk->worker_flags |= LIGHT_WORKER_FLAG_PROPAGATED;
    if (q->failed)
        log_warn("light", "chunk %d,%d: out of memory while propagating light; some cells stay darker",
                 chunk->coord_x, chunk->coord_z);
}
