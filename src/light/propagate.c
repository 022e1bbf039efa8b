/* propagate.c — the InvalidPropagatedLight step: light from emitters and from the sky spreading sideways.
 *
 * Design. The result must not depend on whether the 8 neighbours have propagated already, so the flood
 * never reads a neighbour's light bits: it recomputes what it needs from contents, shafts and the summary
 * the sunlight step left in each chunk (sky level, slice quadrants holding emitters, dark rows).
 *   Region: the 3x3 chunks around `chunk`, 48 x 48 columns (the chunk at 16..31).
 *   Baseline: the sunlight value of any region cell follows from its column (top height, sunlit height,
 *   and for columns whose sunlight is attenuated by water/leaves the short list of values in between,
 *   walked lazily from the shaft heights); cells the flood raised carry a generation stamp, so nothing of
 *   the scratch is cleared between calls.
 *   Sources: emitters (only in slice quadrants the sunlight step flagged) and sunlit cells with a darker
 *   transparent horizontal neighbour (vertical neighbours can never gain: sunlight does not decrease
 *   upwards, and where it dies downwards the next block's attenuation is at least the light left).
 *   Flood: a bucket queue by light level, brightest first, so each cell is final the first time it is
 *   popped at its own level (steps cost 1 + the entered block's attenuation, not a plain BFS). Final
 *   cells inside `chunk` are written with cell_store_light; all other cells of `chunk` already hold their
 *   sunlight value from the InvalidLight step, which always precedes this one.
 *   Pruning: light L at a cell with horizontal distance D to the chunk and height y can only matter if
 *   some transparent chunk cell t could end brighter than its baseline: L - D - |y - y_t| > base(t). The
 *   chunk's baselines (its sunlit columns, and the rows its sunlight step found dark transparent cells in)
 *   give need(y) = min over rows y' of (|y - y'| + the darkest transparent baseline in row y'), and a cell
 *   is kept only if L > D + need(y). Next to a sunlit chunk a neighbour's forest or
 *   lake is then never flooded; next to a cave, only what can reach it is.
 * Missing neighbour chunks (not possible under the state machine) block light like opaque rock. */
#include "strata/light.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "strata/cell.h"
#include "strata/log.h"

#define LIGHT_REGION      48                       /* 3 chunks */
#define LIGHT_STRIDE_X    256                      /* packed cell: y | rx << 8 | rz << 14 */
#define LIGHT_STRIDE_Z    (1 << 14)
#define LIGHT_PACKED_MAX  (LIGHT_REGION << 14)
#define LIGHT_COLUMNS     (LIGHT_REGION * 64)      /* column index: rx + 64 * rz (= packed >> 8) */
#define LIGHT_GENERATIONS 4095                     /* 12 stamp bits */
#define LIGHT_OPAQUE      15                       /* attenuation that stops light */
#define LIGHT_NEED_NEVER  64                       /* need(y) where nothing can be brightened */

typedef struct LightColumn {
    int16_t top;            /* cells above are air at the column's sky light */
    int16_t sunlit_from;    /* lowest sunlit y; 256 when none */
    uint8_t sky;
    uint8_t present;        /* its chunk exists */
    int32_t segment;        /* ctx->segment[segment + top - y]: sunlight for y in [sunlit_from, top];
                             * -1: attenuated column not walked yet */
} LightColumn;

typedef struct LightQueue {
    uint32_t *data;
    int count, capacity;
} LightQueue;

struct LightContext {
    uint16_t *stamp;                       /* per packed cell: generation << 4 | light, for raised cells */
    uint16_t generation;
    TerrainChunk *chunks[9];               /* the 3x3 neighbourhood, [dz * 3 + dx] */
    const BlockRegistry *blocks;
    LightColumn columns[LIGHT_COLUMNS];
    uint8_t *segment;
    int segment_count, segment_capacity;
    LightQueue buckets[LIGHT_MAX + 1];
    uint8_t distance[LIGHT_REGION];        /* per region coordinate: distance to the chunk's span 16..31 */
    uint8_t need[CHUNK_SIZE_Y];            /* see the design note */
    bool failed;                           /* an allocation failed during this call */
};

