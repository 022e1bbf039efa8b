/* hud.h — the HUD's text: FPS (smoothed), position, chunk counts, selected block, time; and the window
 * title. Pure text composition (the renderer draws the lines). Threads: main thread. */
#ifndef STRATA_GAME_HUD_H
#define STRATA_GAME_HUD_H

#include <stdbool.h>

#define HUD_MAX_LINES 9   /* 6 fixed, memory, target, examine */
#define HUD_LINE_MAX 96

typedef struct HudInfo {
    float fps;
    double position[3];          /* feet */
    float yaw_deg, pitch_deg;
    bool flying;
    int chunks_allocated, chunks_valid, chunks_drawn;
    long triangles;
    int draw_calls;               /* GL draw calls of the frame (terrain passes and far terrain) */
    const char *selected_block;
    int selected_slot;           /* 1-based hotbar slot, 0 if none */
    float time_of_day;
    int sky_light;
    float brightness;            /* 0..1 */
    const char *season;          /* "summer", or NULL */
    bool has_target;             /* a block under the crosshair within reach */
    int target[3];
    const char *target_block;
    double rss_mb;               /* process resident memory; <= 0: unknown (no memory line) */
    double chunks_mb;            /* cells of all loaded chunks (sections, scratches, the chunk structs) */
    int hot_chunks;              /* chunks unpacked for the update worker */
    int worker_threads;          /* threads running the update worker's steps; 0: no worker line */
    int jobs_queued, jobs_busy;  /* its job pool: steps waiting for a thread, steps running */
    const char *examine;         /* the examine text of a station under the crosshair, or NULL */
    const char *tool;            /* editing tool name, or NULL */
    int tool_radius;
    int undo_entries;
    bool history_full;           /* the history dropped old entries recently */
} HudInfo;

typedef struct HudLines {
    char text[HUD_MAX_LINES][HUD_LINE_MAX];
    int count;
} HudLines;

/* Smoothed frames per second: an exponential moving average of frame time. */
typedef struct FpsMeter {
    double average_seconds;
} FpsMeter;

void fps_meter_add(FpsMeter *meter, double frame_seconds);
float fps_meter_fps(const FpsMeter *meter);

void hud_compose(const HudInfo *info, HudLines *out);
/* "Strata - 60 FPS - 12.5 70.0 -3.2" */
/* The on-screen notice for what the world's files told since the last check: `before` and `now` are the
 * serializer's counters (serializer.h). Writes a sentence for the player and returns true when anything new
 * happened (rolled-forward chunks, damaged chunks or region files, read errors); false leaves `out` empty. */
typedef struct SerializerStats SerializerStats;
bool hud_compose_storage_notice(const SerializerStats *before, const SerializerStats *now, char *out, unsigned size);

void hud_format_title(const HudInfo *info, char *out, unsigned size);

#endif
