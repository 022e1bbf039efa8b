/* gen_heightmap.h — private to src/gen: the heightmap a heightmap world is built from, loaded once and
 * immutable afterwards (sampled from any thread).
 *
 * A heightmap world is gen24 with three inputs replaced: the surface height comes from the map (bicubic, so
 * a map scaled up does not look terraced; outside the map the land falls smoothly to an ocean floor), the
 * climate comes from gen24's fields or from a biome map (colours naming biomes, blended over
 * biome_blend blocks), and the surface block of each column comes from auto-splat rules (splat.h: sand
 * below a height, rock above a slope, snow high, grass elsewhere). Caves, ores, trees, plants and snow are
 * gen24's passes 2-4 unchanged, so the map reads like a Strata world. The map's centre is world x = z = 0. */
#ifndef STRATA_GEN_HEIGHTMAP_H
#define STRATA_GEN_HEIGHTMAP_H

#include <stdbool.h>
#include <stdint.h>
#include "strata/block.h"
#include "strata/error.h"
#include "strata/heightfield.h"
#include "strata/splat.h"
#include "strata/world_settings.h"

#define GEN_HEIGHTMAP_FALLOFF 96.0f   /* blocks outside the map over which the land sinks to the ocean floor */
#define GEN_HEIGHTMAP_FLOOR_DEPTH 24.0f /* the ocean floor outside the map: this far below the sea level */

typedef enum GenBiome {
    GEN_BIOME_GRASSLAND = 0, GEN_BIOME_DESERT, GEN_BIOME_FOREST, GEN_BIOME_TUNDRA, GEN_BIOME_SWAMP,
    GEN_BIOME_MOUNTAIN, GEN_BIOME_COUNT
} GenBiome;

typedef struct GenHeightmap {
    Heightfield map;             /* heights in blocks */
    float scale;                 /* blocks per pixel */
    float origin_x, origin_z;    /* world position of pixel (0, 0) */
    float extent_x, extent_z;    /* world size of the map: (width - 1) * scale */
    float map_min, map_max;      /* lowest and highest height on the map (relative heights for the splat) */
    float ocean_floor;           /* the height far outside the map */
    float sea_level;
    /* biome map: per pixel temperature and humidity (0..15) and mountain factor, already blended */
    bool has_biomes;
    int biome_w, biome_h;
    float *biome_fields;         /* 3 floats per pixel */
    SplatRules splat;
    int layer_block[SPLAT_MAX_LAYERS];   /* the surface block of each splat layer */
    int layer_depth[SPLAT_MAX_LAYERS];   /* its depth (-1: gen24's depth for dirt) */
    uint64_t seed_splat;
    uint64_t hash;               /* of the map, biome map and rules files' bytes */
    bool sand_by_sea_only;       /* version 2: pass 1's sandstone is sand only on the beach or in a painted
                                  * desert (gen_surface.c); version 1 made every sandstone top sand */
} GenHeightmap;

/* Loads everything `settings` names (heightmap, biome_map, splat_rules); block names of the splat layers
 * resolve through `blocks` ("rock" means stone). Errors name the file and the problem. */
StResult gen_heightmap_load(const WorldSettings *settings, const BlockRegistry *blocks, int sea_level,
                            GenHeightmap **out);
void gen_heightmap_free(GenHeightmap *hm);

/* The biome named by a colour (nearest of the documented palette). */
GenBiome gen_biome_of_color(uint8_t r, uint8_t g, uint8_t b);
const char *gen_biome_name(GenBiome biome);

/* Surface height at world (x, z), blocks. */
float gen_heightmap_height(const GenHeightmap *hm, float x, float z);
/* Rise over run of the surface at (x, z). */
float gen_heightmap_slope(const GenHeightmap *hm, float x, float z);
/* Temperature and humidity (0..15, fractional) and mountain factor (0..1) from the biome map at (x, z);
 * false without a biome map. */
bool gen_heightmap_fields(const GenHeightmap *hm, float x, float z, float *temperature, float *humidity,
                          float *mountain);
/* The splat layer's surface block and depth for column (x, z) whose top ground cell is at top_y
 * (a seeded draw between overlapping layers, so their borders dither instead of making a hard line). */
void gen_heightmap_surface(const GenHeightmap *hm, int x, int z, int top_y, int *block, int *depth);

#endif
