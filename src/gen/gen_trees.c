/* gen_trees.c — pass 4 trees: prebuilt seeded tree brushes and their placement across chunk borders.
 *
 * Design: 16 brushes per tree type (oak, birch, spruce, tall spruce, mimosa, poplar), built at creation
 * with Survivalcraft's CreateTreeBrush recipe: a trunk ray, random branch rays whose length depends on
 * the height along the trunk, then leaves grown in rounds next to wood or earlier leaves, with a per-type
 * probability by height. Mimosa: three limbs with flattened leaf balls.
 *
 * Placement is per source chunk (up to max_per_chunk x forest density trees from `tries` random spots
 * at local 2..13), and the type is a random roll weighted by the RangeProbability trapezoids of
 * temperature, humidity and height. A tree stands where the column's top is dirt at y >= min_y with room
 * around it. Crucially that test uses only pure data — the base fill from the density field
 * (gen24_column_density) and the surface rule (gen24_surface_layer) — never the chunk's cells, so every
 * chunk a tree touches agrees on where it stands and paints its own part of it (only into air, plants or
 * leaves; the root replaces the ground). Trees are a GenFeature (gen_feature.h): the placements of a source
 * are memoised in the GenContext LRU and painted by every chunk they reach.
 * The one approximation: a cave mouth carved in pass 3 right under a tree is not seen. */
#include "gen24_internal.h"
#include "gen_feature.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LEAF_MARK ((int32_t)-1)

/* One tree: where it stands and which brush of which type. */
typedef struct GenTreePlacement { int32_t x, y, z; int16_t type, brush; } GenTreePlacement;

typedef struct TreeShapeParams {
    GenTreeShape shape;
    float h;          /* height */
    int index;        /* brush index among the type's brushes */
} TreeShapeParams;

static float leaves_probability(const TreeShapeParams *p, Rng *rng, int y, int round)
{
    (void)rng;
    float h = p->h;
    switch (p->shape) {
    case GEN_TREE_OAK:
        if ((float)y < 0.2f * h) return 0.0f;
        return (float)y <= h ? 0.6f : 0.4f;
    case GEN_TREE_BIRCH: {
        int hi = (int)h;
        if (y < hi / 2 - 1) return 0.0f;
        return (y > hi / 2 && y <= hi) ? 0.99f : 0.66f;
    }
    case GEN_TREE_SPRUCE: {
        if (y < 3) return 0.0f;
        float v = gen_lerp(1.4f, 0.3f, (float)y / h);
        return y % 2 == 0 ? v * 0.3f : v;
    }
    case GEN_TREE_TALL_SPRUCE: {
        float start = (0.3f + (float)(p->index % 4) * 0.05f) * h;
        if ((float)y < start) return 0.0f;
        float v = gen_lerp(1.5f, 0.0f, gen_saturate((gen_saturate((float)y / h) - 0.6f) / 0.4f));
        if (y % 3 != 0 && (float)y < h - 4.0f) v *= 0.2f;
        return v;
    }
    case GEN_TREE_POPLAR: {
        int base = h < 14.0f ? 1 : 2;
        if (y < base) return 0.0f;
        if (round == 0) return 1.0f;
        if (y == base) return 0.0f;
        if (y == base + 1) return 0.5f;
        return gen_saturate(((float)y - (h - 1.0f)) / ((float)(base + 2) - (h - 1.0f)));
    }
    default:
        return 0.0f;
    }
}

