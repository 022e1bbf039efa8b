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

#include "strata/block.h"
#include "strata/terrain.h"

#define SPAWN_SEARCH_RADIUS 16   /* blocks around the start column */
#define SPAWN_VIEW_RANGE 24      /* blocks a view ray looks at eye level */
#define SPAWN_DIRECTIONS 8       /* view rays, 45 degrees apart */

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

#endif
