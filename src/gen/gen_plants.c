/* gen_plants.c — pass 4 ground cover: grass, tall grass, flowers, dry bushes, cacti and pumpkins.
 *
 * Design: Survivalcraft's GenerateGrassAndPlants / GenerateCacti / GeneratePumpkins. Everything stays
 * inside the chunk (cacti and pumpkins are placed at local 1..14 with their neighbours checked inside
 * the chunk), so a per-chunk random sequence seeded by hash(seed, chunk coords) is enough for order
 * independence. Tall grass is more likely the more humid; flowers only where it is not frozen.
 *
 * Frozen columns (gen_is_column_frozen at the ground cell, the rule pass 4's snow cover uses) grow no plant
 * at all from generator version 2: the snow layer lies there instead, so no green tuft or dry bush sticks
 * out of a snowfield, and dry bushes remain only where there is no snow. The random draws of such a column
 * are still made and then dropped, so every unfrozen column keeps exactly the plant it had in version 1,
 * which grew plants in frozen columns too (and left those columns without snow). */
#include "gen24_internal.h"

static int random_plant(const Gen24 *g, Rng *rng, int ground, int temperature, int humidity, int y)
{
    const GenPlantConfig *p = &g->cfg.plants;
    if (ground == BLOCK_DIRT || ground == BLOCK_GRASS) {
        if (humidity >= p->grass_humidity_min) {
            if (!(rng_float(rng) < (float)humidity / p->grass_humidity_divisor))
                return 0;
            int result = BLOCK_TALL_GRASS;
            if (!gen24_place_frozen(g, temperature, y)) {
                float r = rng_float(rng), acc = 0.0f;
                for (int i = 0; i < p->flower_count; i++) {
                    acc += p->flowers[i].probability;
                    if (r < acc) {
                        result = p->flowers[i].block;
                        break;
                    }
                }
            }
            return result;
        }
        if (rng_float(rng) < p->dry_bush_probability)
            return BLOCK_DRY_BUSH;
    } else if (ground == BLOCK_SAND) {
        if (humidity < 8 && rng_float(rng) < p->sand_bush_probability)
            return BLOCK_DRY_BUSH;
    }
    return 0;
}

void gen24_grass_and_plants(const Gen24 *g, TerrainChunk *chunk)
{
    CellView view = chunk_cell_view(chunk);
    Rng rng;
    rng_init(&rng, rng_hash2(g->seed_plants, chunk->coord_x, chunk->coord_z));
    const int32_t grass = cell_make(BLOCK_GRASS, 0);
    for (int x = 0; x < 16; x++)
        for (int z = 0; z < 16; z++) {
            int32_t *column = cell_view_column(view, x, z);
            int y = gen_column_top(column, 254);
            if (y < 0)
                continue;
            int ground = cell_contents(column[y]);
            if (ground == BLOCK_WATER || ground == BLOCK_MAGMA)
                continue;
            int32_t shaft = chunk->shafts[CHUNK_SHAFT_INDEX(x, z)];
            int temperature = shaft_temperature(shaft);
            int plant = random_plant(g, &rng, ground, temperature, shaft_humidity(shaft), y + 1);
            if (plant && !g->plants_in_snow && gen24_place_frozen(g, temperature, y))
                plant = 0;
            if (plant && y + 1 <= 254)
                column[y + 1] = cell_make(plant, 0);
            if (ground == BLOCK_DIRT)
                column[y] = grass;
        }
}

void gen24_cacti(const Gen24 *g, TerrainChunk *chunk)
{
    Rng rng;
    rng_init(&rng, rng_hash2(g->seed_cacti, chunk->coord_x, chunk->coord_z));
    if (!rng_bool(&rng, g->cfg.plants.cactus_chunk_probability))
        return;
    const int32_t cactus = cell_make(BLOCK_CACTUS, 0);
    int count = rng_int_range(&rng, 0, 1);
    for (int i = 0; i < count; i++) {
        int cx = rng_int_range(&rng, 3, 12), cz = rng_int_range(&rng, 3, 12);
        int32_t shaft = chunk->shafts[CHUNK_SHAFT_INDEX(cx, cz)];
        if (shaft_humidity(shaft) >= 6 || shaft_temperature(shaft) <= 8)
            continue;
        for (int j = 0; j < 8; j++) {
            int x = cx + rng_int_range(&rng, -2, 2), z = cz + rng_int_range(&rng, -2, 2);
            for (int y = 251; y >= 0; y--) {
                int c = cell_contents(chunk_get_cell(chunk, x, y, z));
                if (c == BLOCK_AIR)
                    continue;
                if (c == BLOCK_SAND) {
                    for (int k = y + 1; k <= y + 3 && cell_contents(chunk_get_cell(chunk, x + 1, k, z)) == BLOCK_AIR &&
                                        cell_contents(chunk_get_cell(chunk, x - 1, k, z)) == BLOCK_AIR &&
                                        cell_contents(chunk_get_cell(chunk, x, k, z + 1)) == BLOCK_AIR &&
                                        cell_contents(chunk_get_cell(chunk, x, k, z - 1)) == BLOCK_AIR;
                         k++)
                        chunk_set_cell(chunk, x, k, z, cactus);
                }
                break;
            }
        }
    }
}

void gen24_pumpkins(const Gen24 *g, TerrainChunk *chunk)
{
    Rng rng;
    rng_init(&rng, rng_hash2(g->seed_pumpkins, chunk->coord_x, chunk->coord_z));
    if (!rng_bool(&rng, g->cfg.plants.pumpkin_chunk_probability))
        return;
    const int32_t pumpkin = cell_make(BLOCK_PUMPKIN, 0);
    int count = rng_int_range(&rng, 0, 1);
    for (int i = 0; i < count; i++) {
        int cx = rng_int_range(&rng, 1, 14), cz = rng_int_range(&rng, 1, 14);
        int32_t shaft = chunk->shafts[CHUNK_SHAFT_INDEX(cx, cz)];
        if (shaft_humidity(shaft) < 10 || shaft_temperature(shaft) <= 6)
            continue;
        for (int j = 0; j < 5; j++) {
            int x = cx + rng_int_range(&rng, -1, 1), z = cz + rng_int_range(&rng, -1, 1);
            for (int y = 254; y >= 0; y--) {
                int c = cell_contents(chunk_get_cell(chunk, x, y, z));
                if (c == BLOCK_AIR)
                    continue;
                if (c == BLOCK_GRASS && y + 1 <= 254)
                    chunk_set_cell(chunk, x, y + 1, z, pumpkin);
                break;
            }
        }
    }
}