static float branch_length(const TreeShapeParams *p, Rng *rng, int y)
{
    float h = p->h, fy = (float)y;
    switch (p->shape) {
    case GEN_TREE_OAK:
        if (fy < 0.3f * h || fy > 0.9f * h) return 0.0f;
        return rng_float_range(rng, 0.33f, 1.0f) * (fy < 0.7f * h ? 0.5f * h : 0.35f * h);
    case GEN_TREE_BIRCH:
        if (fy < 0.35f * h || fy > 0.75f * h) return 0.0f;
        return rng_float_range(rng, 0.0f, 0.33f * h);
    case GEN_TREE_SPRUCE:
        if (y < 3 || fy > 0.8f * h || y % 2 == 0) return 0.0f;
        return gen_lerp(0.3f * h, 0.0f, gen_saturate(fy / h));
    case GEN_TREE_TALL_SPRUCE: {
        float start = (0.3f + (float)(p->index % 4) * 0.05f) * h;
        if (y % 3 != 0) return 0.0f;
        if (fy < start) return fy < start - 4.0f ? 0.0f : 0.1f * h;
        return gen_lerp(0.18f * h, 0.0f, gen_saturate((gen_saturate(fy / h) - 0.6f) / 0.4f));
    }
    default:
        return 0.0f;
    }
}

