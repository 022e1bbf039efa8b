/* spawn_coarse.c — spawn.h's first step: where, within a few hundred blocks of the generator's coarse spawn,
 * a new world's first view is worth it, judged before any chunk exists.
 *
 * Design: candidates every SPAWN_COARSE_STEP blocks within SPAWN_COARSE_RADIUS of the start; each stands at
 * the generator's 2D height (structures' flat zones included) and must be dry land clear of trees. From an
 * eye 2.6 blocks over it, 8 rays march over the height field SPAWN_COARSE_RAY blocks at a time until the
 * ground rises above the eye or a tree's crown (a square of SPAWN_COARSE_CROWN around each trunk of the
 * generator's scatter objects) stands in the way. The score favours the longest ray, many open directions
 * (not a gorge), a rise over the ground around, and nearness; the best candidate is then looked at again
 * every 4 blocks around it. Ties keep the first in scan order. Pure in the generator: the game calls it once
 * for a new world, and spawn_choose then picks the exact column from the cells around it. It runs before any
 * chunk is made, so it is the launch's: each column's height is asked once (the rays cross), and the trees are
 * listed only in the scatter tiles the rays reach, with one kept context (generator_list_scatter_in) — the
 * same answer as marking the whole square's first (300 seeds), in ~0.6 of the time. */
#include "strata/spawn.h"
#include "strata/scatter.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#define SPAWN_COARSE_STEP 16      /* candidate spacing, blocks */
#define SPAWN_COARSE_RAY 4        /* ray march step, blocks */
#define SPAWN_COARSE_RANGE 96     /* ray length, blocks */
#define SPAWN_COARSE_OPEN 48      /* a ray this long is an open direction */
#define SPAWN_COARSE_CROWN 4      /* blocks around a trunk that a crown blocks at eye level */
#define SPAWN_COARSE_EYE 2.6f     /* eye over the ground's top cell */
#define SPAWN_COARSE_TILE_SHIFT 4 /* the scatter's tiles, 16 blocks (a chunk's square): crowns are listed a tile at a time */
#define SPAWN_COARSE_TILE (1 << SPAWN_COARSE_TILE_SHIFT)
#define SPAWN_COARSE_TILE_TREES 4096

typedef struct CoarseMap {
    const Generator *g;
    int ocean;
    int x0, z0, w, h;             /* the square of the crown mask and the heights */
    uint8_t *crown;               /* w * h: 1 where a tree's crown stands (NULL: no trees known) */
    float *height;                /* w * h: the generator's height, NaN until first asked (NULL: none kept) */
    int tx0, tz0, tw, th;         /* the scatter tiles over the square */
    uint8_t *listed;              /* tw * th: 1 once the tile's trees are in the crown mask */
    GeneratorScatterPoint *pts;   /* SPAWN_COARSE_TILE_TREES: one tile's listing */
    GenContext *ctx;              /* keeps the scatter's tiles between the listings */
} CoarseMap;

/* Marks the crowns of the trees standing in scatter tile (tx, tz), clipped to the square (a tile whose listing
 * fails, out of memory, is judged without trees). */
static void coarse_list_tile(CoarseMap *m, int tx, int tz)
{
    int x0 = tx * SPAWN_COARSE_TILE, z0 = tz * SPAWN_COARSE_TILE;
    int x1 = x0 + SPAWN_COARSE_TILE, z1 = z0 + SPAWN_COARSE_TILE;
    if (x0 < m->x0) x0 = m->x0;
    if (z0 < m->z0) z0 = m->z0;
    if (x1 > m->x0 + m->w) x1 = m->x0 + m->w;
    if (z1 > m->z0 + m->h) z1 = m->z0 + m->h;
    int n = generator_list_scatter_in(m->g, m->ctx, x0, z0, x1, z1, m->pts, SPAWN_COARSE_TILE_TREES);
    for (int k = 0; k < n && k < SPAWN_COARSE_TILE_TREES; k++) {
        if (m->pts[k].kind != SCATTER_TREE) continue;
        for (int dz = -SPAWN_COARSE_CROWN; dz <= SPAWN_COARSE_CROWN; dz++)
            for (int dx = -SPAWN_COARSE_CROWN; dx <= SPAWN_COARSE_CROWN; dx++) {
                int i = m->pts[k].x + dx - m->x0, j = m->pts[k].z + dz - m->z0;
                if (i >= 0 && j >= 0 && i < m->w && j < m->h) m->crown[(size_t)j * (size_t)m->w + (size_t)i] = 1;
            }
    }
}

