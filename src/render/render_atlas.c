/* render_atlas.c — the block texture atlas: assets/textures/atlas.png, 16 tiles per row.
 *
 * Design: glGenerateMipmap would average across tile borders (distant grass picks up its stone
 * neighbour) and let the alpha of leaves and plants melt away at distance, so the mip chain is built on
 * the CPU tile by tile: 2x2 box filter, colour weighted by alpha (transparent texels carry no colour), and
 * alpha rescaled per tile so the fraction of texels passing the 0.5 alpha test matches level 0
 * (alpha-to-coverage preservation, as in Castano's "computing alpha mipmaps"). The chain stops at one
 * texel per tile. Sampling is nearest within a level (crisp blocks) and takes the nearest level
 * (GL_NEAREST_MIPMAP_NEAREST, Irrlicht's and so Luanti's default): blending two levels made llvmpipe fetch
 * twice per pixel, ~8% of seed 42's spawn frame, for a change that shows only in distant leaves' cut.
 * The same levels are also cut into a texture array, one layer per tile (layer = column + 16 * row), for the
 * terrain: with GL_REPEAT a merged quad repeats its tile in the sampler itself, so the terrain shaders take
 * a plain texture() (implicit derivatives, no fract seam, no textureGrad: a third cheaper per pixel on
 * llvmpipe than the atlas lookup). The 2D atlas stays for the UI's block icons. The one-channel textures (the
 * font, the sky's clouds) get their mips here too (render_texture_r8_mipmapped), by a plain box filter: no
 * glGenerateMipmap anywhere, whose first call costs llvmpipe a JIT compile at start-up. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stb_image.h>
#include "render_internal.h"
#include "strata/fileio.h"
#include "strata/log.h"

#define ATLAS_ALPHA_TEST 128 /* texels with alpha >= this pass the cut-out test (alpha >= 0.5) */

/* Texels of tile (tx, ty) in an image of `size` passing the alpha test after scaling alpha by `scale`. */
static int atlas_tile_coverage(const uint8_t *image, int size, int tx, int ty, float scale)
{
    int ts = size / RENDER_ATLAS_TILES_PER_ROW, passed = 0;
    for (int y = 0; y < ts; y++) {
        const uint8_t *row = image + ((size_t)(ty * ts + y) * size + (size_t)tx * ts) * 4;
        for (int x = 0; x < ts; x++) {
            float a = row[x * 4 + 3] * scale;
            passed += a >= ATLAS_ALPHA_TEST;
        }
    }
    return passed;
}

static bool atlas_tile_fully_opaque(const uint8_t *image, int size, int tx, int ty)
{
    int ts = size / RENDER_ATLAS_TILES_PER_ROW;
    for (int y = 0; y < ts; y++) {
        const uint8_t *row = image + ((size_t)(ty * ts + y) * size + (size_t)tx * ts) * 4;
        for (int x = 0; x < ts; x++)
            if (row[x * 4 + 3] != 255)
                return false;
    }
    return true;
}

