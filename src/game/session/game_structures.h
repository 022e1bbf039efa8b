/* game_structures.h — structures in the game: the station manifest, the stations placed at run time (their
 * flat zones and examine text) and the search behind goto_structure. One GameStructures per world session
 * (ws->structures, freed by world_session_close).
 *
 * create loads assets/stations.json and resolves the script's station types against it before any window
 * opens, so an unknown type fails early (ST_ERR_ARG "FILE:LINE: ..."); a missing or broken manifest is an
 * error naming the file. Threads: main thread. */
#ifndef STRATA_GAME_STRUCTURES_H
#define STRATA_GAME_STRUCTURES_H

#include <stdbool.h>
#include <stdint.h>

#include "player.h"
#include "script.h"
#include "session/world_session.h"
#include "strata/error.h"

StResult game_structures_create(const char *asset_dir, const BlockRegistry *blocks, Script *script,
                                GameStructures **out);
/* The manifest's models (deferred by create), voxelized through the cache beside the world (voxel_model.h);
 * after world_session_open, on the opener thread. */
StResult game_structures_load_models(GameStructures *s, const char *asset_dir, const WorldSession *ws);
void game_structures_destroy(GameStructures *s);   /* NULL ok */
/* goto_structure: the nearest structure of the command's type within range of the player, as feet coordinates
 * in dest (the caller teleports there); ST_ERR_STATE "FILE:LINE: ..." when there is none. */
StResult game_structures_find(const WorldSession *ws, const Player *player, const ScriptCommand *c,
                              const char *script_path, double dest[3]);
/* Places station `type` at the crosshair as one undoable action (flatten, then the template); false when
 * nothing changed. */
bool game_structures_place_station(GameStructures *s, WorldSession *ws, const Player *player, int type);
/* The examine text of the placed station whose block `cell` at (x, y, z) is, or NULL. */
const char *game_structures_examine(const GameStructures *s, int x, int y, int z, int32_t cell);

#endif
