/* player.c — walking, jumping, swimming and flying with box collision.
 *
 * Design: velocity changes first (input steering by exponential approach, gravity, jump), then the box
 * moves one axis at a time. sweep_axis walks the slabs of cells the moving face crosses, nearest first,
 * and stops the move at the first slab holding a solid cell under the box's cross-section. Velocity on a
 * blocked axis drops to zero; a blocked fall sets on_ground. Everything is in double (worlds are large),
 * and a tiny epsilon keeps touching faces from counting as overlap. */
#include "player.h"

#include <math.h>
#include <string.h>

#include "camera.h"
#include "strata/cell.h"

#define PLAYER_EPS 1e-7

typedef struct Box {
    double min[3], max[3];
} Box;

static Box player_box(const Player *p)
{
    Box b = {{p->position[0] - PLAYER_HALF_WIDTH, p->position[1], p->position[2] - PLAYER_HALF_WIDTH},
             {p->position[0] + PLAYER_HALF_WIDTH, p->position[1] + PLAYER_HEIGHT, p->position[2] + PLAYER_HALF_WIDTH}};
    return b;
}

/* The cell's contents, with *ready false where its chunk has no contents yet. */
static int cell_contents_at(const Terrain *t, int x, int y, int z, bool *ready)
{
    *ready = true;
    if (y < 0 || y >= CHUNK_SIZE_Y) return BLOCK_AIR;
    const TerrainChunk *c = terrain_get_chunk_at_cell(t, x, z);
    if (!c || c->state < CHUNK_STATE_INVALID_LIGHT) { *ready = false; return BLOCK_AIR; }
    return cell_contents(chunk_get_cell_shared(c, chunk_local_of(x), y, chunk_local_of(z)));
}

static bool cell_is_solid(const Terrain *t, const BlockRegistry *b, int x, int y, int z)
{
    if (y < 0) return true;
    bool ready;
    int id = cell_contents_at(t, x, y, z, &ready);
    return !ready || b->solid[id];
}

static bool cell_is_fluid(const Terrain *t, const BlockRegistry *b, int x, int y, int z)
{
    bool ready;
    int id = cell_contents_at(t, x, y, z, &ready);
    return ready && b->shape[id] == BLOCK_SHAPE_FLUID;
}

/* Cell index range a box covers on one axis (touching faces excluded). */
static void box_cells(const Box *box, int axis, int *lo, int *hi)
{
    *lo = (int)floor(box->min[axis] + PLAYER_EPS);
    *hi = (int)floor(box->max[axis] - PLAYER_EPS);
}

/* true if any cell at coordinate `c` on `axis`, within the box's cross-section, is solid. */
static bool slab_solid(const Terrain *t, const BlockRegistry *b, const Box *box, int axis, int c)
{
    int a1 = (axis + 1) % 3, a2 = (axis + 2) % 3;
    int lo1, hi1, lo2, hi2;
    box_cells(box, a1, &lo1, &hi1);
    box_cells(box, a2, &lo2, &hi2);
    for (int i = lo1; i <= hi1; i++)
        for (int j = lo2; j <= hi2; j++) {
            int p[3];
            p[axis] = c;
            p[a1] = i;
            p[a2] = j;
            if (cell_is_solid(t, b, p[0], p[1], p[2])) return true;
        }
    return false;
}

/* How far the box can move along `axis` toward d (the full d when nothing is in the way). */
static double sweep_axis(const Terrain *t, const BlockRegistry *b, const Box *box, int axis, double d)
{
    if (d > 0) {
        double face = box->max[axis];
        for (int c = (int)ceil(face - PLAYER_EPS); c < face + d; c++)
            if (slab_solid(t, b, box, axis, c)) return c - face;
    } else if (d < 0) {
        double face = box->min[axis];
        for (int c = (int)floor(face + PLAYER_EPS) - 1; c + 1 > face + d; c--)
            if (slab_solid(t, b, box, axis, c)) return (c + 1) - face;
    }
    return d;
}

