/* world_session.h — the world the game plays in: block registry, generator, Terrain, update worker, and
 * (with --world) the serializer that loads and saves it.
 *
 * Opening happens in two steps so that the app can decide the spawn and the time of day in between:
 * world_session_open (registry already loaded: generator, Terrain, world folder and its world.json) and
 * world_session_start (the threaded update worker, storage attached). world_session_close saves what was
 * modified (with a world folder), joins the worker and frees everything (the structures too).
 * The session is the world's room: what is in it (the registry, generator, Terrain, worker, serializer,
 * Editor, structures), its clock and light (time of day, sky light, brightness, season: the worker meshes
 * with them), the spawn hover of a new world and the loading state (launch, far teleports). Its per-frame
 * half lives in world_session_play.c (block_at for the script, the bench and the sounds; the exchange with
 * the worker; the clock; teleport; saving), the spawn in world_session_spawn.c, and whether the world is
 * there yet (ready, settled, the loading state) in world_session_loading.c. Threads: main thread (the update worker runs behind the
 * updater's own interface). */
#ifndef STRATA_GAME_WORLD_SESSION_H
#define STRATA_GAME_WORLD_SESSION_H

#include <stdbool.h>
#include <stdint.h>

#include "cli.h"
#include "hotbar.h"
#include "player.h"
#include "strata/block.h"
#include "strata/edit.h"
#include "strata/error.h"
#include "strata/generator.h"
#include "strata/render.h"
#include "strata/terrain.h"
#include "strata/update.h"
#include "strata/world_file.h"

#define WORLD_SESSION_PATH_MAX 1024
#define WORLD_SPAWN_SEARCH_RADIUS 12   /* fallback: blocks around the coarse spawn searched for natural ground */
#define WORLD_SPAWN_PITCH_DEG -8.0f    /* a new world's first look: the view, a little down */

typedef struct Serializer Serializer;
typedef struct GameStructures GameStructures;   /* game_structures.h */

/* The loading screen's state (ui/loading.c draws it): from launch, and after a teleport far away, until every
 * chunk within the view distance is Valid and uploaded. No world drawn, no input, no physics, the clock stopped. */
typedef struct WorldLoading {
    bool active;
    uint64_t started;             /* performance counter when this loading began */
    double valid_seconds;         /* when every chunk was Valid (before the last uploads); -1 until then */
    int ready, needed;            /* chunks of the view square Valid and uploaded / all of them */
    char reason[32];              /* "launch", "teleport" */
    bool first_load_done;
    uint64_t launch_counter;      /* app_create's first line: launch-to-ready counts from here */
    double startup_seconds;       /* launch until the window, renderer and worker were up */
} WorldLoading;

