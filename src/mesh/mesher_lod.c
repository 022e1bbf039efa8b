/* mesher_lod.c — a slice at half resolution, 2 x 2 x 2 cells to a block: what far chunks draw.
 *
 * Design. From RENDER_LOD_FROM blocks (render.h) a cell is a few pixels, yet a view draws every face there:
 * a forest's ragged canopies (seed 42's spawn: 87k of 124k triangles) and, seen from above, every step of the
 * hills (the flight over seed 1: 168k opaque triangles). Far chunks draw this copy instead. The slice's 16^3
 * cells are 8^3 blocks of 2 x 2 x 2, classified from their cells alone:
 *   - leaves: at least 3 leaves (a spruce's tip, 3 leaves round its trunk, stays; a lone leaf goes; with 4,
 *     far spruces showed bare trunk tops; a trunk inside a canopy is hidden, as it is near by);
 *   - solid: otherwise, one of its 4 columns has both cells opaque cubes, or its whole top layer is: ground
 *     whose top cell is the block's upper one stays, ground whose top is the lower one rounds down (so
 *     shallow water over it still shows, and the far ground never rises above a near chunk's to show a step
 *     towards the camera at the boundary: a step down there is a back face), a trunk or a one-thick wall
 *     stays;
 *   - empty otherwise.
 * The blocks one beyond the slice are classified too (from the 3x3 chunks; the slice hash covers two cells
 * of border for that, mesher.c), so both sides of a slice or chunk border agree and the far copy is
 * watertight: a solid block shows a face where the block beside it is not solid, a leaf block where it is
 * empty. Each face is emitted as its 4 unit faces with one flat colour: the face's block's tint at the
 * block's first column, the face shade and the brightest light in front of its 4 cells (the first cell out
 * that is not an opaque cube, as a block may lie a cell under the ground; no ambient occlusion), so greedy
 * merging joins them. The face's block: on top, the highest opaque cube or thin layer (snow cover) in the
 * block's columns, looking from two cells above it down; on a side, the highest opaque cube
 * on that side, else in the block; for leaves, the block's first leaf. Opaque faces go to their subsets by
 * direction (0..3 sides, 4 top and bottom), leaves to the alpha-tested one; non-cube shapes, plants, water
 * and glass have no far copy (the renderer draws them cell by cell at any distance). */
#include "mesher_internal.h"

#define LOD_CELLS 8                       /* blocks per slice side */
#define LOD_GRID (LOD_CELLS + 2)          /* with one block of border on each side */
#define LOD_LEAF_CELLS 3                  /* leaves that make a leaf block */
#define LOD_LEAF  1u
#define LOD_SOLID 2u

static const int LOD_FACE_STEP[6][3] = {{0, 0, 1}, {1, 0, 0}, {0, 0, -1}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}};

/* Block (x, y, z), each -1..8, in the classified grid. */
static inline int lod_index(int x, int y, int z)
{
    return (x + 1) + LOD_GRID * ((y + 1) + LOD_GRID * (z + 1));
}

