/* loading.c — the loading screen: from launch (and after a far teleport) until every chunk within the view
 * distance is Valid and uploaded.
 *
 * Design: while loading, the app draws no world (renderer_draw_loading: uploads, a clear and a few quads),
 * takes no input but quit and resize, steps no physics and stops the clock, and paces its frames to
 * LOADING_FRAME_SECONDS so the update worker has the CPU. The frame's uploads get a generous time budget,
 * since nothing else is drawn. When the world is ready, every fade-in ends (renderer_end_fades): the first
 * view appears whole; chunks streaming in later still fade in. The time from launch (app_create's first
 * line) to ready is logged in seconds with its parts, for players and for strata-bench's game_ready_ms. */
#include "app.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strata/log.h"

#define LOADING_TAG "game"

static double seconds_since(Uint64 start)
{
    return (double)(SDL_GetPerformanceCounter() - start) / (double)SDL_GetPerformanceFrequency();
}

void app_loading_begin(App *app, const char *reason)
{
    if (app->loading.active) return;
    app->loading.active = true;
    app->loading.started = SDL_GetPerformanceCounter();
    app->loading.valid_seconds = -1.0;
    snprintf(app->loading.reason, sizeof app->loading.reason, "%s", reason);
    log_info(LOADING_TAG, "loading (%s)", reason);
}

/* Counts the chunks of the view square around the player that are Valid with their mesh uploaded. */
static void loading_count(App *app, int *ready, int *needed)
{
    int r = app->opts.view_distance;
    int px = chunk_coord_of((int)floor(app->player.position[0]));
    int pz = chunk_coord_of((int)floor(app->player.position[2]));
    int n = 0;
    for (int cz = pz - r; cz <= pz + r; cz++)
        for (int cx = px - r; cx <= px + r; cx++) {
            const TerrainChunk *c = terrain_get_chunk(app->world.terrain, cx, cz);
            if (c && c->state == CHUNK_STATE_VALID && renderer_chunk_uploaded(app->renderer, cx, cz)) n++;
        }
    *ready = n;
    *needed = (2 * r + 1) * (2 * r + 1);
}

void app_loading_update(App *app)
{
    AppLoading *l = &app->loading;
    if (!l->active) return;
    loading_count(app, &l->ready, &l->needed);
    if (l->valid_seconds < 0.0 && !app->pending_spawn && updater_is_ready(app->world.updater, 0))
        l->valid_seconds = seconds_since(l->started);
    if (!app_world_ready(app)) return;
    l->active = false;
    renderer_end_fades(app->renderer);
    app_check_storage(app);   /* what loading the world's files found is shown as the world appears */
    double total = seconds_since(l->started);
    if (!app->first_load_done) {
        app->first_load_done = true;
        double launch = seconds_since(app->launch_counter);
        log_info(LOADING_TAG,
                 "launch to ready: %.2f s (window and renderer %.2f s, chunks valid after %.2f s, uploaded after "
                 "%.2f s; %d chunks, %ld frames)",
                 launch, app->startup_seconds, l->valid_seconds, launch, l->needed,
                 app->frame_index);
    } else {
        log_info(LOADING_TAG, "%s: ready after %.2f s (%d chunks)", l->reason, total, l->needed);
    }
}

/* ---- the screen ---- */

#define LOADING_BACKDROP_R 0.055f
#define LOADING_BACKDROP_G 0.065f
#define LOADING_BACKDROP_B 0.085f

static void text_centered(Renderer *r, float cx, float y, float scale, uint32_t rgba, const char *text)
{
    float w = renderer_ui_text_width(r, scale, text);
    renderer_ui_text(r, floorf(cx - w * 0.5f), y, scale, rgba, text);
}

void app_loading_draw(App *app, const RenderCamera *cam, const RenderFrame *frame)
{
    Renderer *r = app->renderer;
    const AppLoading *l = &app->loading;
    float w = (float)app->drawable_w, h = (float)app->drawable_h;
    float s = fmaxf(1.0f, floorf(h / 360.0f));   /* one UI pixel in framebuffer pixels */
    float cx = w * 0.5f, y = h * 0.30f;

    text_centered(r, cx, y, s * 3.0f, 0xF0F0F0FF, "STRATA");
    y += renderer_ui_text_height(r, s * 3.0f) + s * 12.0f;

    char line[320];
    const char *name = app->world.serializer ? strrchr(app->world.dir, '/') : NULL;
    name = name ? name + 1 : app->world.serializer ? app->world.dir : "unsaved world";
    snprintf(line, sizeof line, "%.200s", name);
    text_centered(r, cx, y, s * 2.0f, 0xE0E0E0FF, line);
    y += renderer_ui_text_height(r, s * 2.0f) + s * 6.0f;
    uint64_t seed = app->world.meta.settings.seed;
    const char *text = app->opts.seed_given ? app->opts.seed_text : NULL;
    char *end = NULL;
    if (text && text[0]) (void)strtoll(text, &end, 10);
    if (text && text[0] && *end != 0)
        snprintf(line, sizeof line, "seed \"%.200s\" (%" PRIu64 ")", text, seed);
    else
        snprintf(line, sizeof line, "seed %" PRId64, (int64_t)seed);
    text_centered(r, cx, y, s * 2.0f, 0xA8B0BCFF, line);
    y += renderer_ui_text_height(r, s * 2.0f) + s * 16.0f;

    /* The bar: a dark trough with a light rim and a green fill. */
    float bw = fminf(w * 0.6f, s * 300.0f), bh = s * 8.0f, bx = floorf(cx - bw * 0.5f);
    float f = l->needed > 0 ? (float)l->ready / (float)l->needed : 0.0f;
    renderer_ui_rect(r, bx - s, y - s, bw + 2.0f * s, bh + 2.0f * s, 0x8890A0FF);
    renderer_ui_rect(r, bx, y, bw, bh, 0x1A1D24FF);
    renderer_ui_rect(r, bx, y, floorf(bw * f), bh, 0x5DBB4AFF);
    y += bh + s * 8.0f;
    snprintf(line, sizeof line, "%s: %d / %d chunks", app->pending_spawn ? "Finding a place to stand" : "Building terrain",
             l->ready, l->needed);
    text_centered(r, cx, y, s * 2.0f, 0xC8C8C8FF, line);

    const float backdrop[3] = {LOADING_BACKDROP_R, LOADING_BACKDROP_G, LOADING_BACKDROP_B};
    renderer_draw_loading(r, cam, frame, backdrop);
}
