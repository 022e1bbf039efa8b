/* hud.c — HUD text. Design: the game gathers numbers into a HudInfo each frame and this file alone
 * decides wording and layout, so the format is unit-testable and the app holds no string code. */
#include "hud.h"

#include <math.h>
#include <stdio.h>

#include "camera.h"
#include "daytime.h"
#include "strata/serializer.h"

void fps_meter_add(FpsMeter *meter, double frame_seconds)
{
    if (frame_seconds <= 0.0) return;
    if (meter->average_seconds <= 0.0) meter->average_seconds = frame_seconds;
    else meter->average_seconds += (frame_seconds - meter->average_seconds) * 0.05;
}

float fps_meter_fps(const FpsMeter *meter)
{
    return meter->average_seconds > 0.0 ? (float)(1.0 / meter->average_seconds) : 0.0f;
}

void hud_compose(const HudInfo *in, HudLines *out)
{
    int n = 0;
    char clock[8];
    daytime_format_clock(in->time_of_day, clock, sizeof clock);
    snprintf(out->text[n++], HUD_LINE_MAX, "Strata %s  %.1f FPS", STRATA_VERSION, in->fps);
    snprintf(out->text[n++], HUD_LINE_MAX, "Position %.2f %.2f %.2f  chunk %d,%d%s", in->position[0], in->position[1],
             in->position[2], (int)floor(in->position[0] / 16.0),
             (int)floor(in->position[2] / 16.0),
             in->flying ? "  flying" : "");
    snprintf(out->text[n++], HUD_LINE_MAX, "Facing %s  yaw %.1f pitch %.1f", camera_compass(in->yaw_deg),
             camera_wrap_yaw(in->yaw_deg), in->pitch_deg);
    char pool[48] = "";  /* the update worker's job pool: threads, steps waiting for one, steps running */
    if (in->worker_threads > 0)
        snprintf(pool, sizeof pool, "  pool %d: %d queued %d busy", in->worker_threads, in->jobs_queued, in->jobs_busy);
    int chunks_len = snprintf(out->text[n++], HUD_LINE_MAX, "Chunks %d/%d/%d alloc/valid/drawn  %ldk tris  %d calls%s",
                              in->chunks_allocated, in->chunks_valid, in->chunks_drawn, (in->triangles + 500) / 1000,
                              in->draw_calls, pool);
    (void)chunks_len;   /* a line past HUD_LINE_MAX is cut there, like the others (and -O0 builds see it may be) */
    char tool[64] = "";
    if (in->tool)
        snprintf(tool, sizeof tool, "  tool %s r%d  undo %d%s", in->tool, in->tool_radius, in->undo_entries,
                 in->history_full ? " (history full: oldest dropped)" : "");
    if (in->selected_slot > 0)
        snprintf(out->text[n++], HUD_LINE_MAX, "Block [%d] %s%s", in->selected_slot,
                 in->selected_block ? in->selected_block : "?", tool);
    else
        snprintf(out->text[n++], HUD_LINE_MAX, "Block %s%s", in->selected_block ? in->selected_block : "?", tool);
    snprintf(out->text[n++], HUD_LINE_MAX, "Time %s  sky light %d  brightness %.2f  %s", clock, in->sky_light,
             in->brightness, in->season ? in->season : "?");
    if (in->rss_mb > 0)
        snprintf(out->text[n++], HUD_LINE_MAX, "Memory %.0f MB  chunk cells %.1f MB (%.1f KB/chunk, %d hot)",
                 in->rss_mb, in->chunks_mb,
                 in->chunks_allocated > 0 ? in->chunks_mb * 1024.0 / in->chunks_allocated : 0.0, in->hot_chunks);
    if (in->has_target)
        snprintf(out->text[n++], HUD_LINE_MAX, "Looking at %s  %d %d %d", in->target_block ? in->target_block : "?",
                 in->target[0], in->target[1], in->target[2]);
    if (in->has_target && in->examine && n < HUD_MAX_LINES)
        snprintf(out->text[n++], HUD_LINE_MAX, "%s", in->examine);
    out->count = n;
}

void hud_format_title(const HudInfo *in, char *out, unsigned size)
{
    snprintf(out, size, "Strata - %.0f FPS - %.1f %.1f %.1f", in->fps, in->position[0], in->position[1],
             in->position[2]);
}

bool hud_compose_storage_notice(const SerializerStats *before, const SerializerStats *now, char *out, unsigned size)
{
    const RegionRepairs *a = &before->repairs, *b = &now->repairs;
    int rolled = b->rolled_forward - a->rolled_forward;
    int damaged = (b->bad_entries - a->bad_entries) + (int)(now->load_errors - before->load_errors);
    int regions = b->damaged_regions - a->damaged_regions;
    int uncertain = b->uncertain - a->uncertain;
    long io = now->load_io_errors - before->load_io_errors;
    out[0] = 0;
    if (regions > 0)
        snprintf(out, size, "World files: region %d,%d is damaged: its chunks are regenerated and the file is kept "
                 "(strata-world recover can restore intact chunks)", b->last_rx, b->last_rz);
    else if (damaged > 0)
        snprintf(out, size, "World files: %d damaged chunk%s regenerated; the damaged copies are kept "
                 "(strata-world verify lists them)", damaged, damaged == 1 ? "" : "s");
    else if (io > 0)
        snprintf(out, size, "World files: %ld chunk%s could not be read (I/O error): retrying, nothing is written "
                 "over them", io, io == 1 ? "" : "s");
    else if (rolled > 0)
        snprintf(out, size, "World files: %d chunk%s in region %d,%d recovered from an interrupted save "
                 "(rolled forward: nothing lost)", rolled, rolled == 1 ? "" : "s", b->last_rx, b->last_rz);
    else if (uncertain > 0)
        snprintf(out, size, "World files: %d chunk%s in region %d,%d had two copies of unknown age: the directory's is "
                 "used, both are kept", uncertain, uncertain == 1 ? "" : "s", b->last_rx, b->last_rz);
    return out[0] != 0;
}
