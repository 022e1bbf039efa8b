/* gen_scatter.c — gen24 version 4's pass 4 vegetation from scatter rules (scatter.h, assets/scatter.json).
 *
 * Design: a spacing group made only of plant rules is a *plant group*: the chunk asks scatter_points for its own
 * 16 x 16 area and tests each accepted point on its own column (the top cell must be one of the rule's ground
 * blocks, within heightRange, not frozen, room above) — one cell per point, never outside the chunk. Every
 * other group is an *object group* (trees, boulders, rocks, templates, and any plant put there): a GenFeature
 * (gen_feature.h) whose derivation for a source chunk asks scatter_points for the source's area and tests the
 * ground on the pure base fill (GenSourceFill: the surface rule of gen24_surface_layer, water, room for a
 * trunk, the slope between neighbouring tops), never on cells, so every chunk an object reaches agrees.
 *
 * The environment (ScatterEnvFn) is pure: gen24's lattice fields around the point (temperature adjusted for
 * the lattice height, as Survivalcraft adjusts it for altitude, and humidity), the biome there (biome.h,
 * assets/biomes.json: a rule applies only where the biome lists its layer; a layer that no biome lists is
 * not gated), the forest-patch field, the structures' exclusions (flat zones, dungeon entrances), and the
 * rule's heightRange on the lattice height (so water spots drop out before spacing; the ground test checks
 * the real height again). Lattice samples are memoised per thread and read per query from a grid of the
 * query's area. Speed, never a changed cell: an object group's candidates are gathered per 16 x 16 tile and
 * memoised in the GenContext (a source's area spans several tiles, which its neighbours ask for again), and a
 * rule that the area's humidity bounds rule out is not rolled at all (env_skip_rules).
 * Trees choose their size among the type's 16 brushes by scale (0: smallest .. 1: largest) and are not turned
 * (their brushes differ already); templates turn by quarter turns (rotation / 90), boulders and rocks are
 * ellipsoids of radius `scale`. sinkAmount lowers an object into the ground. */
#include "gen24_internal.h"
#include "gen_feature.h"
#include "structures/gen_structures.h"
#include "strata/biome.h"
#include "strata/fileio.h"
#include "strata/scatter.h"
#include "strata/voxel_template.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct GenScatterRules {
    int *tree_type;             /* per rule: index into cfg.trees (tree rules), else -1 */
    VoxelTemplate *templates;   /* per rule (template rules) */
    bool *object_group;         /* per spacing group */
    uint32_t *biome_mask;       /* per rule: bit b set when biome b lists the rule's layer (all: not gated) */
    BiomeSet *biomes;
    int range;                  /* chunks an object may reach from its source */
} GenScatterRules;

typedef struct GenScatterItem {
    int32_t x, y, z;            /* the point and the y it stands at (ground + 1 - sink) */
    int16_t rule, variant;      /* variant: a tree's brush */
    int8_t quarter;
    float scale;
} GenScatterItem;

/* ---- environment ---- */

/* A query's environment: the generator, the forest-patch field of the chunks it has touched (the field is
 * constant per chunk; a query covers a few), and the lattice samples of the query's area (its bounds grown by
 * the group's reach), each taken from gen24_coarse_base once per query: a candidate reads its four corners
 * from this grid, not from the per-thread memo (a hash per corner, and a miss when the memo lost it). */
#define ENV_FOREST 16
#define ENV_GRID 24                 /* lattice points per side: a 16-block area grown by a reach up to 36 */

typedef struct EnvSample { Gen24Lattice f; float height; } EnvSample;

typedef struct ScatterEnv {
    const Gen24 *g;
    int forest_n;
    int forest_cx[ENV_FOREST], forest_cz[ENV_FOREST];
    float forest[ENV_FOREST];
    int lx0, lz0, lw, lh;           /* the grid: lattice points (lx0 + i) * 4, (lz0 + j) * 4 */
    uint8_t *skip;                  /* per rule: env_skip_rules' answer for the current area */
    uint8_t have[ENV_GRID * ENV_GRID];
    EnvSample grid[ENV_GRID * ENV_GRID];
} ScatterEnv;

static void env_destroy(ScatterEnv *e)
{
    if (e)
        free(e->skip);
    free(e);
}