static bool next_to(const TerrainBrush *b, int x, int y, int z, int32_t leaves, int wood)
{
    static const int d[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
    for (int k = 0; k < 6; k++) {
        const BrushCell *c = brush_find(b, x + d[k][0], y + d[k][1], z + d[k][2]);
        if (c && (c->value == leaves || cell_contents(c->value) == wood))
            return true;
    }
    return false;
}

static void build_tree(TerrainBrush *b, Rng *rng, const GenTreeConfig *t, int index)
{
    TreeShapeParams p = {t->shape, t->sizes[index], index};
    int h = (int)p.h;
    int32_t wood = cell_make(t->trunk, 0), leaves = cell_make(t->leaves, 0);
    brush_add_ray(b, 0, 0, 0, 0, h, 0, wood, false);
    brush_add_cell(b, 0, -1, 0, wood, BRUSH_CELL_FORCE); /* the root replaces the ground */
    int branches, rounds = 3;
    switch (t->shape) {
    case GEN_TREE_OAK: branches = (int)gen_lerp(10.0f, 22.0f, (float)index / 16.0f); break;
    case GEN_TREE_BIRCH: branches = (int)gen_lerp(0.0f, 20.0f, (float)index / 16.0f); break;
    case GEN_TREE_POPLAR: branches = 0; rounds = 2; break;
    default: branches = 3 * h; break;
    }
    for (int i = 0; i < branches; i++) {
        int y = rng_int_range(rng, 0, h);
        float len = branch_length(&p, rng, y);
        GenVec3 v = gen_vec3_normalize(gen_vec3(rng_float_range(rng, -1.0f, 1.0f), rng_float_range(rng, 0.0f, 0.33f),
                                                rng_float_range(rng, -1.0f, 1.0f)));
        brush_add_ray(b, 0, y, 0, (int)lrintf(v.x * len), y + (int)lrintf(v.y * len), (int)lrintf(v.z * len), wood,
                            true);
    }
    for (int round = 0; round < rounds; round++) {
        int x0, y0, z0, x1, y1, z1;
        brush_bounds(b, &x0, &y0, &z0, &x1, &y1, &z1);
        for (int x = x0 - 1; x <= x1 + 1; x++)
            for (int z = z0 - 1; z <= z1 + 1; z++)
                for (int y = 1; y <= y1 + 1; y++) {
                    float prob = leaves_probability(&p, rng, y, round);
                    if (rng_float(rng) < prob && !brush_find(b, x, y, z) && next_to(b, x, y, z, leaves, t->trunk))
                        brush_add_cell(b, x, y, z, LEAF_MARK, 0);
                }
        brush_replace_value(b, LEAF_MARK, leaves);
    }
    brush_add_cell(b, 0, h, 0, leaves, 0);
}

static void build_mimosa(TerrainBrush *b, Rng *rng, const GenTreeConfig *t, int index)
{
    float size = t->sizes[index];
    int32_t wood = cell_make(t->trunk, 0), leaves = cell_make(t->leaves, 0);
    brush_add_cell(b, 0, 0, 0, wood, 0);
    brush_add_cell(b, 0, -1, 0, wood, BRUSH_CELL_FORCE);
    int ends[3][3];
    float angle = rng_float_range(rng, 0.0f, 6.2831853f);
    for (int i = 0; i < 3; i++) {
        float a = angle + (float)i * 2.0943951f;
        GenVec3 v = gen_vec3_normalize(gen_vec3(1.0f, rng_float_range(rng, 1.0f, 1.5f), 0.0f));
        GenVec3 r = {v.x * gen_cos(a), v.y, -v.x * gen_sin(a)};
        int len = rng_int_range(rng, (int)(0.7f * size), (int)size);
        ends[i][0] = (int)lrintf(r.x * (float)len);
        ends[i][1] = (int)lrintf(r.y * (float)len);
        ends[i][2] = (int)lrintf(r.z * (float)len);
        brush_add_ray(b, 0, 0, 0, ends[i][0], ends[i][1], ends[i][2], wood, false);
    }
    for (int i = 0; i < 3; i++) {
        float radius = rng_float_range(rng, 0.3f * size, 0.45f * size);
        int n = (int)ceilf(radius);
        for (int x = -n; x <= n; x++)
            for (int y = -n; y <= n; y++)
                for (int z = -n; z <= n; z++) {
                    int manhattan = abs(x) + abs(y) + abs(z);
                    float dist = sqrtf((float)(x * x) + 2.89f * (float)(y * y) + (float)(z * z));
                    if (dist <= radius && (radius - dist > 1.0f || manhattan <= 2 || rng_bool(rng, 0.7f)))
                        brush_add_cell_if_empty(b, ends[i][0] + x, ends[i][1] + y, ends[i][2] + z, leaves, 0);
                }
    }
}

StResult gen24_build_tree_brushes(Gen24 *g, uint64_t seed)
{
    Rng rng;
    rng_init(&rng, seed);
    TerrainBrush b;
    brush_init(&b);
    int ext = 0;
    for (int k = 0; k < g->cfg.tree_type_count; k++) {
        const GenTreeConfig *t = &g->cfg.trees[k];
        for (int i = 0; i < t->size_count; i++) {
            brush_clear(&b);
            if (t->shape == GEN_TREE_MIMOSA)
                build_mimosa(&b, &rng, t, i);
            else
                build_tree(&b, &rng, t, i);
            CompiledBrush *brush = &g->tree_brushes[k][i];
            StResult rc = brush_compile(&b, brush);
            if (rc != ST_OK) {
                brush_free(&b);
                return rc;
            }
            int e[4] = {-brush->min_x, brush->max_x, -brush->min_z, brush->max_z};
            for (int j = 0; j < 4; j++)
                if (e[j] > ext)
                    ext = e[j];
        }
    }
    brush_free(&b);
    g->tree_ext = ext;
    /* trees stand at local 2..13 of their source */
    int lo = (ext - 2 + 15) / 16, hi = (13 + ext) / 16;
    g->tree_range = lo > hi ? lo : hi;
    if (g->tree_range < 1)
        g->tree_range = 1;
    return ST_OK;
}

/* ---- placement ---- */

/* The base fill of a source chunk (GenSourceFill, gen24_internal.h), evaluated lazily: a coarse column's base
 * (height, fields) when first touched, each of its levels when first read. The top of a column is found from
 * above, and levels above the height cost no noise, so a tree spot needs only the one or two levels around
 * the surface. Values are bit-identical to pass 1's (same functions, same expressions). The fill reaches one
 * coarse column (4 blocks) past the source on each side, for scatter points at the source's edges. */
void gen_source_fill_init(GenSourceFill *s, const Gen24 *g, int ox, int oz)
{
    memset(s, 0, sizeof *s);
    s->g = g;
    s->ox = ox;
    s->oz = oz;
}

const Gen24Coarse *gen_source_coarse(GenSourceFill *s, int cx, int cz)
{
    if (!s->have[cz + 1][cx + 1]) {
        gen24_coarse_base(s->g, s->ox + cx * 4, s->oz + cz * 4, true, &s->coarse[cz + 1][cx + 1]);
        s->have[cz + 1][cx + 1] = true;
    }
    return &s->coarse[cz + 1][cx + 1];
}

static float source_level(GenSourceFill *s, int cx, int cz, int l)
{
    const Gen24Coarse *c = gen_source_coarse(s, cx, cz);
    if (!(s->levels[cz + 1][cx + 1] & (1ull << l))) {
        s->coarse[cz + 1][cx + 1].density[l] = gen24_coarse_level(s->g, c, s->ox + cx * 4, s->oz + cz * 4, l);
        s->levels[cz + 1][cx + 1] |= 1ull << l;
    }
    return c->density[l];
}

/* The interpolated density of one cell, as gen24_column_density computes it. */
float gen_source_density(GenSourceFill *s, int x, int y, int z)
{
    int cx = x >> 2, cz = z >> 2, l = y >> 3;
    float fx = (float)(x & 3) * 0.25f, fz = (float)(z & 3) * 0.25f; /* source origins are multiples of 16 */
    float v0 = gen24_level_bilerp(source_level(s, cx, cz, l), source_level(s, cx + 1, cz, l),
                                  source_level(s, cx, cz + 1, l), source_level(s, cx + 1, cz + 1, l), fx, fz);
    float v1 = gen24_level_bilerp(source_level(s, cx, cz, l + 1), source_level(s, cx + 1, cz, l + 1),
                                  source_level(s, cx, cz + 1, l + 1), source_level(s, cx + 1, cz + 1, l + 1), fx, fz);
    float step = (v1 - v0) * 0.125f;
    return v0 + step * (float)(y & 7);
}

/* The topmost non-air cell of a column of the base fill: the first cell from y 254 down that is solid or at
 * or below the sea level (then it is water unless solid). A level whose eight corner densities are all
 * clearly negative holds only negative cells, so it is skipped whole. */
int gen_source_top(GenSourceFill *s, int x, int z, int ocean, float *density)
{
    int cx = x >> 2, cz = z >> 2;
    for (int l = 31; l >= 0; l--) {
        int y_hi = l * 8 + 7 > 254 ? 254 : l * 8 + 7;
        if (y_hi > ocean) {
            bool all_air = true;
            for (int k = 0; k < 2 && all_air; k++)
                all_air = source_level(s, cx, cz, l + k) < -1.0f && source_level(s, cx + 1, cz, l + k) < -1.0f &&
                          source_level(s, cx, cz + 1, l + k) < -1.0f && source_level(s, cx + 1, cz + 1, l + k) < -1.0f;
            if (all_air)
                continue;
        }
        for (int y = y_hi; y >= l * 8; y--) {
            float d = gen_source_density(s, x, y, z);
            if (d >= 0.0f || y <= ocean) {
                *density = d;
                return y;
            }
        }
    }
    *density = -1.0f;
    return -1;
}

static bool tree_roll(const Gen24 *g, Rng *rng, int temperature, int humidity, int y, int *type)
{
    float best = 0.0f;
    int pick = -1;
    for (int k = 0; k < g->cfg.tree_type_count; k++) {
        const GenTreeConfig *t = &g->cfg.trees[k];
        float p = t->probability_scale * gen_range_probability((float)temperature, t->probability_temperature) *
                  gen_range_probability((float)humidity, t->probability_humidity) *
                  gen_range_probability((float)y, t->probability_height);
        float score = rng_float(rng) * p;
        if (score > 0.0f && score >= best) {
            best = score;
            pick = k;
        }
    }
    if (pick < 0)
        return false;
    const GenTreeConfig *t = &g->cfg.trees[pick];
    float density = t->density_scale * gen_range_probability((float)temperature, t->density_temperature) *
                    gen_range_probability((float)humidity, t->density_humidity) *
                    gen_range_probability((float)y, t->density_height);
    if (!rng_bool(rng, density))
        return false;
    *type = pick;
    return true;
}

static void place_source(const void *generator, GenContext *ctx, GenCache *cache, GenCacheEntry *e, int si, int sj)
{
    (void)ctx;
    const Gen24 *g = generator;
    Rng rng;
    rng_init(&rng, rng_hash2(g->seed_trees, si, sj));
    int ox = si * 16, oz = sj * 16;
    int limit = (int)((float)g->cfg.trees_max_per_chunk * gen24_forest_density(g, si, sj));
    if (limit <= 0)
        return;
    GenSourceFill *fill = calloc(1, sizeof *fill);
    if (!fill) {
        e->valid = false; /* never keep a derivation that could not be made */
        return;
    }
    gen_source_fill_init(fill, g, ox, oz);
    /* the source's climate: its corner column (Survivalcraft rolls tree types with it) */
    const Gen24Lattice *corner = &gen_source_coarse(fill, 0, 0)->fields;
    int humidity = gen24_humidity_of(g, corner->humidity);
    int temperature = gen24_temperature_of(g, corner->temperature);
    int placed = 0;
    for (int k = 0; k < g->cfg.trees_tries && placed < limit; k++) {
        int x = rng_int_range(&rng, 2, 13), z = rng_int_range(&rng, 2, 13);
        float top_density;
        int top = gen_source_top(fill, x, z, g->ocean_level, &top_density);
        if (top < g->cfg.trees_min_y || top_density < 0.0f)
            continue; /* too low, or water on top */
        int wx = ox + x, wz = oz + z;
        int cx = x >> 2, cz = z >> 2, t_col, h_col;
        float m;
        gen24_column_fields(g, gen_source_coarse(fill, cx, cz), gen_source_coarse(fill, cx + 1, cz),
                            gen_source_coarse(fill, cx, cz + 1), gen_source_coarse(fill, cx + 1, cz + 1), wx, wz,
                            &t_col, &h_col, &m);
        Gen24RockRule rule = gen24_rock_rule(g, gen24_shore_distance(g, (float)wx, (float)wz), m, t_col, h_col);
        int block, depth;
        gen24_surface_layer(g, wx, wz, top, gen24_rock(rule, top_density), BLOCK_AIR, t_col, h_col, m, &block, &depth);
        if (block != BLOCK_DIRT || depth < 1)
            continue;
        bool crowded = false;
        static const int d[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
        for (int n = 0; n < 4 && !crowded; n++)
            crowded = gen_source_density(fill, x + d[n][0], top + 1, z + d[n][1]) >= 0.0f;
        if (crowded)
            continue;
        int y = top + 1, type;
        if (tree_roll(g, &rng, temperature + gen_temperature_adjustment(y), humidity, y, &type)) {
            int brush = rng_int_range(&rng, 0, g->cfg.trees[type].size_count - 1);
            const CompiledBrush *b = &g->tree_brushes[type][brush];
            GenTreePlacement *p =
                gen_feature_add_item(cache, e, wx + b->min_x, wx + b->max_x, wz + b->min_z, wz + b->max_z);
            if (p) {
                p->x = wx;
                p->y = y;
                p->z = wz;
                p->type = (int16_t)type;
                p->brush = (int16_t)brush;
            }
        }
        placed++;
    }
    free(fill);
}

static void paint_tree(const void *generator, GenContext *ctx, TerrainChunk *chunk, CellView view, const void *item)
{
    (void)ctx;
    (void)view; /* brush_paint_into walks the chunk's cells through its own view */
    const Gen24 *g = generator;
    const GenTreePlacement *p = item;
    const CompiledBrush *b = &g->tree_brushes[p->type][p->brush];
    if (brush_touches_chunk(b, p->x, p->z, chunk->coord_x, chunk->coord_z))
        brush_paint_into(b, chunk, p->x, p->y, p->z, g->replaceable_by_trees);
}

static int tree_range(const void *generator) { return ((const Gen24 *)generator)->tree_range; }
static uint64_t tree_key(const void *generator) { return ((const Gen24 *)generator)->key; }

static const GenFeature TREES = {
    .name = "trees",
    .slot = GEN_FEATURE_SLOT_TREES,
    .item_size = sizeof(GenTreePlacement),
    .range = tree_range,
    .key = tree_key,
    .derive = place_source,
    .paint = paint_tree,
};

void gen24_trees(const Gen24 *g, TerrainChunk *chunk, GenContext *ctx)
{
    gen_feature_paint_chunk(&TREES, g, ctx, chunk);
}
