/* gen_surface.c — pass 2 (surface layers by biome) and the per-column finishing steps of passes 3 and 4:
 * fluids falling down, snow and ice, bedrock and the air ceiling.
 *
 * Design: every rule here is per column and reads only the chunk itself and pure fields, so it never
 * depends on neighbours. The surface depth is drawn from a hash of the world column (not from a per-chunk
 * random sequence) so that tree placement in a neighbour chunk can re-derive "is this column's top dirt"
 * without generating this chunk (gen_trees.c). Survivalcraft's rules: sand (or gravel in the 5..6
 * temperature band) over sandstone — that is deserts and beaches; ice high up where frozen; clay under
 * shallow water in humid places; dirt elsewhere, 4..7 deep, thinning to bare rock on high mountains.
 * Snow cover (pass 4, where the column's top is frozen) is Survivalcraft's thin snow: one snow_layer in the
 * air cell over the top block, when that block can hold it — an opaque cube or leaves (so tree canopies
 * get a white cap, not a white box), never a plant, never water (frozen water turns to ice 1..3 deep, and
 * 90% of its columns carry the layer on the ice). No plant stands in the way: frozen columns grow none
 * (gen_plants.c, same gen_is_column_frozen rule), so their grass carries the layer. Full snow blocks are not
 * generated (version 1 of the generator laid them as cover, and grew plants that kept it off; Gen24.snow_cover
 * and Gen24.plants_in_snow keep that for worlds made with it). */
#include "gen24_internal.h"
#include "gen_heightmap.h"

#include <math.h>

/* Whether a heightmap world's column with pass 1's sandstone on top keeps it as sand (not the splat rules'
 * surface, nor, under a grass layer, gen24's dirt rules, which would make the same sand again):
 * on the beach (pass 1's shore rule, within beach_distance of the sea: gen24_shore_distance), and in a
 * desert that a biome map paints (hot, humidity <= 3). Pass 1's hot-and-dry sandstone alone (temperature
 * over 8, humidity under 8: the seed's climate fields, or a painted grassland) knows nothing of the map's
 * relief, and it put sand in patches halfway up its slopes (heightmap version 1 keeps that). */
static bool gen24_heightmap_sand(const Gen24 *g, int wx, int wz, int temperature, int humidity)
{
    if (fabsf(gen24_shore_distance(g, (float)wx + 0.5f, (float)wz + 0.5f)) < g->cfg.terrain.beach_distance)
        return true;
    return g->hm->has_biomes && temperature > 8 && humidity <= 3;
}

/* A heightmap world's bare rock (a surface 0 deep: the splat rules' rock layer, or gen24's thinning on high
 * ground) where pass 1 laid the dry climate's sandstone and it is not sand: granite, the rock around it, 4
 * deep (a steep slope's sides), so the slopes away from beach and desert show no sand-coloured outcrops. */
static void gen24_heightmap_bare_rock(const Gen24 *g, int top_block, int top_y, int *block, int *depth)
{
    if (*depth != 0 || top_block != BLOCK_SANDSTONE || !g->hm->sand_by_sea_only)
        return;
    *block = BLOCK_GRANITE;
    *depth = top_y < 4 ? top_y : 4;
}

