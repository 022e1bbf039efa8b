/* gen_caves.c — pass 3 worm caves (Survivalcraft's GenerateCaves, made order independent).
 *
 * Design: each source chunk within cave_range may start one cave (a seeded 50% roll) at a surface point
 * on a slope, pointing into the hill. The worm walks 80-240 blocks in steps of 2 with random turns,
 * occasional level stretches with a wider brush, drops, climbs and up to 12 branches, and stays within
 * max_distance of its source centre. Tracing yields a list of strokes (position + which of the 7 sizes x
 * 3 variants of cave brush); the list is a pure function of (seed, source coords) and is memoised per
 * source in the GenContext LRU, so neighbouring chunks reuse it. Each chunk paints only its own cells. Caves
 * are a GenFeature (gen_feature.h): that helper walks the sources, the cache and the bounds rejects.
 *
 * "Never next to water": a cell is carved only if it, the cell above and its four horizontal neighbours
 * hold no water. Inside the chunk that is read from the chunk; just outside it, from the base fill
 * recomputed purely from the density field (gen24_column_density), so the rule gives the same answer
 * whatever chunks exist. Caves therefore never drain the sea or a river. cave_range is derived from the
 * brush bounds and max_distance so that no stroke can reach a chunk that does not trace its source. */
#include "gen24_internal.h"
#include "gen_feature.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

StResult gen24_build_cave_brushes(Gen24 *g, uint64_t seed)
{
    const GenCaveConfig *c = &g->cfg.caves;
    g->cave_types = c->brush_sizes;
    g->cave_variants = c->brush_variants;
    Rng rng;
    rng_init(&rng, seed);
    TerrainBrush b;
    brush_init(&b);
    int ext = 0;
    for (int i = 0; i < g->cave_types; i++)
        for (int j = 0; j < g->cave_variants; j++) {
            brush_clear(&b);
            int tunnels = 6 + 4 * i;
            int max_len = 9 + i;
            for (int k = 0; k < tunnels; k++) {
                int len = rng_int_range(&rng, 8, max_len) - 4;
                GenVec3 dir = {0.5f * rng_float_range(&rng, -1.0f, 1.0f), 0.5f * rng_float_range(&rng, 0.0f, 1.0f),
                               0.5f * rng_float_range(&rng, -1.0f, 1.0f)};
                GenVec3 p = {0.0f, 0.0f, 0.0f};
                for (int l = 0; l < len; l++) {
                    brush_add_box(&b, (int)floorf(p.x) - 1, (int)floorf(p.y) - 1, (int)floorf(p.z) - 1, 2, 2, 2, 0);
                    p.x += dir.x;
                    p.y += dir.y;
                    p.z += dir.z;
                }
            }
            CompiledBrush *brush = &g->cave_brushes[i * g->cave_variants + j];
            StResult rc = brush_compile(&b, brush);
            if (rc != ST_OK) {
                brush_free(&b);
                return rc;
            }
            int e[4] = {-brush->min_x, brush->max_x, -brush->min_z, brush->max_z};
            for (int k = 0; k < 4; k++)
                if (e[k] > ext)
                    ext = e[k];
        }
    brush_free(&b);
    /* strokes lie within max_distance (+1 for flooring) of the source centre (local 8) */
    int reach = (int)ceilf(c->max_distance) + 1 + ext + 8;
    g->cave_range = (reach + 15) / 16;
    if (g->cave_range < 1)
        g->cave_range = 1;
    return ST_OK;
}

typedef struct CavePoint {
    GenVec3 pos, dir;
    int type, length, steps;
} CavePoint;

static int cave_random_type(Rng *rng, int types)
{
    float r = rng_float_range(rng, 0.0f, 0.999f);
    float r7 = r * r * r * r * r * r * r; /* biased to the small brushes */
    int t = (int)(r7 * (float)types);
    return t < types ? t : types - 1;
}

/* One cave brush stamp: where, and which of cave_types x cave_variants brushes. */
typedef struct GenCaveStroke { int32_t x, y, z; int32_t brush; } GenCaveStroke;

static void add_stroke(GenCache *cache, GenCacheEntry *e, const Gen24 *g, const CavePoint *p, int variant)
{
    int x = (int)floorf(p->pos.x), y = (int)floorf(p->pos.y), z = (int)floorf(p->pos.z);
    int brush = p->type * g->cave_variants + variant;
    const CompiledBrush *b = &g->cave_brushes[brush];
    GenCaveStroke *s = gen_feature_add_item(cache, e, x + b->min_x, x + b->max_x, z + b->min_z, z + b->max_z);
    if (!s)
        return;
    s->x = x;
    s->y = y;
    s->z = z;
    s->brush = brush;
}

