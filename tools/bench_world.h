/* bench_world.h — a generated world ready around its spawn, for the benchmarks that measure a loaded world
 * (memory per chunk, triangles): the generator, the Terrain and the threaded update worker, run until every
 * chunk within the view distance is Valid. One place for what bench_memory.c and bench_render.c both need.
 * Ownership: bench_world_free destroys what bench_world_load made (the worker first, which joins it).
 * Threads: the calling thread drives the exchange; the worker runs in its own thread. */
#ifndef STRATA_TOOLS_BENCH_WORLD_H
#define STRATA_TOOLS_BENCH_WORLD_H

#include <stdbool.h>
#include <stdint.h>
#include "strata/block.h"
#include "strata/error.h"
#include "strata/generator.h"
#include "strata/terrain.h"
#include "strata/update.h"

typedef struct BenchWorld {
    Generator *generator;
    Terrain *terrain;
    TerrainUpdater *updater;     /* may be destroyed early by the caller (set it NULL) to own the chunks */
    int spawn_x, spawn_z;        /* the generator's coarse spawn, the centre of the loaded square */
} BenchWorld;

/* gen24 world `seed` (assets from asset_dir) loaded to Valid within view_distance chunks of its spawn; with
 * wait_packed also until no chunk holds a hot scratch (resident memory as a player's world settles). On
 * failure nothing is left allocated and *out is zeroed. */
StResult bench_world_load(const char *asset_dir, const BlockRegistry *blocks, uint64_t seed, int view_distance,
                          bool wait_packed, BenchWorld *out);
void bench_world_free(BenchWorld *world);
/* Moves the update location to block (x, z), as a player does, and runs until every chunk within
 * view_distance chunks of it is Valid. */
StResult bench_world_move(BenchWorld *world, double x, double z, int view_distance);

#endif
