/* world_session.h — the world the game plays in: block registry, generator, Terrain, update worker, and
 * (with --world) the serializer that loads and saves it.
 *
 * Opening happens in two steps so that the app can decide the spawn and the time of day in between:
 * world_session_open (registry already loaded: generator, Terrain, world folder and its world.json) and
 * world_session_start (the threaded update worker, storage attached). world_session_close saves what was
 * modified (with a world folder), joins the worker and frees everything. Threads: main thread. */
#ifndef STRATA_GAME_WORLD_SESSION_H
#define STRATA_GAME_WORLD_SESSION_H

#include <stdbool.h>
#include "cli.h"
#include "strata/block.h"
#include "strata/edit.h"
#include "strata/error.h"
#include "strata/generator.h"
#include "strata/terrain.h"
#include "strata/update.h"
#include "strata/world_file.h"

#define WORLD_SESSION_PATH_MAX 1024

typedef struct Serializer Serializer;

typedef struct WorldSession {
    BlockRegistry *blocks;
    Generator *generator;
    Terrain *terrain;
    TerrainUpdater *updater;
    Serializer *serializer;       /* NULL: an unsaved world */
    Editor *editor;               /* ChangeCell in full, history, behaviours (after world_session_start) */
    size_t history_bytes;         /* the Editor's history bound; 0: HISTORY_DEFAULT_BYTES */
    WorldMeta meta;               /* settings in use; the stored player and time when `resumed` */
    bool resumed;                 /* opened an existing world folder */
    bool read_only;               /* --no-save --world: loaded from disk, nothing written (saves are no-ops) */
    ChunkStorage read_only_storage; /* loads through the serializer, drops saves */
    char dir[WORLD_SESSION_PATH_MAX];
} WorldSession;

/* Loads asset_dir/blocks.json. */
StResult world_session_load_blocks(WorldSession *ws, const char *asset_dir);
/* Creates the generator (settings from the flags, or from world.json when resuming a world), the Terrain
 * and, with --world, opens or creates the world folder. */
StResult world_session_open(WorldSession *ws, const CliOptions *opts, const char *asset_dir);
/* Starts the threaded update worker at the given sky light, and the Editor (history bound ws->history_bytes). */
StResult world_session_start(WorldSession *ws, int sky_light);
/* Writes world.json from ws->meta (no-op without a world folder). */
StResult world_session_save_meta(WorldSession *ws);
/* Saves every modified chunk and world.json (no-op without a world folder). */
StResult world_session_save_all(WorldSession *ws);
/* Joins the worker (which frees the chunks' geometry), then frees everything. Safe on a partly
 * opened session. Does not save (call world_session_save_all first). */
void world_session_close(WorldSession *ws);

#endif