LightContext *light_context_create(void)
{
    LightContext *ctx = calloc(1, sizeof *ctx);
    if (!ctx) return NULL;
    ctx->stamp = calloc(LIGHT_PACKED_MAX, sizeof *ctx->stamp);
    if (!ctx->stamp) {
        free(ctx);
        return NULL;
    }
    for (int r = 0; r < LIGHT_REGION; r++) ctx->distance[r] = (uint8_t)(r < 16 ? 16 - r : r >= 32 ? r - 31 : 0);
    return ctx;
}

void light_context_destroy(LightContext *ctx)
{
    if (!ctx) return;
    for (int i = 0; i <= LIGHT_MAX; i++) free(ctx->buckets[i].data);
    free(ctx->segment);
    free(ctx->stamp);
    free(ctx);
}

static void light_queue_push(LightContext *ctx, LightQueue *q, uint32_t packed)
{
    if (q->count == q->capacity) {
        int cap = q->capacity ? q->capacity * 2 : 4096;
        uint32_t *data = realloc(q->data, (size_t)cap * sizeof *data);
        if (!data) {
            ctx->failed = true;
            return;
        }
        q->data = data;
        q->capacity = cap;
    }
    q->data[q->count++] = packed;
}

static inline int32_t *light_cell_ptr(const LightContext *ctx, int rx, int y, int rz)
{
    TerrainChunk *c = ctx->chunks[(rz >> 4) * 3 + (rx >> 4)];
    return c ? &c->cells[CHUNK_INDEX(rx & 15, y, rz & 15)] : NULL;
}

/* Attenuation of the block at a region cell; LIGHT_OPAQUE for a missing chunk. */
static inline int light_cell_attenuation(const LightContext *ctx, int rx, int y, int rz)
{
    const int32_t *p = light_cell_ptr(ctx, rx, y, rz);
    return p ? ctx->blocks->attenuation[cell_contents(cell_load(p))] : LIGHT_OPAQUE;
}

/* ---- columns ---- */

/* Column info from the shaft heights; attenuated columns are walked on first use. */
static void light_init_column(LightContext *ctx, int rx, int rz)
{
    LightColumn *col = &ctx->columns[rx + 64 * rz];
    TerrainChunk *chunk = ctx->chunks[(rz >> 4) * 3 + (rx >> 4)];
    if (!chunk) {
        *col = (LightColumn){.top = 255, .sunlit_from = 256, .sky = 0, .present = 0, .segment = 0};
        return;
    }
    int32_t shaft = chunk->shafts[CHUNK_SHAFT_INDEX(rx & 15, rz & 15)];
    int top = shaft_top_height(shaft), sunlit = shaft_sunlight_height(shaft);
    col->top = (int16_t)top;
    col->sky = chunk->worker_sky_light;
    col->present = 1;
    col->sunlit_from = (int16_t)(sunlit > top ? top + 1 : sunlit);
    col->segment = sunlit > top ? 0 : -1;   /* the usual case: sunlight stops right at the top block */
}

/* Walks an attenuated column down from its top, as the sunlight step did, recording the values. */
static void light_walk_column(LightContext *ctx, LightColumn *col, int rx, int rz)
{
    if (ctx->segment_capacity - ctx->segment_count < CHUNK_SIZE_Y) {
        int cap = ctx->segment_capacity ? ctx->segment_capacity * 2 : 16384;
        uint8_t *seg = realloc(ctx->segment, (size_t)cap);
        if (!seg) {
            ctx->failed = true;
            col->sunlit_from = (int16_t)(col->top + 1);
            col->segment = 0;
            return;
        }
        ctx->segment = seg;
        ctx->segment_capacity = cap;
    }
    const BlockRegistry *blocks = ctx->blocks;
    const int32_t *cells = light_cell_ptr(ctx, rx, 0, rz);
    col->segment = ctx->segment_count;
    int light = col->sky, y = col->top;
    for (; y >= 0; y--) {
        int c = cell_contents(cell_load(&cells[y]));
        if (!blocks->transparent_to_sun[c]) break;
        light -= blocks->attenuation[c];
        if (light <= 0) break;
        ctx->segment[ctx->segment_count++] = (uint8_t)light;
    }
    col->sunlit_from = (int16_t)(y + 1);
}

