/* spawn.c — spawn.h: choosing a new world's spawn: open natural ground, high, with a view, near the start.
 *
 * Design: two passes over the (2R+1)^2 columns around the start. The first finds each column's top from
 * above (the first solid or fluid cell; plants let the scan through) and keeps columns whose top is natural
 * ground: not a fluid, not a trunk, leaves, cactus or crop. The second scores those: height (a view from a
 * hill), the longest of 8 eye-level views (each the shortest of three rays 6 degrees apart, so a trunk a
 * ray slips past still counts) (stopped by any solid cell at feet or eye height, or by ground
 * rising above the eye), how many rays run a good way (not facing a wall), minus trees near the column (not
 * inside a forest) and the distance from the start. Ties keep the first column in a fixed scan order, so
 * the result is a function of cell contents only. Every chunk the search or its rays may read must have
 * final contents (state >= InvalidLight), or the answer is SPAWN_NOT_READY. The game searches on its main
 * thread while the world loads, so each cell is read once where it can be, a column at a time under one hold of
 * the chunk's cell lock: the tree cells of the whole neighbourhood go into a bit map (SpawnTrees) before the
 * scoring, the solid cells the view rays test into another, filled as the rays first cross each column
 * (SpawnSolid), and the reads keep their last chunk (SpawnReader); the answer is the same as reading cell by
 * cell. */
#include "strata/spawn.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SPAWN_TREE_RADIUS 4        /* tree cells counted within this many blocks around the column */
#define SPAWN_TREE_HEIGHT 10       /* ... from the feet up this many blocks (canopies overhead) */
#define SPAWN_CLEAR_RADIUS 1       /* no tree cell at all this close: not under a canopy */
#define SPAWN_GOOD_VIEW 14         /* a ray this long counts as an open direction */
#define SPAWN_RAY_SPREAD_DEG 6.0   /* the side rays of a view, each side of its direction */
#define SPAWN_MIN_VIEW 5           /* a column whose best view is shorter faces walls everywhere */

static bool spawn_is_tree_or_crop(int id)
{
    return (id >= BLOCK_OAK_TRUNK && id <= BLOCK_MIMOSA_LEAVES) || id == BLOCK_CACTUS || id == BLOCK_PUMPKIN ||
           id == BLOCK_JACK_O_LANTERN;
}

/* Reads cells for one search: the chunk of the last cell read is kept, as the scans and rays mostly stay in
 * one chunk for many cells (a hash lookup a cell was half the search's time). */
typedef struct SpawnReader {
    const Terrain *t;
    int cx, cz;                   /* the kept chunk's coordinates */
    const TerrainChunk *c;        /* NULL: none there, or not final yet (its cells read as air) */
    bool kept;
} SpawnReader;

/* The chunk of column (x, z) when its contents are final, else NULL (its cells read as air). */
static const TerrainChunk *spawn_chunk(SpawnReader *r, int x, int z)
{
    int cx = chunk_coord_of(x), cz = chunk_coord_of(z);
    if (!r->kept || cx != r->cx || cz != r->cz) {
        const TerrainChunk *c = terrain_get_chunk_at_cell(r->t, x, z);
        r->c = c && c->state >= CHUNK_STATE_INVALID_LIGHT ? c : NULL; /* never a chunk still being generated */
        r->cx = cx;
        r->cz = cz;
        r->kept = true;
    }
    return r->c;
}

/* Solid cells of the loaded square's columns in the band of heights the view rays look at (a ray from a column
 * standing at y tests y and y + 1, so the band is the lowest standing height to the highest + 1), one bit a cell,
 * each column read once (chunk_get_column_shared) the first time a ray crosses it. The rays of the 33 x 33
 * columns cross the same columns over and over: read cell by cell, with the cell lock each time, the search
 * cost the main thread ~24 ms while the world loaded; the answer is the same. */
#define SPAWN_SOLID_WORDS (CHUNK_SIZE_Y / 64)

typedef struct SpawnSolid {
    int x0, z0, side;        /* the loaded square */
    int y0, height;          /* the band */
    uint8_t *filled;         /* [z][x]: the column has been read */
    uint64_t *bits;          /* [z][x][word]: bit y - y0 */
    int32_t column[CHUNK_SIZE_Y];
} SpawnSolid;

