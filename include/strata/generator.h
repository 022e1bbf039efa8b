/* generator.h — the terrain generator interface (a struct of function pointers). WorldSettings: world_settings.h.
 *
 * A chunk's contents are a pure function of (seed, settings, chunk coordinates): passes read only the
 * chunk they are given and the seed, never neighbour chunks. Anything crossing a chunk border is derived
 * from the seed by every chunk it touches; each chunk paints only its own cells.
 * Pass 1: shafts (temperature, humidity) and base fill (rock, water to the sea level, air). Pass 2: surface
 * layers by biome (sand on beaches and deserts, gravel, dirt, clay, ice high up). Pass 3: pockets, caves,
 * ores, fluids falling down. Pass 4: grass, plants, trees, cacti, pumpkins, snow and ice, bedrock.
 * Ownership: generator_create allocates; generator_destroy frees. A Generator is immutable after
 * creation and may be used from any thread; scratch memory lives in a GenContext (one per thread).
 */
#ifndef STRATA_GENERATOR_H
#define STRATA_GENERATOR_H

#include <stdint.h>
#include "strata/block.h"
#include "strata/chunk.h"
#include "strata/error.h"
#include "strata/flat_zone.h"
#include "strata/world_settings.h"

typedef struct GenContext GenContext;   /* per-thread scratch */
typedef struct Generator Generator;

struct Generator {
    const char *name;          /* "gen24", "flat" or "layered" */
    int version;               /* stored per world so a world keeps its generator */
    WorldSettings settings;
    const BlockRegistry *blocks;
    void *impl;                /* the generator's private data */

    int (*ocean_level)(const Generator *g);
    /* Coarse spawn point near the origin: dry, not a cliff. Writes world x, z. */
    void (*find_coarse_spawn_position)(const Generator *g, int *x, int *z);
    float (*calculate_ocean_shore_distance)(const Generator *g, float x, float z);
    float (*calculate_height)(const Generator *g, float x, float z);
    int (*calculate_temperature)(const Generator *g, float x, float z);   /* 0..15 */
    int (*calculate_humidity)(const Generator *g, float x, float z);      /* 0..15 */
    float (*calculate_mountain_range_factor)(const Generator *g, float x, float z); /* 0..1 */
    /* The block column (x, z) shows from above at its surface (water where that is under the sea level), as
     * the passes lay it but without plants and buildings: the surface layer, grass, snow cover, ice, and in
     * woodland a leaves block for the canopy (which far terrain blends with the grass under it).
     * height, temperature and humidity are what the calculate_ methods give at (x, z), which the caller has
     * at hand. For far terrain, which must look like the voxel chunks it continues. NULL where a generator
     * has no such rule (far terrain then shows water or grass). Pure; any thread. */
    int (*surface_block)(const Generator *g, float x, float z, float height, int temperature, int humidity);
    /* Far terrain's forests: how densely the generator's tree rules (its scatter) would set trees around
     * (x, z), 0 (none) .. 1 (a closed canopy), and the leaves block of the densest rule's tree (unchanged
     * where 0). The rules' own density at the point, the ground test aside (the caller knows the surface
     * block). NULL where a generator has no such rule (far terrain then takes surface_block's leaves). Pure;
     * any thread. */
    float (*tree_cover)(const Generator *g, float x, float z, int *leaves);
    void (*pass[4])(const Generator *g, TerrainChunk *chunk, GenContext *ctx);
    void (*destroy)(Generator *g);
};

/* Parses and validates worldgen.json `text` (named `path` in errors) exactly as generator_create does, without
 * building a generator: for tools that check a modded file, and for the parser's fuzz target. ST_ERR_FORMAT
 * naming the field, as generator_create would. It does not read the other assets: generator_create also fails
 * where assets/scatter.json names a tree type the file lacks (an error naming scatter.json and the rule).
 * Pure; any thread. */
StResult generator_check_worldgen(const char *path, const char *text, const BlockRegistry *blocks);