typedef struct WorldSession {
    BlockRegistry *blocks;
    Generator *generator;
    Terrain *terrain;
    TerrainUpdater *updater;
    Serializer *serializer;       /* NULL: an unsaved world */
    Editor *editor;               /* ChangeCell in full, history, behaviours (after world_session_start) */
    size_t history_bytes;         /* the Editor's history bound; 0: HISTORY_DEFAULT_BYTES */
    int threads;                  /* update worker threads (UpdaterConfig.threads); 0: the default */
    WorldMeta meta;               /* settings in use; the stored player and time when `resumed` */
    bool resumed;                 /* opened an existing world folder */
    bool read_only;               /* --no-save --world: loaded from disk, nothing written (saves are no-ops) */
    ChunkStorage read_only_storage; /* loads through the serializer, drops saves */
    char dir[WORLD_SESSION_PATH_MAX];
    GameStructures *structures;   /* stations and goto_structure (game_structures.h); freed by close */

    /* the clock and the light the worker meshes with */
    float time_of_day;
    bool time_frozen;             /* a script set the time */
    int sky_light;
    float brightness;             /* 0..1, baked into the vertices by the worker's mesher */
    int season;                   /* MESHER_SEASON_* */
    double autosave_timer;

    bool spawn_pending;           /* a new world: hovering until the ground under the player is Valid */
    WorldLoading loading;
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
/* Joins the worker (which frees the chunks' geometry), then frees everything, the structures too. Safe on a
 * partly opened session. Does not save (call world_session_save_all first). */
void world_session_close(WorldSession *ws);

/* ---- world_session_play.c: the frame's side of the world ---- */

/* The block at a world cell, for main-thread looks at the world (the eye's medium, footsteps, the roof over
 * the player, the bench's ground): BLOCK_AIR where the chunk's contents do not exist yet or y is outside 0..255. */
int world_session_block_at(const WorldSession *ws, int x, int y, int z);
/* What the eye is inside: RENDER_MEDIUM_WATER, _LAVA (a glowing fluid), _SOLID (an opaque block) or _AIR. */
int world_session_medium_at(const WorldSession *ws, const double eye[3]);
/* Hands the player's position to the update worker and swaps states and meshes with it (meshes go to the
 * renderer, released chunks leave it). */
void world_session_exchange(WorldSession *ws, const Player *player, int view_distance, Renderer *renderer);
/* The clock: game time and time of day advance by dt unless `stopped` (loading, paused) or frozen; a new
 * sky light goes to the worker. */
void world_session_advance(WorldSession *ws, double dt, bool stopped);
/* Sets the time of day (wrapped to 0..1) and freezes the clock there. */
void world_session_set_time(WorldSession *ws, double time_of_day);
/* Look settings: remember the value, hand it to the worker (which remeshes every chunk, nearest first), log. */
void world_session_set_brightness(WorldSession *ws, float brightness);
void world_session_set_season(WorldSession *ws, int season);
/* Moves the player's feet to (x, y, z), stopped, and ends the spawn hover; a destination whose chunk is not
 * Valid yet (far away) brings up the loading screen. */
void world_session_teleport(WorldSession *ws, Player *player, double x, double y, double z);
/* Copies the player and the time into ws->meta (before writing world.json). */
void world_session_sync_meta(WorldSession *ws, const Player *player);
/* With a world folder: every modified chunk, world.json and the hotbar (hotbar.json). ST_OK without one. */
StResult world_session_save_game(WorldSession *ws, const Player *player, const Hotbar *hotbar);
/* Every `seconds` (> 0) of dt: the worker saves modified chunks in the background, world.json and the hotbar
 * are written (errors logged). */
void world_session_autosave(WorldSession *ws, const Player *player, const Hotbar *hotbar, double dt, double seconds);

/* ---- world_session_spawn.c ---- */

/* New worlds: while ws->spawn_pending, waits until the chunks around the start have their contents, then
 * stands the player on open ground with a view (spawn.h), facing it; where there is none (all sea, all
 * forest), on natural ground nearby or on the highest solid block. The view is looked for within the view
 * distance and a chunk (the chunks there are the ones loading). Ends the hover. */
void world_session_place_spawn(WorldSession *ws, Player *player, int view_distance);

/* ---- world_session_loading.c: ready, settled, loading ---- */

/* true when the player stands on loaded ground and every chunk within the view distance is Valid with its
 * geometry uploaded (no upload pending in the renderer). */
bool world_session_ready(const WorldSession *ws, Renderer *renderer);
/* world_session_ready, no loading screen up and no chunk still fading in: what wait_ready waits for. */
bool world_session_settled(const WorldSession *ws, Renderer *renderer);
/* Shows the loading screen from this frame (no-op when it is up). */
void world_session_loading_begin(WorldSession *ws, const char *reason);
/* Counts the chunks of the view square ready and ends the loading (fade-ins ended, the time logged) once the
 * world is ready; true on the frame it ended. */
bool world_session_loading_update(WorldSession *ws, Renderer *renderer, const Player *player, int view_distance,
                                  long frame_index);

#endif
