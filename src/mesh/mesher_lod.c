/* mesher_lod.c — a slice at half resolution, 2 x 2 x 2 cells to a block: what far chunks draw.
 *
 * Design. From RENDER_LOD_FROM blocks (render.h) a cell is a few pixels, yet a view draws every face there:
 * a forest's ragged canopies (seed 42's spawn: 87k of 124k triangles) and, seen from above, every step of the
 * hills (the flight over seed 1: 168k opaque triangles). Far chunks draw this copy instead. The slice's 16^3
 * cells are 8^3 blocks of 2 x 2 x 2, classified from their cells alone:
 *   - leaves: at least 3 leaves (a spruce's tip, 3 leaves round its trunk, stays; a lone leaf goes; with 4,
 *     far spruces showed bare trunk tops; a trunk inside a canopy is hidden, as it is near by);
 *   - solid: otherwise, one of its 4 columns has both cells opaque cubes, or its whole top layer is, and no
 *     water lies in its top layer: ground whose top cell is the block's upper one stays, ground whose top is
 *     the lower one rounds down (so shallow water over it still shows, and the far ground never rises above
 *     a near chunk's to show a step towards the camera at the boundary: a step down there is a back face), a
 *     trunk or a one-thick wall stays, and a river one or two cells wide is not filled by its banks;
 *   - empty otherwise.
 * The 10 blocks of a block column are classified at once, bit-parallel, from its 4 columns' masks (lod_classify),
 * and a slab of solid cells only (buried rock) is skipped outright (lod_buried); so, before any per-face test,
 * is a block whose every face is covered (found bit-parallel per block column from the same bits). The blocks one beyond the slice
 * are classified too (from the 3x3 chunks; the slice hash covers two cells
 * of border for that, mesher.c), so both sides of a slice or chunk border agree and the far copy is
 * watertight: a solid block shows a face where the block beside it is not solid, a leaf block where it is
 * empty. On the chunk's edge a solid block's side shows also where the blocks on both sides are solid but a
 * cell of either is open (lod_edge_open): the next chunk may be drawn near, showing that opening. Each face
 * is one quad of 2 x 2 cells (the tile repeated on each cell) with one flat colour: the
 * face's block's tint at the block's first column, the face shade and the brightest light in front of its 4
 * cells (the first cell out that is not an opaque cube, as a block may lie a cell under the ground; no ambient
 * occlusion), so greedy merging (at half scale, where a block face is a unit face: mesher_lod_merge) joins
 * them. The face's block: on top, the highest opaque cube or thin layer (snow cover) in the block's columns,
 * looking from two cells above it down; on a side, the highest opaque cube on that side, else in the block;
 * for leaves, the block's first leaf. A top at a slice's floor is drawn with the slice above it, the space it
 * faces, which the occlusion walk reaches wherever the top can be seen. Opaque faces go to their subsets by
 * direction (0..3 sides, 4 top and bottom), leaves to the alpha-tested one; non-cube shapes, plants, water
 * and glass have no far copy (the renderer draws them cell by cell at any distance). Ice, a transparent cube
 * whose texels are mostly opaque (BlockRegistry.far_opaque), is solid here and drawn opaque: an iced
 * mountain (the flight over seed 1: up to 60k triangles of ice, blended) becomes merged quads; its own faces
 * are drawn by near chunks only (the transparent list's second part, mesher.c). An ice cell fills the cell
 * over it too, so ice in a block's lower row, over water, does not round down to open water. */
#include "mesher_internal.h"

#define LOD_CELLS 8                       /* blocks per slice side */
#define LOD_GRID (LOD_CELLS + 2)          /* with one block of border on each side */
#define LOD_LEAF_CELLS 3                  /* leaves that make a leaf block */
#define LOD_LEAF  1u
#define LOD_SOLID 2u

#define LOD_FACE_STEP MESHER_FACE_NORMAL   /* a block's step to its neighbour through each face */

/* Block (x, y, z), each -1..8, in the classified grid. */
static inline int lod_index(int x, int y, int z)
{
    return (x + 1) + LOD_GRID * ((y + 1) + LOD_GRID * (z + 1));
}