/* The 4 cells of block (bx, by, bz) on its `face` side, slice-local, top row first. */
static void lod_face_cells(int bx, int by, int bz, int face, int out[4][3])
{
    int n = 0;
    for (int dy = 1; dy >= 0; dy--)
        for (int dz = 0; dz < 2; dz++)
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

static inline int lod_cell(const MesherSlab *slab, int x, int y, int z)
{
    return cell_contents(slab->cells[SLAB_INDEX(x, y, z)]);
}

/* The cell value at slice-local (x, y, z), x and z -16..31, straight from the 3x3 chunks (beyond the slab's
 * one-cell border): below the world bedrock, above it and in a missing chunk air in full light. */
static int32_t lod_source_cell(const MesherContext *ctx, int slice, int x, int y, int z)
{
    int wy = slice * CHUNK_SLICE_HEIGHT + y;
    if (wy < 0) return cell_make(BLOCK_BEDROCK, 0);
    bool missing;
    const int32_t *column = mesher_source_column(ctx, x, z, &missing);
    if (wy >= CHUNK_SIZE_Y || missing) return LIGHT_MAX << CELL_LIGHT_SHIFT;
    return cell_load(&column[wy]);
}

/* The light a face of the block shows: per cell of the face the first cell in front of it that is not an
 * opaque cube (the block may lie a cell below the ground it stands for), at most 2 out; the brightest. */
static int lod_face_light(const MesherContext *ctx, int slice, int face, const int cells[4][3])
{
    int light = 0;
    for (int c = 0; c < 4; c++)
        for (int d = 1; d <= 2; d++) {
            int32_t v = lod_source_cell(ctx, slice, cells[c][0] + d * LOD_FACE_STEP[face][0],
                                        cells[c][1] + d * LOD_FACE_STEP[face][1], cells[c][2] + d * LOD_FACE_STEP[face][2]);
            if (ctx->blocks->opaque_cube[cell_contents(v)]) continue;
            int l = cell_light(v);
            light = l > light ? l : light;
            break;
        }
    return light;
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

/* Whether the neighbour of block (bx, by, bz) through `face` covers that face of a block of `kind`. */
static bool lod_covered(const uint8_t *kinds, unsigned kind, int bx, int by, int bz, int face)
{
    unsigned n = kinds[lod_index(bx + LOD_FACE_STEP[face][0], by + LOD_FACE_STEP[face][1], bz + LOD_FACE_STEP[face][2])];
    return kind == LOD_LEAF ? n != 0 : n == LOD_SOLID;
}

/* The block whose texture a solid block's `face` shows. */
static int lod_solid_face_block(const MesherContext *ctx, const MesherSlab *slab, int slice, int bx, int by, int bz,
                                int face, const int cells[4][3])
{
    const BlockRegistry *blocks = ctx->blocks;
    if (face == BLOCK_FACE_POS_Y) {   /* from two cells above the block down: the highest cube or layer */
        int best = 0, best_y = -1;
        for (int c = 0; c < 4; c++) {
            int x = 2 * bx + (c & 1), z = 2 * bz + (c >> 1);
            for (int y = 2 * by + 3; y >= 2 * by && y > best_y; y--) {
                int id = lod_source_cell(ctx, slice, x, y, z) & CELL_CONTENTS_MASK;
                if (blocks->opaque_cube[id] || blocks->shape[id] == BLOCK_SHAPE_LAYER) {
                    best = id;
                    best_y = y;
                    break;
                }
            }
        }
        if (best) return best;
    }
    for (int c = 0; c < 4; c++) {
        int id = lod_cell(slab, cells[c][0], cells[c][1], cells[c][2]);
        if (blocks->opaque_cube[id]) return id;
    }
    for (int c = 7; c >= 0; c--) {   /* top layer first */
        int id = lod_cell(slab, 2 * bx + (c & 1), 2 * by + (c >> 2), 2 * bz + (c >> 1 & 1));
        if (blocks->opaque_cube[id]) return id;
    }
    return 0;
}

static int lod_leaf_block(const MesherContext *ctx, const MesherSlab *slab, int bx, int by, int bz)
{
    for (int c = 0; c < 8; c++) {
        int id = lod_cell(slab, 2 * bx + (c & 1), 2 * by + (c >> 2), 2 * bz + (c >> 1 & 1));
        if (ctx->kind[id] & MESHER_KIND_LEAVES) return id;
    }
    return 0;
}

/* Classifies the slice's blocks and the ring of blocks around them into kinds[], from the 3x3 chunks (rows
 * below the world are bedrock, above it air); false when none of the slice's own is solid or leaves. */
static bool lod_classify(const MesherContext *ctx, int slice, uint8_t *kinds)
{
    const int y_base = slice * CHUNK_SLICE_HEIGHT - 2;   /* world y of row 0: two below the slice */
    const int rows = 2 * LOD_GRID;
    bool any = false;
    for (int bz = -1; bz <= LOD_CELLS; bz++)
        for (int bx = -1; bx <= LOD_CELLS; bx++) {
            uint32_t opaque[4], leaves[4];   /* per column of the block: bit r = row r */
            for (int c = 0; c < 4; c++) {
                bool missing;
                const int32_t *column = mesher_source_column(ctx, 2 * bx + (c & 1), 2 * bz + (c >> 1), &missing);
                uint32_t o = 0, l = 0;
                for (int r = rows - 1; r >= 0; r--) {
                    int y = y_base + r;
                    int id = y < 0 ? BLOCK_BEDROCK : y >= CHUNK_SIZE_Y || missing ? BLOCK_AIR
                                                                              : cell_contents(cell_load(&column[y]));
                    unsigned k = ctx->kind[id];
                    o = (o << 1) | (k & MESHER_KIND_OPAQUE);
                    l = (l << 1) | ((k >> 3) & 1u);
                }
                opaque[c] = o;
                leaves[c] = l;
            }
            for (int by = -1; by <= LOD_CELLS; by++) {
                int r = 2 * by + 2;   /* the block's lower row */
                bool full_column = false, top_layer = true;
                int leaf_count = 0;
                for (int c = 0; c < 4; c++) {
                    uint32_t bits = opaque[c] >> r & 3u;
                    full_column = full_column || bits == 3u;
                    top_layer = top_layer && (bits & 2u);
                    leaf_count += __builtin_popcount(leaves[c] >> r & 3u);
                }
                unsigned kind = leaf_count >= LOD_LEAF_CELLS ? LOD_LEAF : full_column || top_layer ? LOD_SOLID : 0u;
                kinds[lod_index(bx, by, bz)] = (uint8_t)kind;
                bool own = bx >= 0 && bx < LOD_CELLS && by >= 0 && by < LOD_CELLS && bz >= 0 && bz < LOD_CELLS;
                any = any || (own && kind);
            }
        }
    return any;
}

void mesher_lod_build(MesherContext *ctx, const MesherSlab *slab, int slice, VertexList lists[MESH_SUBSET_COUNT])
{
    for (int k = 0; k < MESH_SUBSET_COUNT; k++) lists[k].count = 0;
    uint8_t kinds[LOD_GRID * LOD_GRID * LOD_GRID];
    if (!lod_classify(ctx, slice, kinds)) return;
    const int32_t *saved = ctx->slab;
    ctx->slab = slab->cells;
    for (int bz = 0; bz < LOD_CELLS; bz++)
        for (int by = 0; by < LOD_CELLS; by++)
            for (int bx = 0; bx < LOD_CELLS; bx++) {
                unsigned kind = kinds[lod_index(bx, by, bz)];
                if (!kind) continue;
                int leaf = kind == LOD_LEAF ? lod_leaf_block(ctx, slab, bx, by, bz) : 0;
                if (kind == LOD_LEAF && !leaf) continue;
                for (int f = 0; f < 6; f++) {
                    int cells[4][3];
                    lod_face_cells(bx, by, bz, f, cells);
                    if (lod_covered(kinds, kind, bx, by, bz, f)) continue;
                    int id = leaf ? leaf : lod_solid_face_block(ctx, slab, slice, bx, by, bz, f, cells);
                    const BlockDef *def = &ctx->blocks->defs[id];
                    if (!id || !def->defined) continue;
                    int light = lod_face_light(ctx, slice, f, cells);
                    light = light > def->emission ? light : def->emission;
                    uint8_t color[4];
                    mesher_shade(color, mesher_face_tint(ctx, def, (BlockFace)f, 2 * bx, 2 * bz),
                                 ctx->face_factor[f][light * MESHER_SHADOW_DIVISOR]);
                    int subset = leaf ? MESH_SUBSET_ALPHA_TESTED : f < BLOCK_FACE_POS_Y ? f : MESH_SUBSET_OPAQUE_OTHER;
                    for (int c = 0; c < 4; c++)
                        lod_emit_face(ctx, &lists[subset], cells[c][0], cells[c][1], cells[c][2], f,
                                      def->textures[f], color);
                }
            }
    ctx->slab = saved;
}