static bool box_in_fluid(const Terrain *t, const BlockRegistry *b, const Box *box)
{
    int lo[3], hi[3];
    for (int a = 0; a < 3; a++) box_cells(box, a, &lo[a], &hi[a]);
    /* The lower half of the body decides: standing in shallow water at the feet is swimming too. */
    int top = (int)floor(box->min[1] + PLAYER_HEIGHT * 0.5);
    if (top < hi[1]) hi[1] = top;
    for (int y = lo[1]; y <= hi[1]; y++)
        for (int x = lo[0]; x <= hi[0]; x++)
            for (int z = lo[2]; z <= hi[2]; z++)
                if (cell_is_fluid(t, b, x, y, z)) return true;
    return false;
}

static double approach(double v, double target, double rate, double dt)
{
    return v + (target - v) * (1.0 - exp(-rate * dt));
}

void player_init(Player *player, double x, double y, double z)
{
    memset(player, 0, sizeof *player);
    player->position[0] = x;
    player->position[1] = y;
    player->position[2] = z;
}

bool player_area_ready(const Player *player, const Terrain *terrain, ChunkState min_state)
{
    int x0 = chunk_coord_of((int)floor(player->position[0] - PLAYER_HALF_WIDTH - 1.0));
    int x1 = chunk_coord_of((int)floor(player->position[0] + PLAYER_HALF_WIDTH + 1.0));
    int z0 = chunk_coord_of((int)floor(player->position[2] - PLAYER_HALF_WIDTH - 1.0));
    int z1 = chunk_coord_of((int)floor(player->position[2] + PLAYER_HALF_WIDTH + 1.0));
    for (int cz = z0; cz <= z1; cz++)
        for (int cx = x0; cx <= x1; cx++) {
            const TerrainChunk *c = terrain_get_chunk(terrain, cx, cz);
            if (!c || c->state < min_state) return false;
        }
    return true;
}

bool player_step(Player *p, const PlayerInput *in, const Terrain *t, const BlockRegistry *b, double dt)
{
    if (!player_area_ready(p, t, CHUNK_STATE_INVALID_LIGHT)) {
        p->velocity[0] = p->velocity[1] = p->velocity[2] = 0.0;
        return false;
    }
    float fwd[3], right[3];
    camera_walk_axes(p->yaw_deg, fwd, right);
    double wish[3] = {fwd[0] * in->forward + right[0] * in->right, 0.0, fwd[2] * in->forward + right[2] * in->right};
    double len = hypot(wish[0], wish[2]);
    if (len > 1.0) { wish[0] /= len; wish[2] /= len; }
    if (in->sprint && in->forward > 0.0f) { wish[0] *= PLAYER_SPRINT_FACTOR; wish[2] *= PLAYER_SPRINT_FACTOR; }
    double up = in->up > 1.0f ? 1.0 : in->up < -1.0f ? -1.0 : in->up;

    Box box = player_box(p);
    p->in_fluid = box_in_fluid(t, b, &box);
    double *v = p->velocity;
    if (p->flying) {
        for (int a = 0; a < 3; a += 2) v[a] = approach(v[a], wish[a] * PLAYER_FLY_SPEED, 10.0, dt);
        v[1] = approach(v[1], up * PLAYER_FLY_SPEED, 10.0, dt);
    } else if (p->in_fluid) {
        for (int a = 0; a < 3; a += 2) v[a] = approach(v[a], wish[a] * PLAYER_WALK_SPEED * 0.6, 8.0, dt);
        v[1] -= PLAYER_GRAVITY * 0.25 * dt;
        if (in->jump || up > 0) v[1] = approach(v[1], PLAYER_SWIM_SPEED, 10.0, dt);
        if (v[1] < -PLAYER_SWIM_SPEED) v[1] = approach(v[1], -PLAYER_SWIM_SPEED, 10.0, dt);
    } else {
        double rate = p->on_ground ? 20.0 : 4.0;
        for (int a = 0; a < 3; a += 2) v[a] = approach(v[a], wish[a] * PLAYER_WALK_SPEED, rate, dt);
        v[1] -= PLAYER_GRAVITY * dt;
        if (v[1] < -PLAYER_TERMINAL_SPEED) v[1] = -PLAYER_TERMINAL_SPEED;
        if ((in->jump || up > 0) && p->on_ground) v[1] = PLAYER_JUMP_SPEED;
    }

    static const int ORDER[3] = {1, 0, 2};
    p->on_ground = false;
    for (int i = 0; i < 3; i++) {
        int a = ORDER[i];
        double want = v[a] * dt;
        double moved = sweep_axis(t, b, &box, a, want);
        box.min[a] += moved;
        box.max[a] += moved;
        if (moved != want) {
            if (a == 1 && want < 0) p->on_ground = true;
            v[a] = 0.0;
        }
    }
    p->position[0] = (box.min[0] + box.max[0]) * 0.5;
    p->position[1] = box.min[1];
    p->position[2] = (box.min[2] + box.max[2]) * 0.5;
    return true;
}