/* Creates the generator for settings->mode (gen24 for continent/island, flat for flat).
 * `worldgen_path` is assets/worldgen.json (tunables; NULL = the built-in asset path); a malformed value is
 * ST_ERR_FORMAT naming the field. Settings outside what world.json accepts (biome_size 0.01..100, offsets
 * -15..15, ...) and mode heightmap are ST_ERR_ARG.
 * `blocks` must outlive the generator. */
StResult generator_create(const WorldSettings *settings, const BlockRegistry *blocks,
                          const char *worldgen_path, Generator **out);
/* Like generator_create, but rebuilds the generator version a world was made with (Generator.version as
 * stored in world.json); 0 means this build's current version. A version this build does not know is
 * ST_ERR_VERSION naming the generator and both versions. */
StResult generator_create_version(const WorldSettings *settings, const BlockRegistry *blocks,
                                  const char *worldgen_path, int version, Generator **out);
void generator_destroy(Generator *g);
/* The generator of a stored world (what world.json holds: settings, generator name and version): rebuilds
 * that version and checks that the settings' mode gives the named generator. The one rule the game (opening
 * a world) and `strata-world verify` share, so verify never passes a world the game refuses. An unknown
 * version is ST_ERR_VERSION, a name the mode does not give ST_ERR_FORMAT, bad settings ST_ERR_ARG; the
 * message names the generator and what was found. */
StResult generator_create_for_world(const WorldSettings *settings, const char *name, int version,
                                    const BlockRegistry *blocks, const char *worldgen_path, Generator **out);

/* Seed 002's layered generator (a continent world whose `generator` setting is "layered") reads
 * assets/worldgen/chunk_config.yaml. This validates such a file (tools and tests): ST_ERR_IO when unreadable,
 * ST_ERR_FORMAT "FILE:LINE: ..." for a syntax error, an unknown key, a wrong type, a value out of range or an
 * unknown block name. Any thread. */
StResult generator_layered_check_config(const char *path, const BlockRegistry *blocks);
/* The layered generator of `settings` (its current version) reading `config_path` instead of the shipped
 * assets/worldgen/chunk_config.yaml: for tests and tools that try a world builder's file (seed 002's own,
 * examples/seeds/). Errors as generator_layered_check_config and generator_create. */
StResult generator_create_layered(const WorldSettings *settings, const BlockRegistry *blocks, const char *config_path,
                                  Generator **out);

GenContext *gen_context_create(void);
void gen_context_destroy(GenContext *ctx);

/* Derived cross-chunk features (caves, trees, dungeons, scatter) shared by the GenContexts of several threads
 * (the update worker's job pool): a context that misses its own cache takes a copy of what another thread
 * derived, and offers what it derives. Results never depend on it (derivations are pure); it saves the
 * threads deriving the same sources again. Thread-safe; destroy it after every context attached to it. */
typedef struct GenSharedCache GenSharedCache;
GenSharedCache *gen_shared_cache_create(void);
void gen_shared_cache_destroy(GenSharedCache *shared);
/* Copies handed to contexts (hits) and derivations taken in (offers) so far, all features together. */
void gen_shared_cache_counts(GenSharedCache *shared, long *hits, long *offers);
/* Attaches ctx to `shared` (NULL detaches): every feature cache of ctx consults and feeds it. */
void gen_context_share(GenContext *ctx, GenSharedCache *shared);

/* Runs pass `pass` (1..4) on `chunk`. */
static inline void generator_run_pass(const Generator *g, int pass, TerrainChunk *chunk, GenContext *ctx)
{
    g->pass[pass - 1](g, chunk, ctx);
}

/* Runs all four passes (test and tool convenience). */
void generator_generate_chunk(const Generator *g, TerrainChunk *chunk, GenContext *ctx);

/* ---- Declaring a generator ------------------------------------------------------------------------------
 * Each generator (gen24, flat, the tests' fake) declares its function table once, as a static const
 * GeneratorClass with designated initialisers, and its create function hands it to generator_init, which
 * copies it into the Generator: callers keep calling g->calculate_height(g, x, z), g->pass[i] and
 * generator_run_pass. A method left out stays NULL (a test generator may have no climate functions). */