static ScatterEnv *env_create(const Gen24 *g)
{
    ScatterEnv *e = malloc(sizeof *e);
    if (!e)
        return NULL;
    e->g = g;
    e->forest_n = 0;
    e->lw = e->lh = 0;
    e->skip = calloc((size_t)g->scatter->rule_count + 1, 1);
    if (!e->skip) {
        free(e);
        return NULL;
    }
    return e;
}

/* Prepares the grid for a query of `group` over [x0, x1) x [z0, z1) (candidates lie within the reach). */
static void env_query(ScatterEnv *e, const ScatterConfig *cfg, int group, int x0, int z0, int x1, int z1)
{
    int reach = (int)ceilf(cfg->group_reach[group]);
    if (reach < 1)
        reach = 1;
    e->lx0 = (x0 - reach) >> 2;
    e->lz0 = (z0 - reach) >> 2;
    e->lw = ((x1 + reach - 1) >> 2) + 2 - e->lx0;
    e->lh = ((z1 + reach - 1) >> 2) + 2 - e->lz0;
    if (e->lw > ENV_GRID || e->lh > ENV_GRID)
        e->lw = e->lh = 0; /* a reach too long for the grid: every corner from the memo */
    memset(e->have, 0, sizeof e->have);
}

static const EnvSample *env_corner(ScatterEnv *e, int lx, int lz, EnvSample *scratch);

/* The rules of `group` that env_density gives 0 all over [x0, x1) x [z0, z1), from the humidity's bounds there:
 * a candidate's humidity interpolates four lattice points of the area's grid (a convex mix, rounding aside,
 * hence the margin) and gen24_humidity_of never falls as its argument rises. */
static void env_skip_rules(ScatterEnv *e, const ScatterConfig *cfg, int group, int x0, int z0, int x1, int z1,
                           uint8_t *skip)
{
    float lo = INFINITY, hi = -INFINITY;
    for (int lz = z0 >> 2; lz <= ((z1 - 1) >> 2) + 1; lz++)
        for (int lx = x0 >> 2; lx <= ((x1 - 1) >> 2) + 1; lx++) {
            EnvSample scratch;
            float h = env_corner(e, lx, lz, &scratch)->f.humidity;
            lo = fminf(lo, h);
            hi = fmaxf(hi, h);
        }
    int h_lo = gen24_humidity_of(e->g, lo - 1e-4f), h_hi = gen24_humidity_of(e->g, hi + 1e-4f);
    for (int r = 0; r < cfg->rule_count; r++)
        skip[r] = cfg->rules[r].group_index == group &&
                  (h_hi < cfg->rules[r].humidity_min || h_lo > cfg->rules[r].humidity_max);
}

static float env_forest(ScatterEnv *e, int cx, int cz)
{
    for (int i = 0; i < e->forest_n; i++)
        if (e->forest_cx[i] == cx && e->forest_cz[i] == cz)
            return e->forest[i];
    float f = gen24_forest_density(e->g, cx, cz);
    int i = e->forest_n < ENV_FOREST ? e->forest_n++ : (cx * 7 + cz * 13) & (ENV_FOREST - 1);
    e->forest_cx[i] = cx;
    e->forest_cz[i] = cz;
    e->forest[i] = f;
    return f;
}

/* The fields and height of the coarse column at lattice point (wx, wz) (memoised per thread in gen24_fill.c). */
static EnvSample env_sample(const Gen24 *g, int wx, int wz)
{
    Gen24Coarse c;
    gen24_coarse_base(g, wx, wz, true, &c);
    return (EnvSample){c.fields, c.height};
}

/* The sample at lattice point (lx * 4, lz * 4), from the query's grid. */
static const EnvSample *env_corner(ScatterEnv *e, int lx, int lz, EnvSample *scratch)
{
    int i = lx - e->lx0, j = lz - e->lz0;
    if (i < 0 || j < 0 || i >= e->lw || j >= e->lh) {
        *scratch = env_sample(e->g, lx * 4, lz * 4);
        return scratch;
    }
    int k = j * ENV_GRID + i;
    if (!e->have[k]) {
        e->grid[k] = env_sample(e->g, lx * 4, lz * 4);
        e->have[k] = 1;
    }
    return &e->grid[k];
}

static float ramp(const ScatterRamp *r, float v)
{
    if (!r->set) return 1.0f;
    return gen_range_probability(v, (GenTrapezoid){r->a, r->b, r->c, r->d});
}

