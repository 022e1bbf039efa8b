/* mesher_lod.c — the far leaves of a slice: its canopies at half resolution, 2 x 2 x 2 cells to a block.
 *
 * Design. A forest's leaves are most of what a view draws (seed 42's spawn: 87k of 124k triangles, most of
 * them beyond 32 blocks, where a leaf block is a few pixels): a canopy's outside is ragged, so greedy merging
 * finds little to join. Far chunks' leaves are drawn from this coarser copy instead (renderer.c): the
 * slice's 16^3 cells as 8^3 blocks of 2 x 2 x 2 cells; a block holding at least 3 leaves is a leaf block,
 * one holding at least 4 opaque cubes a solid one. A leaf block shows a face where the block beside it is
 * neither (inside the slice), or where the 4 cells beside it are not all opaque cubes (across the slice's
 * border, where only those 4 are known: it errs towards a face, never a hole). Each face is emitted as its 4
 * unit faces with one flat colour (the leaves' tint at the block's first column, the face shade, the
 * brightest light among the 4 cells in front, no ambient occlusion) and the texture of the block's first
 * leaf cell, so greedy merging joins them into 2 x 2 quads and more (the tile repeats per block as before).
 * The result goes at the start of the slice's alpha-tested list (mesher.c: far leaves, leaves, the rest). */
#include "mesher_internal.h"

#define LOD_CELLS 8                       /* blocks per slice side */
#define LOD_LEAF_CELLS 3                  /* leaves of 8 that make a leaf block: a spruce's tip (3 leaves
                                           * round its trunk) stays, a lone leaf goes; with 4, far spruces
                                           * showed bare trunk tops */
#define LOD_SOLID_CELLS 4                 /* opaque cubes of 8 that make a solid block */
#define LOD_LEAF  1u
#define LOD_SOLID 2u

static const int LOD_FACE_STEP[6][3] = {{0, 0, 1}, {1, 0, 0}, {0, 0, -1}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}};
static const int LOD_FACE_STRIDE[6] = {SLAB_STRIDE_Z, SLAB_STRIDE_X, -SLAB_STRIDE_Z, -SLAB_STRIDE_X,
                                       SLAB_STRIDE_Y, -SLAB_STRIDE_Y};

static inline int lod_index(int x, int y, int z)
{
    return x + LOD_CELLS * (y + LOD_CELLS * z);
}

/* The 4 cells of block (bx, by, bz) on its `face` side, slice-local. */
static void lod_face_cells(int bx, int by, int bz, int face, int out[4][3])
{
    int n = 0;
    for (int dz = 0; dz < 2; dz++)
        for (int dy = 0; dy < 2; dy++)
            for (int dx = 0; dx < 2; dx++) {
                int d[3] = {dx, dy, dz};
                const int *step = LOD_FACE_STEP[face];
                bool on_side = true;
                for (int a = 0; a < 3; a++)
                    if (step[a] != 0 && d[a] != (step[a] > 0 ? 1 : 0)) on_side = false;
                if (!on_side) continue;
                out[n][0] = 2 * bx + dx;
                out[n][1] = 2 * by + dy;
                out[n][2] = 2 * bz + dz;
                n++;
            }
}

/* One unit face of cell (x, y, z) in one flat colour. */
static void lod_emit_face(MesherContext *ctx, VertexList *list, int x, int y, int z, int face, int tile,
                          const uint8_t color[4])
{
    int tile_u = (tile & 15) * 16, tile_v = (tile >> 4) * 16;
    float pos[4][3];
    int uv[4][2];
    uint8_t colors[4][4];
    for (int k = 0; k < 4; k++) {
        const int *c = MESHER_FACE_CORNER[face][k];
        pos[k][0] = (float)(x + c[0]);
        pos[k][1] = (float)(ctx->slice_y0 + y + c[1]);
        pos[k][2] = (float)(z + c[2]);
        uv[k][0] = tile_u + MESHER_CORNER_UV[k][0];
        uv[k][1] = tile_v + MESHER_CORNER_UV[k][1];
        memcpy(colors[k], color, 4);
    }
    mesher_emit_quad(ctx, list, pos, uv, colors);
}

