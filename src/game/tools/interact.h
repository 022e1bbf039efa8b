/* interact.h — what the player's hands do to the world: find the block under the crosshair, dig it, place a
 * block onto its face.
 *
 * The calls take only what they touch (the world's Terrain, update worker and block registry, the renderer
 * to mark remeshed chunks, and the player), never the App. A change goes through edit_change_cell, which
 * downgrades the neighbourhood so the update worker relights and remeshes it.
 * Threads: main thread only. */
#ifndef STRATA_GAME_INTERACT_H
#define STRATA_GAME_INTERACT_H

#include <stdbool.h>

#include "player.h"
#include "strata/block.h"
#include "strata/edit.h"
#include "strata/render.h"
#include "strata/terrain.h"
#include "strata/update.h"

typedef struct Interaction {
    Terrain *terrain;
    TerrainUpdater *updater;
    const BlockRegistry *blocks;
    Renderer *renderer;           /* told which chunks an edit remeshes; may be NULL */
    Editor *editor;               /* changes go through it (history, behaviours, particles) */
} Interaction;

/* The block under the crosshair within PLAYER_REACH; false when there is none. */
bool interact_find_target(const Interaction *world, const Player *player, RaycastHit *hit);
/* Digs the targeted block (never bedrock). false when nothing was dug. */
bool interact_dig(const Interaction *world, const Player *player);
/* Places `block` onto the targeted face; refuses a solid block overlapping the player, any block in the cell
 * of the eye, and cells outside y 0..255. false when nothing was placed. */
bool interact_place(const Interaction *world, const Player *player, int block);

#endif
