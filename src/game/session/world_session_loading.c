/* world_session_loading.c — whether the world is there yet: ready, settled, and the loading state from launch
 * (and after a far teleport) until every chunk within the view distance is Valid and uploaded.
 *
 * Design: "ready" is the worker's view (every chunk of the view square Valid, the spawn placed) plus the
 * renderer's (no upload pending); "settled" adds no loading screen and no fade-in: what a script's wait_ready
 * and the bench wait for. While loading, the app draws no world, takes no input but quit and resize, steps no
 * physics and stops the clock (ui/loading.c draws the screen). When the world is ready, every fade-in ends
 * (renderer_end_fades): the first view appears whole; chunks streaming in later still fade in. The time from
 * launch (app_create's first line) to ready is logged in seconds with its parts, for players and for
 * strata-bench's game_ready_ms. */
#include "session/world_session.h"

#include <math.h>
#include <stdio.h>

#include <SDL.h>

#include "strata/log.h"

#define LOADING_TAG "game"

static double seconds_since(uint64_t start)
{
    return (double)(SDL_GetPerformanceCounter() - start) / (double)SDL_GetPerformanceFrequency();
}

bool world_session_ready(const WorldSession *ws, Renderer *renderer)
{
    if (ws->spawn_pending) return false;
    if (!updater_is_ready(ws->updater, 0)) return false;
    RenderStats rs;
    renderer_get_stats(renderer, &rs);
    return rs.uploads_pending == 0;
}

bool world_session_settled(const WorldSession *ws, Renderer *renderer)
{
    if (ws->loading.active || !world_session_ready(ws, renderer)) return false;
    RenderStats rs;
    renderer_get_stats(renderer, &rs);
    return rs.chunks_fading == 0;
}

void world_session_loading_begin(WorldSession *ws, const char *reason)
{
    WorldLoading *l = &ws->loading;
    if (l->active) return;
    l->active = true;
    l->started = SDL_GetPerformanceCounter();
    l->valid_seconds = -1.0;
    snprintf(l->reason, sizeof l->reason, "%s", reason);
    log_info(LOADING_TAG, "loading (%s)", reason);
}

/* Counts the chunks of the view square around the player that are Valid with their mesh uploaded. */
static void loading_count(const WorldSession *ws, Renderer *renderer, const Player *player, int r, int *ready,
                          int *needed)
{
    int px = chunk_coord_of((int)floor(player->position[0]));
    int pz = chunk_coord_of((int)floor(player->position[2]));
    int n = 0;
    for (int cz = pz - r; cz <= pz + r; cz++)
        for (int cx = px - r; cx <= px + r; cx++) {
            const TerrainChunk *c = terrain_get_chunk(ws->terrain, cx, cz);
            if (c && c->state == CHUNK_STATE_VALID && renderer_chunk_uploaded(renderer, cx, cz)) n++;
        }
    *ready = n;
    *needed = (2 * r + 1) * (2 * r + 1);
}

bool world_session_loading_update(WorldSession *ws, Renderer *renderer, const Player *player, int view_distance,
                                  long frame_index)
{
    WorldLoading *l = &ws->loading;
    if (!l->active) return false;
    loading_count(ws, renderer, player, view_distance, &l->ready, &l->needed);
    if (l->valid_seconds < 0.0 && !ws->spawn_pending && updater_is_ready(ws->updater, 0))
        l->valid_seconds = seconds_since(l->started);
    if (!world_session_ready(ws, renderer)) return false;
    l->active = false;
    renderer_end_fades(renderer);
    double total = seconds_since(l->started);
    if (!l->first_load_done) {
        l->first_load_done = true;
        double launch = seconds_since(l->launch_counter);
        log_info(LOADING_TAG,
                 "launch to ready: %.2f s (window and renderer %.2f s, chunks valid after %.2f s, uploaded after "
                 "%.2f s; %d chunks, %ld frames)",
                 launch, l->startup_seconds, l->valid_seconds, launch, l->needed, frame_index);
    } else {
        log_info(LOADING_TAG, "%s: ready after %.2f s (%d chunks)", l->reason, total, l->needed);
    }
    return true;
}
