/* render_fixture.h — what the renderer tests share: a hidden 320x200 GL 3.3 core window (SDL offscreen,
 * Mesa llvmpipe), the real shaders and atlas, hand-built chunk meshes, screenshots read back as pixels.
 * One test program includes it (the helpers are static inline; the window, blocks and scratch folder are
 * the program's). render_fixture_start returns 77 (skip) when no GL context can be made, else 0. */
#ifndef STRATA_RENDER_FIXTURE_H
#define STRATA_RENDER_FIXTURE_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ftw.h>
#include <unistd.h>
#include <SDL.h>
#include <stb_image.h>
#include "check.h"
#include "strata/block.h"
#include "strata/fileio.h"
#include "strata/log.h"
#include "strata/mesher.h"
#include "strata/render.h"
#include "strata/terrain.h"

#define TEST_WIDTH 320
#define TEST_HEIGHT 200
#define TEST_CHUNK_X 1000    /* far from the origin: camera-relative rendering must hold */
#define TEST_CHUNK_Z (-2000)

static SDL_Window *test_window;
static BlockRegistry *test_blocks;
static TerrainChunk test_chunk;  /* only coord_x / coord_z are read by the renderer */
static char test_tmp[256];

/* ---- helpers ---- */

static inline void *test_get_proc(const char *name)
{
    return SDL_GL_GetProcAddress(name);
}

static inline void *test_get_nothing(const char *name)
{
    (void)name;
    return NULL;
}

static inline RendererConfig test_config(const char *asset_dir, const char *shader_dir)
{
    RendererConfig config = { asset_dir, shader_dir, test_blocks, TEST_WIDTH, TEST_HEIGHT, 8 };
    return config;
}

static inline const TerrainChunk *test_chunk_at(int cx, int cz)
{
    test_chunk.coord_x = cx;
    test_chunk.coord_z = cz;
    test_chunk.origin_x = cx * 16;
    test_chunk.origin_z = cz * 16;
    return &test_chunk;
}

static inline int test_tile(const char *name)
{
    int tile = test_blocks ? block_registry_find_tile(test_blocks, name) : -1;
    return tile < 0 ? 0 : tile;
}

static inline void test_push(VertexList *list, float x, float y, float z, int tile, int corner, const uint8_t color[4])
{
    if (list->count == list->capacity) {
        list->capacity = list->capacity ? list->capacity * 2 : 64;
        list->data = realloc(list->data, (size_t)list->capacity * sizeof *list->data);
    }
    /* Corners 0..3 of the tile: (u0,v1) (u1,v1) (u1,v0) (u0,v0). */
    int u = (tile % 16) * MESHER_UV_TILE_STRIDE + ((corner == 1 || corner == 2) ? 16 : 0);
    int v = (tile / 16) * MESHER_UV_TILE_STRIDE + ((corner == 0 || corner == 1) ? 16 : 0);
    TerrainVertex *t = &list->data[list->count++];
    t->x = x;
    t->y = y;
    t->z = z;
    t->tx = (int16_t)u;
    t->ty = (int16_t)v;
    memcpy(t->color, color, 4);
}

/* Unit cube faces, counter-clockwise seen from outside, in BlockFace order (+Z, +X, -Z, -X, +Y, -Y). */
static const float FACE_CORNERS[6][4][3] = {
    { { 0, 0, 1 }, { 1, 0, 1 }, { 1, 1, 1 }, { 0, 1, 1 } },
    { { 1, 0, 1 }, { 1, 0, 0 }, { 1, 1, 0 }, { 1, 1, 1 } },
    { { 1, 0, 0 }, { 0, 0, 0 }, { 0, 1, 0 }, { 1, 1, 0 } },
    { { 0, 0, 0 }, { 0, 0, 1 }, { 0, 1, 1 }, { 0, 1, 0 } },
    { { 0, 1, 0 }, { 0, 1, 1 }, { 1, 1, 1 }, { 1, 1, 0 } },
    { { 0, 0, 0 }, { 1, 0, 0 }, { 1, 0, 1 }, { 0, 0, 1 } },
};
static const int FACE_SUBSET[6] = { 0, 1, 2, 3, 4, 4 };

static inline void test_add_face(ChunkMesh *mesh, int subset, int x, int y, int z, int face, int tile, const uint8_t color[4])
{
    for (int k = 0; k < 4; k++)
        test_push(&mesh->subsets[subset], (float)x + FACE_CORNERS[face][k][0], (float)y + FACE_CORNERS[face][k][1],
                  (float)z + FACE_CORNERS[face][k][2], tile, k, color);
}

/* A 5x5 platform of stone at y = 5, x and z 6..10 (chunk-local), faces between cubes culled. */
static inline ChunkMesh *test_platform_mesh(int cx, int cz)
{
    static const uint8_t color[4] = { 255, 255, 255, 255 };
    ChunkMesh *mesh = calloc(1, sizeof *mesh);
    mesh->coord_x = cx;
    mesh->coord_z = cz;
    int tile = test_tile("stone");
    for (int x = 6; x <= 10; x++)
        for (int z = 6; z <= 10; z++)
            for (int face = 0; face < 6; face++) {
                bool outer = (face == 0 && z == 10) || (face == 1 && x == 10) || (face == 2 && z == 6) ||
                             (face == 3 && x == 6) || face >= 4;
                if (outer)
                    test_add_face(mesh, FACE_SUBSET[face], x, 5, z, face, tile, color);
            }
    mesh->min_y = 5;
    mesh->max_y = 5;
    return mesh;
}

static inline int test_mesh_quads(const ChunkMesh *mesh, int subset)
{
    return mesh->subsets[subset].count / 4;
}