static float env_density(void *user, const ScatterRule *r, int x, int z)
{
    ScatterEnv *e = user;
    const Gen24 *g = e->g;
    float d = r->forest ? env_forest(e, x >> 4, z >> 4) : 1.0f;
    if (d <= 0.0f)
        return 0.0f;
    int lx = x >> 2, lz = z >> 2;
    EnvSample scratch[4];
    const EnvSample *k[4] = {env_corner(e, lx, lz, &scratch[0]), env_corner(e, lx + 1, lz, &scratch[1]),
                             env_corner(e, lx, lz + 1, &scratch[2]), env_corner(e, lx + 1, lz + 1, &scratch[3])};
    float fx = (float)(x & 3) * 0.25f, fz = (float)(z & 3) * 0.25f;
    float height = gen24_field_bilerp(k[0]->height, k[1]->height, k[2]->height, k[3]->height, fx, fz);
    int t = gen24_temperature_of(g, gen24_field_bilerp(k[0]->f.temperature, k[1]->f.temperature, k[2]->f.temperature,
                                                       k[3]->f.temperature, fx, fz));
    int h = gen24_humidity_of(g, gen24_field_bilerp(k[0]->f.humidity, k[1]->f.humidity, k[2]->f.humidity,
                                                    k[3]->f.humidity, fx, fz));
    int y = (int)height + 1;
    if (y - 1 < r->height_min || y - 1 > r->height_max)
        return 0.0f; /* the lattice height is near the ground's: water and low shores drop out before spacing */
    const GenScatterRules *sr = g->scatter_rules;
    if (sr->biome_mask[r - g->scatter->rules] != UINT32_MAX &&
        !(sr->biome_mask[r - g->scatter->rules] & (1u << biome_set_classify(sr->biomes, t, h, height))))
        return 0.0f;
    t += gen_temperature_adjustment(y);
    if (t < r->temperature_min || t > r->temperature_max || h < r->humidity_min || h > r->humidity_max)
        return 0.0f;
    d *= ramp(&r->temperature, (float)t) * ramp(&r->humidity, (float)h) * ramp(&r->height, (float)y);
    if (d > 0.0f && r->exclude_structures && g->structures &&
        gen_structures_excluded(g->structures, x, z, g->scatter->dungeon_clearance))
        return 0.0f;
    return d;
}

float gen24_tree_cover(const Gen24 *g, int wx, int wz, int *leaves)
{
    if (!g->scatter || !g->scatter_rules)
        return 0.0f;
    ScatterEnv e;
    e.g = g;
    e.forest_n = 0;
    e.lx0 = e.lz0 = e.lw = e.lh = 0; /* no grid: each corner is sampled where it is needed */
    e.skip = NULL;
    float best = 0.0f;
    for (int i = 0; i < g->scatter->rule_count; i++) {
        const ScatterRule *r = &g->scatter->rules[i];
        int type = g->scatter_rules->tree_type[i];
        if (r->kind != SCATTER_TREE || type < 0)
            continue;
        float d = env_density(&e, r, wx, wz) * r->base_density;
        if (d > best) {
            best = d;
            *leaves = g->cfg.trees[type].leaves;
        }
    }
    return best;
}

static bool ground_ok(const ScatterRule *r, int block)
{
    if (r->ground_count == 0)
        return true;
    for (int i = 0; i < r->ground_count; i++)
        if (r->ground[i] == block || (r->ground[i] == BLOCK_GRASS && block == BLOCK_DIRT))
            return true;
    return false;
}

static float slope_degrees(float dx, float dz)
{
    return atanf(sqrtf(dx * dx + dz * dz)) * (180.0f / 3.14159265f);
}

/* ---- plant layers ---- */