/* Per face, the offsets of a block's 4 cells on that side, top row first. */
static const int LOD_FACE_CELLS[6][4][3] = {
    {{0, 1, 1}, {1, 1, 1}, {0, 0, 1}, {1, 0, 1}},   /* +Z */
    {{1, 1, 0}, {1, 1, 1}, {1, 0, 0}, {1, 0, 1}},   /* +X */
    {{0, 1, 0}, {1, 1, 0}, {0, 0, 0}, {1, 0, 0}},   /* -Z */
    {{0, 1, 0}, {0, 1, 1}, {0, 0, 0}, {0, 0, 1}},   /* -X */
    {{0, 1, 0}, {1, 1, 0}, {0, 1, 1}, {1, 1, 1}},   /* +Y */
    {{0, 0, 0}, {1, 0, 0}, {0, 0, 1}, {1, 0, 1}}};  /* -Y */

/* The 4 cells of block (bx, by, bz) on its `face` side, slice-local, top row first. */
static void lod_face_cells(int bx, int by, int bz, int face, int out[4][3])
{
    for (int n = 0; n < 4; n++) {
        out[n][0] = 2 * bx + LOD_FACE_CELLS[face][n][0];
        out[n][1] = 2 * by + LOD_FACE_CELLS[face][n][1];
        out[n][2] = 2 * bz + LOD_FACE_CELLS[face][n][2];
    }
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

/* The cell value at slice-local (x, y, z): from the slab where it holds it (-1..16 on each axis), else from
 * the chunks. */
static inline int32_t lod_cell_value(const MesherContext *ctx, const MesherSlab *slab, int slice, int x, int y, int z)
{
    if ((unsigned)(x + 1) < SLAB_SIZE && (unsigned)(y + 1) < SLAB_SIZE && (unsigned)(z + 1) < SLAB_SIZE)
        return slab->cells[SLAB_INDEX(x, y, z)];
    return lod_source_cell(ctx, slice, x, y, z);
}

/* The light a face of the block shows: per cell of the face the first cell in front of it that is not an
 * opaque cube (the block may lie a cell below the ground it stands for), at most 2 out; the brightest. */
static int lod_face_light(const MesherContext *ctx, const MesherSlab *slab, int slice, int face,
                          const int cells[4][3])
{
    int light = 0;
    for (int c = 0; c < 4; c++)
        for (int d = 1; d <= 2; d++) {
            int32_t v = lod_cell_value(ctx, slab, slice, cells[c][0] + d * LOD_FACE_STEP[face][0],
                                       cells[c][1] + d * LOD_FACE_STEP[face][1], cells[c][2] + d * LOD_FACE_STEP[face][2]);
            if (ctx->blocks->opaque_cube[cell_contents(v)]) continue;
            int l = cell_light(v);
            light = l > light ? l : light;
            break;
        }
    return light;
}

/* Face `face` of block (bx, by, bz) as one quad in one flat colour: 2 x 2 cells, the tile repeated on each
 * (local texture coordinates 0..32). */
static void lod_emit_face(MesherContext *ctx, VertexList *list, int bx, int by, int bz, int face, int tile,
                          const uint8_t color[4])
{
    int tile_u = (tile & 15) * 16, tile_v = (tile >> 4) * 16;
    float pos[4][3];
    int uv[4][2];
    uint8_t colors[4][4];
    for (int k = 0; k < 4; k++) {
        const int *c = MESHER_FACE_CORNER[face][k];
        pos[k][0] = (float)(2 * (bx + c[0]));
        pos[k][1] = (float)(ctx->slice_y0 + 2 * (by + c[1]));
        pos[k][2] = (float)(2 * (bz + c[2]));
        uv[k][0] = tile_u + 2 * MESHER_CORNER_UV[k][0];
        uv[k][1] = tile_v + 2 * MESHER_CORNER_UV[k][1];
        memcpy(colors[k], color, 4);
    }
    int before = list->count;
    mesher_emit_quad(ctx, list, pos, uv, colors);
    if (list->count > before)   /* its record at half scale, where mesher_lod_merge merges it: a unit face */
        mesher_merge_note_face(ctx, list, face, 0, true, bx, ctx->slice_y0 / 2 + by, bz,
                               pos[0][mesher_face_axis(face)] * 0.5f, tile, colors);
}

/* The faces' merge records were made at half scale (lod_emit_face), where a block face is a unit face; the
 * merge writes merged quads back at full scale (ctx->merge_half). A quad with no record (its side array
 * could not grow) is classified at full scale, where it is no unit face: it stays as it is. */
void mesher_lod_merge(MesherContext *ctx, VertexList *list)
{
    if (list->count == 0) return;
    ctx->merge_half = true;
    mesher_merge_list(ctx, list);
    ctx->merge_half = false;
}

/* Whether the neighbour of block (bx, by, bz) through `face` covers that face of a block of `kind`. */
static bool lod_covered(const uint8_t *kinds, unsigned kind, int bx, int by, int bz, int face)
{
    unsigned n = kinds[lod_index(bx + LOD_FACE_STEP[face][0], by + LOD_FACE_STEP[face][1], bz + LOD_FACE_STEP[face][2])];
    return kind == LOD_LEAF ? n != 0 : n == LOD_SOLID;
}

/* Whether block `id` makes a block of the copy solid: an opaque cube, or a far-opaque one (ice). */
static inline bool lod_solid_cell(const MesherContext *ctx, int id)
{
    return (ctx->kind[id] & (MESHER_KIND_OPAQUE | MESHER_KIND_FAR_OPAQUE)) != 0;
}

/* Whether a side `face` of a solid block on the chunk's edge, against a solid block of the next chunk, has an
 * open cell (one not solid cell by cell) among its own 4 cells or the 4 in front of them. Either chunk may be
 * drawn near, at full resolution, where it shows that opening while the other's solid half-resolution block
 * would hide the face between them: a step up from a near chunk to a far one left a slit to the sky. So such a
 * face is drawn, and by both chunks (both see the same 8 cells), as two faces back to back that close each
 * other: drawn far both, they lie inside solid blocks, hidden, and the copy stays watertight. */
static bool lod_edge_open(const MesherContext *ctx, const MesherSlab *slab, int slice, int bx, int by, int bz,
                          int face)
{
    int nx = bx + LOD_FACE_STEP[face][0], nz = bz + LOD_FACE_STEP[face][2];
    if (face >= BLOCK_FACE_POS_Y || (nx >= 0 && nx < LOD_CELLS && nz >= 0 && nz < LOD_CELLS)) return false;
    int cells[4][3];
    lod_face_cells(bx, by, bz, face, cells);
    for (int c = 0; c < 8; c++) {
        int d = c >> 2;   /* 0: the block's own cell, 1: the cell in front */
        int32_t v = lod_cell_value(ctx, slab, slice, cells[c & 3][0] + d * LOD_FACE_STEP[face][0], cells[c & 3][1],
                                   cells[c & 3][2] + d * LOD_FACE_STEP[face][2]);
        if (!lod_solid_cell(ctx, cell_contents(v))) return true;
    }
    return false;
}

/* The block whose texture a solid block's `face` shows. */
static int lod_solid_face_block(const MesherContext *ctx, const MesherSlab *slab, int slice, int bx, int by, int bz,
                                int face, const int cells[4][3])
{
    const BlockRegistry *blocks = ctx->blocks;
    if (face == BLOCK_FACE_POS_Y) {   /* from two cells above the block down: the highest cube or layer */
        int best = 0, best_y = 2 * by - 1;   /* below the block: none yet (by is -1 for the row under a slice) */
        for (int c = 0; c < 4; c++) {
            int x = 2 * bx + (c & 1), z = 2 * bz + (c >> 1);
            for (int y = 2 * by + 3; y >= 2 * by && y > best_y; y--) {
                int id = cell_contents(lod_cell_value(ctx, slab, slice, x, y, z));
                if (lod_solid_cell(ctx, id) || blocks->shape[id] == BLOCK_SHAPE_LAYER) {
                    best = id;
                    best_y = y;
                    break;
                }
            }
        }
        if (best) return best;
    }
    /* an opaque cube on that side, else in the block; only then ice (a cliff under a skin of ice shows rock
     * on its sides, as near by) */
    static const unsigned kinds[2] = {MESHER_KIND_OPAQUE, MESHER_KIND_FAR_OPAQUE};
    for (int k = 0; k < 2; k++) {
        for (int c = 0; c < 4; c++) {
            int id = cell_contents(lod_cell_value(ctx, slab, slice, cells[c][0], cells[c][1], cells[c][2]));
            if (ctx->kind[id] & kinds[k]) return id;
        }
        for (int c = 7; c >= 0; c--) {   /* top layer first */
            int x = 2 * bx + (c & 1), y = 2 * by + (c >> 2), z = 2 * bz + (c >> 1 & 1);
            int id = cell_contents(lod_cell_value(ctx, slab, slice, x, y, z));
            if (ctx->kind[id] & kinds[k]) return id;
        }
    }
    return 0;
}

static int lod_leaf_block(const MesherContext *ctx, const MesherSlab *slab, int slice, int bx, int by, int bz)
{
    for (int c = 0; c < 8; c++) {
        int x = 2 * bx + (c & 1), y = 2 * by + (c >> 2), z = 2 * bz + (c >> 1 & 1);
        int id = cell_contents(lod_cell_value(ctx, slab, slice, x, y, z));
        if (ctx->kind[id] & MESHER_KIND_LEAVES) return id;
    }
    return 0;
}

/* A column's solid cells, leaves and water over the slice's rows -2..17 (bit r = row r - 2): inside the
 * slab's columns its masks (rows -1..16) and two more cells, outside them all 20 cells from the 3x3 chunks
 * (one column pointer, rows read in order; below the world bedrock, above it and in a missing chunk air).
 * Solid: opaque cubes, and far-opaque cubes (ice) with the cell over each (so ice in a block's lower row
 * fills the block: a frozen lake's ice there does not round down into the water under it). */
static void lod_column_masks(const MesherContext *ctx, const MesherSlab *slab, int slice, int x, int z,
                             uint32_t masks[3])
{
    uint32_t o = 0, l = 0, w = 0, ice = 0;
    bool in_slab = x >= -1 && x <= CHUNK_SIZE_X && z >= -1 && z <= CHUNK_SIZE_Z;
    if (in_slab) {
        o = slab->opaque[SLAB_COLUMN(x, z)] << 1;
        l = slab->leaves[SLAB_COLUMN(x, z)] << 1;
        w = slab->water[SLAB_COLUMN(x, z)] << 1;
        ice = slab->far_opaque[SLAB_COLUMN(x, z)] << 1;
    }
    bool missing;
    const int32_t *column = mesher_source_column(ctx, x, z, &missing);
    int y0 = slice * CHUNK_SLICE_HEIGHT - 2;
    if (in_slab) {   /* the two rows beyond the slab's: their kinds' bits straight in */
        for (int r = 0; r < 20; r += 19) {
            int wy = y0 + r;
            if (wy >= CHUNK_SIZE_Y || (missing && wy >= 0)) continue;   /* air: no bits */
            unsigned k = wy < 0 ? ctx->kind[BLOCK_BEDROCK] : ctx->kind[cell_contents(cell_load(&column[wy]))];
            o |= (uint32_t)(k & MESHER_KIND_OPAQUE ? 1u : 0u) << r;
            w |= (uint32_t)(k & MESHER_KIND_WATER ? 1u : 0u) << r;
            l |= (uint32_t)(k & MESHER_KIND_LEAVES ? 1u : 0u) << r;
            ice |= (uint32_t)(k & MESHER_KIND_FAR_OPAQUE ? 1u : 0u) << r;
        }
        masks[0] = o | ice | ice << 1;
        masks[1] = l;
        masks[2] = w;
        return;
    }
    uint8_t kinds[32] = {0};   /* row r's MESHER_KIND_* bits (air: none) */
    for (int r = 0; r < 20; r += in_slab ? 19 : 1) {
        int wy = y0 + r;
        if (wy >= CHUNK_SIZE_Y || (missing && wy >= 0)) continue;   /* air: no bits */
        kinds[r] = wy < 0 ? ctx->kind[BLOCK_BEDROCK] : ctx->kind[cell_contents(cell_load(&column[wy]))];
    }
    uint32_t ko, kn, kw, kl, ki;
    mesher_kind_masks(kinds, &ko, &kn, &kw, &kl, &ki);
    o |= ko;
    w |= kw;
    l |= kl;
    ice |= ki;
    masks[0] = o | ice | ice << 1;
    masks[1] = l;
    masks[2] = w;
}

/* Adds the bits of x (one per block row) to a bit-sliced counter (ones, twos, fours: saturating at 4+). */
static inline void lod_count_bits(uint32_t x, uint32_t *ones, uint32_t *twos, uint32_t *fours)
{
    uint32_t c1 = *ones & x;
    *ones ^= x;
    uint32_t c2 = *twos & c1;
    *twos ^= c1;
    *fours |= c2;
}

/* Classifies the slice's blocks and the ring of blocks around them into kinds[] (rows below the world are
 * bedrock, above it air); false when none of the slice's own, nor of the row under it, is solid or leaves.
 * All 10 blocks of a block column at once: block by's rows are bits r = 2 by + 2 and r + 1 of its 4 columns'
 * masks, so each rule is a few ANDs and ORs over the even bits (leaves counted with a bit-sliced adder). */
static bool lod_classify(const MesherContext *ctx, const MesherSlab *slab, int slice, uint8_t *kinds,
                         uint32_t solid_bits[LOD_GRID * LOD_GRID], uint32_t leaf_bits[LOD_GRID * LOD_GRID])
{
    const uint32_t even = 0x55555u;   /* bit r = 2 by + 2 for by = -1..8 */
    bool any = false;
    for (int bz = -1; bz <= LOD_CELLS; bz++)
        for (int bx = -1; bx <= LOD_CELLS; bx++) {
            uint32_t masks[4][3];   /* per column of the block: opaque, leaves, water; bit r = row r - 2 */
            for (int c = 0; c < 4; c++) lod_column_masks(ctx, slab, slice, 2 * bx + (c & 1), 2 * bz + (c >> 1), masks[c]);
            uint32_t full_column = 0, top_layer = even, water_on_top = 0, ones = 0, twos = 0, fours = 0;
            for (int c = 0; c < 4; c++) {
                uint32_t o = masks[c][0], l = masks[c][1];
                full_column |= o & (o >> 1);
                top_layer &= o >> 1;
                water_on_top |= masks[c][2] >> 1;
                lod_count_bits(l & even, &ones, &twos, &fours);
                lod_count_bits((l >> 1) & even, &ones, &twos, &fours);
            }
            uint32_t leaf = (fours | (twos & ones)) & even;   /* LOD_LEAF_CELLS (3) or more of the 8 cells */
            uint32_t solid = (full_column | top_layer) & ~water_on_top & ~leaf & even;
            _Static_assert(LOD_LEAF_CELLS == 3, "the leaf count test above is for 3 leaves");
            solid_bits[(bx + 1) + LOD_GRID * (bz + 1)] = solid;
            leaf_bits[(bx + 1) + LOD_GRID * (bz + 1)] = leaf;
            for (int by = -1; by <= LOD_CELLS; by++) {
                int r = 2 * by + 2;
                kinds[lod_index(bx, by, bz)] = (uint8_t)((leaf >> r & 1u) * LOD_LEAF | (solid >> r & 1u) * LOD_SOLID);
            }
            /* the slice's own blocks, and the row under it (whose tops this slice draws): by -1..7, bits 0..16 */
            bool own = bx >= 0 && bx < LOD_CELLS && bz >= 0 && bz < LOD_CELLS;
            any = any || (own && ((leaf | solid) & 0x1FFFFu));
        }
    return any;
}

/* Whether every cell of the slab is solid (opaque or far-opaque) below the world's top slice: then every block
 * of the slice and of the ring around it in the slab is solid, no face is uncovered and no edge cell open, and
 * the tops of its highest blocks belong to the slice above. Buried rock costs a check of its masks. */
static bool lod_buried(const MesherSlab *slab, int slice)
{
    if (slice >= CHUNK_SLICES - 1) return false;
    uint32_t all = (1u << SLAB_SIZE) - 1;
    for (int c = 0; c < SLAB_COLUMNS; c++) all &= slab->opaque[c] | slab->far_opaque[c];
    return all == (1u << SLAB_SIZE) - 1;
}

void mesher_lod_build(MesherContext *ctx, const MesherSlab *slab, int slice, VertexList lists[MESH_SUBSET_COUNT])
{
    for (int k = 0; k < MESH_SUBSET_COUNT; k++) {
        lists[k].count = 0;
        mesher_merge_begin_list(ctx, &lists[k]);   /* and its merge records */
    }
    uint8_t kinds[LOD_GRID * LOD_GRID * LOD_GRID];
    uint32_t solid_bits[LOD_GRID * LOD_GRID], leaf_bits[LOD_GRID * LOD_GRID];
    if (lod_buried(slab, slice) || !lod_classify(ctx, slab, slice, kinds, solid_bits, leaf_bits)) return;
    const int32_t *saved = ctx->slab;
    ctx->slab = slab->cells;
    /* A top at the slice's floor belongs to the block under the slice but faces this slice's space: this slice
     * draws it (the row under it, by = -1), the slice under it does not. Ground whose top cell is a slice's
     * first row rounds down to there, where a full cell's row is opaque, and the occlusion walk never enters
     * the slice under it from above: its copy's top there would never be drawn. */
    int first_row = slice > 0 ? -1 : 0;
    bool tops_above = slice < CHUNK_SLICES - 1;
    /* Blocks with no face to show, bit-parallel per block column (bit 2 by + 2, as lod_classify): a leaf block
     * whose 6 neighbours are not empty, a solid one whose 6 neighbours are solid away from the chunk's edge
     * (where lod_edge_open may still show a side). The loop below skips them before any per-face test. */
    uint32_t hidden[LOD_CELLS * LOD_CELLS];
    for (int bz = 0; bz < LOD_CELLS; bz++)
        for (int bx = 0; bx < LOD_CELLS; bx++) {
            int g = (bx + 1) + LOD_GRID * (bz + 1);
            uint32_t so = solid_bits[g], any = so | leaf_bits[g];
            uint32_t side_solid = solid_bits[g - 1] & solid_bits[g + 1] & solid_bits[g - LOD_GRID] & solid_bits[g + LOD_GRID];
            uint32_t side_any = (solid_bits[g - 1] | leaf_bits[g - 1]) & (solid_bits[g + 1] | leaf_bits[g + 1]) &
                                (solid_bits[g - LOD_GRID] | leaf_bits[g - LOD_GRID]) &
                                (solid_bits[g + LOD_GRID] | leaf_bits[g + LOD_GRID]);
            bool inner = bx > 0 && bx < LOD_CELLS - 1 && bz > 0 && bz < LOD_CELLS - 1;
            uint32_t buried_solid = inner ? so & (so << 2) & (so >> 2) & side_solid : 0;
            uint32_t buried_leaf = leaf_bits[g] & (any << 2) & (any >> 2) & side_any;
            hidden[bx + LOD_CELLS * bz] = buried_solid | buried_leaf;
        }
    for (int bz = 0; bz < LOD_CELLS; bz++)
        for (int by = first_row; by < LOD_CELLS; by++)
            for (int bx = 0; bx < LOD_CELLS; bx++) {
                unsigned kind = kinds[lod_index(bx, by, bz)];
                if (!kind || (hidden[bx + LOD_CELLS * bz] >> (2 * by + 2) & 1u)) continue;
                int leaf = kind == LOD_LEAF ? lod_leaf_block(ctx, slab, slice, bx, by, bz) : 0;
                if (kind == LOD_LEAF && !leaf) continue;
                for (int f = 0; f < 6; f++) {
                    if (by < 0 ? f != BLOCK_FACE_POS_Y : by == LOD_CELLS - 1 && f == BLOCK_FACE_POS_Y && tops_above)
                        continue;
                    if (lod_covered(kinds, kind, bx, by, bz, f) &&
                        !(kind == LOD_SOLID && lod_edge_open(ctx, slab, slice, bx, by, bz, f)))
                        continue;
                    int cells[4][3];
                    lod_face_cells(bx, by, bz, f, cells);
                    int id = leaf ? leaf : lod_solid_face_block(ctx, slab, slice, bx, by, bz, f, cells);
                    const BlockDef *def = &ctx->blocks->defs[id];
                    if (!id || !def->defined) continue;
                    int light = lod_face_light(ctx, slab, slice, f, cells);
                    light = light > def->emission ? light : def->emission;
                    uint8_t color[4];
                    mesher_shade(color, mesher_face_tint(ctx, def, (BlockFace)f, 2 * bx, 2 * bz),
                                 ctx->face_factor[f][light * MESHER_SHADOW_DIVISOR]);
                    int subset = leaf ? MESH_SUBSET_ALPHA_TESTED : f < BLOCK_FACE_POS_Y ? f : MESH_SUBSET_OPAQUE_OTHER;
                    lod_emit_face(ctx, &lists[subset], bx, by, bz, f, def->textures[f], color);
                }
            }
    ctx->slab = saved;
}