static inline void test_sky_bytes(float time_of_day, uint8_t out[3])
{
    float sky[3];
    renderer_sky_color(time_of_day, 1.0f, sky);
    for (int c = 0; c < 3; c++)
        out[c] = (uint8_t)lrintf(sky[c] * 255.0f);
}

typedef struct TestImage {
    uint8_t *pixels;
    int width, height;
} TestImage;

static inline bool test_capture(Renderer *r, const char *name, TestImage *image)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", test_tmp, name);
    StResult rc = renderer_screenshot(r, path);
    CHECK_EQ_INT(rc, ST_OK);
    int n = 0;
    image->pixels = stbi_load(path, &image->width, &image->height, &n, 3);
    CHECK(image->pixels != NULL);
    return image->pixels != NULL;
}

static inline const uint8_t *test_pixel(const TestImage *image, int x, int y)
{
    return image->pixels + ((size_t)y * image->width + x) * 3;
}

static inline bool test_near(const uint8_t *p, const uint8_t want[3], int tolerance)
{
    for (int c = 0; c < 3; c++)
        if (abs((int)p[c] - (int)want[c]) > tolerance)
            return false;
    return true;
}

/* Pixels near the centre but off the crosshair's arms (which invert what is behind them). */
static inline int test_count_centre_sky(const TestImage *image, const uint8_t sky[3])
{
    static const int offsets[8][2] = { { -8, -8 }, { 8, -8 }, { -8, 8 }, { 8, 8 },
                                       { -14, 4 }, { 14, 4 }, { -4, 12 }, { 4, 12 } };
    int sky_count = 0;
    for (int i = 0; i < 8; i++)
        sky_count += test_near(test_pixel(image, image->width / 2 + offsets[i][0], image->height / 2 + offsets[i][1]),
                               sky, 3);
    return sky_count;
}

static inline bool test_top_rows_sky(const TestImage *image, const uint8_t sky[3])
{
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < image->width; x += 7)
            if (!test_near(test_pixel(image, x, y), sky, 3))
                return false;
    return true;
}

static inline RenderFrame test_frame(float seconds)
{
    RenderFrame frame;
    memset(&frame, 0, sizeof frame);
    frame.time_of_day = 0.5f;
    frame.sky_brightness = 1.0f;
    frame.frame_seconds = seconds;
    return frame;
}

/* Eye above and south (+Z) of the platform, looking north (-Z) and down at its centre. */
static inline RenderCamera test_camera(void)
{
    RenderCamera cam = { { TEST_CHUNK_X * 16.0 + 8.5, 8.0, TEST_CHUNK_Z * 16.0 + 13.5 }, 0.0f, -21.8f, 70.0f };
    return cam;
}

static inline Renderer *test_create(void)
{
    RendererConfig config = test_config(STRATA_ASSET_DIR, STRATA_SHADER_DIR);
    Renderer *r = NULL;
    StResult rc = renderer_create(&config, test_get_proc, &r);
    if (rc != ST_OK)
        fprintf(stderr, "renderer_create: %s\n", st_error_message());
    CHECK_EQ_INT(rc, ST_OK);
    return r;
}

static inline int test_remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st;
    (void)type;
    (void)ftw;
    return remove(path);
}

static SDL_GLContext test_context;
static bool test_keep_dir;

/* The window, context, scratch folder (STRATA_TEST_KEEP_DIR keeps it, to look at the screenshots) and
 * block registry. 77: no GL context (skip); 1: no scratch folder; 0: ready. */
static inline int render_fixture_start(const char *name)
{
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        printf("skipped: SDL video could not start (%s)\n", SDL_GetError());
        return 77;
    }
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
    SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 24);
    SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
    test_window = SDL_CreateWindow(name, 0, 0, TEST_WIDTH, TEST_HEIGHT, SDL_WINDOW_OPENGL | SDL_WINDOW_HIDDEN);
    test_context = test_window ? SDL_GL_CreateContext(test_window) : NULL;
    if (!test_context) {
        printf("skipped: no OpenGL 3.3 core context (%s)\n", SDL_GetError());
        if (test_window)
            SDL_DestroyWindow(test_window);
        SDL_Quit();
        return 77;
    }

    const char *keep = getenv("STRATA_TEST_KEEP_DIR"); /* set it to look at the screenshots */
    test_keep_dir = keep && keep[0];
    if (test_keep_dir) {
        snprintf(test_tmp, sizeof test_tmp, "%s", keep);
        fileio_make_dirs(test_tmp);
    } else {
        snprintf(test_tmp, sizeof test_tmp, "/tmp/strata_test_render_XXXXXX");
        if (!mkdtemp(test_tmp)) {
            perror("mkdtemp");
            return 1;
        }
    }
    char blocks_path[512];
    snprintf(blocks_path, sizeof blocks_path, "%s/blocks.json", STRATA_ASSET_DIR);
    if (block_registry_load(blocks_path, &test_blocks) != ST_OK)
        fprintf(stderr, "blocks.json: %s (tiles fall back to index 0)\n", st_error_message());
    return 0;
}

static inline void render_fixture_end(void)
{
    block_registry_destroy(test_blocks);
    /* The window and context are left to process exit on purpose: once SDL unloads Mesa, LeakSanitizer
     * reports ~7 KB that Mesa's EGL/llvmpipe set-up never frees (a bare SDL window + GL context + SDL_Quit
     * shows the same 257 allocations), which would drown the leak check of the renderer's own memory. */
    if (!test_keep_dir) {
        if (nftw(test_tmp, test_remove_entry, 16, FTW_DEPTH | FTW_PHYS) != 0)
            fprintf(stderr, "could not remove %s\n", test_tmp);
    }
}

#endif
