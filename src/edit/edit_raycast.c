/* edit_raycast.c — the block the player is looking at: Amanatides & Woo's voxel traversal.
 *
 * Design. The ray visits every cell it passes through, in order, stepping one cell at a time along the
 * axis whose next cell boundary is nearest (tMax), so no cell is skipped at any angle and the cost is
 * linear in the distance. The axis of the last step names the face the ray entered through; the cell
 * before the hit is where a placed block goes. Air and fluids (water, magma) are looked through. Cells
 * are read with relaxed atomic loads; unloaded chunks, chunks the worker is still loading or generating
 * (main state below InvalidLight: their cells are written without atomics and must not be read) and y
 * outside 0..255 read as air. A ray that starts inside a solid cell hits that cell at distance 0, on the
 * face opposite its main direction. A block smaller than its cell (snow cover, a torch, a plant:
 * block_shape_bounds) is hit where the ray enters its box, on that box's face; a ray that passes beside it
 * goes on to the cells behind (it hit the whole cell once, so the outline sat a block above the snow and
 * the crosshair's ground was never the target). */
#include <math.h>
#include <stddef.h>

#include "strata/edit.h"

/* The cell at (x, y, z), air where the main thread may not look. The chunk of the previous call is kept:
 * consecutive cells of a ray are nearly always in the same chunk. */
static int32_t raycast_cell(const Terrain *terrain, const TerrainChunk **cached, int x, int y, int z)
{
    if (y < 0 || y >= CHUNK_SIZE_Y) return 0;
    const TerrainChunk *chunk = *cached;
    if (!chunk || chunk->coord_x != chunk_coord_of(x) || chunk->coord_z != chunk_coord_of(z)) {
        chunk = terrain_get_chunk_at_cell(terrain, x, z);
        *cached = chunk;
    }
    if (!chunk || chunk->state < CHUNK_STATE_INVALID_LIGHT) return 0;
    return chunk_get_cell_shared(chunk, chunk_local_of(x), y, chunk_local_of(z));
}

static bool raycast_passes(const BlockRegistry *blocks, int32_t value)
{
    int id = cell_contents(value);
    if (id == BLOCK_AIR) return true;
    if (blocks) return blocks->shape[id] == BLOCK_SHAPE_FLUID || blocks->shape[id] == BLOCK_SHAPE_NONE;
    return id == BLOCK_WATER || id == BLOCK_MAGMA;
}

/* The face a ray entering a cell along `axis` (0 x, 1 y, 2 z) in direction `step` passes through. */
static int raycast_entry_face(int axis, int step)
{
    switch (axis) {
    case 0: return step > 0 ? BLOCK_FACE_NEG_X : BLOCK_FACE_POS_X;
    case 1: return step > 0 ? BLOCK_FACE_NEG_Y : BLOCK_FACE_POS_Y;
    default: return step > 0 ? BLOCK_FACE_NEG_Z : BLOCK_FACE_POS_Z;
    }
}

/* Where the ray (origin + t d) enters the shape's box in `cell` (block_shape_bounds: a layer's slab, a torch's
 * stick, a plant's middle): false when it passes by or enters past max_distance. *t_hit is the entry distance
 * (0 from inside the box) and *axis the axis of the face it enters through (left as it is from inside). */
static bool raycast_shape(BlockShape shape, const float origin[3], const double d[3], const int cell[3],
                          double max_distance, double *t_hit, int *axis)
{
    float lo[3], hi[3];
    block_shape_bounds(shape, lo, hi);
    double t_near = -INFINITY, t_far = INFINITY;
    int near_axis = *axis;
    for (int a = 0; a < 3; a++) {
        double o = origin[a], b0 = cell[a] + (double)lo[a], b1 = cell[a] + (double)hi[a];
        if (d[a] == 0.0) {
            if (o < b0 || o > b1) return false;
            continue;
        }
        double t0 = (b0 - o) / d[a], t1 = (b1 - o) / d[a];
        if (t0 > t1) { double x = t0; t0 = t1; t1 = x; }
        if (t0 > t_near) { t_near = t0; near_axis = a; }
        if (t1 < t_far) t_far = t1;
    }
    if (t_near > t_far || t_far < 0.0 || t_near > max_distance) return false;
    if (t_near > 0.0) {
        *t_hit = t_near;
        *axis = near_axis;
    } else {
        *t_hit = 0.0;
    }
    return true;
}

bool edit_raycast(const Terrain *terrain, const BlockRegistry *blocks, const float origin[3],
                  const float direction[3], float max_distance, RaycastHit *hit)
{
    double len = sqrt((double)direction[0] * direction[0] + (double)direction[1] * direction[1] +
                      (double)direction[2] * direction[2]);
    if (!(len > 0.0) || !(max_distance >= 0.0f)) return false;

    double d[3], t_max[3], t_delta[3];
    int cell[3], step[3];
    for (int a = 0; a < 3; a++) {
        d[a] = direction[a] / len;
        cell[a] = (int)floor(origin[a]);
        if (d[a] > 0) {
            step[a] = 1;
            t_delta[a] = 1.0 / d[a];
            t_max[a] = (cell[a] + 1 - (double)origin[a]) / d[a];
        } else if (d[a] < 0) {
            step[a] = -1;
            t_delta[a] = -1.0 / d[a];
            t_max[a] = ((double)origin[a] - cell[a]) / -d[a];
        } else {
            step[a] = 0;
            t_delta[a] = INFINITY;
            t_max[a] = INFINITY;
        }
    }

    /* Main axis, for a hit in the starting cell. */
    int axis = 0;
    for (int a = 1; a < 3; a++)
        if (fabs(d[a]) > fabs(d[axis])) axis = a;
    double t = 0.0;
    const TerrainChunk *chunk = NULL;
    /* Each step crosses one cell boundary; the ray crosses at most about 3 per unit of length. */
    long max_steps = (long)(3.0 * max_distance) + 4;
    for (long i = 0; i <= max_steps; i++) {
        int32_t value = raycast_cell(terrain, &chunk, cell[0], cell[1], cell[2]);
        /* A block smaller than its cell is hit only where the ray meets its box; past it the ray goes on. */
        BlockShape shape = blocks ? (BlockShape)blocks->shape[cell_contents(value)] : BLOCK_SHAPE_CUBE;
        double t_hit = t;
        if (!raycast_passes(blocks, value) &&
            (shape == BLOCK_SHAPE_CUBE || raycast_shape(shape, origin, d, cell, max_distance, &t_hit, &axis))) {
            hit->x = cell[0];
            hit->y = cell[1];
            hit->z = cell[2];
            hit->face = raycast_entry_face(axis, step[axis] ? step[axis] : 1);
            hit->place_x = cell[0];
            hit->place_y = cell[1];
            hit->place_z = cell[2];
            int back = step[axis] ? step[axis] : 1;
            if (axis == 0) hit->place_x -= back;
            else if (axis == 1) hit->place_y -= back;
            else hit->place_z -= back;
            hit->distance = (float)t_hit;
            hit->value = value;
            return true;
        }
        axis = 0;
        if (t_max[1] < t_max[axis]) axis = 1;
        if (t_max[2] < t_max[axis]) axis = 2;
        t = t_max[axis];
        if (t > max_distance) return false;
        cell[axis] += step[axis];
        t_max[axis] += t_delta[axis];
    }
    return false;
}