static inline LightColumn *light_column(LightContext *ctx, int rx, int rz)
{
    LightColumn *col = &ctx->columns[rx + 64 * rz];
    if (col->segment < 0) light_walk_column(ctx, col, rx, rz);
    return col;
}

static inline int light_column_sun(const LightContext *ctx, const LightColumn *col, int y)
{
    if (y > col->top) return col->sky;
    if (y < col->sunlit_from) return 0;
    return ctx->segment[col->segment + col->top - y];
}

static inline int light_current(LightContext *ctx, uint32_t packed)
{
    uint16_t s = ctx->stamp[packed];
    if ((s >> 4) == ctx->generation) return s & 15;
    int rx = (int)((packed >> 8) & 63), rz = (int)(packed >> 14);
    return light_column_sun(ctx, light_column(ctx, rx, rz), (int)(packed & 255));
}

/* need(y) from the centre chunk's baselines (see the design note). */
static void light_compute_need(LightContext *ctx, const TerrainChunk *chunk)
{
    int darkest[CHUNK_SIZE_Y];
    for (int y = 0; y < CHUNK_SIZE_Y; y++)
        darkest[y] = (chunk->worker_dark_rows[y >> 6] >> (y & 63)) & 1 ? 0 : LIGHT_NEED_NEVER;
    int lowest_top = CHUNK_SIZE_Y;
    for (int z = 0; z < 16; z++)
        for (int x = 0; x < 16; x++) {
            const LightColumn *col = light_column(ctx, x + 16, z + 16);
            for (int y = col->sunlit_from; y <= col->top; y++) {
                int v = light_column_sun(ctx, col, y);
                if (v < darkest[y]) darkest[y] = v;
            }
            if (col->top < lowest_top) lowest_top = col->top;
        }
    int sky = chunk->worker_sky_light;
    for (int y = lowest_top + 1; y < CHUNK_SIZE_Y; y++)
        if (sky < darkest[y]) darkest[y] = sky;
    for (int y = 1; y < CHUNK_SIZE_Y; y++)
        if (darkest[y - 1] + 1 < darkest[y]) darkest[y] = darkest[y - 1] + 1;
    for (int y = CHUNK_SIZE_Y - 2; y >= 0; y--)
        if (darkest[y + 1] + 1 < darkest[y]) darkest[y] = darkest[y + 1] + 1;
    for (int y = 0; y < CHUNK_SIZE_Y; y++) ctx->need[y] = (uint8_t)darkest[y];
}

/* ---- sources ---- */

/* Queues a source cell at `light` unless it is already queued at least that bright. */
static void light_push_source(LightContext *ctx, uint32_t packed, int light)
{
    uint16_t s = ctx->stamp[packed];
    if ((s >> 4) == ctx->generation && (s & 15) >= light) return;
    ctx->stamp[packed] = (uint16_t)((ctx->generation << 4) | light);
    light_queue_push(ctx, &ctx->buckets[light], packed);
}

