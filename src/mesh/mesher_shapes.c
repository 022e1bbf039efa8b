/* mesher_shapes.c — blocks that are not cubes: crossed plants and torches.
 *
 * Design. Plants and flowers are two vertical quads along the cell's diagonals, one quad each: the
 * renderer draws the alpha-tested subset with back-face culling off (render.h / renderer.c), so a second,
 * reversed copy of each plane would only double the vertices. They are lit by the plant's own cell (no
 * ambient occlusion: they have no faces against neighbours) and tinted (tall grass takes the grass
 * colour of its column).
 * A torch is a small box on the floor of its cell, 2/16 wide and 10/16 tall, textured with the middle of
 * the torch tile (stick and flame) and lit at least at its emission, so it glows in the dark. */
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
    for (int q = 0; q < MESHER_CROSS_QUADS; q++) {
        float pos[4][3];
        int uv[4][2];
        for (int k = 0; k < 4; k++) {
            pos[k][0] = (float)(x + MESHER_CROSS_CORNER[q][k][0]);
            pos[k][1] = (float)(ctx->slice_y0 + y + MESHER_CROSS_CORNER[q][k][1]);
            pos[k][2] = (float)(z + MESHER_CROSS_CORNER[q][k][2]);
            uv[k][0] = tile_u + MESHER_QUAD_UV[k][0];
            uv[k][1] = tile_v + MESHER_QUAD_UV[k][1];
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
