/* layered_features.c — passes 3 and 4 of the layered generator: carving, the OreGenerator and the
 * SurfaceDecorator.
 *
 * Design: everything is a pure function of (seed, config, world position), so generation order never
 * matters. Caves are cells of one 3D simplex field above a threshold, kept 6 cells under the ground and above
 * the bedrock (they never open to the sea, so water never drains). Ore veins and trees cross chunk borders:
 * they are derived per *source chunk* from the seed (rng_hash2(purpose seed, sx, sz)) and each chunk walks
 * the 3x3 source chunks around it, re-derives their veins and trees and paints only its own cells. A vein
 * (VeinSize cells, +-1 steps from a seeded start, the seed's cluster walk) reaches at most 15 cells from its
 * start and a tree 2, so the 3x3 loop sees every one that can touch the chunk. Sources are visited in
 * ascending world order, so where two veins or trees overlap the same one wins in every chunk. Ores replace
 * stone only; trunks replace anything, leaves fill air. Small plants (tall grass, flowers, cacti, dry
 * bushes) are per column of the chunk itself, decided by a hash of the column. */
#include "layered_internal.h"

#include "strata/rng.h"

static const Layered *impl(const Generator *g) { return g->impl; }

static bool in_chunk(const TerrainChunk *c, int wx, int y, int wz)
{
    return wx >= c->origin_x && wx < c->origin_x + 16 && wz >= c->origin_z && wz < c->origin_z + 16 && y >= 0 &&
           y < CHUNK_SIZE_Y;
}

/* ---- pass 3: carving and ores ---- */

static void carve_caves(const Layered *l, TerrainChunk *chunk, CellView view)
{
    for (int z = 0; z < 16; z++)
        for (int x = 0; x < 16; x++) {
            int wx = chunk->origin_x + x, wz = chunk->origin_z + z;
            int top = layered_ground(l, wx, wz) - 6;
            int32_t *c = cell_view_column(view, x, z);
            for (int y = l->cfg.bedrock_layers + 1; y <= top; y++) {
                float n = noise_simplex3(&l->caves, (float)wx * 0.05f, (float)y * 0.08f, (float)wz * 0.05f);
                if (n > 0.62f) c[y] = 0;
            }
        }
}

static void paint_veins(const Layered *l, TerrainChunk *chunk, CellView view)
{
    const int32_t stone = cell_make(BLOCK_STONE, 0);
    for (int sz = chunk->coord_z - 1; sz <= chunk->coord_z + 1; sz++)
        for (int sx = chunk->coord_x - 1; sx <= chunk->coord_x + 1; sx++)
            for (int i = 0; i < l->cfg.ore_count; i++) {
                const LayeredOre *o = &l->cfg.ores[i];
                Rng rng;
                rng_init(&rng, rng_hash3(l->ore_seed, sx, sz, i));
                const int32_t ore = cell_make(o->block, 0);
                for (int v = 0; v < o->veins_per_chunk; v++) {
                    int x = sx * 16 + rng_int_range(&rng, 0, 15);
                    int z = sz * 16 + rng_int_range(&rng, 0, 15);
                    int y = rng_int_range(&rng, o->min_y, o->max_y);
                    for (int k = 0; k < o->vein_size; k++) {
                        if (in_chunk(chunk, x, y, z)) {
                            int32_t *cell = cell_view_column(view, x - chunk->origin_x, z - chunk->origin_z) + y;
                            if (*cell == stone) *cell = ore;
                        }
                        x += rng_int_range(&rng, -1, 1);
                        y += rng_int_range(&rng, -1, 1);
                        z += rng_int_range(&rng, -1, 1);
                    }
                }
            }
}

void layered_pass3(const Generator *g, TerrainChunk *chunk, GenContext *ctx)
{
    (void)ctx;
    const Layered *l = impl(g);
    CellView view = chunk_cell_view(chunk);
    carve_caves(l, chunk, view);
    paint_veins(l, chunk, view);
}

/* ---- pass 4: the SurfaceDecorator ---- */

static const float TREE_DENSITY[4] = {0.06f, 0.0f, 0.6f, 0.15f};   /* per attempt: plains, desert, forest, tundra */
#define TREE_ATTEMPTS 8

static void set_if(TerrainChunk *chunk, CellView view, int wx, int y, int wz, int block, bool only_air)
{
    if (!in_chunk(chunk, wx, y, wz)) return;
    int32_t *cell = cell_view_column(view, wx - chunk->origin_x, wz - chunk->origin_z) + y;
    if (!only_air || *cell == 0) *cell = cell_make(block, 0);
}