typedef struct GeneratorClass {
    const char *name;
    int (*ocean_level)(const Generator *g);
    void (*find_coarse_spawn_position)(const Generator *g, int *x, int *z);
    float (*calculate_ocean_shore_distance)(const Generator *g, float x, float z);
    float (*calculate_height)(const Generator *g, float x, float z);
    int (*calculate_temperature)(const Generator *g, float x, float z);
    int (*calculate_humidity)(const Generator *g, float x, float z);
    float (*calculate_mountain_range_factor)(const Generator *g, float x, float z);
    int (*surface_block)(const Generator *g, float x, float z, float height, int temperature, int humidity);
    float (*tree_cover)(const Generator *g, float x, float z, int *leaves);
    void (*pass[4])(const Generator *g, TerrainChunk *chunk, GenContext *ctx);
    void (*destroy)(Generator *g);
} GeneratorClass;

/* Copies cls's name and methods into g and sets g->version and g->impl (ownership of impl passes to g: its
 * destroy method frees it). settings and blocks are left as they are. Any thread, on a Generator not yet
 * shared. */
void generator_init(Generator *g, const GeneratorClass *cls, int version, void *impl);

/* Survivalcraft's frozen-column rule, which gen24's pass 4 applies: a column whose top ground cell lies at
 * `ground_y` and whose shaft temperature is `temperature` is frozen (it gets snow cover and, from gen24
 * version 2, no plant) when the temperature adjusted for that altitude is <= 0. Pure; any thread. */
bool generator_is_column_frozen(int temperature, int ground_y);

/* ---- Structures (gen24 version 3: settlements on flat zones, WFC dungeons; src/gen/structures) ---------- */
typedef enum GeneratorStructureType { GEN_STRUCTURE_SETTLEMENT = 0, GEN_STRUCTURE_DUNGEON = 1 } GeneratorStructureType;
typedef struct GeneratorStructure {
    GeneratorStructureType type;
    int x, y, z;                        /* where to stand: the plaza, or the top of the dungeon's entrance */
    int min_x, max_x, min_z, max_z;     /* footprint: the flat zones with their bands, or the dungeon */
    int zone_count;                     /* settlements: the flat zones (stations, plaza); dungeons: entrance */
} GeneratorStructure;
/* Lists the structures whose sites lie within `radius` blocks of (x, z), nearest first; returns how many
 * were written (at most max). 0 for generators or versions without structures. Pure; any thread. */
int generator_list_structures(const Generator *g, int x, int z, int radius, GeneratorStructure *out, int max);
/* The flat zones of the structures near (x, z) (as generation uses them), for maps: at most max. */
int generator_list_flat_zones(const Generator *g, int x, int z, int radius, FlatZone *out, int max);

/* ---- Scatter (gen24 version 4: assets/scatter.json, scatter.h) ---------------------------------------- */
typedef struct GeneratorScatterPoint {
    int x, y, z;            /* the point, and the y the object stands at (the cell above ground, less sink) */
    int kind;               /* ScatterKind (scatter.h): tree, plant, boulder, rock, template */
    int rule;               /* index of the rule in the scatter file */
    const char *name;       /* the rule's name, valid while the generator lives */
} GeneratorScatterPoint;
/* The objects of the scatter spacing groups that hold trees, boulders, rocks or templates (not the per-chunk
 * ground cover) standing in x0 <= x < x1, z0 <= z < z1, exactly as generation places them: writes at most
 * max, returns how many there are (may exceed max), -1 when out of memory. 0 for generators or versions
 * without scatter rules. Pure; any thread. */
int generator_list_scatter(const Generator *g, int x0, int z0, int x1, int z1, GeneratorScatterPoint *out, int max);
/* The same with a context of the caller's (gen_context_create; one thread), which keeps the scatter tiles it
 * derives: many small areas of one region (a tile at a time, as they are needed) then cost what listing the
 * region at once does, where each generator_list_scatter starts from nothing. */
int generator_list_scatter_in(const Generator *g, GenContext *ctx, int x0, int z0, int x1, int z1,
                              GeneratorScatterPoint *out, int max);

#endif
