/* mesher_shapes.c — blocks that are not cubes: crossed plants, torches and thin layers.
 *
 * Design. Plants and flowers are two vertical quads along the cell's diagonals, one quad each: the
 * renderer draws the alpha-tested subset with back-face culling off (render.h / render.c), so a second,
 * reversed copy of each plane would only double the vertices. Each quad covers only the box of its tile
 * that has drawn texels (BlockRegistry.tile_margin, block_tiles.c), so fewer fragments are cut out for
 * nothing. They are lit by the plant's own cell (no ambient occlusion: they have no faces against
 * neighbours) and tinted (tall grass takes the grass colour of its column).
 * A torch is a small box on the floor of its cell, 2/16 wide and 10/16 tall, textured with the middle of
 * the torch tile (stick and flame) and lit at least at its emission, so it glows in the dark.
 * A layer (snow cover, after Survivalcraft's snow) is a 16 x 2 x 16 pixel slab on the floor of its cell.
 * Its top shows unless an opaque cube sits on it, a side unless an opaque cube or the same layer is
 * there (a snow field is one sheet, not a grid of boxes), its bottom only over a cell that is not an
 * opaque cube. The top lies inside the layer's own cell, so it takes smooth light and ambient occlusion
 * as the top face of the cell below would (the layer's own cell and its neighbours at that level: a
 * trunk or a cliff beside it darkens the corner); the sides and bottom, 2/16 high, take the flat light
 * of the layer's own cell (not opaque, so it has light). Sides show the bottom 2 pixel rows of the tile. */
#include "mesher_internal.h"

/* Corners of the two diagonal planes (drawn two-sided), counter-clockwise seen from -X+Z and from +X+Z. */
#define MESHER_CROSS_QUADS 2
static const int MESHER_CROSS_CORNER[MESHER_CROSS_QUADS][4][3] = {
    {{0, 0, 0}, {1, 0, 1}, {1, 1, 1}, {0, 1, 0}}, {{1, 0, 0}, {0, 0, 1}, {0, 1, 1}, {1, 1, 0}}};
static const int MESHER_QUAD_UV[4][2] = {{0, 16}, {16, 16}, {16, 0}, {0, 0}};

/* The torch: box bounds in sixteenths, and the tile pixels its sides / top / bottom use. */
#define TORCH_MIN_PX 7
#define TORCH_MAX_PX 9
#define TORCH_HEIGHT_PX 10

/* The layer: its height in sixteenths, and the slab offset of the cell each face looks into. */
#define LAYER_HEIGHT_PX 2
static const int MESHER_LAYER_STRIDE[6] = {SLAB_STRIDE_Z, SLAB_STRIDE_X, -SLAB_STRIDE_Z, -SLAB_STRIDE_X,
                                           SLAB_STRIDE_Y, -SLAB_STRIDE_Y};

static inline int mesher_cell_light_step(const MesherContext *ctx, int x, int y, int z, int emission)
{
    int light = cell_light(ctx->slab[SLAB_INDEX(x, y, z)]);
    return (light > emission ? light : emission) * MESHER_SHADOW_DIVISOR;
}

void mesher_shapes_emit_cross(MesherContext *ctx, VertexList *list, int x, int y, int z, const BlockDef *def)
{
    const uint8_t *tint = mesher_face_tint(ctx, def, BLOCK_FACE_POS_Z, x, z);
    uint8_t color[4][4];
    mesher_shade(color[0], tint, ctx->flat_factor[mesher_cell_light_step(ctx, x, y, z, def->emission)]);
    for (int i = 1; i < 4; i++)
        for (int c = 0; c < 4; c++) color[i][c] = color[0][c];
    int tile = def->textures[BLOCK_FACE_POS_Z];
    int tile_u = (tile & 15) * 16, tile_v = (tile >> 4) * 16;
    /* the tile's drawn box (block_tiles.c): u runs along the diagonal, v down from the top */
    const BlockTileMargin *m = &ctx->blocks->tile_margin[tile];
    const int u_px[2] = {m->left, 16 - m->right}, v_px[2] = {16 - m->bottom, m->top};
    for (int q = 0; q < MESHER_CROSS_QUADS; q++) {
        float pos[4][3];
        int uv[4][2];
        const int *from = MESHER_CROSS_CORNER[q][0], *to = MESHER_CROSS_CORNER[q][1];  /* the diagonal */
        for (int k = 0; k < 4; k++) {
            int u = u_px[MESHER_QUAD_UV[k][0] != 0], v = v_px[MESHER_QUAD_UV[k][1] == 0];
            float along = (float)u / 16.0f;
            pos[k][0] = (float)x + (float)from[0] + (float)(to[0] - from[0]) * along;
            pos[k][1] = (float)(ctx->slice_y0 + y) + (float)(16 - v) / 16.0f;
            pos[k][2] = (float)z + (float)from[2] + (float)(to[2] - from[2]) * along;
            uv[k][0] = tile_u + u;
            uv[k][1] = tile_v + v;
        }
        mesher_emit_quad(ctx, list, pos, uv, color);
    }
}

