/* scatter.h — rule-based scatter (seed 001): where trees, plants, boulders, rocks and templates stand.
 *
 * Purpose: assets/scatter.json lists named rules grouped in layers. A rule says what it places (objectType:
 * "tree:<type>", "plant:<block>", "boulder", "rock", "template:<name>"), how densely (baseDensity times an
 * optional grayscale densityMap over a world extent, white 1, black 0, linear between, times optional
 * climate trapezoids), how far apart (minSpacing), where (maxSlope in degrees, heightRange, ground blocks,
 * climate ranges, exclusion zones) and how (scaleRange, rotationRange in degrees, sinkAmount in blocks).
 *
 * Placement (scatter_points) is a pure function of (seed, config, position) and the caller's environment
 * callback, so chunks may ask in any order, on any thread, and agree:
 *   - each rule has a jittered grid of candidates (cell = minSpacing rounded, at least 1 block): one integer
 *     point per cell, with a 64-bit hash priority (ties broken by rule and cell: a total order);
 *   - a candidate is *eligible* when its density roll passes (hash < density) and it lies outside every
 *     exclusion; the density comes from the rule, the map and the environment callback (climate, biome,
 *     structures' exclusions);
 *   - an eligible candidate is *accepted* unless an eligible candidate of the same spacing group within
 *     max(minSpacing of both rules) has a higher priority. Two accepted points of one group are therefore
 *     never closer than the larger of their minSpacings, whatever area is queried.
 * The seed's own example loads as written: no version (1), rules without name (the objectType names the
 * rule) or layer (the name), densityMap as a bare PNG path (one pixel per block, centred on the origin),
 * a fractional sinkAmount (rounded to blocks), alignToNormal (kept in the rule; voxel objects do not tilt),
 * and the root key "scatterRules" as well as "rules".
 * A rule's `layer` is the name biomes list (biome.h: scatterLayers); its `spacingGroup` (default: the layer)
 * is the set of rules that compete for space, so that e.g. oaks of "oak_forest" and birches of
 * "birch_forest" never stand trunk to trunk.
 * The caller then applies its own ground test to accepted points (surface block, heightRange, maxSlope);
 * one that fails is simply not placed, which never lets a neighbour through, so spacing still holds.
 *
 * Ownership: scatter_config_load allocates; scatter_config_free frees (maps included). Threads: a loaded
 * ScatterConfig is immutable and may be read from any thread; scatter_points uses only its arguments. */
#ifndef STRATA_SCATTER_H
#define STRATA_SCATTER_H

#include <stdbool.h>
#include <stdint.h>
#include "strata/block.h"
#include "strata/error.h"

#define SCATTER_DEFAULT_PATH "assets/scatter.json"
#define SCATTER_NAME_MAX 48
#define SCATTER_MAX_GROUND 6

typedef enum ScatterKind {
    SCATTER_TREE = 0, SCATTER_PLANT, SCATTER_BOULDER, SCATTER_ROCK, SCATTER_TEMPLATE, SCATTER_KIND_COUNT
} ScatterKind;

/* A trapezoid on a 0..15 climate value or a height: 0 below a, rising to 1 at b, 1 to c, falling to 0 at d. */
typedef struct ScatterRamp { float a, b, c, d; bool set; } ScatterRamp;

typedef struct ScatterMap {
    char path[256];
    int width, height;
    uint8_t *pixels;            /* gray, row 0 at z0 */
    float x0, z0, x1, z1;       /* world extent */
    float outside;              /* density outside the extent */
} ScatterMap;

typedef struct ScatterRule {
    char name[SCATTER_NAME_MAX];
    char layer[SCATTER_NAME_MAX];   /* what biomes name */
    char group[SCATTER_NAME_MAX];   /* spacingGroup: who competes for space (default: the layer) */
    ScatterKind kind;
    char object[SCATTER_NAME_MAX];  /* after the "kind:" prefix: tree type, plant block or template name */
    int block;                      /* plant: its block; boulder/rock: their block (default granite) */
    int layer_index;                /* index among the config's distinct layers */
    int group_index;                /* index among the config's distinct spacing groups */
    int map;                        /* index into ScatterConfig.maps, -1 for none */
    float base_density;             /* 0..1 per candidate */
    float min_spacing;              /* > 0, blocks */
    int cell;                       /* candidate grid cell (blocks) */
    float max_slope;                /* degrees, 90 = any */
    int height_min, height_max;     /* of the ground the object stands on */
    float scale_min, scale_max;
    float rotation_min, rotation_max;
    int sink;                       /* blocks into the ground: sinkAmount rounded */
    float sink_amount;              /* sinkAmount as written (the seed's 0.2: a fifth of a block) */
    bool align_to_normal;           /* alignToNormal: read and kept; voxel objects stand upright */
    int ground_count;               /* 0: any ground */
    int ground[SCATTER_MAX_GROUND];
    /* climate fallback (until biomes name layers): hard ranges and density ramps, 0..15 */
    int temperature_min, temperature_max, humidity_min, humidity_max;
    ScatterRamp temperature, humidity, height;
    bool forest;                    /* density times the generator's forest-patch field */
    bool exclude_structures;        /* keep off flat zones and dungeon entrances (default true) */
    uint64_t seed_salt;             /* rng_hash_string(name) */
} ScatterRule;