static bool spawn_solid_init(SpawnSolid *s, int x0, int z0, int side, int y_low, int y_high)
{
    s->x0 = x0;
    s->z0 = z0;
    s->side = side;
    s->y0 = y_low;
    s->height = y_high + 2 - y_low;
    s->filled = calloc((size_t)side * side, 1);
    s->bits = malloc(sizeof *s->bits * (size_t)side * side * SPAWN_SOLID_WORDS);
    return s->filled && s->bits;
}

static void spawn_solid_free(SpawnSolid *s)
{
    free(s->filled);
    free(s->bits);
}

/* Whether cell (x, y) or (x, y + 1) of column (x, z) in the square is solid, y in the band. */
static bool spawn_solid_pair(SpawnSolid *s, SpawnReader *r, const BlockRegistry *b, int x, int y, int z)
{
    size_t k = (size_t)(z - s->z0) * s->side + (size_t)(x - s->x0);
    uint64_t *bits = s->bits + k * SPAWN_SOLID_WORDS;
    if (!s->filled[k]) {
        s->filled[k] = 1;
        memset(bits, 0, sizeof *bits * SPAWN_SOLID_WORDS);
        const TerrainChunk *c = spawn_chunk(r, x, z);
        if (c) {
            chunk_get_column_shared(c, chunk_local_of(x), chunk_local_of(z), s->y0, s->height, s->column);
            for (int i = 0; i < s->height; i++)
                if (b->solid[cell_contents(s->column[i])]) bits[i >> 6] |= 1ull << (i & 63);
        }
    }
    int i = y - s->y0;
    return ((bits[i >> 6] >> (i & 63)) & 1u) || ((bits[(i + 1) >> 6] >> ((i + 1) & 63)) & 1u);
}

/* Standing height on the column (top solid + 1) when its top is natural ground, else -1. */
static int spawn_column_height(SpawnReader *r, const BlockRegistry *b, int x, int z)
{
    int32_t column[CHUNK_SIZE_Y];
    const TerrainChunk *c = spawn_chunk(r, x, z);   /* final: spawn_chunks_ready */
    if (!c) return -1;
    /* under one hold of the cell lock: the worker may be lighting it */
    chunk_get_column_shared(c, chunk_local_of(x), chunk_local_of(z), 0, CHUNK_SIZE_Y, column);
    for (int y = CHUNK_SIZE_Y - 1; y >= 0; y--) {
        int id = cell_contents(column[y]);
        bool fluid = b->shape[id] == BLOCK_SHAPE_FLUID;
        if (!b->solid[id] && !fluid) continue;
        if (fluid || spawn_is_tree_or_crop(id)) return -1;
        return y + 2 < CHUNK_SIZE_Y ? y + 1 : -1;
    }
    return -1;
}

static bool spawn_chunks_ready(const Terrain *t, int x0, int z0, int x1, int z1)
{
    for (int cz = chunk_coord_of(z0); cz <= chunk_coord_of(z1); cz++)
        for (int cx = chunk_coord_of(x0); cx <= chunk_coord_of(x1); cx++) {
            const TerrainChunk *c = terrain_get_chunk(t, cx, cz);
            if (!c || c->state < CHUNK_STATE_INVALID_LIGHT) return false;
        }
    return true;
}

/* The loaded square: [x0, x1] x [z0, z1]. */
typedef struct SpawnBox { int x0, z0, x1, z1; } SpawnBox;

/* Blocks an eye-level ray from the column runs before something blocks it (SPAWN_VIEW_RANGE at most; it ends
 * at the loaded square's edge). */
static int spawn_view(SpawnReader *r, SpawnSolid *solid, const BlockRegistry *b, const SpawnBox *box, int x, int y,
                      int z, double dx, double dz)
{
    for (int step = 1; step <= SPAWN_VIEW_RANGE; step++) {
        int cx = (int)floor(x + 0.5 + dx * step), cz = (int)floor(z + 0.5 + dz * step);
        if (cx < box->x0 || cx > box->x1 || cz < box->z0 || cz > box->z1) return step - 1;
        if (spawn_solid_pair(solid, r, b, cx, y, cz)) return step - 1;
    }
    return SPAWN_VIEW_RANGE;
}