static void paint_trees(const Layered *l, TerrainChunk *chunk, CellView view)
{
    for (int sz = chunk->coord_z - 1; sz <= chunk->coord_z + 1; sz++)
        for (int sx = chunk->coord_x - 1; sx <= chunk->coord_x + 1; sx++) {
            Rng rng;
            rng_init(&rng, rng_hash2(l->tree_seed, sx, sz));
            for (int a = 0; a < TREE_ATTEMPTS; a++) {
                int x = sx * 16 + rng_int_range(&rng, 0, 15), z = sz * 16 + rng_int_range(&rng, 0, 15);
                float chance = rng_float(&rng);
                int trunk_h = rng_int_range(&rng, 4, 6);
                bool birch = rng_float(&rng) < 0.3f;
                /* quick reject: a tree (leaf radius 2) that cannot touch this chunk */
                if (x < chunk->origin_x - 2 || x > chunk->origin_x + 17 || z < chunk->origin_z - 2 ||
                    z > chunk->origin_z + 17)
                    continue;
                LayeredBiome biome = layered_biome(layered_temperature(l, (float)x, (float)z),
                                                   layered_humidity(l, (float)x, (float)z));
                if (chance >= TREE_DENSITY[biome]) continue;
                int h = layered_ground(l, x, z);
                if (h <= l->sea_level + 1 || h + trunk_h + 2 >= CHUNK_SIZE_Y) continue;
                int trunk = biome == LAYERED_TUNDRA ? BLOCK_SPRUCE_TRUNK : birch ? BLOCK_BIRCH_TRUNK : BLOCK_OAK_TRUNK;
                int leaves = biome == LAYERED_TUNDRA ? BLOCK_SPRUCE_LEAVES : birch ? BLOCK_BIRCH_LEAVES : BLOCK_OAK_LEAVES;
                for (int dy = trunk_h - 2; dy <= trunk_h + 1; dy++) {
                    int r = dy >= trunk_h ? 1 : 2;
                    for (int dz = -r; dz <= r; dz++)
                        for (int dx = -r; dx <= r; dx++) {
                            if (r == 2 && (dx == 2 || dx == -2) && (dz == 2 || dz == -2)) continue;
                            if (dy == trunk_h + 1 && dx != 0 && dz != 0) continue;
                            set_if(chunk, view, x + dx, h + dy, z + dz, leaves, true);
                        }
                }
                for (int dy = 1; dy <= trunk_h; dy++)
                    set_if(chunk, view, x, h + dy, z, trunk, false);
            }
        }
}

static void paint_plants(const Layered *l, TerrainChunk *chunk, CellView view)
{
    for (int z = 0; z < 16; z++)
        for (int x = 0; x < 16; x++) {
            int wx = chunk->origin_x + x, wz = chunk->origin_z + z;
            int h = layered_ground(l, wx, wz);
            if (h <= l->sea_level + 1 || h + 4 >= CHUNK_SIZE_Y) continue;
            int32_t *c = cell_view_column(view, x, z);
            if (c[h + 1] != 0) continue;   /* a trunk or leaves */
            int32_t shaft = chunk->shafts[CHUNK_SHAFT_INDEX(x, z)];
            LayeredBiome biome = layered_biome(shaft_temperature(shaft), shaft_humidity(shaft));
            Rng rng;
            rng_init(&rng, rng_hash2(l->plant_seed, wx, wz));
            float p = rng_float(&rng);
            int top = cell_contents(c[h]);
            switch (biome) {
            case LAYERED_PLAINS:
            case LAYERED_FOREST:
                if (top != BLOCK_GRASS) break;
                if (p < 0.03f) c[h + 1] = cell_make(BLOCK_RED_FLOWER + rng_int_range(&rng, 0, 2), 0);
                else if (p < (biome == LAYERED_PLAINS ? 0.28f : 0.18f)) c[h + 1] = cell_make(BLOCK_TALL_GRASS, 0);
                break;
            case LAYERED_DESERT:
                if (top != BLOCK_SAND) break;
                if (p < 0.006f) {
                    int n = rng_int_range(&rng, 1, 3);
                    for (int k = 1; k <= n; k++) c[h + k] = cell_make(BLOCK_CACTUS, 0);
                } else if (p < 0.016f) c[h + 1] = cell_make(BLOCK_DRY_BUSH, 0);
                break;
            case LAYERED_TUNDRA:
                if (p < 0.02f && top == BLOCK_SNOW) c[h + 1] = cell_make(BLOCK_DRY_BUSH, 0);
                break;
            }
        }
}

void layered_pass4(const Generator *g, TerrainChunk *chunk, GenContext *ctx)
{
    (void)ctx;
    const Layered *l = impl(g);
    CellView view = chunk_cell_view(chunk);
    paint_trees(l, chunk, view);
    paint_plants(l, chunk, view);
}