typedef struct ScatterRect { float x0, z0, x1, z1; } ScatterRect;

typedef struct ScatterConfig {
    int rule_count;
    ScatterRule *rules;
    int layer_count;
    char (*layers)[SCATTER_NAME_MAX];
    int group_count;
    char (*groups)[SCATTER_NAME_MAX];
    float *group_reach;             /* per spacing group: the largest minSpacing of its rules */
    int map_count;
    ScatterMap *maps;
    int exclusion_count;
    ScatterRect *exclusions;        /* listed rectangles, inclusive bounds */
    int dungeon_clearance;          /* blocks kept clear around dungeon entrances */
    uint64_t text_hash;
} ScatterConfig;

/* An accepted point. */
typedef struct ScatterPoint {
    int x, z;
    int rule;
    uint64_t priority;
    float scale, rotation;          /* drawn in the rule's ranges from the point's hash */
} ScatterPoint;

/* Loads and validates a scatter file; names resolve through `blocks`. Density map paths are relative to the
 * file's folder. ST_ERR_IO / ST_ERR_FORMAT with "FILE: rules[3].minSpacing: must be > 0" style messages. */
StResult scatter_config_load(const char *path, const BlockRegistry *blocks, ScatterConfig **out);
StResult scatter_config_parse(const char *path, const char *text, const BlockRegistry *blocks, ScatterConfig **out);
void scatter_config_free(ScatterConfig *cfg);
/* The layer's / spacing group's index, or -1. */
int scatter_layer_find(const ScatterConfig *cfg, const char *name);
int scatter_group_find(const ScatterConfig *cfg, const char *name);
/* The map's value at (x, z): 0..1. */
float scatter_map_sample(const ScatterMap *map, float x, float z);
bool scatter_excluded_rect(const ScatterConfig *cfg, float x, float z);

/* The environment's density factor for rule `rule` at (x, z): 0 (not here: climate, biome, structures) ..
 * 1. Called for candidates only; must be pure in its arguments. */
typedef float (*ScatterEnvFn)(void *user, const ScatterRule *rule, int x, int z);

/* The accepted points of spacing group `group` with x0 <= x < x1, z0 <= z < z1, in a fixed order (rule, then cell z,
 * then x). Writes at most max and returns how many there are (may exceed max: call again with more room);
 * -1 when out of memory. */
int scatter_points(const ScatterConfig *cfg, uint64_t seed, int group, int x0, int z0, int x1, int z1,
                   ScatterEnvFn env, void *user, ScatterPoint *out, int max);

/* scatter_points in two steps, for callers that reuse candidates between queries (gen24 caches them per 16 x 16
 * tile). A candidate is eligible from its own position alone, so gathering a larger area in pieces gives the
 * same candidates. scatter_query_area: the area [a0, a2) x [a1, a3) whose candidates decide a query of
 * [x0, x1) x [z0, z1). scatter_candidates: the eligible candidates of `group` positioned in [x0, x1) x [z0, z1),
 * in gathering order; writes at most max, returns how many there are. `skip` (NULL: none) marks the rules whose
 * environment is 0 all over the area (the caller knows it from bounds): their cells are not even rolled. scatter_select: the accepted points
 * of [x0, x1) x [z0, z1) (as scatter_points), from `cands`, which must hold every eligible candidate of the
 * query's area (in any order; others are ignored); -1 when out of memory. */
typedef struct ScatterCandidate {
    int x, z, rule, i, j;           /* position, rule, cell */
    uint64_t priority;
} ScatterCandidate;
void scatter_query_area(const ScatterConfig *cfg, int group, int x0, int z0, int x1, int z1, int area[4]);
int scatter_candidates(const ScatterConfig *cfg, uint64_t seed, int group, int x0, int z0, int x1, int z1,
                       ScatterEnvFn env, void *user, const uint8_t *skip, ScatterCandidate *out, int max);
int scatter_select(const ScatterConfig *cfg, uint64_t seed, int group, int x0, int z0, int x1, int z1,
                   const ScatterCandidate *cands, int count, ScatterPoint *out, int max);

#endif
