/* gen_minerals.c — pass 3 ore veins and pockets (Survivalcraft's GenerateMinerals / GeneratePockets).
 *
 * Design: the brushes (16 per ore or pocket kind: a few random 1-cell strokes; water and magma basins
 * under an air bubble) are built once from the seed. Placement is seeded per source chunk: each source
 * within vein_range (fluid_range for basins) replays its own random sequence and every chunk paints the
 * strokes that touch it, clipped to itself. Veins are painted only over their host block (coal and
 * copper in granite, iron, sulphur, diamond and germanium in basalt, saltpeter in sandstone), so a cell's
 * fate depends only on that cell: the result is the same whatever the generation order. Ore counts per
 * source are base + k * mountain_factor * noise, so mountains are richer. The ranges come from the brush
 * bounds, so a stroke can never reach a chunk that does not replay its source. */
#include "gen24_internal.h"

#include <math.h>

static int brush_extent(const CompiledBrush *b)
{
    int e = 0;
    if (b->count == 0) return 0;
    if (-b->min_x > e) e = -b->min_x;
    if (b->max_x > e) e = b->max_x;
    if (-b->min_z > e) e = -b->min_z;
    if (b->max_z > e) e = b->max_z;
    return e;
}

/* Compiles the builder into `out` and widens *ext to the brush's horizontal reach. */
static StResult compile_brush(TerrainBrush *b, CompiledBrush *out, int *ext)
{
    StResult rc = brush_compile(b, out);
    if (rc != ST_OK)
        return rc;
    int e = brush_extent(out);
    if (e > *ext)
        *ext = e;
    return ST_OK;
}

static StResult build_vein_brushes(const GenVeinConfig *v, Rng *rng, TerrainBrush *b, CompiledBrush *out, int *ext)
{
    int32_t value = cell_make(v->block, 0);
    for (int i = 0; i < 16; i++) {
        brush_clear(b);
        int strokes = rng_int_range(rng, v->veins_min, v->veins_max);
        for (int j = 0; j < strokes; j++) {
            GenVec3 d = gen_vec3_normalize(gen_vec3(rng_float_range(rng, -1.0f, 1.0f),
                                                    rng_float_range(rng, -v->vertical, v->vertical),
                                                    rng_float_range(rng, -1.0f, 1.0f)));
            int steps = rng_int_range(rng, v->steps_min, v->steps_max);
            GenVec3 p = {0.0f, 0.0f, 0.0f};
            for (int k = 0; k < steps; k++) {
                brush_add_cell(b, (int)floorf(p.x), (int)floorf(p.y), (int)floorf(p.z), value, 0);
                p.x += 0.5f * d.x;
                p.y += 0.5f * d.y;
                p.z += 0.5f * d.z;
            }
        }
        StResult rc = compile_brush(b, &out[i], ext);
        if (rc != ST_OK)
            return rc;
    }
    return ST_OK;
}

/* A basin: random columns of `block` below y 0 under air above, deepest in the middle. */
static StResult build_fluid_brushes(const GenFluidPocketConfig *f, Rng *rng, TerrainBrush *b, CompiledBrush *out,
                                    int *ext)
{
    int32_t fluid = cell_make(f->block, 0);
    for (int i = 0; i < 4 * f->size_count; i++) {
        brush_clear(b);
        int size = f->sizes[i / 4];
        float shape = i % 4 == 2 ? 0.5f : 1.0f;
        int iterations = i % 4 == 1 ? size * size : 2 * size * size;
        int shallow = i % 2 + 1;
        for (int j = 0; j < iterations; j++) {
            float angle = rng_float_range(rng, 0.0f, 6.2831853f);
            float len = rng_float_range(rng, 0.0f, (float)size);
            float hx = len * gen_cos(angle), hz = len * gen_sin(angle);
            int box = rng_int_range(rng, 3, 4);
            float top = (float)(size / 3) > 2.5f ? (float)(size / 3) : 2.5f;
            int air = 1 + (int)gen_lerp(top * shape, 0.0f, len / (float)size) + rng_int_range(rng, 0, 1);
            int depth = f->deep ? 1 + (int)gen_lerp((float)(size + 2), 0.0f, len / (float)size) + rng_int_range(rng, 0, 1)
                                : shallow;
            int x = (int)floorf(hx), z = (int)floorf(hz);
            brush_add_box(b, x, 0, z, box, air, box, 0);
            brush_add_box(b, x, -depth, z, box, depth, box, fluid);
        }
        StResult rc = compile_brush(b, &out[i], ext);
        if (rc != ST_OK)
            return rc;
    }
    return ST_OK;
}

StResult gen24_build_mineral_brushes(Gen24 *g, uint64_t seed)
{
    Rng rng;
    rng_init(&rng, seed);
    TerrainBrush b;
    brush_init(&b);
    StResult rc = ST_OK;
    int vein_ext = 0, fluid_ext = 0;
    for (int k = 0; k < g->cfg.ore_count && rc == ST_OK; k++)
        rc = build_vein_brushes(&g->cfg.ores[k], &rng, &b, g->ore_brushes[k], &vein_ext);
    for (int k = 0; k < g->cfg.pocket_count && rc == ST_OK; k++)
        rc = build_vein_brushes(&g->cfg.pockets[k], &rng, &b, g->pocket_brushes[k], &vein_ext);
    if (rc == ST_OK)
        rc = build_fluid_brushes(&g->cfg.water_pockets, &rng, &b, g->water_brushes, &fluid_ext);
    if (rc == ST_OK)
        rc = build_fluid_brushes(&g->cfg.magma_pockets, &rng, &b, g->magma_brushes, &fluid_ext);
    brush_free(&b);
    /* veins start at local 0..15 of their source; basins at 8 +- 7 */
    g->vein_range = (15 + vein_ext) / 16;
    g->fluid_range = (15 + fluid_ext) / 16;
    if (g->vein_range < 1) g->vein_range = 1;
    if (g->fluid_range < 1) g->fluid_range = 1;
    return rc;
}