void gen24_surface_layer(const Gen24 *g, int wx, int wz, int top_y, int top_block, int above_block,
                         int temperature, int humidity, float mountain, int *block, int *depth)
{
    int b;
    /* pass 1's sandstone makes a desert's or beach's sand; in a heightmap world only where that rule says */
    bool sand = top_block == BLOCK_SANDSTONE &&
                (!g->hm || !g->hm->sand_by_sea_only || gen24_heightmap_sand(g, wx, wz, temperature, humidity));
    if (g->hm && !sand) {
        /* heightmap worlds: the auto-splat rules choose */
        gen_heightmap_surface(g->hm, wx, wz, top_y, &b, depth);
        if (*depth >= 0) {
            *block = b;
            if (*depth > top_y) *depth = top_y;
            gen24_heightmap_bare_rock(g, top_block, top_y, block, depth);
            return;
        }
        /* grass and dirt layers: gen24's dirt with its depth below */
    }
    if (sand) {
        b = (temperature > 4 && temperature < 7) ? BLOCK_GRAVEL : BLOCK_SAND;
    } else if (top_y > g->climate.alpine_ice_above && gen24_place_frozen(g, temperature, top_y)) {
        /* alpine ice: above 120 from version 4, as seed 000 says (170 before; gen24.c: the review) */
        b = BLOCK_ICE;
    } else if ((top_y < 66 || top_y == 84 + temperature / 4 || top_y == 103 + temperature / 4) && humidity == 9 &&
               temperature % 6 == 1) {
        b = BLOCK_LIMESTONE;
    } else if (above_block == BLOCK_WATER && humidity >= 8 && top_y >= g->ocean_level - 5) {
        b = BLOCK_CLAY;
    } else {
        b = BLOCK_DIRT;
    }
    int d;
    if (b == BLOCK_ICE) {
        d = -temperature < 1 ? 1 : (-temperature > 7 ? 7 : -temperature);
    } else {
        float high = gen_saturate(((float)top_y - 100.0f) * 0.05f);
        float f = gen_saturate(gen_saturate((mountain - 0.9f) / 0.1f) - gen_saturate(((float)humidity - 3.0f) / 12.0f) +
                               g->cfg.terrain.surface_multiplier * high);
        int lo = (int)gen_lerp(4.0f, 0.0f, f), hi = (int)gen_lerp(7.0f, 0.0f, f);
        Rng rng;
        rng_init(&rng, rng_hash2(g->seed_surface, wx, wz));
        d = rng_int_range(&rng, lo, hi);
        if (d > top_y)
            d = top_y;
    }
    *block = b;
    *depth = d;
    if (g->hm && !sand)
        gen24_heightmap_bare_rock(g, top_block, top_y, block, depth);
}

static inline bool is_ground(int id) { return id != BLOCK_AIR && id != BLOCK_WATER; }

void gen24_pass2(const Generator *gen, TerrainChunk *chunk, GenContext *ctx)
{
    CellView view = chunk_cell_view(chunk);
    (void)ctx;
    const Gen24 *g = gen->impl;
    /* the mountain factor on the lattice, interpolated per column (as gen24_mountain_factor does) */
    float lattice[5][5];
    for (int cz = 0; cz < 5; cz++)
        for (int cx = 0; cx < 5; cx++)
            lattice[cz][cx] = gen24_mountain_raw(g, (float)(chunk->origin_x + 4 * cx), (float)(chunk->origin_z + 4 * cz));
    for (int z = 0; z < 16; z++)
        for (int x = 0; x < 16; x++) {
            int32_t *column = cell_view_column(view, x, z);
            int y = gen_column_top(column, 254);
            while (y >= 0 && !is_ground(cell_contents(column[y])))
                y--;
            if (y < 0)
                continue;
            int wx = chunk->origin_x + x, wz = chunk->origin_z + z;
            int32_t shaft = chunk->shafts[CHUNK_SHAFT_INDEX(x, z)];
            int block, depth;
            gen24_surface_layer(g, wx, wz, y, cell_contents(column[y]), cell_contents(column[y + 1]),
                                shaft_temperature(shaft), shaft_humidity(shaft),
                                gen24_field_bilerp(lattice[z >> 2][x >> 2], lattice[z >> 2][(x >> 2) + 1],
                                                   lattice[(z >> 2) + 1][x >> 2], lattice[(z >> 2) + 1][(x >> 2) + 1],
                                                   (float)(x & 3) * 0.25f, (float)(z & 3) * 0.25f),
                                &block, &depth);
            int32_t value = cell_make(block, 0);
            for (int k = y - depth + 1; k <= y; k++)
                if (is_ground(cell_contents(column[k])))
                    column[k] = value;
        }
}

/* Fluids exist only up to the sea level and in pockets (below their y_max), so the scan starts there. */
void gen24_fluids_down(const Gen24 *g, TerrainChunk *chunk)
{
    CellView view = chunk_cell_view(chunk);
    int top = g->ocean_level;
    if (g->cfg.water_pockets.y_max > top) top = g->cfg.water_pockets.y_max;
    if (g->cfg.magma_pockets.y_max > top) top = g->cfg.magma_pockets.y_max;
    top += 1;
    if (top > 255) top = 255;
    if (top < 0) return;
    for (int z = 0; z < 16; z++)
        for (int x = 0; x < 16; x++) {
            int32_t *column = cell_view_column(view, x, z);
            int above = cell_contents(column[top]);
            for (int y = top - 1; y >= 0; y--) {
                int c = cell_contents(column[y]);
                if (c == BLOCK_AIR && (above == BLOCK_WATER || above == BLOCK_MAGMA)) {
                    column[y] = cell_make(above, 0);
                    c = above;
                }
                above = c;
            }
        }
}