/* Whether a tree's crown stands at (x, z). The trees are listed only in the tiles the candidates' rays reach
 * (every tile within SPAWN_COARSE_CROWN of the columns asked): the rays stop at the first hill or crown, so
 * most of the square's tiles are never needed (their scatter derivation was most of the search's time). */
static bool coarse_crown(CoarseMap *m, int x, int z)
{
    if (!m->crown) return false;
    int i = x - m->x0, j = z - m->z0;
    if (i < 0 || j < 0 || i >= m->w || j >= m->h) return false;
    int ax = x - SPAWN_COARSE_CROWN < m->x0 ? m->x0 : x - SPAWN_COARSE_CROWN;
    int bx = x + SPAWN_COARSE_CROWN >= m->x0 + m->w ? m->x0 + m->w - 1 : x + SPAWN_COARSE_CROWN;
    int az = z - SPAWN_COARSE_CROWN < m->z0 ? m->z0 : z - SPAWN_COARSE_CROWN;
    int bz = z + SPAWN_COARSE_CROWN >= m->z0 + m->h ? m->z0 + m->h - 1 : z + SPAWN_COARSE_CROWN;
    for (int tz = az >> SPAWN_COARSE_TILE_SHIFT; tz <= bz >> SPAWN_COARSE_TILE_SHIFT; tz++)
        for (int tx = ax >> SPAWN_COARSE_TILE_SHIFT; tx <= bx >> SPAWN_COARSE_TILE_SHIFT; tx++) {
            uint8_t *done = &m->listed[(size_t)(tz - m->tz0) * (size_t)m->tw + (size_t)(tx - m->tx0)];
            if (*done) continue;
            *done = 1;
            coarse_list_tile(m, tx, tz);
        }
    return m->crown[(size_t)j * (size_t)m->w + (size_t)i];
}

/* The crown mask, the tiles listed so far and the tile listing's room (all NULL, out of memory: no trees). */
static void coarse_trees_start(CoarseMap *m)
{
    m->tx0 = m->x0 >> SPAWN_COARSE_TILE_SHIFT;
    m->tz0 = m->z0 >> SPAWN_COARSE_TILE_SHIFT;
    m->tw = ((m->x0 + m->w - 1) >> SPAWN_COARSE_TILE_SHIFT) - m->tx0 + 1;
    m->th = ((m->z0 + m->h - 1) >> SPAWN_COARSE_TILE_SHIFT) - m->tz0 + 1;
    m->crown = calloc((size_t)m->w * (size_t)m->h, 1);
    m->listed = calloc((size_t)m->tw * (size_t)m->th, 1);
    m->pts = malloc(sizeof *m->pts * SPAWN_COARSE_TILE_TREES);
    m->ctx = gen_context_create();
    if (!m->crown || !m->listed || !m->pts || !m->ctx) {
        free(m->crown);
        free(m->listed);
        free(m->pts);
        gen_context_destroy(m->ctx);
        m->crown = NULL;
        m->listed = NULL;
        m->pts = NULL;
        m->ctx = NULL;
    }
}

/* The ground's height at column (x, z). The candidates' rays cross each other's columns (those along the axes
 * land on one 4-block lattice), so each column's is asked of the generator once: ~half the calls. */
static float coarse_height(const CoarseMap *m, int x, int z)
{
    int i = x - m->x0, j = z - m->z0;
    float *kept = m->height && i >= 0 && j >= 0 && i < m->w && j < m->h
                      ? &m->height[(size_t)j * (size_t)m->w + (size_t)i] : NULL;
    if (kept && !isnan(*kept)) return *kept;
    float h = floorf(m->g->calculate_height(m->g, (float)x + 0.5f, (float)z + 0.5f));
    if (kept) *kept = h;
    return h;
}

