/* game_view.c — the window, the GL context, the renderer and the far terrain (game_view.h).
 *
 * Design: the window opens on the main thread while the world opens on a helper thread (app.c): nothing
 * here touches the world but the block registry and the generator, both ready before either starts. The
 * far terrain starts drawing only once the voxel world is loaded (its worker would slow the loading down);
 * its inner edge follows the view distance. A far patch's mesh is kept once: the FarTerrain frees its copy
 * the frame after the renderer has uploaded it, and the renderer drops its own when the FarTerrain's cache
 * drops the patch (far_terrain_release_meshes, far_terrain_take_forgotten). Screenshots are taken right
 * after the draw, before the swap. */
#include "view/game_view.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "strata/fileio.h"
#include "strata/log.h"
#include "strata/serializer.h"

#define VIEW_TAG "game"

StResult game_view_open_window(GameView *v, const CliOptions *opts, const UserSettings *settings)
{
    if (SDL_Init(SDL_INIT_VIDEO) != 0) return st_fail(ST_ERR_GL, "cannot initialise SDL video: %s", SDL_GetError());
    v->sdl_ready = true;
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
    SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 24);
    SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
    /* Scripted and --frames runs keep their window size: the settings' fullscreen is for playing. */
    bool driven = opts->frames > 0 || opts->script_path || opts->bench;
    bool fullscreen = opts->fullscreen || (!driven && !opts->windowed &&
                                           settings->values[USER_SETTING_FULLSCREEN] != 0.0);
    Uint32 flags = SDL_WINDOW_OPENGL | SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI;
    if (fullscreen) flags |= SDL_WINDOW_FULLSCREEN_DESKTOP;
    v->window = SDL_CreateWindow("Strata", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, opts->width,
                                 opts->height, flags);
    if (!v->window) return st_fail(ST_ERR_GL, "cannot create the window: %s", SDL_GetError());
    v->gl = SDL_GL_CreateContext(v->window);
    if (!v->gl) return st_fail(ST_ERR_GL, "cannot create an OpenGL 3.3 core context: %s", SDL_GetError());
    int interval = driven ? 0 : settings->values[USER_SETTING_VSYNC] != 0.0;
    if (SDL_GL_SetSwapInterval(interval) != 0)
        log_info(VIEW_TAG, "swap interval %d unavailable (%s): frames are not synced to the display", interval,
                 SDL_GetError());
    SDL_GL_GetDrawableSize(v->window, &v->drawable_w, &v->drawable_h);
    return ST_OK;
}

StResult game_view_start_renderer(GameView *v, const char *asset_dir, const char *shader_dir,
                                  const BlockRegistry *blocks, int view_distance)
{
    RendererConfig rcfg = {
        .asset_dir = asset_dir,
        .shader_dir = shader_dir,
        .blocks = blocks,
        .width = v->drawable_w,
        .height = v->drawable_h,
        .view_distance_chunks = view_distance,
    };
    StResult rc = renderer_create(&rcfg, (RenderGetProc)SDL_GL_GetProcAddress, &v->renderer);
    return rc == ST_OK ? ST_OK : st_fail_context(rc, "cannot start the renderer");
}

StResult game_view_start_far(GameView *v, const Generator *generator, const BlockRegistry *blocks, int far_distance,
                             int view_distance)
{
    FarTerrainSettings fs;
    far_terrain_settings_default(&fs);
    fs.far_distance = (float)far_distance;
    fs.load_radius = fs.far_distance;
    fs.unload_radius = fs.far_distance * 1.25f;
    fs.voxel_distance = (float)(view_distance * CHUNK_SIZE_X);
    FarPalette palette;   /* 6 kB, copied by far_terrain_create */
    far_palette_init(&palette, blocks);
    renderer_far_palette(v->renderer, &palette);
    StResult rc = far_terrain_create(generator, &palette, &fs, &v->far);
    if (rc != ST_OK) return rc;
    v->far_ring_chunks = view_distance;
    return ST_OK;
}

StResult game_view_load_biomes(GameView *v, const char *asset_dir, const BlockRegistry *blocks)
{
    char path[1100];
    snprintf(path, sizeof path, "%s/biomes.json", asset_dir);
    biome_fog_init(&v->fog);
    if (!fileio_exists(path)) {
        log_warn(VIEW_TAG, "%s not found: the fog does not follow the biome", path);
        return ST_OK;
    }
    return biome_set_load(path, blocks, &v->biomes);
}