/* Whether the neighbour of block (bx, by, bz) through `face` covers that face. */
static bool lod_covered(const MesherContext *ctx, const uint8_t *kind, int bx, int by, int bz, int face,
                        const int cells[4][3])
{
    int nx = bx + LOD_FACE_STEP[face][0], ny = by + LOD_FACE_STEP[face][1], nz = bz + LOD_FACE_STEP[face][2];
    if (nx >= 0 && nx < LOD_CELLS && ny >= 0 && ny < LOD_CELLS && nz >= 0 && nz < LOD_CELLS)
        return kind[lod_index(nx, ny, nz)] != 0;
    for (int i = 0; i < 4; i++) {
        int front = SLAB_INDEX(cells[i][0], cells[i][1], cells[i][2]) + LOD_FACE_STRIDE[face];
        if (!ctx->blocks->opaque_cube[cell_contents(ctx->slab[front])]) return false;
    }
    return true;
}

void mesher_lod_leaves(MesherContext *ctx, const MesherSlab *slab, VertexList *out)
{
    out->count = 0;
    uint8_t kind[LOD_CELLS * LOD_CELLS * LOD_CELLS];
    int16_t leaf_id[LOD_CELLS * LOD_CELLS * LOD_CELLS];
    bool any = false;
    for (int bz = 0; bz < LOD_CELLS; bz++)
        for (int bx = 0; bx < LOD_CELLS; bx++) {
            int cols[4] = {SLAB_COLUMN(2 * bx, 2 * bz), SLAB_COLUMN(2 * bx + 1, 2 * bz),
                           SLAB_COLUMN(2 * bx, 2 * bz + 1), SLAB_COLUMN(2 * bx + 1, 2 * bz + 1)};
            for (int by = 0; by < LOD_CELLS; by++) {
                uint32_t bits = 3u << (2 * by + 1);   /* slab bit y + 1 for y = 2 by, 2 by + 1 */
                int leaves = 0, opaque = 0;
                for (int c = 0; c < 4; c++) {
                    leaves += __builtin_popcount(slab->leaves[cols[c]] & bits);
                    opaque += __builtin_popcount(slab->opaque[cols[c]] & bits);
                }
                int i = lod_index(bx, by, bz);
                kind[i] = leaves >= LOD_LEAF_CELLS ? LOD_LEAF : opaque >= LOD_SOLID_CELLS ? LOD_SOLID : 0;
                leaf_id[i] = 0;
                if (kind[i] != LOD_LEAF) continue;
                any = true;
                for (int c = 0; c < 8 && !leaf_id[i]; c++) {
                    int id = cell_contents(slab->cells[SLAB_INDEX(2 * bx + (c & 1), 2 * by + (c >> 2), 2 * bz + (c >> 1 & 1))]);
                    if (ctx->kind[id] & MESHER_KIND_LEAVES) leaf_id[i] = (int16_t)id;
                }
            }
        }
    if (!any) return;
    const int32_t *saved = ctx->slab;
    ctx->slab = slab->cells;
    for (int bz = 0; bz < LOD_CELLS; bz++)
        for (int by = 0; by < LOD_CELLS; by++)
            for (int bx = 0; bx < LOD_CELLS; bx++) {
                int i = lod_index(bx, by, bz);
                if (kind[i] != LOD_LEAF || !leaf_id[i]) continue;
                const BlockDef *def = &ctx->blocks->defs[leaf_id[i]];
                for (int f = 0; f < 6; f++) {
                    int cells[4][3];
                    lod_face_cells(bx, by, bz, f, cells);
                    if (lod_covered(ctx, kind, bx, by, bz, f, cells)) continue;
                    int light = 0;
                    for (int c = 0; c < 4; c++) {
                        int l = cell_light(slab->cells[SLAB_INDEX(cells[c][0], cells[c][1], cells[c][2]) + LOD_FACE_STRIDE[f]]);
                        light = l > light ? l : light;
                    }
                    int step = light * MESHER_SHADOW_DIVISOR;
                    if (step < def->emission * MESHER_SHADOW_DIVISOR) step = def->emission * MESHER_SHADOW_DIVISOR;
                    uint8_t color[4];
                    mesher_shade(color, mesher_face_tint(ctx, def, (BlockFace)f, 2 * bx, 2 * bz), ctx->face_factor[f][step]);
                    for (int c = 0; c < 4; c++)
                        lod_emit_face(ctx, out, cells[c][0], cells[c][1], cells[c][2], f, def->textures[f], color);
                }
            }
    ctx->slab = saved;
}
