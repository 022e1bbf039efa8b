/* app_hud.c — what the overlay shows and what the eye is in: the F3 HUD's text (position, chunks, memory,
 * the targeted station's examine line) and the medium around the camera (air, water, lava, a solid block).
 *
 * Design: memory is sampled at most every few frames (VmRSS from /proc, chunk cells from the Terrain); the
 * world is read only through app_block_at, never a chunk the worker is generating. */
#include "app.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "settings.h"
#include "strata/log.h"

/* VmRSS of this process in MB, or -1 (Linux /proc). */
static double app_rss_mb(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (!f) return -1;
    char line[256];
    double mb = -1;
    long kb;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "VmRSS: %ld kB", &kb) == 1) {
            mb = (double)kb / 1024.0;
            break;
        }
    fclose(f);
    return mb;
}

/* F3's memory figures, once a second: the sum walks every chunk under its cell lock. */
static void app_sample_memory(App *app)
{
    Uint32 now = SDL_GetTicks();
    if (app->memory_sampled_ms && now - app->memory_sampled_ms < 1000) return;
    app->memory_sampled_ms = now ? now : 1;
    app->memory_rss_mb = app_rss_mb();
    size_t bytes = 0;
    int hot = 0;
    const Terrain *t = app->world.terrain;
    for (int i = 0, n = t ? terrain_chunk_count(t) : 0; i < n; i++) {
        size_t b = chunk_resident_bytes(terrain_chunk_at(t, i), NULL);
        bytes += b;
        hot += b >= sizeof(int32_t) * CHUNK_CELLS;
    }
    app->memory_chunks_mb = (double)bytes / (1024.0 * 1024.0);
    app->memory_hot_chunks = hot;
    app_check_storage(app);
}

/* Once a second: anything new from the world's files becomes an on-screen notice for 12 s (and a log line). */
void app_check_storage(App *app)
{
    if (!app->world.serializer) return;
    SerializerStats now;
    serializer_get_stats(app->world.serializer, &now);
    char text[sizeof app->storage_notice];
    if (hud_compose_storage_notice(&app->storage_seen, &now, text, sizeof text)) {
        snprintf(app->storage_notice, sizeof app->storage_notice, "%s", text);
        app->storage_notice_seconds = 12.0;
        log_warn("game", "%s", text);
    }
    app->storage_seen = now;
}

void app_fill_hud(App *app, HudInfo *hud)
{
    UpdaterStats us;
    updater_get_stats(app->world.updater, &us);
    RenderStats rs;
    renderer_get_stats(app->renderer, &rs);
    const BlockRegistry *b = app->world.blocks;
    memset(hud, 0, sizeof *hud);
    hud->fps = fps_meter_fps(&app->fps);
    memcpy(hud->position, app->player.position, sizeof hud->position);
    hud->yaw_deg = app->player.yaw_deg;
    hud->pitch_deg = app->player.pitch_deg;
    hud->flying = app->player.flying;
    hud->chunks_allocated = us.allocated;
    hud->chunks_valid = us.valid;
    hud->chunks_drawn = rs.chunks_drawn;
    hud->triangles = rs.triangles_drawn;
    hud->draw_calls = rs.draw_calls;
    int selected = hotbar_block(&app->hotbar);
    hud->selected_block = block_is_defined(b, selected) ? b->defs[selected].name : NULL;
    hud->selected_slot = app->hotbar.selected + 1;
    hud->time_of_day = app->time_of_day;
    hud->sky_light = app->sky_light;
    hud->brightness = app->brightness;
    hud->season = settings_season_name(app->season);
    hud->has_target = app->has_target;
    if (app->has_target) {
        hud->target[0] = app->target.x;
        hud->target[1] = app->target.y;
        hud->target[2] = app->target.z;
        int id = cell_contents(app->target.value);
        hud->target_block = block_is_defined(b, id) ? b->defs[id].name : NULL;
        hud->examine = app_station_examine(app, app->target.x, app->target.y, app->target.z, app->target.value);
    }
    app_sample_memory(app);
    hud->rss_mb = app->memory_rss_mb;
    hud->chunks_mb = app->memory_chunks_mb;
    hud->hot_chunks = app->memory_hot_chunks;
    EditorStats es;
    editor_get_stats(app->world.editor, &es);
    hud->tool = app_tool_name(app->tool);
    hud->tool_radius = app->tool_radius;
    hud->undo_entries = es.undo_entries;
    hud->history_full = app->history_notice_seconds > 0.0;
}

/* What the eye is inside: water, lava (a glowing fluid), an opaque block, or air. */
int app_eye_medium(const App *app, const double eye[3])
{
    int x = (int)floor(eye[0]), y = (int)floor(eye[1]), z = (int)floor(eye[2]);
    if (y < 0 || y >= CHUNK_SIZE_Y) return RENDER_MEDIUM_AIR;
    int id = app_block_at(app, x, y, z);
    const BlockRegistry *b = app->world.blocks;
    if (b->shape[id] == BLOCK_SHAPE_FLUID) return b->emission[id] > 0 ? RENDER_MEDIUM_LAVA : RENDER_MEDIUM_WATER;
    if (b->opaque_cube[id]) return RENDER_MEDIUM_SOLID;
    return RENDER_MEDIUM_AIR;
}