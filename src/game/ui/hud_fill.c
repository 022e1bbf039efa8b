/* hud_fill.c — what the overlay shows: the F3 HUD's facts (position, chunks, memory, the targeted station's
 * examine line), gathered from the game's parts (hud_fill.h).
 *
 * Design: memory is sampled at most once a second (VmRSS from /proc, chunk cells from the Terrain under each
 * chunk's cell lock), and the world files' counters are checked at the same pace. */
#include "ui/hud_fill.h"

#include <SDL.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "session/game_structures.h"
#include "settings.h"

/* VmRSS of this process in MB, or -1 (Linux /proc). */
static double hud_rss_mb(void)
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
static void hud_sample_memory(GameUi *ui, const WorldSession *ws, int hot_now)
{
    Uint32 now = SDL_GetTicks();
    /* at once, too, when the last hot chunk was packed (a loading world turning ready) */
    bool settled = hot_now == 0 && ui->memory_hot_sampled > 0;
    if (ui->memory_sampled_ms && now - ui->memory_sampled_ms < 1000 && !settled) return;
    ui->memory_hot_sampled = hot_now;
    ui->memory_sampled_ms = now ? now : 1;
    ui->memory_rss_mb = hud_rss_mb();
    size_t bytes = 0;
    const Terrain *t = ws->terrain;
    for (int i = 0, n = t ? terrain_chunk_count(t) : 0; i < n; i++) bytes += chunk_resident_bytes(terrain_chunk_at(t, i), NULL);
    ui->memory_chunks_mb = (double)bytes / (1024.0 * 1024.0);
    game_ui_check_storage(ui, ws);
}

void hud_fill_info(HudInfo *hud, GameUi *ui, const WorldSession *ws, const Player *player, const GameTools *tools,
                   Renderer *renderer, float fps)
{
    UpdaterStats us;
    updater_get_stats(ws->updater, &us);
    RenderStats rs;
    renderer_get_stats(renderer, &rs);
    const BlockRegistry *b = ws->blocks;
    memset(hud, 0, sizeof *hud);
    hud->fps = fps;
    memcpy(hud->position, player->position, sizeof hud->position);
    hud->yaw_deg = player->yaw_deg;
    hud->pitch_deg = player->pitch_deg;
    hud->flying = player->flying;
    hud->chunks_allocated = us.allocated;
    hud->chunks_valid = us.valid;
    hud->chunks_drawn = rs.chunks_drawn;
    hud->triangles = rs.triangles_drawn;
    hud->draw_calls = rs.draw_calls;
    int selected = hotbar_block(&tools->hotbar);
    hud->selected_block = block_is_defined(b, selected) ? b->defs[selected].name : NULL;
    hud->selected_slot = tools->hotbar.selected + 1;
    hud->time_of_day = ws->time_of_day;
    hud->sky_light = ws->sky_light;
    hud->brightness = ws->brightness;
    hud->season = settings_season_name(ws->season);
    hud->has_target = tools->has_target;
    if (tools->has_target) {
        const RaycastHit *t = &tools->target;
        hud->target[0] = t->x;
        hud->target[1] = t->y;
        hud->target[2] = t->z;
        int id = cell_contents(t->value);
        hud->target_block = block_is_defined(b, id) ? b->defs[id].name : NULL;
        hud->examine = game_structures_examine(ws->structures, t->x, t->y, t->z, t->value);
    }
    hud_sample_memory(ui, ws, us.chunks_hot);
    hud->rss_mb = ui->memory_rss_mb;
    hud->chunks_mb = ui->memory_chunks_mb;
    /* the hot count as of the last exchange (the once-a-second walk's could be a second old: at the first
     * ready frame it still read ~190 hot chunks of the loading world when none was left) */
    hud->hot_chunks = us.chunks_hot;
    hud->worker_threads = us.threads;
    hud->jobs_queued = us.jobs_queued;
    hud->jobs_busy = us.jobs_busy;
    EditorStats es;
    editor_get_stats(ws->editor, &es);
    hud->tool = game_tools_name(tools->tool);
    hud->tool_radius = tools->radius;
    hud->undo_entries = es.undo_entries;
    hud->history_full = tools->history_notice_seconds > 0.0;
}