/* Emitters in the slice quadrants each chunk's sunlight step flagged, where they can matter. */
static void light_collect_emitters(LightContext *ctx)
{
    const uint8_t *emission = ctx->blocks->emission;
    for (int k = 0; k < 9; k++) {
        TerrainChunk *chunk = ctx->chunks[k];
        if (!chunk || !chunk->worker_emitter_slices) continue;
        int ox = (k % 3) * 16, oz = (k / 3) * 16;
        /* cells within reach: not the far column/row of a side chunk */
        int x0 = k % 3 == 0 ? 1 : 0, x1 = k % 3 == 2 ? 15 : 16;
        int z0 = k / 3 == 0 ? 1 : 0, z1 = k / 3 == 2 ? 15 : 16;
        for (int bit = 0; bit < 64; bit++) {
            if (!((chunk->worker_emitter_slices >> bit) & 1)) continue;
            int s = bit >> 2, q = bit & 3;
            int qx0 = q & 1 ? 8 : x0, qx1 = q & 1 ? x1 : 8, qz0 = q & 2 ? 8 : z0, qz1 = q & 2 ? z1 : 8;
            int nearest = ctx->distance[ox + (ox < 16 ? qx1 - 1 : qx0)] + ctx->distance[oz + (oz < 16 ? qz1 - 1 : qz0)];
            int need = LIGHT_NEED_NEVER;
            for (int y = s * CHUNK_SLICE_HEIGHT; y < (s + 1) * CHUNK_SLICE_HEIGHT; y++)
                if (ctx->need[y] < need) need = ctx->need[y];
            if (LIGHT_MAX <= nearest + need) continue;
            for (int z = qz0; z < qz1; z++)
                for (int x = qx0; x < qx1; x++) {
                    const int32_t *cells = &chunk->cells[CHUNK_INDEX(x, 0, z)];
                    int rx = ox + x, rz = oz + z, d = ctx->distance[rx] + ctx->distance[rz];
                    for (int y = s * CHUNK_SLICE_HEIGHT; y < (s + 1) * CHUNK_SLICE_HEIGHT; y++) {
                        int e = emission[cell_contents(cell_load(&cells[y]))];
                        if (e <= d + ctx->need[y]) continue;
                        int sun = light_column_sun(ctx, light_column(ctx, rx, rz), y);
                        light_push_source(ctx, (uint32_t)y | (uint32_t)rx << 8 | (uint32_t)rz << 14, e > sun ? e : sun);
                    }
                }
        }
    }
}

/* Sunlit cells whose horizontal neighbour is transparent and darker than the light they would pass on.
 * Visited per darker column b, so each of its cells is read once for its up to 4 sunlit neighbours. */
static void light_collect_sun_edges(LightContext *ctx)
{
    static const int dx[4] = {1, -1, 0, 0}, dz[4] = {0, 0, 1, -1};
    int min_need = LIGHT_NEED_NEVER;
    for (int y = 0; y < CHUNK_SIZE_Y; y++)
        if (ctx->need[y] < min_need) min_need = ctx->need[y];
    for (int bz = 0; bz < LIGHT_REGION; bz++)
        for (int bx = 0; bx < LIGHT_REGION; bx++) {
            const LightColumn *b = &ctx->columns[bx + 64 * bz];
            int db = ctx->distance[bx] + ctx->distance[bz];
            if (!b->present || LIGHT_MAX - 1 <= db + min_need) continue;
            const LightColumn *a[4];
            int ax[4], az[4], n = 0, y_lo = CHUNK_SIZE_Y;
            for (int d = 0; d < 4; d++) {
                int x = bx + dx[d], z = bz + dz[d];
                if (x < 0 || z < 0 || x >= LIGHT_REGION || z >= LIGHT_REGION) continue;
                const LightColumn *col = &ctx->columns[x + 64 * z];
                if (!col->present || col->sky - 1 <= db + min_need || col->sunlit_from > b->top) continue;
                col = light_column(ctx, x, z);
                if (col->sunlit_from > b->top) continue;
                ax[n] = x;
                az[n] = z;
                a[n++] = col;
                if (col->sunlit_from < y_lo) y_lo = col->sunlit_from;
            }
            if (!n) continue;
            b = light_column(ctx, bx, bz);
            const int32_t *cells = light_cell_ptr(ctx, bx, 0, bz);
            for (int y = y_lo; y <= b->top; y++) {
                int floor = db + ctx->need[y], att = -1, sb = -1;
                for (int i = 0; i < n; i++) {
                    if (y < a[i]->sunlit_from) continue;
                    int sa = light_column_sun(ctx, a[i], y);
                    if (sa - 1 <= floor) continue;
                    if (att < 0) {
                        att = ctx->blocks->attenuation[cell_contents(cell_load(&cells[y]))];
                        sb = light_column_sun(ctx, b, y);
                    }
                    int light = sa - 1 - att;
                    if (light <= floor || light <= sb) continue;
                    light_push_source(ctx, (uint32_t)y | (uint32_t)ax[i] << 8 | (uint32_t)az[i] << 14, sa);
                }
            }
        }
}