void mesher_shapes_emit_torch(MesherContext *ctx, VertexList *list, int x, int y, int z, const BlockDef *def)
{
    const uint8_t *tint = mesher_face_tint(ctx, def, BLOCK_FACE_POS_Z, x, z);
    int step = mesher_cell_light_step(ctx, x, y, z, def->emission);
    int tile = def->textures[BLOCK_FACE_POS_Z];
    int tile_u = (tile & 15) * 16, tile_v = (tile >> 4) * 16;
    const int lo[3] = {TORCH_MIN_PX, 0, TORCH_MIN_PX}, hi[3] = {TORCH_MAX_PX, TORCH_HEIGHT_PX, TORCH_MAX_PX};
    for (int f = 0; f < 6; f++) {
        float pos[4][3];
        int uv[4][2];
        uint8_t color[4][4];
        /* sides show the tile's middle columns over the stick's height; top the flame, bottom the foot */
        int u0 = TORCH_MIN_PX, u1 = TORCH_MAX_PX, v0 = 16 - TORCH_HEIGHT_PX, v1 = 16;
        if (f == BLOCK_FACE_POS_Y) v1 = v0 + (TORCH_MAX_PX - TORCH_MIN_PX);
        else if (f == BLOCK_FACE_NEG_Y) v0 = v1 - (TORCH_MAX_PX - TORCH_MIN_PX);
        for (int k = 0; k < 4; k++) {
            const int *c = MESHER_FACE_CORNER[f][k];
            for (int a = 0; a < 3; a++) {
                int base = a == 1 ? ctx->slice_y0 + y : a == 0 ? x : z;
                pos[k][a] = (float)base + (float)(c[a] ? hi[a] : lo[a]) / 16.0f;
            }
            uv[k][0] = tile_u + (MESHER_QUAD_UV[k][0] ? u1 : u0);
            uv[k][1] = tile_v + (MESHER_QUAD_UV[k][1] ? v1 : v0);
            mesher_shade(color[k], tint, ctx->face_factor[f][step]);
        }
        mesher_emit_quad(ctx, list, pos, uv, color);
    }
}

void mesher_shapes_emit_layer(MesherContext *ctx, VertexList *list, int x, int y, int z, int id)
{
    const BlockRegistry *blocks = ctx->blocks;
    const BlockDef *def = &blocks->defs[id];
    int cell = SLAB_INDEX(x, y, z);
    int own = mesher_cell_light_step(ctx, x, y, z, def->emission);
    const float height = (float)LAYER_HEIGHT_PX / 16.0f;
    for (int f = 0; f < 6; f++) {
        int n = cell_contents(ctx->slab[cell + MESHER_LAYER_STRIDE[f]]);
        if (blocks->opaque_cube[n] || (f < BLOCK_FACE_POS_Y && n == id)) continue;
        int light[4] = {own, own, own, own};
        if (f == BLOCK_FACE_POS_Y)
            mesher_light_face_corners(ctx, cell - SLAB_STRIDE_Y, BLOCK_FACE_POS_Y, def->emission, light);
        const uint8_t *tint = mesher_face_tint(ctx, def, (BlockFace)f, x, z);
        int tile = def->textures[f];
        int tile_u = (tile & 15) * 16, tile_v = (tile >> 4) * 16;
        float pos[4][3];
        int uv[4][2];
        uint8_t color[4][4];
        int first = light[0] + light[2] < light[1] + light[3] ? 1 : 0;  /* diagonal between brighter corners */
        for (int i = 0; i < 4; i++) {
            int k = (first + i) & 3;
            const int *c = MESHER_FACE_CORNER[f][k];
            pos[i][0] = (float)(x + c[0]);
            pos[i][1] = (float)(ctx->slice_y0 + y) + (c[1] ? height : 0.0f);
            pos[i][2] = (float)(z + c[2]);
            uv[i][0] = tile_u + MESHER_QUAD_UV[k][0];
            int v = MESHER_QUAD_UV[k][1];
            if (f < BLOCK_FACE_POS_Y && c[1]) v = 16 - LAYER_HEIGHT_PX;  /* sides: the tile's bottom rows */
            uv[i][1] = tile_v + v;
            mesher_shade(color[i], tint, ctx->face_factor[f][light[k]]);
        }
        int before = list->count;
        mesher_emit_quad(ctx, list, pos, uv, color);
        if (list->count > before)   /* top and bottom are whole faces; the sides are cut short */
            mesher_merge_note_face(ctx, list, f, first, f >= BLOCK_FACE_POS_Y, x, ctx->slice_y0 + y, z,
                                   pos[0][mesher_face_axis(f)], tile, color);
    }
}