/* Traces the caves of source chunk (si, sj) into e (pure in the seed and the coordinates). */
static void trace_source(const void *generator, GenContext *ctx, GenCache *cache, GenCacheEntry *e, int si, int sj)
{
    (void)ctx;
    const Gen24 *g = generator;
    const GenCaveConfig *c = &g->cfg.caves;
    Rng rng;
    rng_init(&rng, rng_hash2(g->seed_caves, si, sj));
    int x = si * 16 + rng_int_range(&rng, 0, 15);
    int z = sj * 16 + rng_int_range(&rng, 0, 15);
    if (!rng_bool(&rng, c->probability))
        return;
    int h0 = (int)gen24_height(g, (float)x, (float)z);
    int hx = (int)gen24_height(g, (float)(x + 3), (float)z);
    int hz = (int)gen24_height(g, (float)x, (float)(z + 3));
    /* normal of the surface triangle, pointing into the ground */
    GenVec3 dir = gen_vec3_normalize(gen_vec3(3.0f * (float)(hx - h0), -9.0f, 3.0f * (float)(hz - h0)));
    if (dir.y <= -0.6f)
        return; /* flat ground: caves start only on slopes */
    CavePoint points[1 + 12];
    int count = 0, max_points = 1 + (c->max_branches < 12 ? c->max_branches : 12);
    points[count++] = (CavePoint){gen_vec3((float)x, (float)(h0 - 1), (float)z), dir, 0,
                                  rng_int_range(&rng, c->length_min, c->length_max), 0};
    float centre_x = (float)(si * 16 + 8), centre_z = (float)(sj * 16 + 8);
    const int types = g->cave_types;
    for (int idx = 0; idx < count;) {
        CavePoint *p = &points[idx];
        add_stroke(cache, e, g, p, rng_int_range(&rng, 0, g->cave_variants - 1));
        p->pos.x += 2.0f * p->dir.x;
        p->pos.y += 2.0f * p->dir.y;
        p->pos.z += 2.0f * p->dir.z;
        p->steps += 2;
        float dx = p->pos.x - centre_x, dz = p->pos.z - centre_z;
        if (rng_bool(&rng, 0.5f)) {
            GenVec3 v = gen_rng_direction(&rng);
            if ((dx < -c->turn_distance && v.x < 0.0f) || (dx > c->turn_distance && v.x > 0.0f))
                v.x = -v.x; /* turn back towards the source */
            if ((dz < -c->turn_distance && v.z < 0.0f) || (dz > c->turn_distance && v.z > 0.0f))
                v.z = -v.z;
            if (p->dir.y > 0.1f && v.y > 0.0f)
                v.y = -v.y; /* climbing: do not climb faster */
            p->dir = gen_vec3_normalize(gen_vec3(p->dir.x + 0.5f * v.x, p->dir.y + 0.5f * v.y, p->dir.z + 0.5f * v.z));
        }
        if (p->steps > 20 && rng_bool(&rng, 0.06f)) {
            GenVec3 v = gen_rng_direction(&rng);
            p->dir = gen_vec3_normalize(gen_vec3(v.x, 0.33f * v.y, v.z)); /* new heading */
        }
        if (p->steps > 20 && rng_bool(&rng, 0.05f)) {
            p->dir.y = 0.0f; /* level stretch with a wider brush */
            p->type = p->type + 2 < types ? p->type + 2 : types - 1;
        }
        if (p->steps > 30 && rng_bool(&rng, 0.03f))
            p->dir = gen_vec3(0.0f, -1.0f, 0.0f); /* drop */
        if (p->steps > 30 && p->pos.y < 30.0f && rng_bool(&rng, 0.02f))
            p->dir = gen_vec3(0.0f, 1.0f, 0.0f);  /* climb */
        if (rng_bool(&rng, 0.33f))
            p->type = cave_random_type(&rng, types);
        if (rng_bool(&rng, 0.06f) && count < max_points && p->steps > 20 && p->pos.y < 58.0f) {
            GenVec3 v = gen_rng_direction(&rng);
            CavePoint branch = {p->pos, gen_vec3_normalize(gen_vec3(v.x, 0.33f * v.y, v.z)),
                                cave_random_type(&rng, types), 0, 0};
            branch.length = rng_int_range(&rng, c->branch_length_min, c->branch_length_max);
            points[count++] = branch;
            p = &points[idx];
        }
        if (p->steps >= p->length || fabsf(dx) > c->max_distance || fabsf(dz) > c->max_distance || p->pos.y < 5.0f ||
            p->pos.y > 246.0f) {
            idx++;
        } else if (p->steps % 20 == 0) {
            if (p->pos.y > gen24_height(g, p->pos.x, p->pos.z) + 1.0f)
                idx++; /* came out in the open air */
        }
    }
}

/* ---- water just outside the chunk, from the base fill ---- */

