/* world_session_spawn.c — where a new world's player first stands.
 *
 * Design: a new world starts the player at the generator's coarse spawn, a little above the surface, hovering
 * (ws->spawn_pending, on the loading screen) until the chunks around it have their contents; then spawn.h
 * chooses open ground with a view and the player faces the view. Where there is none (all sea, all forest):
 * natural ground within WORLD_SPAWN_SEARCH_RADIUS blocks, else the highest solid block under the player. */
#include "session/world_session.h"

#include <math.h>

#include "strata/spawn.h"
#include "strata/log.h"

void world_session_place_spawn(WorldSession *ws, Player *player, int view_distance)
{
    if (!ws->spawn_pending) return;
    const Terrain *t = ws->terrain;
    int x = (int)floor(player->position[0]), z = (int)floor(player->position[2]);
    SpawnChoice choice;
    SpawnStatus status = spawn_choose_within(t, ws->blocks, x, z, (view_distance + 1) * 16, &choice);
    if (status == SPAWN_NOT_READY) return;
    int ground;
    if (status == SPAWN_FOUND) {
        player->position[0] = choice.x + 0.5;
        player->position[2] = choice.z + 0.5;
        player->yaw_deg = choice.yaw_deg;
        player->pitch_deg = WORLD_SPAWN_PITCH_DEG;
        ground = choice.y;
    } else {
        int gx, gz;
        ground = player_find_ground_column(t, ws->blocks, x, z, WORLD_SPAWN_SEARCH_RADIUS, &gx, &gz);
        if (ground >= 0) {
            player->position[0] = gx + 0.5;
            player->position[2] = gz + 0.5;
        } else {
            ground = player_ground_height(player, t, ws->blocks);
            if (ground < 0) return;
        }
    }
    player->position[1] = ground;
    player->velocity[0] = player->velocity[1] = player->velocity[2] = 0.0;
    ws->spawn_pending = false;
    log_info("game", "spawned at %.1f %.1f %.1f facing %.0f (view %d blocks)", player->position[0],
             player->position[1], player->position[2], player->yaw_deg, status == SPAWN_FOUND ? choice.view_blocks : 0);
}