/* Rescales the alpha of one destination tile so its coverage matches the base tile's. */
static void atlas_keep_coverage(const uint8_t *base, int base_size, uint8_t *dst, int size, int tx, int ty)
{
    int base_ts = base_size / RENDER_ATLAS_TILES_PER_ROW, ts = size / RENDER_ATLAS_TILES_PER_ROW;
    if (atlas_tile_fully_opaque(base, base_size, tx, ty))
        return;
    float want = (float)atlas_tile_coverage(base, base_size, tx, ty, 1.0f) / (float)(base_ts * base_ts);
    float texels = (float)(ts * ts);
    float have = (float)atlas_tile_coverage(dst, size, tx, ty, 1.0f) / texels;
    /* Within half a texel of the target, or nothing to preserve (a faint, fully blended tile). */
    if (want <= 0.0f || ((have - want) * texels <= 0.5f && (want - have) * texels <= 0.5f))
        return;
    float lo = 0.0f, hi = 8.0f;
    for (int i = 0; i < 16; i++) {
        float mid = 0.5f * (lo + hi);
        if ((float)atlas_tile_coverage(dst, size, tx, ty, mid) / texels < want)
            lo = mid;
        else
            hi = mid;
    }
    float cov_lo = (float)atlas_tile_coverage(dst, size, tx, ty, lo) / texels;
    float cov_hi = (float)atlas_tile_coverage(dst, size, tx, ty, hi) / texels;
    float scale = (want - cov_lo < cov_hi - want) ? lo : hi;
    for (int y = 0; y < ts; y++) {
        uint8_t *row = dst + ((size_t)(ty * ts + y) * size + (size_t)tx * ts) * 4;
        for (int x = 0; x < ts; x++) {
            float a = row[x * 4 + 3] * scale + 0.5f;
            row[x * 4 + 3] = (uint8_t)(a > 255.0f ? 255.0f : a);
        }
    }
}

/* Mip level `dst` (size/2) from `src` (size x size RGBA), tile by tile: colour weighted by alpha, then each
 * tile's alpha rescaled toward the alpha-test coverage of the same tile in `base` (level 0). Coverage is
 * matched as closely as the level's texel count allows (an 8x8 tile moves in steps of 1/64, and texels
 * averaged from half-opaque blocks move together). */
static void atlas_downsample(const uint8_t *base, int base_size, const uint8_t *src, int size, uint8_t *dst)
{
    int half = size / 2;
    for (int y = 0; y < half; y++) {
        for (int x = 0; x < half; x++) {
            const uint8_t *p[4] = {
                src + ((size_t)(2 * y) * size + 2 * x) * 4,
                src + ((size_t)(2 * y) * size + 2 * x + 1) * 4,
                src + ((size_t)(2 * y + 1) * size + 2 * x) * 4,
                src + ((size_t)(2 * y + 1) * size + 2 * x + 1) * 4,
            };
            unsigned alpha = p[0][3] + p[1][3] + p[2][3] + p[3][3];
            uint8_t *out = dst + ((size_t)y * half + x) * 4;
            for (int c = 0; c < 3; c++) {
                unsigned v;
                if (alpha > 0)
                    v = (p[0][c] * p[0][3] + p[1][c] * p[1][3] + p[2][c] * p[2][3] + p[3][c] * p[3][3]
                         + alpha / 2) / alpha;
                else
                    v = (p[0][c] + p[1][c] + p[2][c] + p[3][c] + 2) / 4;
                out[c] = (uint8_t)v;
            }
            out[3] = (uint8_t)((alpha + 2) / 4);
        }
    }
    for (int ty = 0; ty < RENDER_ATLAS_TILES_PER_ROW; ty++)
        for (int tx = 0; tx < RENDER_ATLAS_TILES_PER_ROW; tx++)
            atlas_keep_coverage(base, base_size, dst, half, tx, ty);
}

/* Copies the 256 tiles of one level (size x size RGBA) into `layers`, tile after tile, and uploads them as
 * that level of the bound GL_TEXTURE_2D_ARRAY. */
static void atlas_upload_layers(const uint8_t *level, int size, uint8_t *layers, int mip)
{
    int ts = size / RENDER_ATLAS_TILES_PER_ROW;
    for (int t = 0; t < RENDER_ATLAS_TILES; t++) {
        int tx = t % RENDER_ATLAS_TILES_PER_ROW, ty = t / RENDER_ATLAS_TILES_PER_ROW;
        for (int y = 0; y < ts; y++)
            memcpy(layers + ((size_t)t * ts + y) * ts * 4, level + ((size_t)(ty * ts + y) * size + (size_t)tx * ts) * 4,
                   (size_t)ts * 4);
    }
    glTexImage3D(GL_TEXTURE_2D_ARRAY, mip, GL_RGBA8, ts, ts, RENDER_ATLAS_TILES, 0, GL_RGBA, GL_UNSIGNED_BYTE, layers);
}