/* ---- flood ---- */

/* Brightest first; each cell is final when popped at its own level. Writes the centre chunk's cells. */
static void light_flood(LightContext *ctx, TerrainChunk *chunk)
{
    static const int32_t step[6] = {1, -1, LIGHT_STRIDE_X, -LIGHT_STRIDE_X, LIGHT_STRIDE_Z, -LIGHT_STRIDE_Z};
    const uint16_t gen = ctx->generation;
    for (int level = LIGHT_MAX; level >= 1; level--) {
        LightQueue *q = &ctx->buckets[level];
        for (int i = 0; i < q->count; i++) {
            uint32_t p = q->data[i];
            if ((ctx->stamp[p] & 15) != level) continue;  /* raised again after it was queued */
            int y = (int)(p & 255), rx = (int)((p >> 8) & 63), rz = (int)(p >> 14);
            if ((unsigned)(rx - 16) < 16u && (unsigned)(rz - 16) < 16u)
                cell_store_light(&chunk->cells[CHUNK_INDEX(rx - 16, y, rz - 16)], level);
            if (level <= 1) continue;
            for (int d = 0; d < 6; d++) {
                if ((d == 0 && y == CHUNK_SIZE_Y - 1) || (d == 1 && y == 0)) continue;
                uint32_t n = (uint32_t)((int32_t)p + step[d]);
                int nx = (int)((n >> 8) & 63), nz = (int)(n >> 14), ny = (int)(n & 255);
                int floor = ctx->distance[nx] + ctx->distance[nz] + ctx->need[ny];
                if (level - 1 <= floor) continue;
                int light = level - 1 - light_cell_attenuation(ctx, nx, ny, nz);
                if (light <= floor || light <= light_current(ctx, n)) continue;
                ctx->stamp[n] = (uint16_t)((gen << 4) | light);
                light_queue_push(ctx, &ctx->buckets[light], n);
            }
        }
        q->count = 0;
    }
}

void light_propagate(const Terrain *terrain, TerrainChunk *chunk, const BlockRegistry *blocks, LightContext *ctx)
{
    if (++ctx->generation > LIGHT_GENERATIONS) {
        memset(ctx->stamp, 0, (size_t)LIGHT_PACKED_MAX * sizeof *ctx->stamp);
        ctx->generation = 1;
    }
    ctx->blocks = blocks;
    ctx->failed = false;
    ctx->segment_count = 0;
    for (int dz = 0; dz < 3; dz++)
        for (int dx = 0; dx < 3; dx++)
            ctx->chunks[dz * 3 + dx] = dx == 1 && dz == 1 ? chunk
                : terrain_get_chunk(terrain, chunk->coord_x + dx - 1, chunk->coord_z + dz - 1);
    for (int rz = 0; rz < LIGHT_REGION; rz++)
        for (int rx = 0; rx < LIGHT_REGION; rx++) light_init_column(ctx, rx, rz);
    light_compute_need(ctx, chunk);
    light_collect_emitters(ctx);
    light_collect_sun_edges(ctx);
    light_flood(ctx, chunk);
    for (int i = 0; i <= LIGHT_MAX; i++) ctx->buckets[i].count = 0;
    if (ctx->failed)
        log_warn("light", "chunk %d,%d: out of memory while propagating light; some cells stay darker",
                 chunk->coord_x, chunk->coord_z);
}
