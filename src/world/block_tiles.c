/* block_tiles.c — what the texture atlas tells the mesher about blocks' tiles.
 *
 * Design. A crossed plant is two quads the size of its cell, but most of a plant's tile is empty: tall
 * grass draws texels in two thirds of its tile's box, a flower in under a third. On a software renderer
 * every fragment of those quads runs the cut-out shader only to be discarded, and at a grassy spawn that
 * was a tenth of the frame. So the registry keeps, per tile, the empty margin around the drawn texels, and
 * the mesher (mesher_shapes.c) shrinks a plant's quads to the box inside it: the same pixels are drawn,
 * with fewer fragments discarded. The margin is read from the same atlas PNG the renderer loads, once,
 * right after the registry (it is part of loading: the registry stays immutable afterwards). Margins are
 * in sixteenths of the tile whatever its resolution (rounded outwards for finer tiles). Coarser mip levels
 * are cut on the same box: a texel of theirs that straddles its edge keeps only its inner part, which at
 * the distances those levels are sampled is a fraction of a pixel.
 * The atlas also says which transparent cubes are mostly opaque: ice's texels are three quarters opaque,
 * glass's a third. Far chunks' half-resolution copy (mesher_lod.c) holds the first as solid blocks drawn
 * opaque, so an iced mountain far away is a few merged quads instead of every ice face blended one by one. */
#include "strata/block.h"

#include <stdio.h>
#include <stdint.h>

#include <stb_image.h>

#define BLOCK_TILES_PER_ROW 16
#define BLOCK_TILE_ALPHA_DRAWN 128 /* the cut-out shader keeps alpha >= 0.5 */

/* Margin, in whole sixteenths, for a tile whose drawn texels span columns x0..x1 and rows
 * y0..y1 of `size` texels. An empty tile keeps margin 0 (nothing to fit). */
static BlockTileMargin block_tile_margin(int size, int x0, int y0, int x1, int y1)
{
    BlockTileMargin m = {0, 0, 0, 0};
    if (x1 < x0) return m;
    /* texel t starts at 16 * t / size sixteenths; the box ends where texel x1 + 1 starts */
    int left = 16 * x0 / size, right = 16 - (16 * (x1 + 1) + size - 1) / size;
    int top = 16 * y0 / size, bottom = 16 - (16 * (y1 + 1) + size - 1) / size;
    m.left = (uint8_t)left;
    m.right = (uint8_t)right;
    m.top = (uint8_t)top;
    m.bottom = (uint8_t)bottom;
    return m;
}

/* What one pass over a tile's texels finds: the margin around its drawn ones and their mean alpha. */
typedef struct BlockTileScan {
    BlockTileMargin margin;
    int mean_alpha;   /* 0..255 */
} BlockTileScan;

static BlockTileScan block_tile_scan(const uint8_t *image, int width, int size, int tile)
{
    int ox = (tile % BLOCK_TILES_PER_ROW) * size, oy = (tile / BLOCK_TILES_PER_ROW) * size;
    int x0 = size, y0 = size, x1 = -1, y1 = -1;
    uint64_t sum = 0;
    for (int y = 0; y < size; y++) {
        const uint8_t *row = image + ((size_t)(oy + y) * (size_t)width + (size_t)ox) * 4;
        for (int x = 0; x < size; x++) {
            sum += row[x * 4 + 3];
            if (row[x * 4 + 3] < BLOCK_TILE_ALPHA_DRAWN) continue;
            if (x < x0) x0 = x;
            if (x > x1) x1 = x;
            if (y < y0) y0 = y;
            y1 = y;
        }
    }
    BlockTileScan scan = {block_tile_margin(size, x0, y0, x1, y1), (int)(sum / ((uint64_t)size * (uint64_t)size))};
    return scan;
}

StResult block_registry_fit_tiles(BlockRegistry *reg, const char *atlas_path)
{
    int w = 0, h = 0, channels = 0;
    uint8_t *image = stbi_load(atlas_path, &w, &h, &channels, 4);
    if (!image)
        return st_fail(ST_ERR_IO, "texture atlas %s: cannot read it: %s", atlas_path, stbi_failure_reason());
    int size = w / BLOCK_TILES_PER_ROW;
    if (w != h || size < 1 || w % BLOCK_TILES_PER_ROW != 0) {
        stbi_image_free(image);
        return st_fail(ST_ERR_FORMAT, "texture atlas %s: is %dx%d, expected a square of %d tiles per row",
                       atlas_path, w, h, BLOCK_TILES_PER_ROW);
    }
    /* every tile a block names exists (the registry checked it against its list, at most BLOCK_TILE_MAX:
     * the 16 x 16 atlas's) */
    for (int id = 0; id < reg->count; id++) {
        const BlockDef *def = &reg->defs[id];
        if (!def->defined) continue;
        if (def->shape == BLOCK_SHAPE_CROSS) {
            int tile = def->textures[BLOCK_FACE_POS_Z];
            reg->tile_margin[tile] = block_tile_scan(image, w, size, tile).margin;
        } else if (def->shape == BLOCK_SHAPE_CUBE && def->layer == BLOCK_LAYER_TRANSPARENT) {
            int sum = 0;
            for (int f = 0; f < 6; f++) sum += block_tile_scan(image, w, size, def->textures[f]).mean_alpha;
            reg->far_opaque[id] = sum >= 6 * BLOCK_TILE_ALPHA_DRAWN;
        }
    }
    stbi_image_free(image);
    return ST_OK;
}
