/* player.h — the player: an axis-aligned box that walks with gravity and jumps, or flies, colliding with
 * solid blocks.
 *
 * Physics runs in fixed steps of PLAYER_STEP_SECONDS (the app accumulates frame time), so movement is the
 * same at 5 FPS and at 500. Collision sweeps the box one axis at a time (Y, then X, then Z) against every
 * solid cell the move crosses, clamping the move at the first one: exact, and no tunnelling at any speed
 * a step can reach. Cells of chunks without contents yet (missing, or state < InvalidLight in the main
 * view) count as solid, and the player does not move at all while the chunks around it lack contents.
 * Below y 0 is solid, above y 255 is air. Threads: main thread (reads chunk->state and cells through
 * relaxed atomics, see cell.h). */
#ifndef STRATA_GAME_PLAYER_H
#define STRATA_GAME_PLAYER_H

#include <stdbool.h>
#include "strata/block.h"
#include "strata/chunk.h"
#include "strata/terrain.h"

#define PLAYER_HALF_WIDTH 0.3
#define PLAYER_HEIGHT 1.8
#define PLAYER_EYE_HEIGHT 1.62
#define PLAYER_STEP_SECONDS (1.0 / 60.0)
#define PLAYER_WALK_SPEED 4.3
#define PLAYER_SPRINT_FACTOR 1.3
#define PLAYER_FLY_SPEED 10.0
#define PLAYER_GRAVITY 32.0
#define PLAYER_JUMP_SPEED 9.0       /* about 1.27 blocks high: one block up, not two */
#define PLAYER_TERMINAL_SPEED 60.0
#define PLAYER_SWIM_SPEED 3.5
#define PLAYER_REACH 8.0f           /* dig and place range, blocks */

typedef struct PlayerInput {
    float forward, right, up;  /* -1..1: walk/fly axes; up > 0 flies up (or swims up), up < 0 flies down */
    bool jump;                 /* jump when standing (held: jump again on landing) */
    bool sprint;               /* moving forward runs PLAYER_SPRINT_FACTOR times faster */
} PlayerInput;

typedef struct Player {
    double position[3];        /* feet: the centre of the box's bottom face, world blocks */
    double velocity[3];
    float yaw_deg, pitch_deg;
    bool flying;
    bool on_ground;
    bool in_fluid;
} Player;

void player_init(Player *player, double x, double y, double z);

/* One fixed physics step of `dt` seconds. Returns false (and does not move) while the area around the
 * player has no contents yet. */
bool player_step(Player *player, const PlayerInput *input, const Terrain *terrain, const BlockRegistry *blocks,
                 double dt);

/* true when every chunk touching the box (grown by one block) exists with state >= min_state. */
bool player_area_ready(const Player *player, const Terrain *terrain, ChunkState min_state);

/* true when the box overlaps cell (x, y, z) (touching faces do not count). */
bool player_overlaps_cell(const Player *player, int x, int y, int z);

/* The height the player stands at when dropped onto the ground at its x, z: one above the highest solid
 * cell under the box's footprint (0 if none). -1 when a chunk under the footprint lacks contents. */
int player_ground_height(const Player *player, const Terrain *terrain, const BlockRegistry *blocks);

/* Finds the column nearest (x, z) (Chebyshev rings out to `radius`) whose highest solid-or-fluid cell is
 * natural ground: not a fluid, not a tree trunk or leaves, cactus or pumpkin (plants above it are fine).
 * Writes its coordinates and returns the height to stand at (that cell + 1); -1 when no loaded column
 * (contents present) qualifies. Used to spawn on the ground rather than in a tree top or the sea. */
int player_find_ground_column(const Terrain *terrain, const BlockRegistry *blocks, int x, int z, int radius,
                              int *out_x, int *out_z);

/* Eye position (feet + PLAYER_EYE_HEIGHT). */
void player_eye(const Player *player, double eye[3]);

#endif