static void paint_veins(const Gen24 *g, TerrainChunk *chunk, Rng *rng, const GenVeinConfig *v, const CompiledBrush *brushes,
                        int si, int sj, int count)
{
    for (int n = 0; n < count; n++) {
        int x = si * 16 + rng_int_range(rng, 0, 15);
        int y = rng_int_range(rng, v->y_min, v->y_max);
        int z = sj * 16 + rng_int_range(rng, 0, 15);
        const CompiledBrush *b = &brushes[rng_int_range(rng, 0, 15)];
        if (brush_touches_chunk(b, x, z, chunk->coord_x, chunk->coord_z))
            brush_paint_selective(b, chunk, x, y, z, v->host);
    }
    (void)g;
}

static int vein_count(const Gen24 *g, const GenVeinConfig *v, int index, int si, int sj, float mountain)
{
    if (v->count_mountain == 0.0f)
        return (int)v->count_base;
    float n = gen_noise2(&g->n_ore_count, (float)si + 1000.0f * (float)(index + 1), (float)sj, 0.33f, 1, 1.0f, 1.0f);
    return (int)(v->count_base + v->count_mountain * mountain * n);
}

void gen24_minerals(const Gen24 *g, TerrainChunk *chunk)
{
    int r = g->vein_range;
    for (int si = chunk->coord_x - r; si <= chunk->coord_x + r; si++)
        for (int sj = chunk->coord_z - r; sj <= chunk->coord_z + r; sj++) {
            Rng rng;
            rng_init(&rng, rng_hash2(g->seed_veins, si, sj));
            float m = gen24_mountain_raw(g, (float)(si * 16), (float)(sj * 16));
            for (int k = 0; k < g->cfg.ore_count; k++) {
                const GenVeinConfig *v = &g->cfg.ores[k];
                paint_veins(g, chunk, &rng, v, g->ore_brushes[k], si, sj, vein_count(g, v, k, si, sj, m));
            }
        }
}

/* A basin: its fluid is painted everywhere, its air bubble only where it does not touch water (so a pocket
 * never opens a hole next to the sea or a river). */
static void paint_basin(const Gen24 *g, GenContext *ctx, const CompiledBrush *brush, TerrainChunk *chunk, CellView view,
                        int x, int y, int z)
{
    int lx = x - chunk->origin_x, lz = z - chunk->origin_z;
    const BrushCell *c = brush->cells, *end = c + brush->count;
    for (; c < end; c++) {
        int cx = lx + c->x, cy = y + c->y, cz = lz + c->z;
        if ((unsigned)cx > 15u || (unsigned)cz > 15u || (unsigned)cy > 254u)
            continue;
        if (c->value == 0 && !gen24_carve_allowed(g, ctx, chunk, view, cx, cy, cz))
            continue;
        cell_view_set(view, cx, cy, cz, c->value);
    }
}

static void paint_fluid_pockets(const Gen24 *g, GenContext *ctx, TerrainChunk *chunk, CellView view, Rng *rng,
                                const GenFluidPocketConfig *f, const CompiledBrush *brushes, int si, int sj, float m)
{
    if (!rng_bool(rng, f->probability_base + f->probability_mountain * m))
        return;
    int y = rng_int_range(rng, f->y_min, f->y_max);
    int count = rng_int_range(rng, f->count_min, f->count_max);
    for (int n = 0; n < count; n++) {
        float angle = rng_float_range(rng, 0.0f, 6.2831853f);
        int x = si * 16 + 8 + (int)lrintf(7.0f * gen_cos(angle));
        int z = sj * 16 + 8 + (int)lrintf(7.0f * gen_sin(angle));
        int dy = f->deep ? rng_int_range(rng, 0, 1) : 0;
        const CompiledBrush *b = &brushes[rng_int_range(rng, 0, 4 * f->size_count - 1)];
        if (brush_touches_chunk(b, x, z, chunk->coord_x, chunk->coord_z))
            paint_basin(g, ctx, b, chunk, view, x, y + dy, z);
    }
}

void gen24_pockets(const Gen24 *g, TerrainChunk *chunk, GenContext *ctx)
{
    int r = g->vein_range > g->fluid_range ? g->vein_range : g->fluid_range;
    CellView view = chunk_cell_view(chunk);
    for (int si = chunk->coord_x - r; si <= chunk->coord_x + r; si++)
        for (int sj = chunk->coord_z - r; sj <= chunk->coord_z + r; sj++) {
            Rng rng;
            rng_init(&rng, rng_hash2(g->seed_pockets, si, sj));
            float m = gen24_mountain_raw(g, (float)(si * 16), (float)(sj * 16));
            for (int k = 0; k < g->cfg.pocket_count; k++) {
                const GenVeinConfig *v = &g->cfg.pockets[k];
                paint_veins(g, chunk, &rng, v, g->pocket_brushes[k], si, sj, vein_count(g, v, 100 + k, si, sj, m));
            }
            paint_fluid_pockets(g, ctx, chunk, view, &rng, &g->cfg.water_pockets, g->water_brushes, si, sj, m);
            paint_fluid_pockets(g, ctx, chunk, view, &rng, &g->cfg.magma_pockets, g->magma_brushes, si, sj, m);
        }
}
