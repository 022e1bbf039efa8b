/* world_session_play.c — the world's side of a frame: the main thread's looks at it (block_at, the eye's
 * medium), the exchange with the update worker, the clock and the light it meshes with, a
 * teleport, and saving (a save, the autosave).
 *
 * Design: the main thread reads cells only through edit_get_cell, which touches chunks whose contents exist
 * (state >= InvalidLight) with a relaxed atomic load: a chunk the worker is still generating is never read.
 * Look
 * settings (brightness, season, sky light) go to the worker, which remeshes nearest first. A save is the
 * chunks (the worker writes them), world.json (after the player and the time are copied into the meta) and
 * the hotbar beside it. */
#include "session/world_session.h"

#include <math.h>
#include <string.h>

#include "daytime.h"
#include "settings.h"
#include "strata/log.h"

#define PLAY_TAG "game"

int world_session_block_at(const WorldSession *ws, int x, int y, int z)
{
    int32_t v = edit_get_cell(ws->terrain, x, y, z);
    return v < 0 ? BLOCK_AIR : cell_contents(v);
}

int world_session_medium_at(const WorldSession *ws, const double eye[3])
{
    int x = (int)floor(eye[0]), y = (int)floor(eye[1]), z = (int)floor(eye[2]);
    if (y < 0 || y >= CHUNK_SIZE_Y) return RENDER_MEDIUM_AIR;
    int id = world_session_block_at(ws, x, y, z);
    const BlockRegistry *b = ws->blocks;
    if (b->shape[id] == BLOCK_SHAPE_FLUID) return b->emission[id] > 0 ? RENDER_MEDIUM_LAVA : RENDER_MEDIUM_WATER;
    if (b->opaque_cube[id]) return RENDER_MEDIUM_SOLID;
    return RENDER_MEDIUM_AIR;
}

static void on_mesh_ready(void *user, TerrainChunk *chunk, ChunkMesh *mesh)
{
    renderer_set_chunk_mesh(user, chunk, mesh);
}

static void on_chunk_released(void *user, TerrainChunk *chunk) { renderer_release_chunk(user, chunk); }

void world_session_exchange(WorldSession *ws, const Player *player, int view_distance, Renderer *renderer)
{
    UpdateLocation loc = {
        .active = true,
        .x = (float)player->position[0],
        .z = (float)player->position[2],
        .visibility_chunks = view_distance,
        .content_chunks = view_distance + 2,
        /* the renderer measures from the eye, over the player: chunks build only the copies it draws them from */
        .viewer = true,
        .far_copy_from = renderer ? renderer_lod_from(renderer) : RENDER_LOD_FROM,
    };
    updater_set_location(ws->updater, 0, &loc);
    UpdaterCallbacks cb = {renderer, on_mesh_ready, on_chunk_released};
    updater_exchange(ws->updater, &cb);
}

void world_session_advance(WorldSession *ws, double dt, bool stopped)
{
    if (!stopped) ws->meta.game_time += dt;
    if (!ws->time_frozen && !stopped) ws->time_of_day = daytime_advance(ws->time_of_day, dt);
    int sky = daytime_sky_light(ws->time_of_day);
    if (sky != ws->sky_light) {
        ws->sky_light = sky;
        updater_set_sky_light(ws->updater, sky);
    }
}

void world_session_set_time(WorldSession *ws, double time_of_day)
{
    ws->time_of_day = daytime_wrap(time_of_day);
    ws->time_frozen = true;
}

void world_session_set_brightness(WorldSession *ws, float brightness)
{
    if (brightness < 0.0f) brightness = 0.0f;
    if (brightness > 1.0f) brightness = 1.0f;
    ws->brightness = brightness;
    updater_set_brightness(ws->updater, brightness);
    log_info(PLAY_TAG, "brightness %.2f", brightness);
}

void world_session_set_season(WorldSession *ws, int season)
{
    if (settings_season_parse(settings_season_name(season)) < 0) return;
    ws->season = season;
    updater_set_season(ws->updater, season);
    log_info(PLAY_TAG, "season %s", settings_season_name(season));
}

void world_session_teleport(WorldSession *ws, Player *player, double x, double y, double z)
{
    player->position[0] = x;
    player->position[1] = y;
    player->position[2] = z;
    player->velocity[0] = player->velocity[1] = player->velocity[2] = 0.0;
    ws->spawn_pending = false;
    const TerrainChunk *c = terrain_get_chunk_at_cell(ws->terrain, (int)floor(x), (int)floor(z));
    if (!c || c->state != CHUNK_STATE_VALID) world_session_loading_begin(ws, "teleport");
}

void world_session_sync_meta(WorldSession *ws, const Player *player)
{
    WorldMeta *m = &ws->meta;
    memcpy(m->player_position, player->position, sizeof m->player_position);
    m->player_yaw = player->yaw_deg;
    m->player_pitch = player->pitch_deg;
    m->player_flying = player->flying;
    m->time_of_day = ws->time_of_day;
}

StResult world_session_save_game(WorldSession *ws, const Player *player, const Hotbar *hotbar)
{
    if (!ws->serializer || ws->read_only) return ST_OK;
    world_session_sync_meta(ws, player);
    StResult rc = world_session_save_all(ws);
    if (rc != ST_OK) return rc;
    return hotbar_save(ws->dir, ws->blocks, hotbar);
}

void world_session_autosave(WorldSession *ws, const Player *player, const Hotbar *hotbar, double dt, double seconds)
{
    if (!ws->serializer || ws->read_only || seconds <= 0) return;
    ws->autosave_timer += dt;
    if (ws->autosave_timer < seconds) return;
    ws->autosave_timer = 0.0;
    updater_request_autosave(ws->updater);
    world_session_sync_meta(ws, player);
    if (world_session_save_meta(ws) != ST_OK || hotbar_save(ws->dir, ws->blocks, hotbar) != ST_OK)
        log_error(PLAY_TAG, "autosave: %s", st_error_message());
}