/* Tree cells over the search's columns and their SPAWN_TREE_RADIUS margin, one bit a cell, in the band of
 * heights that any column's tree count looks at (from the lowest standing height to SPAWN_TREE_HEIGHT over the
 * highest): each cell is read once, not once for each of the 81 columns around it that count it. */
#define SPAWN_TREE_SIDE (2 * (SPAWN_SEARCH_RADIUS + SPAWN_TREE_RADIUS) + 1)
#define SPAWN_TREE_WORDS (CHUNK_SIZE_Y / 64 + 1)

typedef struct SpawnTrees {
    int x0, z0, y0;                                           /* the band's first cell */
    uint64_t bits[SPAWN_TREE_SIDE][SPAWN_TREE_SIDE][SPAWN_TREE_WORDS]; /* [z][x]: bit y - y0 */
} SpawnTrees;

static void spawn_trees_map(SpawnReader *r, SpawnTrees *m, int x, int z, int y_low, int y_high)
{
    memset(m->bits, 0, sizeof m->bits);
    m->x0 = x - SPAWN_SEARCH_RADIUS - SPAWN_TREE_RADIUS;
    m->z0 = z - SPAWN_SEARCH_RADIUS - SPAWN_TREE_RADIUS;
    m->y0 = y_low;
    int y_end = y_high + SPAWN_TREE_HEIGHT < CHUNK_SIZE_Y ? y_high + SPAWN_TREE_HEIGHT : CHUNK_SIZE_Y;
    int32_t column[CHUNK_SIZE_Y];
    for (int j = 0; j < SPAWN_TREE_SIDE; j++)
        for (int i = 0; i < SPAWN_TREE_SIDE; i++) {
            const TerrainChunk *c = spawn_chunk(r, m->x0 + i, m->z0 + j);
            if (!c) continue;   /* not final: air */
            chunk_get_column_shared(c, chunk_local_of(m->x0 + i), chunk_local_of(m->z0 + j), y_low, y_end - y_low,
                                    column);
            for (int y = y_low; y < y_end; y++)
                if (spawn_is_tree_or_crop(cell_contents(column[y - y_low])))
                    m->bits[j][i][(y - y_low) >> 6] |= 1ull << ((y - y_low) & 63);
        }
}

/* Tree cells in [y, y + SPAWN_TREE_HEIGHT) of one mapped column. */
static int spawn_trees_in(const SpawnTrees *m, int i, int j, int y)
{
    int n = 0;
    for (int b = y - m->y0, end = b + SPAWN_TREE_HEIGHT; b < end; b++)
        n += (int)(m->bits[j][i][b >> 6] >> (b & 63) & 1u);
    return n;
}

/* Tree cells around and above the column; -1 when one is within SPAWN_CLEAR_RADIUS (under a canopy). */
static int spawn_trees_near(const SpawnTrees *m, int x, int y, int z)
{
    int n = 0;
    for (int dz = -SPAWN_TREE_RADIUS; dz <= SPAWN_TREE_RADIUS; dz++)
        for (int dx = -SPAWN_TREE_RADIUS; dx <= SPAWN_TREE_RADIUS; dx++) {
            int k = spawn_trees_in(m, x + dx - m->x0, z + dz - m->z0, y);
            if (k > 0 && abs(dx) <= SPAWN_CLEAR_RADIUS && abs(dz) <= SPAWN_CLEAR_RADIUS) return -1;
            n += k;
        }
    return n;
}

SpawnStatus spawn_choose(const Terrain *terrain, const BlockRegistry *blocks, int x, int z, SpawnChoice *out)
{
    return spawn_choose_within(terrain, blocks, x, z, INT_MAX, out);
}