/* Sampling of the bound texture of `target`: nearest within a level and of the levels. */
static void atlas_set_sampling(GLenum target, int levels, GLint wrap)
{
    glTexParameteri(target, GL_TEXTURE_BASE_LEVEL, 0);
    glTexParameteri(target, GL_TEXTURE_MAX_LEVEL, levels - 1);
    glTexParameteri(target, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(target, GL_TEXTURE_MIN_FILTER, levels > 1 ? GL_NEAREST_MIPMAP_NEAREST : GL_NEAREST);
    glTexParameteri(target, GL_TEXTURE_WRAP_S, wrap);
    glTexParameteri(target, GL_TEXTURE_WRAP_T, wrap);
}

static bool atlas_is_power_of_two(int v)
{
    return v > 0 && (v & (v - 1)) == 0;
}

StResult render_atlas_load(const char *asset_dir, RenderAtlas *atlas)
{
    char path[1024];
    size_t n = strlen(asset_dir);
    snprintf(path, sizeof path, "%s%stextures/atlas.png", asset_dir, (n > 0 && asset_dir[n - 1] != '/') ? "/" : "");
    if (!fileio_exists(path))
        return st_fail(ST_ERR_IO, "texture atlas %s: file not found (expected a %dx%d-tile RGBA PNG)", path,
                       RENDER_ATLAS_TILES_PER_ROW, RENDER_ATLAS_TILES_PER_ROW);
    int w = 0, h = 0, channels = 0;
    uint8_t *image = stbi_load(path, &w, &h, &channels, 4);
    if (!image)
        return st_fail(ST_ERR_FORMAT, "texture atlas %s: cannot decode it: %s", path, stbi_failure_reason());
    if (w != h || w % RENDER_ATLAS_TILES_PER_ROW != 0 || !atlas_is_power_of_two(w / RENDER_ATLAS_TILES_PER_ROW)) {
        stbi_image_free(image);
        return st_fail(ST_ERR_FORMAT,
                       "texture atlas %s: is %dx%d, expected a square of %d tiles per row with a power-of-two "
                       "tile size (e.g. 256x256)", path, w, h, RENDER_ATLAS_TILES_PER_ROW);
    }
    int tile = w / RENDER_ATLAS_TILES_PER_ROW, levels = 1;
    while ((tile >> (levels - 1)) > 1)
        levels++;

    uint8_t *level_src = image;
    uint8_t *scratch[2] = { malloc((size_t)w * w), malloc((size_t)w * w) }; /* (w/2)^2 * 4 bytes each */
    uint8_t *layers = malloc((size_t)w * w * 4);
    if (!scratch[0] || !scratch[1] || !layers) {
        free(scratch[0]);
        free(scratch[1]);
        free(layers);
        stbi_image_free(image);
        return st_fail(ST_ERR_NOMEM, "texture atlas %s: out of memory building mipmaps", path);
    }
    GLuint textures[2] = { 0, 0 };
    glGenTextures(2, textures);
    GLuint texture = textures[0], tiles = textures[1];
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glBindTexture(GL_TEXTURE_2D_ARRAY, tiles);
    glBindTexture(GL_TEXTURE_2D, texture);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, w, 0, GL_RGBA, GL_UNSIGNED_BYTE, image);
    atlas_upload_layers(image, w, layers, 0);
    int size = w;
    for (int level = 1; level < levels; level++) {
        uint8_t *dst = scratch[level & 1];
        atlas_downsample(image, w, level_src, size, dst);
        size /= 2;
        glTexImage2D(GL_TEXTURE_2D, level, GL_RGBA8, size, size, 0, GL_RGBA, GL_UNSIGNED_BYTE, dst);
        atlas_upload_layers(dst, size, layers, level);
        level_src = dst;
    }
    for (int t = 0; t < RENDER_ATLAS_TILES; t++)   /* the last level: a texel a tile */
        memcpy(atlas->tile_colors[t], level_src + (size_t)t * 4, 4);
    free(scratch[0]);
    free(scratch[1]);
    free(layers);
    stbi_image_free(image);

    atlas_set_sampling(GL_TEXTURE_2D_ARRAY, levels, GL_REPEAT);
    glBindTexture(GL_TEXTURE_2D_ARRAY, 0);
    atlas_set_sampling(GL_TEXTURE_2D, levels, GL_CLAMP_TO_EDGE);

    atlas->texture = texture;
    atlas->tiles = tiles;
    atlas->size = w;
    atlas->tile_size = tile;
    atlas->mip_levels = levels;
    log_info(RENDER_TAG, "atlas %s: %dx%d, %d px tiles, %d mip levels", path, w, w, tile, levels);
    return ST_OK;
}

