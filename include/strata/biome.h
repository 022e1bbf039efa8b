/* biome.h — named biomes over gen24's climate (seed 001's biome JSON, assets/biomes.json): which biome a
 * place belongs to, which scatter layers it allows, its surface splat rules, and its fog, blended over the
 * biomes nearby so that crossing a border fades instead of switching.
 *
 * A biome is a box in (temperature, humidity[, height]) on gen24's 0..15 climate scales; the first biome in
 * file order whose box holds a place wins (the file orders them by priority), and a place no box holds
 * goes to the nearest box in temperature and humidity (L1 distance; ties: the earlier biome) among the
 * biomes whose height band holds it (others only when none does). JSON:
 *   {"biomes": [{"name": "desert", "temperature": [10, 15], "humidity": [0, 5], "height": [60, 140],
 *     "splatRules": [{"block": "sand", "maxHeight": 90, "color": [0.86, 0.8, 0.55]},
 *                    {"block": "sandstone", "minSlope": 1.2}],
 *     "scatterLayers": ["cacti", "dry_bushes"], "fogColor": [0.93, 0.82, 0.62], "fogDensity": 0.55}, ...]}
 * "height" and a rule's "minHeight"/"maxHeight"/"minSlope"/"maxSlope"/"color" are optional; a rule names a
 * block (checked against a BlockRegistry when one is given) or a colour or both. fogDensity 0..1 is the
 * fraction of the view distance that the fog band covers (the renderer's default fog is 1/3: it starts at
 * two thirds of the view distance).
 *
 * Ownership: biome_set_load / biome_set_parse allocate a BiomeSet; biome_set_destroy frees it (NULL is a
 * no-op). Errors are ST_ERR_IO (unreadable file) or ST_ERR_FORMAT naming the file and the field
 * ("assets/biomes.json: field 'biomes[2].fogDensity': expected a number in 0..1, got 3").
 * Threads: a set is immutable after loading; every query is pure and may run on any thread. */
#ifndef STRATA_BIOME_H
#define STRATA_BIOME_H

#include <stdbool.h>
#include "strata/block.h"
#include "strata/error.h"
#include "strata/generator.h"

#define BIOME_MAX 32
#define BIOME_NAME_MAX 32
#define BIOME_MAX_LAYERS 16
#define BIOME_MAX_SPLAT_RULES 8
/* The fog blend: climate samples on a world-aligned grid of this step, weighted by a smooth kernel that
 * falls to 0 at this radius, so a border fades over about two radii of travel. */
#define BIOME_BLEND_STEP 16
#define BIOME_BLEND_RADIUS 48.0f

typedef struct BiomeSplatRule {
    char block_name[BIOME_NAME_MAX];    /* "" when the rule gives only a colour */
    int block;                          /* the block id when loaded with a registry, else -1 */
    bool has_color;
    float color[3];                     /* 0..1 (maps, far terrain) */
    float min_height, max_height;       /* -inf / +inf when unset */
    float min_slope, max_slope;         /* rise over run; 0 / +inf when unset */
} BiomeSplatRule;

typedef struct Biome {
    char name[BIOME_NAME_MAX];
    int temperature_min, temperature_max;   /* 0..15, inclusive */
    int humidity_min, humidity_max;         /* 0..15, inclusive */
    float height_min, height_max;           /* -inf / +inf when unset */
    int splat_rule_count;
    BiomeSplatRule splat_rules[BIOME_MAX_SPLAT_RULES];
    int layer_count;
    char layers[BIOME_MAX_LAYERS][BIOME_NAME_MAX];  /* scatter layer names (assets/scatter.json) */
    float fog_color[3];                     /* 0..1 */
    float fog_density;                      /* 0..1 */
} Biome;

typedef struct BiomeSet BiomeSet;

/* The fog of a place: colour 0..1 and density 0..1 (see the header note). */
typedef struct BiomeFog {
    float color[3];
    float density;
} BiomeFog;

/* Loads `path` (NULL: assets/biomes.json). `blocks` may be NULL (block names are then not checked and
 * rules keep block -1). *out is owned by the caller. */
StResult biome_set_load(const char *path, const BlockRegistry *blocks, BiomeSet **out);
/* Parses JSON text; `path` only names the file in messages. */
StResult biome_set_parse(const char *path, const char *json, const BlockRegistry *blocks, BiomeSet **out);
void biome_set_destroy(BiomeSet *set);

int biome_set_count(const BiomeSet *set);
/* The biome at `index` (0..count-1), or NULL. Valid while the set lives. */
const Biome *biome_set_get(const BiomeSet *set, int index);
/* Index by name, or -1. */
int biome_set_find(const BiomeSet *set, const char *name);

/* The biome of a place: climate on gen24's 0..15 scales and the ground height. Always a valid index. */
int biome_set_classify(const BiomeSet *set, int temperature, int humidity, float height);
/* Whether biome `index` names scatter layer `layer_name`; false for an index out of range. */
bool biome_set_layer_allowed(const BiomeSet *set, int index, const char *layer_name);
/* The first splat rule of biome `index` that holds at this height and slope, or NULL (the generator's own
 * surface then stands). */
const BiomeSplatRule *biome_set_splat_rule(const BiomeSet *set, int index, float height, float slope);

/* Where the climate comes from: temperature and humidity 0..15 and the ground height at world (x, z). */
typedef void (*BiomeClimateFn)(void *user, float x, float z, int *temperature, int *humidity, float *height);

/* Blend weights of every biome at world (x, z): `weights` gets biome_set_count floats summing to 1, each the
 * kernel-weighted share of the climate samples around (x, z) that classify as that biome. The weights are
 * continuous in (x, z). */
void biome_set_weights_at(const BiomeSet *set, BiomeClimateFn climate, void *user, float x, float z, float *weights);
/* The blended fog at world (x, z): the weights above applied to each biome's fog colour and density. */
void biome_set_fog_at(const BiomeSet *set, BiomeClimateFn climate, void *user, float x, float z, BiomeFog *out);
/* The same with a generator's climate (calculate_temperature, _humidity, _height); a generator without
 * climate methods counts as temperature 8, humidity 8, height at its ocean level. */
void biome_set_fog_at_generator(const BiomeSet *set, const Generator *gen, float x, float z, BiomeFog *out);

#endif