/* scatter_points for plant group `group` over chunk (ox, oz), leaving out the rules the area's bounds rule out. */
static int plant_points(const Gen24 *g, ScatterEnv *env, int group, int ox, int oz, ScatterPoint *pts, int max)
{
    const ScatterConfig *cfg = g->scatter;
    int area[4];
    scatter_query_area(cfg, group, ox, oz, ox + 16, oz + 16, area);
    env_query(env, cfg, group, ox, oz, ox + 16, oz + 16);
    env_skip_rules(env, cfg, group, area[0], area[1], area[2], area[3], env->skip);
    int cap = 1024;
    for (;;) {
        ScatterCandidate *cands = malloc(sizeof *cands * (size_t)cap);
        if (!cands)
            return -1;
        int n = scatter_candidates(cfg, g->seed_scatter, group, area[0], area[1], area[2], area[3], env_density, env,
                                   env->skip, cands, cap);
        if (n <= cap) {
            int kept = scatter_select(cfg, g->seed_scatter, group, ox, oz, ox + 16, oz + 16, cands, n, pts, max);
            free(cands);
            return kept;
        }
        free(cands);
        cap = n;
    }
}

void gen24_scatter_plants(const Gen24 *g, TerrainChunk *chunk)
{
    const ScatterConfig *cfg = g->scatter;
    CellView view = chunk_cell_view(chunk);
    const int32_t grass = cell_make(BLOCK_GRASS, 0);
    int16_t tops[16][16]; /* gen_column_top of each column, kept as plants are placed */
    for (int x = 0; x < 16; x++)
        for (int z = 0; z < 16; z++) {
            int32_t *column = cell_view_column(view, x, z);
            int y = gen_column_top(column, 254);
            tops[z][x] = (int16_t)y;
            if (y >= 0 && cell_contents(column[y]) == BLOCK_DIRT)
                column[y] = grass;
        }
    ScatterEnv *env = env_create(g);
    ScatterPoint *pts = malloc(sizeof *pts * 256);
    if (!env || !pts) {
        env_destroy(env);
        free(pts);
        return; /* out of memory: no plants (never a partial, order-dependent set) */
    }
    int ox = chunk->origin_x, oz = chunk->origin_z;
    for (int group = 0; group < cfg->group_count; group++) {
        if (g->scatter_rules->object_group[group])
            continue;
        int n = plant_points(g, env, group, ox, oz, pts, 256);
        for (int i = 0; i < n && i < 256; i++) {
            const ScatterRule *r = &cfg->rules[pts[i].rule];
            int lx = pts[i].x - ox, lz = pts[i].z - oz;
            int32_t *column = cell_view_column(view, lx, lz);
            int y = tops[lz][lx];
            if (y < 0 || y < r->height_min || y > r->height_max || !ground_ok(r, cell_contents(column[y])))
                continue;
            int ground = cell_contents(column[y]);
            if (ground == BLOCK_WATER || ground == BLOCK_MAGMA)
                continue;
            if (gen24_place_frozen(g, shaft_temperature(chunk->shafts[CHUNK_SHAFT_INDEX(lx, lz)]), y))
                continue;
            if (r->max_slope < 90.0f) { /* the 2D height's slope: the neighbours may lie in other chunks */
                float px = (float)pts[i].x, pz = (float)pts[i].z;
                float dx = 0.5f * (gen24_height(g, px + 1.0f, pz) - gen24_height(g, px - 1.0f, pz));
                float dz = 0.5f * (gen24_height(g, px, pz + 1.0f) - gen24_height(g, px, pz - 1.0f));
                if (slope_degrees(dx, dz) > r->max_slope)
                    continue;
            }
            int stack = (int)pts[i].scale < 1 ? 1 : (int)pts[i].scale;
            bool room = y + stack <= 254;
            for (int k = 1; k <= stack && room; k++)
                room = cell_contents(column[y + k]) == BLOCK_AIR;
            if (!room)
                continue;
            for (int k = 1; k <= stack; k++)
                column[y + k] = cell_make(r->block, 0);
            tops[lz][lx] = (int16_t)(y + stack);
        }
    }
    free(pts);
    env_destroy(env);
}

/* ---- object layers ---- */

static int quarter_of(float rotation)
{
    int q = (int)lrintf(rotation / 90.0f) % 4;
    return q < 0 ? q + 4 : q;
}

