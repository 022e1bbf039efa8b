/* loading.c — the loading screen: from launch (and after a far teleport) until every chunk within the view
 * distance is Valid and uploaded.
 *
 * Design: while loading, the app draws no world (renderer_draw_loading: uploads, a clear and a few quads)
 * and paces its frames to APP_LOADING_FRAME_SECONDS (a few a second) so the chunks' threads have the CPU,
 * polling the world in between (app_wait_loading: exchange and uploads, so no chunk waits for a frame); the
 * frame's uploads get a generous time budget, since nothing else is drawn. The state (since when, how many
 * chunks, why) and its end are the world session's (world_session_loading.c); this file only draws it, from
 * one UI pixel of height / 360 framebuffer pixels. */
#include "ui/loading.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* ---- the screen ---- */

#define LOADING_BACKDROP_R 0.055f
#define LOADING_BACKDROP_G 0.065f
#define LOADING_BACKDROP_B 0.085f

static void text_centered(Renderer *r, float cx, float y, float scale, uint32_t rgba, const char *text)
{
    float w = renderer_ui_text_width(r, scale, text);
    renderer_ui_text(r, floorf(cx - w * 0.5f), y, scale, rgba, text);
}

void ui_loading_draw(Renderer *r, int width, int height, const WorldSession *ws, const CliOptions *opts,
                     const RenderCamera *cam, const RenderFrame *frame)
{
    const WorldLoading *l = &ws->loading;
    float w = (float)width, h = (float)height;
    float s = fmaxf(1.0f, floorf(h / 360.0f));   /* one UI pixel in framebuffer pixels */
    float cx = w * 0.5f, y = h * 0.30f;

    text_centered(r, cx, y, s * 3.0f, 0xF0F0F0FF, "STRATA");
    y += renderer_ui_text_height(r, s * 3.0f) + s * 12.0f;

    char line[320];
    const char *name = ws->serializer ? strrchr(ws->dir, '/') : NULL;
    name = name ? name + 1 : ws->serializer ? ws->dir : "unsaved world";
    snprintf(line, sizeof line, "%.200s", name);
    text_centered(r, cx, y, s * 2.0f, 0xE0E0E0FF, line);
    y += renderer_ui_text_height(r, s * 2.0f) + s * 6.0f;
    uint64_t seed = ws->meta.settings.seed;
    const char *text = opts->seed_given ? opts->seed_text : NULL;
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
    snprintf(line, sizeof line, "%s: %d / %d chunks", ws->spawn_pending ? "Finding a place to stand" : "Building terrain",
             l->ready, l->needed);
    text_centered(r, cx, y, s * 2.0f, 0xC8C8C8FF, line);

    const float backdrop[3] = {LOADING_BACKDROP_R, LOADING_BACKDROP_G, LOADING_BACKDROP_B};
    renderer_draw_loading(r, cam, frame, backdrop);
}