bool player_overlaps_cell(const Player *player, int x, int y, int z)
{
    Box box = player_box(player);
    int c[3] = {x, y, z};
    for (int a = 0; a < 3; a++)
        if (box.max[a] - PLAYER_EPS <= c[a] || box.min[a] + PLAYER_EPS >= c[a] + 1) return false;
    return true;
}

int player_ground_height(const Player *player, const Terrain *terrain, const BlockRegistry *blocks)
{
    Box box = player_box(player);
    int x0, x1, z0, z1;
    box_cells(&box, 0, &x0, &x1);
    box_cells(&box, 2, &z0, &z1);
    int ground = 0;
    for (int z = z0; z <= z1; z++)
        for (int x = x0; x <= x1; x++) {
            const TerrainChunk *c = terrain_get_chunk_at_cell(terrain, x, z);
            if (!c || c->state < CHUNK_STATE_INVALID_LIGHT) return -1;
            int lx = chunk_local_of(x), lz = chunk_local_of(z);
            for (int y = CHUNK_SIZE_Y - 1; y >= ground; y--) {
                int id = cell_contents(chunk_get_cell_shared(c, lx, y, lz));
                if (blocks->solid[id]) { ground = y + 1; break; }
            }
        }
    return ground;
}

static bool is_tree_or_crop(int id)
{
    return (id >= BLOCK_OAK_TRUNK && id <= BLOCK_MIMOSA_LEAVES) || id == BLOCK_CACTUS || id == BLOCK_PUMPKIN ||
           id == BLOCK_JACK_O_LANTERN;
}

/* The standing height on column (x, z) if its top is natural ground, else -1 (also when not loaded). */
static int ground_column_height(const Terrain *t, const BlockRegistry *b, int x, int z)
{
    const TerrainChunk *c = terrain_get_chunk_at_cell(t, x, z);
    if (!c || c->state < CHUNK_STATE_INVALID_LIGHT) return -1;
    int lx = chunk_local_of(x), lz = chunk_local_of(z);
    for (int y = CHUNK_SIZE_Y - 1; y >= 0; y--) {
        int id = cell_contents(chunk_get_cell_shared(c, lx, y, lz));
        bool fluid = b->shape[id] == BLOCK_SHAPE_FLUID;
        if (!b->solid[id] && !fluid) continue;
        if (fluid || is_tree_or_crop(id)) return -1;
        return y + 1;
    }
    return -1;
}

int player_find_ground_column(const Terrain *terrain, const BlockRegistry *blocks, int x, int z, int radius,
                              int *out_x, int *out_z)
{
    for (int r = 0; r <= radius; r++)
        for (int dz = -r; dz <= r; dz++)
            for (int dx = -r; dx <= r; dx++) {
                if (dx != -r && dx != r && dz != -r && dz != r) continue; /* only the ring */
                int h = ground_column_height(terrain, blocks, x + dx, z + dz);
                if (h < 0) continue;
                *out_x = x + dx;
                *out_z = z + dz;
                return h;
            }
    return -1;
}

void player_eye(const Player *player, double eye[3])
{
    eye[0] = player->position[0];
    eye[1] = player->position[1] + PLAYER_EYE_HEIGHT;
    eye[2] = player->position[2];
}