void game_view_stop_renderer(GameView *v)
{
    far_terrain_destroy(v->far);
    v->far = NULL;
    if (v->renderer) renderer_destroy(v->renderer);
    v->renderer = NULL;
    biome_set_destroy(v->biomes);
    v->biomes = NULL;
}

void game_view_close_window(GameView *v)
{
    if (v->gl) SDL_GL_DeleteContext(v->gl);
    v->gl = NULL;
    if (v->window) SDL_DestroyWindow(v->window);
    v->window = NULL;
    if (v->sdl_ready) SDL_Quit();
    v->sdl_ready = false;
}

void game_view_resize(GameView *v)
{
    SDL_GL_GetDrawableSize(v->window, &v->drawable_w, &v->drawable_h);
    renderer_resize(v->renderer, v->drawable_w, v->drawable_h);
}

void game_view_request_screenshot(GameView *v, const char *path)
{
    snprintf(v->screenshot_path, sizeof v->screenshot_path, "%s", path);
}

void game_view_screenshot_timestamped(GameView *v)
{
    char worlds[1024];
    if (serializer_default_worlds_dir(worlds, sizeof worlds) != ST_OK) {
        log_warn(VIEW_TAG, "screenshot: %s", st_error_message());
        return;
    }
    char *slash = strrchr(worlds, '/');
    if (slash) *slash = 0;
    char dir[1024 + 16];
    snprintf(dir, sizeof dir, "%s/screenshots", worlds);
    if (fileio_make_dirs(dir) != ST_OK) {
        log_warn(VIEW_TAG, "screenshot: %s", st_error_message());
        return;
    }
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    char stamp[32];
    strftime(stamp, sizeof stamp, "%Y-%m-%d_%H.%M.%S", &tm);
    char path[SCRIPT_TEXT_MAX];
    snprintf(path, sizeof path, "%.400s/strata_%s.png", dir, stamp);
    for (int n = 2; fileio_exists(path) && n < 100; n++)
        snprintf(path, sizeof path, "%.400s/strata_%s_%d.png", dir, stamp, n);
    game_view_request_screenshot(v, path);
}

StResult game_view_write_screenshots(GameView *v, const char *final_path)
{
    StResult rc;
    if (v->screenshot_path[0]) {
        if ((rc = renderer_screenshot(v->renderer, v->screenshot_path)) != ST_OK) return rc;
        log_info(VIEW_TAG, "screenshot %s", v->screenshot_path);
        v->screenshot_path[0] = 0;
    }
    if (final_path) {
        if ((rc = renderer_screenshot(v->renderer, final_path)) != ST_OK) return rc;
        log_info(VIEW_TAG, "screenshot %s", final_path);
    }
    return ST_OK;
}

void game_view_far_follow(GameView *v, int view_distance, bool world_ready)
{
    if (!v->far || view_distance == v->far_ring_chunks) return;
    if (view_distance > v->far_ring_chunks && !world_ready) return;
    far_terrain_set_voxel_distance(v->far, (float)(view_distance * CHUNK_SIZE_X));
    log_info(VIEW_TAG, "far terrain follows view distance %d (was %d)", view_distance, v->far_ring_chunks);
    v->far_ring_chunks = view_distance;
}

static bool view_far_keep(void *renderer, uint64_t key) { return renderer_far_keep(renderer, key); }

void game_view_update_far(GameView *v, const RenderCamera *cam, bool full, int far_distance)
{
    if (!v->far) return;
    float yaw = cam->yaw_deg * 0.017453292f;
    if (full) far_terrain_flush(v->far, cam->position[0], cam->position[2]);
    else far_terrain_update(v->far, cam->position[0], cam->position[2], sinf(yaw), -cosf(yaw));
    /* the meshes live once: in the renderer's buffers once uploaded (the frame before), until the cache drops them */
    const uint64_t *forgotten;
    int n_forgotten = far_terrain_take_forgotten(v->far, &forgotten);
    for (int i = 0; i < n_forgotten; i++) renderer_far_forget(v->renderer, forgotten[i]);
    far_terrain_release_meshes(v->far, view_far_keep, v->renderer);
    const FarPatch *const *patches;
    int n = far_terrain_patches(v->far, &patches);
    renderer_set_far_patches(v->renderer, patches, n, (float)far_distance);
}
