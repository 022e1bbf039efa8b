/* voxel_palette.c — the blocks a model's colours map to, each with its atlas tiles' mean colour.
 *
 * Design: the palette is every opaque, untinted, unmoving cube of the registry (no ores, no bedrock: a model
 * is a building, not a mine), or the blocks a `--palette a,b,c` list names. A block's colour is the mean of
 * its six faces' tile means, a tile's mean being that of its texels with alpha >= 128 in the atlas
 * (16 tiles per row, like the renderer's), so a voxelized model looks like its colours in the game. The
 * nearest colour wins by squared RGB distance, the lower palette index on a tie: deterministic. */
#include "voxel_model_internal.h"

#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool palette_default(const BlockDef *d)
{
    size_t n = strlen(d->name);
    return d->defined && d->layer == BLOCK_LAYER_OPAQUE && d->shape == BLOCK_SHAPE_CUBE && d->tint == BLOCK_TINT_NONE &&
           d->behaviour == BLOCK_BEHAVIOUR_NONE && d->emission == 0 && d->id != BLOCK_BEDROCK &&
           !(n > 4 && strcmp(d->name + n - 4, "_ore") == 0);
}

static StResult palette_pick(const BlockRegistry *blocks, const char *spec, VoxelPalette *out)
{
    out->count = 0;
    if (!spec || !spec[0] || strcmp(spec, "blocks") == 0) {
        for (int id = 1; id < blocks->count && out->count < VOXEL_PALETTE_MAX; id++)
            if (palette_default(&blocks->defs[id]))
                out->block[out->count++] = id;
        return ST_OK;
    }
    const char *p = spec;
    while (*p) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        char name[BLOCK_NAME_MAX];
        if (n == 0 || n >= sizeof name)
            return st_fail(ST_ERR_ARG, "--palette: '%s' is not a list of block names (a,b,c) or 'blocks'", spec);
        memcpy(name, p, n);
        name[n] = 0;
        int id = block_registry_find(blocks, name);
        if (id <= 0 || blocks->defs[id].layer == BLOCK_LAYER_NONE)
            return st_fail(ST_ERR_ARG, "--palette: '%s' is not a block of blocks.json", name);
        if (out->count == VOXEL_PALETTE_MAX)
            return st_fail(ST_ERR_ARG, "--palette: at most %d blocks", VOXEL_PALETTE_MAX);
        out->block[out->count++] = id;
        p += n + (comma ? 1 : 0);
    }
    return out->count ? ST_OK : st_fail(ST_ERR_ARG, "--palette: no block named");
}

StResult voxel_palette_build(const BlockRegistry *blocks, const char *spec, const char *atlas_path, VoxelPalette *out)
{
    StResult rc = palette_pick(blocks, spec, out);
    if (rc != ST_OK)
        return rc;
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&img, atlas_path))
        return st_fail(ST_ERR_IO, "%s: cannot read the atlas: %s", atlas_path, img.message);
    img.format = PNG_FORMAT_RGBA;
    uint8_t *px = malloc(PNG_IMAGE_SIZE(img));
    if (!px || !png_image_finish_read(&img, NULL, px, 0, NULL)) {
        free(px);
        png_image_free(&img);
        return st_fail(ST_ERR_FORMAT, "%s: bad atlas PNG", atlas_path);
    }
    int w = (int)img.width, tile = w / 16;
    int rows = tile > 0 ? (int)img.height / tile : 0;
    for (int i = 0; i < out->count; i++) {
        const BlockDef *d = &blocks->defs[out->block[i]];
        double sum[3] = {0, 0, 0};
        for (int f = 0; f < 6; f++) {
            int t = d->textures[f], tx = (t % 16) * tile, ty = (t / 16) * tile;
            double s[3] = {0, 0, 0}, n = 0;
            for (int y = 0; t >= 0 && t / 16 < rows && y < tile; y++)
                for (int x = 0; x < tile; x++) {
                    const uint8_t *p = px + 4 * ((size_t)(ty + y) * (size_t)w + (size_t)(tx + x));
                    if (p[3] < 128)
                        continue;
                    s[0] += p[0], s[1] += p[1], s[2] += p[2], n += 1;
                }
            for (int k = 0; k < 3; k++)   /* a tile without texels: the block's map colour */
                sum[k] += n > 0 ? s[k] / n : d->map_color[k];
        }
        for (int k = 0; k < 3; k++)
            out->rgb[i][k] = (float)(sum[k] / 6.0);
    }
    free(px);
    return ST_OK;
}

int voxel_palette_nearest(const VoxelPalette *p, const float rgb[3])
{
    int best = 0;
    float best_d = 1e30f;
    for (int i = 0; i < p->count; i++) {
        float d = 0;
        for (int k = 0; k < 3; k++) {
            float e = rgb[k] * 255.0f - p->rgb[i][k];
            d += e * e;
        }
        if (d < best_d) {
            best_d = d;
            best = i;
        }
    }
    return p->block[best];
}