bool render_texture_r8_mipmapped(int width, int height, const uint8_t *pixels)
{
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_R8, width, height, 0, GL_RED, GL_UNSIGNED_BYTE, pixels);
    int levels = 1;
    for (int w = width, h = height; w > 1 || h > 1; w = w > 1 ? w / 2 : 1, h = h > 1 ? h / 2 : 1)
        levels++;
    uint8_t *a = malloc((size_t)width * height), *b = malloc((size_t)width * height);
    bool ok = a && b;
    if (ok) {
        memcpy(a, pixels, (size_t)width * height);
        int w = width, h = height;
        for (int level = 1; level < levels; level++) {
            int nw = w > 1 ? w / 2 : 1, nh = h > 1 ? h / 2 : 1;
            for (int y = 0; y < nh; y++) {
                /* the source rows and columns this texel averages: two, or three where an odd one is left over */
                int y0 = h > 1 ? 2 * y : 0, y1 = h > 1 ? (y == nh - 1 ? h - 1 : 2 * y + 1) : 0;
                for (int x = 0; x < nw; x++) {
                    int x0 = w > 1 ? 2 * x : 0, x1 = w > 1 ? (x == nw - 1 ? w - 1 : 2 * x + 1) : 0;
                    unsigned sum = 0, n = 0;
                    for (int sy = y0; sy <= y1; sy++)
                        for (int sx = x0; sx <= x1; sx++, n++)
                            sum += a[(size_t)sy * w + sx];
                    b[(size_t)y * nw + x] = (uint8_t)((sum + n / 2) / n);
                }
            }
            glTexImage2D(GL_TEXTURE_2D, level, GL_R8, nw, nh, 0, GL_RED, GL_UNSIGNED_BYTE, b);
            uint8_t *t = a;
            a = b;
            b = t;
            w = nw;
            h = nh;
        }
    }
    free(a);
    free(b);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, ok ? levels - 1 : 0);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    return ok;
}

void render_atlas_free(RenderAtlas *atlas)
{
    if (atlas->texture)
        glDeleteTextures(1, &atlas->texture);
    if (atlas->tiles)
        glDeleteTextures(1, &atlas->tiles);
    memset(atlas, 0, sizeof *atlas);
}

void renderer_far_palette(const Renderer *renderer, FarPalette *palette)
{
    const BlockRegistry *blocks = palette->blocks;
    for (int id = 0; id < blocks->count; id++) {
        int tile = blocks->defs[id].textures[BLOCK_FACE_POS_Y], side = blocks->defs[id].textures[BLOCK_FACE_POS_X];
        if (blocks->defs[id].defined && tile >= 0 && tile < RENDER_ATLAS_TILES)
            memcpy(palette->top[id], renderer->atlas.tile_colors[tile], 3);
        if (blocks->defs[id].defined && side >= 0 && side < RENDER_ATLAS_TILES)
            memcpy(palette->side[id], renderer->atlas.tile_colors[side], 3);
    }
}