/* Base-fill water of the columns just outside one side of the chunk, for y up to the sea level. */
static void ring_compute(const Gen24 *g, GenContext *ctx, int side, int ox, int oz)
{
    int y_end = g->ocean_level + 1;
    if (y_end > 256) y_end = 256;
    if (y_end < 0) y_end = 0;
    int levels = ((y_end + 7) >> 3) + 1;
    ctx->ring_levels = y_end;
    /* coarse columns: the lattice line just outside the chunk and the chunk's edge line */
    Gen24Coarse inner[5], outer[5];
    float density[256];
    for (int k = 0; k < 5; k++) {
        int ix, iz, jx, jz;
        switch (side) {
        case 0: ix = ox - 4; jx = ox; iz = jz = oz + 4 * k; break;        /* -x: corners at ox-4, ox */
        case 1: ix = ox + 16; jx = ox + 20; iz = jz = oz + 4 * k; break;  /* +x: ox+16, ox+20 */
        case 2: iz = oz - 4; jz = oz; ix = jx = ox + 4 * k; break;        /* -z */
        default: iz = oz + 16; jz = oz + 20; ix = jx = ox + 4 * k; break; /* +z */
        }
        gen24_coarse_column(g, ix, iz, levels, false, &inner[k]);
        gen24_coarse_column(g, jx, jz, levels, false, &outer[k]);
    }
    for (int a = 0; a < 16; a++) {
        int k = a >> 2;
        int wx, wz;
        const Gen24Coarse *c00, *c10, *c01, *c11;
        if (side < 2) {
            wx = side == 0 ? ox - 1 : ox + 16;
            wz = oz + a;
            c00 = &inner[k]; c10 = &outer[k]; c01 = &inner[k + 1]; c11 = &outer[k + 1];
        } else {
            wx = ox + a;
            wz = side == 2 ? oz - 1 : oz + 16;
            c00 = &inner[k]; c10 = &inner[k + 1]; c01 = &outer[k]; c11 = &outer[k + 1];
        }
        gen24_column_density(c00, c10, c01, c11, wx, wz, y_end, density);
        for (int y = 0; y < y_end; y++)
            ctx->ring_water[side][a][y] = density[y] < 0.0f;
    }
    ctx->ring_sides |= 1u << side;
}

static inline bool ring_is_water(const Gen24 *g, GenContext *ctx, const TerrainChunk *chunk, int side, int along,
                                 int y)
{
    if (y > g->ocean_level)
        return false; /* the base fill has water only up to the sea level */
    if (!(ctx->ring_sides & (1u << side)))
        ring_compute(g, ctx, side, chunk->origin_x, chunk->origin_z);
    return y < ctx->ring_levels && ctx->ring_water[side][along][y];
}

static inline bool water_at(CellView view, int x, int y, int z)
{
    return cell_contents(cell_view_column(view, x, z)[y]) == BLOCK_WATER;
}

bool gen24_carve_allowed(const Gen24 *g, GenContext *ctx, const TerrainChunk *chunk, CellView view, int cx, int cy,
                         int cz)
{
    if (water_at(view, cx, cy, cz) || (cy < 255 && water_at(view, cx, cy + 1, cz)))
        return false;
    if (cx > 0 ? water_at(view, cx - 1, cy, cz) : ring_is_water(g, ctx, chunk, 0, cz, cy)) return false;
    if (cx < 15 ? water_at(view, cx + 1, cy, cz) : ring_is_water(g, ctx, chunk, 1, cz, cy)) return false;
    if (cz > 0 ? water_at(view, cx, cy, cz - 1) : ring_is_water(g, ctx, chunk, 2, cx, cy)) return false;
    if (cz < 15 ? water_at(view, cx, cy, cz + 1) : ring_is_water(g, ctx, chunk, 3, cx, cy)) return false;
    return true;
}

static void paint_avoid_water(const Gen24 *g, GenContext *ctx, const CompiledBrush *brush, TerrainChunk *chunk,
                              CellView view, int x, int y, int z)
{
    int lx = x - chunk->origin_x, lz = z - chunk->origin_z;
    const BrushCell *c = brush->cells, *end = c + brush->count;
    for (; c < end; c++) {
        int cx = lx + c->x, cy = y + c->y, cz = lz + c->z;
        if ((unsigned)cx > 15u || (unsigned)cz > 15u || (unsigned)cy > 254u)
            continue;
        int32_t *column = cell_view_column(view, cx, cz);
        if (cell_contents(column[cy]) == BLOCK_AIR || !gen24_carve_allowed(g, ctx, chunk, view, cx, cy, cz))
            continue;
        column[cy] = 0;
    }
}

static void paint_stroke(const void *generator, GenContext *ctx, TerrainChunk *chunk, CellView view, const void *item)
{
    const Gen24 *g = generator;
    const GenCaveStroke *s = item;
    const CompiledBrush *b = &g->cave_brushes[s->brush];
    if (brush_touches_chunk(b, s->x, s->z, chunk->coord_x, chunk->coord_z))
        paint_avoid_water(g, ctx, b, chunk, view, s->x, s->y, s->z);
}

static int cave_range(const void *generator) { return ((const Gen24 *)generator)->cave_range; }
static uint64_t cave_key(const void *generator) { return ((const Gen24 *)generator)->key; }

static const GenFeature CAVES = {
    .name = "caves",
    .slot = GEN_FEATURE_SLOT_CAVES,
    .item_size = sizeof(GenCaveStroke),
    .range = cave_range,
    .key = cave_key,
    .derive = trace_source,
    .paint = paint_stroke,
};

void gen24_caves(const Gen24 *g, TerrainChunk *chunk, GenContext *ctx)
{
    if (!g->cfg.caves.enabled)
        return;
    gen_feature_paint_chunk(&CAVES, g, ctx, chunk);
}