/* The score of standing at (x, z), or -1e9 where no one should stand (water, a crown). */
static double coarse_score(CoarseMap *m, int x, int z, int start_x, int start_z)
{
    float h = coarse_height(m, x, z);
    if (h < (float)m->ocean + 2.0f || coarse_crown(m, x, z)) return -1e9;
    float eye = h + SPAWN_COARSE_EYE;
    int longest = 0, open = 0;
    float around = 0.0f;
    for (int d = 0; d < 8; d++) {
        double yaw = d * (M_PI / 4.0);
        double dx = sin(yaw), dz = -cos(yaw);
        int view = SPAWN_COARSE_RANGE;
        for (int s = SPAWN_COARSE_RAY; s <= SPAWN_COARSE_RANGE; s += SPAWN_COARSE_RAY) {
            int px = (int)floor(x + 0.5 + dx * s), pz = (int)floor(z + 0.5 + dz * s);
            float ph = coarse_height(m, px, pz);
            if (s == 3 * SPAWN_COARSE_RAY) around += ph;
            if (ph + 1.0f > eye || coarse_crown(m, px, pz)) {
                view = s - SPAWN_COARSE_RAY;
                if (s < 3 * SPAWN_COARSE_RAY) around += coarse_height(m, (int)floor(x + 0.5 + dx * 12),
                                                                     (int)floor(z + 0.5 + dz * 12));
                break;
            }
        }
        if (view > longest) longest = view;
        open += view >= SPAWN_COARSE_OPEN;
    }
    float rise = h - around / 8.0f;   /* over the ground 12 blocks around */
    if (rise > 8.0f) rise = 8.0f;     /* a peak is not better than a rise */
    double dist = sqrt((double)(x - start_x) * (x - start_x) + (double)(z - start_z) * (z - start_z));
    double score = longest * 1.0 + open * 12.0 + rise * 4.0 - dist * 0.1;
    if (longest < SPAWN_COARSE_OPEN) score -= 1000.0;
    return score;
}

void spawn_coarse_start(const Generator *g, int x, int z, int *out_x, int *out_z)
{
    *out_x = x;
    *out_z = z;
    int margin = SPAWN_COARSE_RANGE + SPAWN_COARSE_CROWN + 8;
    CoarseMap m = {.g = g, .ocean = g->ocean_level(g), .x0 = x - SPAWN_COARSE_RADIUS - margin,
                   .z0 = z - SPAWN_COARSE_RADIUS - margin, .w = 2 * (SPAWN_COARSE_RADIUS + margin) + 1,
                   .h = 2 * (SPAWN_COARSE_RADIUS + margin) + 1};
    coarse_trees_start(&m);
    m.height = malloc(sizeof *m.height * (size_t)m.w * (size_t)m.h);   /* out of memory: every call asks */
    for (size_t k = 0; m.height && k < (size_t)m.w * (size_t)m.h; k++) m.height[k] = NAN;
    double best = -1e8;
    int bx = x, bz = z;
    for (int dz = -SPAWN_COARSE_RADIUS; dz <= SPAWN_COARSE_RADIUS; dz += SPAWN_COARSE_STEP)
        for (int dx = -SPAWN_COARSE_RADIUS; dx <= SPAWN_COARSE_RADIUS; dx += SPAWN_COARSE_STEP) {
            if (dx * dx + dz * dz > SPAWN_COARSE_RADIUS * SPAWN_COARSE_RADIUS) continue;
            double s = coarse_score(&m, x + dx, z + dz, x, z);
            if (s > best) {
                best = s;
                bx = x + dx;
                bz = z + dz;
            }
        }
    int cx = bx, cz = bz;
    for (int dz = -SPAWN_COARSE_STEP / 2; dz <= SPAWN_COARSE_STEP / 2; dz += 4)
        for (int dx = -SPAWN_COARSE_STEP / 2; dx <= SPAWN_COARSE_STEP / 2; dx += 4) {
            if (!dx && !dz) continue;
            double s = coarse_score(&m, cx + dx, cz + dz, x, z);
            if (s > best) {
                best = s;
                bx = cx + dx;
                bz = cz + dz;
            }
        }
    free(m.crown);
    free(m.listed);
    free(m.pts);
    gen_context_destroy(m.ctx);
    free(m.height);
    if (best > -1e8) {
        *out_x = bx;
        *out_z = bz;
    }
}
