/* game_view.h — what the player sees: the window and its GL 3.3 core context, the renderer, the far terrain
 * beyond the voxel chunks, the biome fog, and the screenshots asked for. One GameView per game.
 *
 * Lifetime, in this order: open_window (SDL, the window, the context), start_renderer, start_far (only with
 * --far-distance > 0), load_biomes; at the end stop_renderer (the far terrain, then the renderer, while the
 * context lives), and after everything else that may hold GL objects is freed, close_window (the context,
 * the window, SDL). Errors: ST_ERR_GL naming what SDL said, the renderer's own, ST_ERR_IO for a file.
 * Threads: main thread only (it owns the GL context). */
#ifndef STRATA_GAME_VIEW_H
#define STRATA_GAME_VIEW_H

#include <stdbool.h>
#include <SDL.h>

#include "biome_fog.h"
#include "cli.h"
#include "script.h"
#include "user_settings.h"
#include "strata/block.h"
#include "strata/error.h"
#include "strata/far_terrain.h"
#include "strata/generator.h"
#include "strata/render.h"

typedef struct GameView {
    SDL_Window *window;
    SDL_GLContext gl;
    bool sdl_ready;
    int drawable_w, drawable_h;
    Renderer *renderer;
    FarTerrain *far;              /* NULL when --far-distance 0 */
    int far_ring_chunks;          /* the view distance the far terrain's inner edge follows now */
    BiomeSet *biomes;             /* assets/biomes.json; NULL when the assets have none (plain fog) */
    BiomeFogEase fog;             /* the biome fog at the player, eased (biome_fog.h) */
    bool show_hud;
    char screenshot_path[SCRIPT_TEXT_MAX]; /* requested for this frame, "" if none */
} GameView;

/* SDL video, the window (fullscreen from the settings unless a script, --frames or a benchmark drives the
 * game: those keep their size and swap without vsync) and the context. */
StResult game_view_open_window(GameView *v, const CliOptions *opts, const UserSettings *settings);
StResult game_view_start_renderer(GameView *v, const char *asset_dir, const char *shader_dir,
                                  const BlockRegistry *blocks, int view_distance);
StResult game_view_start_far(GameView *v, const Generator *generator, const BlockRegistry *blocks, int far_distance,
                             int view_distance);
/* The biome fog's table: a missing file means the plain fog, a broken one is an error naming the field. */
StResult game_view_load_biomes(GameView *v, const char *asset_dir, const BlockRegistry *blocks);
void game_view_stop_renderer(GameView *v);
void game_view_close_window(GameView *v);

/* The window changed size: the drawable size and the renderer follow. */
void game_view_resize(GameView *v);
/* The next drawn frame is written as PNG to `path` (copied). */
void game_view_request_screenshot(GameView *v, const char *path);
/* F2: the next frame goes to the screenshots folder (beside the worlds folder) with a timestamped name. */
void game_view_screenshot_timestamped(GameView *v);
/* After the draw: the requested screenshot, and at the end `final_path` (--screenshot) when not NULL. */
StResult game_view_write_screenshots(GameView *v, const char *final_path);
/* Once a frame, before the far terrain's update: its inner edge follows a changed view distance, at once
 * when the view shrinks (the ring fills what the voxel chunks give up), once the world is ready when it grows
 * (the far patches stay until the new voxel chunks are there). */
void game_view_far_follow(GameView *v, int view_distance, bool world_ready);
/* The far terrain around the camera (all of it at once when `full`: a screenshot), handed to the renderer. */
void game_view_update_far(GameView *v, const RenderCamera *cam, bool full, int far_distance);

#endif
