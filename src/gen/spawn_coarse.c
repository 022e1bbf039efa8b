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
 * for a new world, and spawn_choose then picks the exact column from the cells around it. */
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
#define SPAWN_COARSE_TREES_MAX 65536

typedef struct CoarseMap {
    const Generator *g;
    int ocean;
    int x0, z0, w, h;             /* the crown mask's square */
    uint8_t *crown;               /* w * h: 1 where a tree's crown stands (NULL: no trees known) */
} CoarseMap;

static bool coarse_crown(const CoarseMap *m, int x, int z)
{
    if (!m->crown) return false;
    int i = x - m->x0, j = z - m->z0;
    return i >= 0 && j >= 0 && i < m->w && j < m->h && m->crown[(size_t)j * (size_t)m->w + (size_t)i];
}

static void coarse_mark_trees(CoarseMap *m)
{
    GeneratorScatterPoint *pts = malloc(sizeof *pts * SPAWN_COARSE_TREES_MAX);
    m->crown = calloc((size_t)m->w * (size_t)m->h, 1);
    int n = pts && m->crown ? generator_list_scatter(m->g, m->x0, m->z0, m->x0 + m->w, m->z0 + m->h, pts,
                                                     SPAWN_COARSE_TREES_MAX)
                            : -1;
    if (n < 0) { /* out of memory: judge without trees */
        free(m->crown);
        m->crown = NULL;
    }
    for (int k = 0; k < n && k < SPAWN_COARSE_TREES_MAX; k++) {
        if (pts[k].kind != SCATTER_TREE) continue;
        for (int dz = -SPAWN_COARSE_CROWN; dz <= SPAWN_COARSE_CROWN; dz++)
            for (int dx = -SPAWN_COARSE_CROWN; dx <= SPAWN_COARSE_CROWN; dx++) {
                int i = pts[k].x + dx - m->x0, j = pts[k].z + dz - m->z0;
                if (i >= 0 && j >= 0 && i < m->w && j < m->h) m->crown[(size_t)j * (size_t)m->w + (size_t)i] = 1;
            }
    }
    free(pts);
}

static float coarse_height(const CoarseMap *m, int x, int z)
{
    return floorf(m->g->calculate_height(m->g, (float)x + 0.5f, (float)z + 0.5f));
}

/* The score of standing at (x, z), or -1e9 where no one should stand (water, a crown). */
static double coarse_score(const CoarseMap *m, int x, int z, int start_x, int start_z)
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
    CoarseMap m = {g, g->ocean_level(g), x - SPAWN_COARSE_RADIUS - margin, z - SPAWN_COARSE_RADIUS - margin,
                   2 * (SPAWN_COARSE_RADIUS + margin) + 1, 2 * (SPAWN_COARSE_RADIUS + margin) + 1, NULL};
    coarse_mark_trees(&m);
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
    if (best > -1e8) {
        *out_x = bx;
        *out_z = bz;
    }
}
