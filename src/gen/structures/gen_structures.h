/* gen_structures.h — private to src/gen: structures in generation (gen24 version 3): settlement sites with
 * stations on flat zones, WFC dungeons with an entrance shaft, all pure functions of the seed.
 *
 * Sites: the world is cut into regions of GEN_SITE_REGION blocks; each region holds at most one settlement
 * and one dungeon, placed from the seed with a margin so that everything a site changes (zones, bands,
 * templates, dungeon) lies inside its region: a chunk only ever consults its own region. A site is derived
 * from the seed and the procedural height alone (never from chunks), memoised per thread, so the flat zones
 * are known before any chunk under them generates, on any thread, in any order. The dungeon's WFC layout is
 * solved once per site per thread (the GenContext cache) and is a pure function of (seed, region).
 * Threads: a GenStructures is immutable after creation; the per-thread memo is thread-local. */
#ifndef STRATA_GEN_STRUCTURES_H
#define STRATA_GEN_STRUCTURES_H

#include <stdbool.h>
#include <stdint.h>
#include "strata/block.h"
#include "strata/chunk.h"
#include "strata/error.h"
#include "strata/flat_zone.h"
#include "strata/generator.h"

#define GEN_SITE_REGION 384
#define GEN_SITE_MAX_ZONES 8
#define GEN_SITE_MAX_STATIONS 6
#define GEN_DUNGEON_MAX_CELLS 300

typedef struct GenStructures GenStructures;
/* The procedural height (without zones) of the generator that owns the structures. */
typedef float (*GenProceduralHeightFn)(const void *gen, float x, float z);

typedef struct GenStation {
    int type;                 /* index into the manifest */
    int x, y, z;              /* template origin: its minimum corner */
} GenStation;

typedef struct GenSite {
    int rx, rz;
    bool settlement, dungeon;
    int zone_count;
    FlatZone zones[GEN_SITE_MAX_ZONES];
    int min_x, max_x, min_z, max_z;      /* zones' bounds (when zone_count > 0) */
    int center_x, center_y, center_z;    /* the settlement's plaza */
    int station_count;
    GenStation stations[GEN_SITE_MAX_STATIONS];
    int dx, dy, dz;                      /* dungeon origin (minimum corner, blocks) */
    int gsx, gsy, gsz;                   /* dungeon grid (tiles) */
    int ecx, ecz;                        /* entrance cell on the top layer */
    int entrance_x, entrance_z, entrance_y; /* shaft centre and the ground height there */
} GenSite;

StResult gen_structures_create(const BlockRegistry *blocks, uint64_t seed, uint64_t key, int ocean_level,
                               GenProceduralHeightFn height, const void *gen, GenStructures **out);
void gen_structures_destroy(GenStructures *s);

/* The site of region (rx, rz) (memoised per thread). */
const GenSite *gen_structures_site(const GenStructures *s, int rx, int rz, GenSite *scratch);
/* The flattened height at (x, z), given the procedural height there. */
float gen_structures_height(const GenStructures *s, float x, float z, float procedural);
/* Pass 1: blends the densities of world column (wx, wz) (256 values) toward the governing zone. `site` is
 * the column's region's site (gen_structures_site). */
void gen_structures_flatten_column(const GenSite *site, int wx, int wz, float *density);
/* Pass 3: carves the dungeon of the chunk's region. Pass 4: stations, cleared vegetation. */
void gen_structures_pass3(const GenStructures *s, GenContext *ctx, TerrainChunk *chunk);
void gen_structures_pass4(const GenStructures *s, TerrainChunk *chunk);
/* Scatter exclusions (gen24 version 4): is (x, z) on a flat zone (core or band) or within `clearance` blocks
 * of a dungeon entrance? Pure. */
bool gen_structures_excluded(const GenStructures *s, int x, int z, int clearance);
/* Sites of the regions within `radius` blocks of (x, z), nearest first (listing for tools and the game). */
int gen_structures_list(const GenStructures *s, int x, int z, int radius, GeneratorStructure *out, int max);

#endif