void gen24_snow_and_ice(const Gen24 *g, TerrainChunk *chunk)
{
    CellView view = chunk_cell_view(chunk);
    const int32_t ice = cell_make(BLOCK_ICE, 0), snow = cell_make(g->snow_cover, 0);
    for (int z = 0; z < 16; z++)
        for (int x = 0; x < 16; x++) {
            int32_t *column = cell_view_column(view, x, z);
            int temperature = shaft_temperature(chunk->shafts[CHUNK_SHAFT_INDEX(x, z)]);
            int y = gen_column_top(column, 254);
            if (y < 0 || !gen24_place_frozen(g, temperature, y))
                continue;
            int top = cell_contents(column[y]);
            int wx = chunk->origin_x + x, wz = chunk->origin_z + z;
            if (top == BLOCK_WATER) {
                if (gen24_shore_distance(g, (float)wx, (float)wz) > -20.0f) {
                    float n = gen_noise2(&g->n_ice, (float)wx, (float)wz, 0.2f, 1, 2.0f, 1.0f);
                    int thickness = 1 + (int)(2.0f * n * n);
                    for (int k = 0; k < thickness && y - k > 0; k++) {
                        if (cell_contents(column[y - k]) != BLOCK_WATER)
                            break;
                        column[y - k] = ice;
                    }
                    /* most frozen water carries snow (Survivalcraft: 90% of columns) */
                    if (rng_hash2(g->seed_snow, wx, wz) % 10u != 0u && y + 1 <= 254 &&
                        cell_contents(column[y + 1]) == BLOCK_AIR)
                        column[y + 1] = snow;
                }
            } else if (g->supports_snow[top] && y + 1 <= 254 && cell_contents(column[y + 1]) == BLOCK_AIR) {
                column[y + 1] = snow;
            }
        }
}

int gen24_surface_block(const Gen24 *g, int wx, int wz, int top_y, int temperature, int humidity)
{
    float x = (float)wx, z = (float)wz;
    float shore = gen24_shore_distance(g, x, z);
    if (top_y < g->ocean_level) {   /* pass 4: frozen water near a shore turns to ice, most of it under snow */
        bool ice = gen24_place_frozen(g, temperature, g->ocean_level) && shore > -20.0f;
        return ice ? g->snow_cover : BLOCK_WATER;
    }
    /* pass 1: the ground's top cell is rock of the column's rule (its density there is just above 0) */
    float mountain = gen24_mountain_factor(g, x, z);
    Gen24RockRule rule = gen24_rock_rule(g, shore, mountain, temperature, humidity);
    int rock = gen24_rock(rule, 0.0f), block, depth;
    gen24_surface_layer(g, wx, wz, top_y, rock, BLOCK_AIR, temperature, humidity, mountain, &block, &depth);
    if (depth <= 0) block = rock;                 /* bare rock */
    if (block == BLOCK_DIRT) block = BLOCK_GRASS; /* pass 4 grows grass on the top dirt */
    /* woodland: humid grass land carries trees over nearly half its columns (43% against 25% where drier, in
     * seed 1's grass and tree tops); from afar that reads as canopy, which oak's leaves stand for */
    if (block == BLOCK_GRASS && humidity > 9) block = BLOCK_OAK_LEAVES;
    if (g->supports_snow[block] && gen24_place_frozen(g, temperature, top_y)) block = g->snow_cover;
    return block;
}

void gen24_bedrock_and_air(const Gen24 *g, TerrainChunk *chunk)
{
    CellView view = chunk_cell_view(chunk);
    const int32_t bedrock = cell_make(BLOCK_BEDROCK, 0);
    for (int z = 0; z < 16; z++)
        for (int x = 0; x < 16; x++) {
            int32_t *column = cell_view_column(view, x, z);
            float n = gen_noise2(&g->n_bedrock, (float)(chunk->origin_x + x), (float)(chunk->origin_z + z), 0.1f, 1,
                                     1.0f, 1.0f);
            int layers = 2 + (int)(4.0f * n);
            if (layers > 5)
                layers = 5;
            for (int y = 0; y < layers; y++)
                column[y] = bedrock;
            column[255] = 0;
        }
}
