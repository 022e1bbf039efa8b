/* spawn.h — where a new world's player first stands: open ground with a view.
 *
 * spawn_choose looks at every column within SPAWN_SEARCH_RADIUS of a start column (the generator's coarse
 * spawn) and scores those whose top is natural ground (not water, not a tree, nothing solid above): higher
 * is better, a long free view at eye level is better, trees close by and distance from the start are
 * worse. It returns the best column and the yaw of its longest view. The answer depends only on cell
 * contents, which are final once a chunk has passed its generation steps, so a seed spawns the same on
 * every machine, whatever order the worker built the chunks in.
 * Pure: no SDL, no GL; below the game (src/gen/spawn.c, reading cells through the world layer), so tools use
 * it with strata_core alone. Threads: the main thread (it reads cells of live chunks through the shared
 * accessors). */
#ifndef STRATA_SPAWN_H
#define STRATA_SPAWN_H

#include <limits.h>

#include "strata/block.h"
#include "strata/generator.h"
#include "strata/terrain.h"

#define SPAWN_SEARCH_RADIUS 16   /* blocks around the start column */
#define SPAWN_VIEW_RANGE 64      /* blocks a view ray looks at eye level */
#define SPAWN_DIRECTIONS 8       /* view rays, 45 degrees apart */
#define SPAWN_COARSE_RADIUS 160  /* blocks around the generator's coarse spawn that spawn_coarse_start weighs */

typedef struct SpawnChoice {
    int x, z;                    /* the column */
    int y;                       /* the feet's height: the top solid block + 1 */
    float yaw_deg;               /* the direction of the longest view (camera yaw: 0 = -Z, 90 = +X) */
    int view_blocks;             /* how far that view runs (SPAWN_VIEW_RANGE = as far as it looks) */
    int score;
} SpawnChoice;

typedef enum SpawnStatus {
    SPAWN_NOT_READY = -1,        /* a chunk it needs has no final contents yet: ask again later */
    SPAWN_NONE = 0,              /* no column qualifies (all sea, all forest): the caller falls back */
    SPAWN_FOUND = 1
} SpawnStatus;

SpawnStatus spawn_choose(const Terrain *terrain, const BlockRegistry *blocks, int x, int z, SpawnChoice *out);
/* spawn_choose where only the square of `loaded` blocks around (x, z) is loaded (the game's content distance):
 * it waits for the chunks within min(loaded, search + view) and its rays stop at that square's edge, so the
 * answer stays a function of the cells. spawn_choose = loaded INT_MAX. */
SpawnStatus spawn_choose_within(const Terrain *terrain, const BlockRegistry *blocks, int x, int z, int loaded,
                                SpawnChoice *out);

/* Before any chunk exists (spawn_coarse.c): the start column for spawn_choose within SPAWN_COARSE_RADIUS of
 * (x, z), from the generator's pure 2D height and its scatter objects (trees): dry ground on a rise whose
 * eye-level sightlines over the height field run longest, clear of trees, nearer the start when equal. Pure:
 * a function of the generator; falls back to (x, z) where nothing qualifies. */
void spawn_coarse_start(const Generator *g, int x, int z, int *out_x, int *out_z);

#endif
