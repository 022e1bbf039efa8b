/* loading.h — the loading screen's picture: the title, the world's name and seed, a progress bar of the
 * chunks ready and what is being waited for, drawn with renderer_draw_loading instead of the world. The
 * state it shows is the world session's (WorldLoading, world_session_loading.c). Threads: main thread. */
#ifndef STRATA_GAME_LOADING_H
#define STRATA_GAME_LOADING_H

#include "cli.h"
#include "session/world_session.h"
#include "strata/render.h"

void ui_loading_draw(Renderer *renderer, int width, int height, const WorldSession *ws, const CliOptions *opts,
                     const RenderCamera *cam, const RenderFrame *frame);

#endif