/* The item of an accepted point whose ground (local x, z of the source, top y) passed, with its bounds. */
static void add_object(const Gen24 *g, GenCache *cache, GenCacheEntry *e, const ScatterPoint *p, int top)
{
    const ScatterRule *r = &g->scatter->rules[p->rule];
    int y = top + 1 - r->sink, x0 = p->x, x1 = p->x, z0 = p->z, z1 = p->z, variant = 0, quarter = 0;
    if (r->kind == SCATTER_TREE) {
        int type = g->scatter_rules->tree_type[p->rule];
        int count = g->cfg.trees[type].size_count;
        variant = (int)(p->scale * (float)count);
        variant = variant < 0 ? 0 : (variant >= count ? count - 1 : variant);
        const CompiledBrush *b = &g->tree_brushes[type][variant];
        x0 += b->min_x, x1 += b->max_x, z0 += b->min_z, z1 += b->max_z;
    } else if (r->kind == SCATTER_BOULDER || r->kind == SCATTER_ROCK) {
        int rad = (int)ceilf(p->scale);
        x0 -= rad, x1 += rad, z0 -= rad, z1 += rad;
    } else if (r->kind == SCATTER_TEMPLATE) {
        const VoxelTemplate *t = &g->scatter_rules->templates[p->rule];
        quarter = quarter_of(p->rotation);
        if (t->size[0] != t->size[2])
            quarter &= 2;
        x0 -= t->size[0] / 2, z0 -= t->size[2] / 2;
        x1 = x0 + t->size[0] - 1, z1 = z0 + t->size[2] - 1;
    }
    GenScatterItem *it = gen_feature_add_item(cache, e, x0, x1, z0, z1);
    if (it)
        *it = (GenScatterItem){p->x, y, p->z, (int16_t)p->rule, (int16_t)variant, (int8_t)quarter, p->scale};
}

/* The eligible candidates of object group `group` positioned in tile (tx, tz) (16 x 16 blocks), memoised in
 * ctx: a source's query area (its chunk grown by the group's reach) spans several tiles, and every source
 * around asks for them again. NULL when out of memory. */
static const GenCacheEntry *object_tile(const Gen24 *g, GenContext *ctx, ScatterEnv *env, int group, int tx, int tz)
{
    GenCache *cache = &ctx->features[GEN_FEATURE_SLOT_SCATTER_TILES];
    cache->item_size = sizeof(ScatterCandidate);
    uint64_t key = rng_mix64(g->key ^ (0x5CA77E12ull + (uint64_t)group * 0x9E3779B97F4A7C15ull));
    bool hit;
    GenCacheEntry *e = gen_cache_lookup(cache, key, tx, tz, &hit);
    if (hit)
        return e;
    const ScatterConfig *cfg = g->scatter;
    int x0 = tx * 16, z0 = tz * 16;
    env_query(env, cfg, group, x0, z0, x0 + 16, z0 + 16);
    env_skip_rules(env, cfg, group, x0, z0, x0 + 16, z0 + 16, env->skip);
    for (;;) {
        int room = e->cap - e->count;
        int n = scatter_candidates(cfg, g->seed_scatter, group, x0, z0, x0 + 16, z0 + 16, env_density, env,
                                   env->skip, e->items, room);
        if (n <= room) {
            e->count = n;
            gen_cache_publish(cache, e);
            return e;
        }
        if (!gen_cache_reserve(cache, e, n))
            return NULL; /* the entry is marked invalid: derived again next time */
    }
}

/* scatter_points for object group `group` over source chunk (ox, oz), from the memoised tiles. */
static int object_points(const Gen24 *g, GenContext *ctx, ScatterEnv *env, int group, int ox, int oz, ScatterPoint *pts,
                         int max)
{
    const ScatterConfig *cfg = g->scatter;
    int area[4];
    scatter_query_area(cfg, group, ox, oz, ox + 16, oz + 16, area);
    int tx0 = area[0] >> 4, tx1 = (area[2] - 1) >> 4, tz0 = area[1] >> 4, tz1 = (area[3] - 1) >> 4;
    int n = 0, cap = 0;
    ScatterCandidate *cands = NULL;
    for (int tz = tz0; tz <= tz1; tz++)
        for (int tx = tx0; tx <= tx1; tx++) {
            const GenCacheEntry *t = object_tile(g, ctx, env, group, tx, tz);
            if (!t) {
                free(cands);
                return -1;
            }
            if (n + t->count > cap) {
                int grown = (n + t->count) * 2;
                ScatterCandidate *c = realloc(cands, sizeof *c * (size_t)(grown > 64 ? grown : 64));
                if (!c) {
                    free(cands);
                    return -1;
                }
                cands = c;
                cap = grown > 64 ? grown : 64;
            }
            if (t->count > 0) memcpy(cands + n, t->items, sizeof *cands * (size_t)t->count); /* none: cands may be NULL */
            n += t->count;
        }
    int kept = scatter_select(cfg, g->seed_scatter, group, ox, oz, ox + 16, oz + 16, cands, n, pts, max);
    free(cands);
    return kept;
}