SpawnStatus spawn_choose_within(const Terrain *terrain, const BlockRegistry *blocks, int x, int z, int loaded,
                                SpawnChoice *out)
{
    int reach = SPAWN_SEARCH_RADIUS + SPAWN_VIEW_RANGE + 1;
    if (loaded < reach) reach = loaded < SPAWN_SEARCH_RADIUS + 2 ? SPAWN_SEARCH_RADIUS + 2 : loaded;
    if (!spawn_chunks_ready(terrain, x - reach, z - reach, x + reach, z + reach)) return SPAWN_NOT_READY;
    const SpawnBox box = {x - reach, z - reach, x + reach, z + reach};
    double dir_x[SPAWN_DIRECTIONS * 3], dir_z[SPAWN_DIRECTIONS * 3];
    for (int d = 0; d < SPAWN_DIRECTIONS; d++)
        for (int k = 0; k < 3; k++) {
            double yaw = (d * (360.0 / SPAWN_DIRECTIONS) + (k - 1) * SPAWN_RAY_SPREAD_DEG) * M_PI / 180.0;
            dir_x[d * 3 + k] = sin(yaw);
            dir_z[d * 3 + k] = -cos(yaw);
        }
    /* first each column's standing height (-1: not natural ground), then the trees in the band they span */
    enum { SIDE = 2 * SPAWN_SEARCH_RADIUS + 1 };
    int height[SIDE][SIDE];
    int y_low = CHUNK_SIZE_Y, y_high = -1;
    SpawnReader reader = {.t = terrain};
    for (int dz = -SPAWN_SEARCH_RADIUS; dz <= SPAWN_SEARCH_RADIUS; dz++)
        for (int dx = -SPAWN_SEARCH_RADIUS; dx <= SPAWN_SEARCH_RADIUS; dx++) {
            int y = spawn_column_height(&reader, blocks, x + dx, z + dz);
            height[dz + SPAWN_SEARCH_RADIUS][dx + SPAWN_SEARCH_RADIUS] = y;
            if (y >= 0 && y < y_low) y_low = y;
            if (y > y_high) y_high = y;
        }
    if (y_high < 0) return SPAWN_NONE;
    SpawnTrees *trees = malloc(sizeof *trees);   /* 67 kB: not on the stack */
    if (!trees) return SPAWN_NONE;               /* out of memory: the caller's fallback, natural ground */
    spawn_trees_map(&reader, trees, x, z, y_low, y_high);
    SpawnSolid solid;
    if (!spawn_solid_init(&solid, box.x0, box.z0, box.x1 - box.x0 + 1, y_low, y_high)) {
        spawn_solid_free(&solid);
        free(trees);
        return SPAWN_NONE;   /* out of memory: the caller's fallback, natural ground */
    }
    bool found = false;
    SpawnChoice best = {0};
    for (int dz = -SPAWN_SEARCH_RADIUS; dz <= SPAWN_SEARCH_RADIUS; dz++)
        for (int dx = -SPAWN_SEARCH_RADIUS; dx <= SPAWN_SEARCH_RADIUS; dx++) {
            int cx = x + dx, cz = z + dz;
            int y = height[dz + SPAWN_SEARCH_RADIUS][dx + SPAWN_SEARCH_RADIUS];
            if (y < 0) continue;
            int longest = -1, longest_dir = 0, open = 0;
            for (int d = 0; d < SPAWN_DIRECTIONS; d++) {
                int v = SPAWN_VIEW_RANGE; /* a view is as long as the shortest of three rays a few degrees apart */
                for (int k = 0; k < 3; k++) {
                    int r = spawn_view(&reader, &solid, blocks, &box, cx, y, cz, dir_x[d * 3 + k], dir_z[d * 3 + k]);
                    if (r < v) v = r;
                }
                if (v > longest) { longest = v; longest_dir = d; }
                open += v >= SPAWN_GOOD_VIEW;
            }
            if (longest < SPAWN_MIN_VIEW) continue;
            int tree_cells = spawn_trees_near(trees, cx, y, cz);
            if (tree_cells < 0) continue;
            int distance = (int)lround(sqrt((double)(dx * dx + dz * dz)));
            int score = y * 4 + longest * 2 + open * 8 - tree_cells * 2 - distance * 2;
            if (!found || score > best.score) {
                found = true;
                best.x = cx;
                best.y = y;
                best.z = cz;
                best.yaw_deg = (float)(longest_dir * (360.0 / SPAWN_DIRECTIONS));
                best.view_blocks = longest;
                best.score = score;
            }
        }
    spawn_solid_free(&solid);
    free(trees);
    if (!found) return SPAWN_NONE;
    *out = best;
    return SPAWN_FOUND;
}