static void derive_objects(const void *generator, GenContext *ctx, GenCache *cache, GenCacheEntry *e, int sx, int sz)
{
    const Gen24 *g = generator;
    const ScatterConfig *cfg = g->scatter;
    int ox = sx * 16, oz = sz * 16;
    GenSourceFill *fill = malloc(sizeof *fill);
    ScatterEnv *env = env_create(g);
    ScatterPoint *pts = malloc(sizeof *pts * 256);
    if (!fill || !env || !pts) {
        e->valid = false; /* never keep a derivation that could not be made */
        goto done;
    }
    gen_source_fill_init(fill, g, ox, oz);
    for (int group = 0; group < cfg->group_count; group++) {
        if (!g->scatter_rules->object_group[group])
            continue;
        int n = object_points(g, ctx, env, group, ox, oz, pts, 256);
        if (n < 0 || n > 256) {
            e->valid = false;
            goto done;
        }
        for (int i = 0; i < n; i++) {
            const ScatterRule *r = &cfg->rules[pts[i].rule];
            int x = pts[i].x - ox, z = pts[i].z - oz;
            float top_density;
            int top = gen_source_top(fill, x, z, g->ocean_level, &top_density);
            if (top < 0 || top_density < 0.0f || top < r->height_min || top > r->height_max)
                continue; /* water on top, or out of the height range */
            int cx = x >> 2, cz = z >> 2, t_col, h_col;
            float m;
            gen24_column_fields(g, gen_source_coarse(fill, cx, cz), gen_source_coarse(fill, cx + 1, cz),
                                gen_source_coarse(fill, cx, cz + 1), gen_source_coarse(fill, cx + 1, cz + 1), pts[i].x,
                                pts[i].z, &t_col, &h_col, &m);
            Gen24RockRule rock = gen24_rock_rule(g, gen24_shore_distance(g, (float)pts[i].x, (float)pts[i].z), m,
                                                 t_col, h_col);
            int block, depth;
            gen24_surface_layer(g, pts[i].x, pts[i].z, top, gen24_rock(rock, top_density), BLOCK_AIR, t_col, h_col, m,
                                &block, &depth);
            if (depth < 1)
                block = gen24_rock(rock, top_density);
            if (!ground_ok(r, block))
                continue;
            if (r->kind == SCATTER_TREE) { /* room for the trunk: no ground beside it */
                static const int d[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
                bool crowded = false;
                for (int k = 0; k < 4 && !crowded; k++)
                    crowded = gen_source_density(fill, x + d[k][0], top + 1, z + d[k][1]) >= 0.0f;
                if (crowded)
                    continue;
            }
            if (r->max_slope < 90.0f) {
                float unused;
                float dx = 0.5f * (float)(gen_source_top(fill, x + 1, z, g->ocean_level, &unused) -
                                          gen_source_top(fill, x - 1, z, g->ocean_level, &unused));
                float dz = 0.5f * (float)(gen_source_top(fill, x, z + 1, g->ocean_level, &unused) -
                                          gen_source_top(fill, x, z - 1, g->ocean_level, &unused));
                if (slope_degrees(dx, dz) > r->max_slope)
                    continue;
            }
            add_object(g, cache, e, &pts[i], top);
        }
    }
done:
    free(pts);
    env_destroy(env);
    free(fill);
}

static void put(TerrainChunk *chunk, const Gen24 *g, int wx, int y, int wz, int block, bool force)
{
    int lx = wx - chunk->origin_x, lz = wz - chunk->origin_z;
    if (lx < 0 || lx > 15 || lz < 0 || lz > 15 || y < 1 || y > 254)
        return;
    if (force || g->replaceable_by_trees[chunk_get_contents(chunk, lx, y, lz)])
        chunk_set_cell(chunk, lx, y, lz, cell_make(block, 0));
}

static void paint_object(const void *generator, GenContext *ctx, TerrainChunk *chunk, CellView view, const void *item)
{
    (void)ctx;
    (void)view;
    const Gen24 *g = generator;
    const GenScatterItem *p = item;
    const ScatterRule *r = &g->scatter->rules[p->rule];
    switch (r->kind) {
    case SCATTER_TREE: {
        const CompiledBrush *b = &g->tree_brushes[g->scatter_rules->tree_type[p->rule]][p->variant];
        if (brush_touches_chunk(b, p->x, p->z, chunk->coord_x, chunk->coord_z))
            brush_paint_into(b, chunk, p->x, p->y, p->z, g->replaceable_by_trees);
        break;
    }
    case SCATTER_PLANT:
        put(chunk, g, p->x, p->y, p->z, r->block, false);
        break;
    case SCATTER_BOULDER:
    case SCATTER_ROCK: { /* an ellipsoid, flatter than tall, resting on its base */
        float rad = p->scale < 0.5f ? 0.5f : p->scale, ry = rad * 0.75f;
        int n = (int)ceilf(rad);
        float cy = (float)p->y + ry - 1.0f;
        for (int dy = -n; dy <= n; dy++)
            for (int dz = -n; dz <= n; dz++)
                for (int dx = -n; dx <= n; dx++) {
                    float fy = ((float)(p->y + dy) - cy) / ry;
                    float q = ((float)(dx * dx + dz * dz)) / (rad * rad) + fy * fy;
                    if (q <= 1.0f)
                        put(chunk, g, p->x + dx, p->y + dy, p->z + dz, r->block, false);
                }
        break;
    }
    case SCATTER_TEMPLATE: {
        const VoxelTemplate *t = &g->scatter_rules->templates[p->rule];
        int sx = t->size[0], sz = t->size[2];
        int x0 = p->x - sx / 2, z0 = p->z - sz / 2;
        for (int y = 0; y < t->size[1]; y++)
            for (int z = 0; z < sz; z++)
                for (int x = 0; x < sx; x++) {
                    int b = voxel_template_get_rotated(t, p->quarter, x, y, z);
                    if (b != VOXEL_TEMPLATE_KEEP)
                        put(chunk, g, x0 + x, p->y + y, z0 + z, b, true);
                }
        break;
    }
    default:
        break;
    }
}

static int objects_range(const void *generator) { return ((const Gen24 *)generator)->scatter_rules->range; }
static uint64_t objects_key(const void *generator) { return ((const Gen24 *)generator)->key; }

static const GenFeature OBJECTS = {
    .name = "scatter",
    .slot = GEN_FEATURE_SLOT_SCATTER,
    .item_size = sizeof(GenScatterItem),
    .range = objects_range,
    .key = objects_key,
    .derive = derive_objects,
    .paint = paint_object,
};

void gen24_scatter_objects(const Gen24 *g, TerrainChunk *chunk, GenContext *ctx)
{
    gen_feature_paint_chunk(&OBJECTS, g, ctx, chunk);
}

int gen24_scatter_list(const Gen24 *g, GenContext *ctx, int x0, int z0, int x1, int z1, GeneratorScatterPoint *out,
                       int max)
{
    if (!g->scatter || x1 <= x0 || z1 <= z0)
        return 0;
    GenCache *cache = &ctx->features[GEN_FEATURE_SLOT_SCATTER];
    cache->item_size = sizeof(GenScatterItem);
    int n = 0;
    for (int sz = z0 >> 4; sz <= (z1 - 1) >> 4 && n >= 0; sz++)
        for (int sx = x0 >> 4; sx <= (x1 - 1) >> 4 && n >= 0; sx++) {
            bool hit;
            GenCacheEntry *e = gen_cache_lookup(cache, g->key, sx, sz, &hit);
            if (!hit)
                derive_objects(g, ctx, cache, e, sx, sz);
            if (!e->valid) {
                n = -1;
                break;
            }
            const GenScatterItem *items = e->items;
            for (int i = 0; i < e->count; i++) {
                const GenScatterItem *it = &items[i];
                if (it->x < x0 || it->x >= x1 || it->z < z0 || it->z >= z1)
                    continue;
                const ScatterRule *r = &g->scatter->rules[it->rule];
                if (n < max)
                    out[n] = (GeneratorScatterPoint){it->x, it->y, it->z, (int)r->kind, it->rule, r->name};
                n++;
            }
        }
    return n;
}

/* ---- creation ---- */

void gen24_scatter_destroy(Gen24 *g)
{
    GenScatterRules *sr = g->scatter_rules;
    if (sr) {
        for (int i = 0; g->scatter && i < g->scatter->rule_count; i++)
            if (sr->templates[i].voxels)
                voxel_template_free(&sr->templates[i]);
        free(sr->tree_type);
        free(sr->templates);
        free(sr->object_group);
        free(sr->biome_mask);
        biome_set_destroy(sr->biomes);
        free(sr);
    }
    scatter_config_free(g->scatter);
    g->scatter = NULL;
    g->scatter_rules = NULL;
}

StResult gen24_scatter_create(Gen24 *g, const char *path)
{
    if (!path || !path[0])
        path = SCATTER_DEFAULT_PATH;
    StResult rc = scatter_config_load(path, g->blocks, &g->scatter);
    if (rc != ST_OK)
        return rc;
    const ScatterConfig *cfg = g->scatter;
    int n = cfg->rule_count > 0 ? cfg->rule_count : 1;
    GenScatterRules *sr = calloc(1, sizeof *sr);
    g->scatter_rules = sr;
    if (!sr || !(sr->tree_type = calloc((size_t)n, sizeof *sr->tree_type)) ||
        !(sr->templates = calloc((size_t)n, sizeof *sr->templates)) ||
        !(sr->biome_mask = calloc((size_t)n, sizeof *sr->biome_mask)) ||
        !(sr->object_group = calloc((size_t)(cfg->group_count > 0 ? cfg->group_count : 1), sizeof *sr->object_group)))
        return st_fail(ST_ERR_NOMEM, "%s: out of memory", path);
    char dir[512] = "";
    const char *slash = strrchr(path, '/');
    if (slash)
        snprintf(dir, sizeof dir, "%.*s/", (int)(slash - path), path);
    /* the biomes beside the rules, else the shipped ones */
    char bpath[600];
    snprintf(bpath, sizeof bpath, "%sbiomes.json", dir);
    const char *biomes_path = fileio_exists(bpath) ? bpath : "assets/biomes.json";
    if ((rc = biome_set_load(biomes_path, g->blocks, &sr->biomes)) != ST_OK)
        return rc;
    char *text = NULL;
    size_t size = 0;
    if (fileio_read_all(biomes_path, &text, &size) == ST_OK) /* the biomes are inputs too (cache key) */
        g->scatter->text_hash ^= rng_hash_string(text) * 31u;
    free(text);
    int ext = 1;
    for (int i = 0; i < cfg->rule_count; i++) {
        uint32_t mask = 0;
        for (int b = 0; b < biome_set_count(sr->biomes); b++)
            if (biome_set_layer_allowed(sr->biomes, b, cfg->rules[i].layer))
                mask |= 1u << b;
        sr->biome_mask[i] = mask ? mask : UINT32_MAX;
        const ScatterRule *r = &cfg->rules[i];
        sr->tree_type[i] = -1;
        if (r->kind != SCATTER_PLANT)
            sr->object_group[r->group_index] = true;
        if (r->kind == SCATTER_TREE) {
            for (int k = 0; k < g->cfg.tree_type_count; k++)
                if (strcmp(g->cfg.trees[k].name, r->object) == 0)
                    sr->tree_type[i] = k;
            if (sr->tree_type[i] < 0)
                return st_fail(ST_ERR_FORMAT, "%s: rules[%d].objectType: worldgen.json has no tree type '%s'", path, i,
                               r->object);
            if (g->tree_ext > ext)
                ext = g->tree_ext;
        } else if (r->kind == SCATTER_BOULDER || r->kind == SCATTER_ROCK) {
            if ((int)ceilf(r->scale_max) > ext)
                ext = (int)ceilf(r->scale_max);
        } else if (r->kind == SCATTER_TEMPLATE) {
            char tpath[800];
            snprintf(tpath, sizeof tpath, "%stemplates/%s.json", dir, r->object);
            if ((rc = voxel_template_load(tpath, g->blocks, &sr->templates[i])) != ST_OK)
                return st_fail_context(rc, "%s: rules[%d].objectType", path, i);
            int side = sr->templates[i].size[0] > sr->templates[i].size[2] ? sr->templates[i].size[0]
                                                                            : sr->templates[i].size[2];
            if (side > ext)
                ext = side;
        }
    }
    sr->range = (ext + 15) / 16;
    return ST_OK;
}
