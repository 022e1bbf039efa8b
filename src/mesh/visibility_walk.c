/* visibility_walk.c — the draw-time half of occlusion culling (visibility.h): a breadth-first walk over
 * chunk slices from the camera's, through faces the slice graphs join, away from the camera, inside the
 * frustum.
 *
 * Design. The walk covers a square of (2 r + 1)^2 chunks x 16 slices around the camera's chunk, reset each
 * run. A slice may be reached through several faces and along paths that went different ways; Minecraft
 * keeps only the first arrival, which can hide a slice seen along a second path. Here a slice is kept per
 * entry face with the directions its paths took (a direction taken bars its opposite); a later arrival
 * through the same face that bars fewer directions walks on again (those sets only shrink, so each slice is
 * queued a bounded number of times). That makes the walk more generous than Minecraft's and never less.
 * Chunks outside the square, and every chunk when the camera is outside the world's height, are not judged
 * (all slices visible). Then, optionally, reached slices hidden behind the chunks' occluder boxes are
 * dropped (visibility_occlusion.c): the walk sees through a hill's surface slices (air above them joins
 * every face), the depth buffer does not. No GL, no allocation per run once the grid fits.
 * The horizon is rebuilt whenever the camera moves (a few ms a run for a view distance of 8). With
 * VisibilityView.horizon_rest, a moving camera whose last horizon dropped under 1/WALK_HORIZON_PAYS of the
 * reached slices (a flight over the land: nothing hides behind hills seen from above) skips it for that
 * many runs, drawing every reached slice, and then tries again: skipping only ever draws more. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "strata/visibility.h"
#include "visibility_internal.h"

#define WALK_SLICES 16
#define WALK_NO_DIRS 0xFFu   /* (slice, entry face) not reached yet */
#define WALK_START_FACE 6    /* the camera's slice: entered through no face */
#define WALK_COORD_MAX 1.0e9 /* blocks: cameras farther out (or not finite) are not judged */
#define WALK_HORIZON_PAYS 16 /* a horizon that drops fewer than reached / 16 slices is not worth rebuilding */

struct VisibilityWalk {
    int radius, side;                 /* square of side x side chunks */
    int centre_x, centre_z;           /* the camera's chunk */
    bool all_visible;                 /* last run judged nothing */
    int reached;
    uint8_t *dirs;                    /* [slice cell][7 entry faces]: directions barred so far, or WALK_NO_DIRS */
    uint16_t *mask;                   /* per chunk: slices reached */
    const VisibilityChunk **graphs;   /* per chunk: what the walk knows of it (NULL: open) */
    uint8_t *graph_known;             /* per chunk: graphs[] looked up this run */
    uint32_t *queue;                  /* cell * 8 + entry face */
    VisibilityOcclusion *occlusion;   /* the occluders' depth buffer (created on first use) */
    bool horizon_valid;               /* occlusion holds the horizon of horizon_camera, _epoch, _square */
    double horizon_camera[3];
    uint64_t horizon_epoch;
    int horizon_square[3];            /* side, first chunk x, first chunk z */
    int occluded;                     /* reached slices the last run dropped as hidden */
    int horizon_rest;                 /* runs of a moving camera left without a horizon (horizon_rest) */
    bool horizon_current;             /* the last run judged by the horizon of its own camera */
    size_t queue_capacity;
    int cells;                        /* side * side * 16 */
};

VisibilityWalk *visibility_walk_create(void)
{
    return calloc(1, sizeof(VisibilityWalk));
}

static void walk_free_grid(VisibilityWalk *w)
{
    free(w->dirs);
    free(w->mask);
    free(w->graphs);
    free(w->graph_known);
    free(w->queue);
    w->dirs = NULL;
    w->mask = NULL;
    w->graphs = NULL;
    w->graph_known = NULL;
    w->queue = NULL;
    w->queue_capacity = 0;
    w->radius = -1;
    w->side = 0;
    w->cells = 0;
}

void visibility_walk_destroy(VisibilityWalk *walk)
{
    if (!walk) return;
    walk_free_grid(walk);
    visibility_occlusion_destroy(walk->occlusion);
    free(walk);
}

static bool walk_fit(VisibilityWalk *w, int radius)
{
    if (w->dirs && w->radius == radius) return true;
    walk_free_grid(w);
    int side = 2 * radius + 1, chunks = side * side;
    w->dirs = malloc((size_t)chunks * WALK_SLICES * 7);
    w->mask = malloc((size_t)chunks * sizeof *w->mask);
    w->graphs = malloc((size_t)chunks * sizeof *w->graphs);
    w->graph_known = malloc((size_t)chunks);
    w->queue_capacity = (size_t)chunks * WALK_SLICES * 2;
    w->queue = malloc(w->queue_capacity * sizeof *w->queue);
    if (!w->dirs || !w->mask || !w->graphs || !w->graph_known || !w->queue) {
        walk_free_grid(w);
        return false;
    }
    w->radius = radius;
    w->side = side;
    w->cells = chunks * WALK_SLICES;
    return true;
}

static bool walk_push(VisibilityWalk *w, size_t *tail, uint32_t item)
{
    if (*tail == w->queue_capacity) {
        size_t cap = w->queue_capacity * 2;
        uint32_t *q = realloc(w->queue, cap * sizeof *q);
        if (!q) return false;
        w->queue = q;
        w->queue_capacity = cap;
    }
    w->queue[(*tail)++] = item;
    return true;
}

/* Whether the box (relative to the camera) meets the frustum: rejected only when wholly outside a plane. */
static bool walk_box_in_view(const VisibilityView *v, const float lo[3], const float hi[3])
{
    for (int i = 0; i < 6; i++) {
        const float *p = v->planes[i];
        if (p[0] == 0.0f && p[1] == 0.0f && p[2] == 0.0f) continue;
        float d = p[0] * (p[0] > 0.0f ? hi[0] : lo[0]) + p[1] * (p[1] > 0.0f ? hi[1] : lo[1]) +
                  p[2] * (p[2] > 0.0f ? hi[2] : lo[2]);
        if (d < -p[3]) return false;
    }
    return true;
}

/* What the walk knows of a chunk: NULL where the callback knows nothing or the chunk was never meshed. */
static const VisibilityChunk *walk_lookup(VisibilityGraphFn graph, void *user, int coord_x, int coord_z)
{
    const VisibilityChunk *c = graph ? graph(user, coord_x, coord_z) : NULL;
    return c && c->known ? c : NULL;
}

static const int WALK_STEP[VISIBILITY_FACES][3] = {{-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}, {0, 0, -1}, {0, 0, 1}};

int visibility_walk_run(VisibilityWalk *w, const VisibilityView *view, VisibilityGraphFn graph, void *user)
{
    w->reached = 0;
    w->occluded = 0;
    w->all_visible = true;
    w->horizon_current = false;
    int radius = view->radius_chunks < 0 ? 0 : view->radius_chunks;
    if (!walk_fit(w, radius)) return -1;
    double cx = view->camera[0], cy = view->camera[1], cz = view->camera[2];
    if (!(cy >= 0.0 && cy < 256.0)) return 0;   /* above or below the world: judge nothing */
    /* A camera whose chunk coordinates an int cannot hold (NaN, infinite, or farther than WALK_COORD_MAX)
     * is not judged either: (int)floor(NaN / 16) is undefined (INT_MIN on x86), and the horizon built from
     * it took a distance band of INT_MIN and wrote outside its array. */
    if (!(fabs(cx) < WALK_COORD_MAX && fabs(cz) < WALK_COORD_MAX)) return 0;
    w->centre_x = (int)floor(cx / 16.0);
    w->centre_z = (int)floor(cz / 16.0);
    w->all_visible = false;
    int side = w->side, chunks = side * side;
    memset(w->dirs, WALK_NO_DIRS, (size_t)w->cells * 7);
    memset(w->mask, 0, (size_t)chunks * sizeof *w->mask);
    memset(w->graph_known, 0, (size_t)chunks);
    int start_slice = (int)floor(cy / 16.0);
    int start = ((radius * side) + radius) * WALK_SLICES + start_slice;   /* chunk (r, r) of the grid */
    size_t head = 0, tail = 0;
    w->dirs[start * 7 + WALK_START_FACE] = 0;
    w->mask[radius * side + radius] |= (uint16_t)(1u << start_slice);
    w->reached = 1;
    walk_push(w, &tail, (uint32_t)start * 8 + WALK_START_FACE);
    while (head < tail) {
        uint32_t item = w->queue[head++];
        int cell = (int)(item >> 3), from = (int)(item & 7);
        int chunk = cell / WALK_SLICES, slice = cell % WALK_SLICES;
        int gx = chunk % side, gz = chunk / side;
        uint8_t barred = w->dirs[cell * 7 + from];
        if (!w->graph_known[chunk]) {
            w->graphs[chunk] = walk_lookup(graph, user, w->centre_x + gx - radius, w->centre_z + gz - radius);
            w->graph_known[chunk] = 1;
        }
        uint16_t g = w->graphs[chunk] ? w->graphs[chunk]->slice_graph[slice] : (uint16_t)VISIBILITY_ALL_OPEN;
        for (int d = 0; d < VISIBILITY_FACES; d++) {
            if (barred >> d & 1u) continue;                       /* back towards the camera */
            if (from != WALK_START_FACE && !visibility_connects(g, from, d)) continue;
            int nx = gx + WALK_STEP[d][0], ns = slice + WALK_STEP[d][1], nz = gz + WALK_STEP[d][2];
            if (nx < 0 || nz < 0 || nx >= side || nz >= side || ns < 0 || ns >= WALK_SLICES) continue;
            int ncell = (nz * side + nx) * WALK_SLICES + ns, nfrom = d ^ 1;
            uint8_t nbarred = (uint8_t)(barred | 1u << (d ^ 1));
            uint8_t *have = &w->dirs[ncell * 7 + nfrom];
            if (*have != WALK_NO_DIRS && (*have & nbarred) == *have) continue;   /* nothing new this way */
            double ox = (double)(w->centre_x + nx - radius) * 16.0 - view->camera[0];
            double oz = (double)(w->centre_z + nz - radius) * 16.0 - view->camera[2];
            double oy = (double)ns * 16.0 - cy;
            float lo[3] = {(float)ox, (float)oy, (float)oz}, hi[3] = {(float)(ox + 16), (float)(oy + 16), (float)(oz + 16)};
            if (!walk_box_in_view(view, lo, hi)) continue;
            *have = *have == WALK_NO_DIRS ? nbarred : (uint8_t)(*have & nbarred);
            uint16_t bit = (uint16_t)(1u << ns);
            if (!(w->mask[nz * side + nx] & bit)) {
                w->mask[nz * side + nx] |= bit;
                w->reached++;
            }
            if (!walk_push(w, &tail, (uint32_t)ncell * 8 + (uint32_t)nfrom)) {
                w->all_visible = true;   /* out of memory: judge nothing */
                return -1;
            }
        }
    }
    if (view->occlusion) {
        for (int c = 0; c < chunks; c++)
            if (!w->graph_known[c]) {
                w->graphs[c] = walk_lookup(graph, user, w->centre_x + c % side - radius, w->centre_z + c / side - radius);
                w->graph_known[c] = 1;
            }
        if (!w->occlusion && !(w->occlusion = visibility_occlusion_create())) return 0;   /* judge by the walk alone */
        int square[3] = {side, w->centre_x - radius, w->centre_z - radius};
        bool same = w->horizon_valid && view->occluders_epoch != 0 && view->occluders_epoch == w->horizon_epoch &&
                    memcmp(view->camera, w->horizon_camera, sizeof w->horizon_camera) == 0 &&
                    memcmp(square, w->horizon_square, sizeof square) == 0;
        if (!same && w->horizon_rest > 0) {   /* it did not pay: every reached slice is drawn */
            w->horizon_rest--;
            return 0;
        }
        if (!same) {
            visibility_occlusion_build(w->occlusion, view, w->graphs, side, square[1], square[2]);
            w->horizon_valid = true;
            w->horizon_epoch = view->occluders_epoch;
            memcpy(w->horizon_camera, view->camera, sizeof w->horizon_camera);
            memcpy(w->horizon_square, square, sizeof square);
        }
        w->horizon_current = true;
        for (int c = 0; c < chunks; c++) {
            if (c == radius * side + radius) continue;   /* the camera's chunk */
            for (uint16_t m = w->mask[c]; m; m &= (uint16_t)(m - 1)) {
                int s = __builtin_ctz(m);
                const VisibilityChunk *vc = w->graphs[c];
                int low = vc ? vc->slice_low[s] : 0, high = vc ? vc->slice_high[s] : 16;
                if (low > high) continue;   /* nothing to draw there anyway */
                double lo[3] = {(double)(w->centre_x + c % side - radius) * 16.0, (double)(s * 16 + low),
                                (double)(w->centre_z + c / side - radius) * 16.0};
                double hi[3] = {lo[0] + 16.0, (double)(s * 16 + high), lo[2] + 16.0};
                if (high == low) hi[1] += 0.001;   /* flat geometry: a box of no height still has a face */
                if (visibility_occlusion_hides(w->occlusion, view, lo, hi)) {
                    w->mask[c] &= (uint16_t)~(1u << s);
                    w->occluded++;
                }
            }
        }
        if (!same && w->occluded * WALK_HORIZON_PAYS < w->reached) w->horizon_rest = view->horizon_rest;
    }
    return 0;
}

uint16_t visibility_walk_slices(const VisibilityWalk *w, int coord_x, int coord_z)
{
    if (w->all_visible || !w->mask) return 0xFFFF;
    int gx = coord_x - w->centre_x + w->radius, gz = coord_z - w->centre_z + w->radius;
    if (gx < 0 || gz < 0 || gx >= w->side || gz >= w->side) return 0xFFFF;   /* outside the square: not judged */
    return w->mask[gz * w->side + gx];
}

bool visibility_walk_hides(const VisibilityWalk *w, const VisibilityView *view, const double lo[3],
                           const double hi[3])
{
    if (!w || !w->horizon_current || memcmp(view->camera, w->horizon_camera, sizeof w->horizon_camera) != 0)
        return false;
    return visibility_occlusion_hides(w->occlusion, view, lo, hi);
}

int visibility_walk_reached(const VisibilityWalk *w)
{
    return w->reached;
}

int visibility_walk_occluded(const VisibilityWalk *w)
{
    return w->occluded;
}

void visibility_planes_from_matrix(const float m[16], float planes[6][4])
{
    /* rows of the column-major matrix: row i = (m[i], m[4 + i], m[8 + i], m[12 + i]) */
    float row[4][4];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) row[i][j] = m[4 * j + i];
    for (int k = 0; k < 3; k++)
        for (int j = 0; j < 4; j++) {
            planes[2 * k][j] = row[3][j] + row[k][j];
            planes[2 * k + 1][j] = row[3][j] - row[k][j];
        }
    for (int i = 0; i < 6; i++) {
        float len = sqrtf(planes[i][0] * planes[i][0] + planes[i][1] * planes[i][1] + planes[i][2] * planes[i][2]);
        if (len > 0.0f)
            for (int j = 0; j < 4; j++) planes[i][j] /= len;
    }
}

int visibility_draw_runs(int subsets, const int *first, const int *count, const int (*slice_vertices)[16],
                         unsigned subset_mask, uint16_t slices, int *run_first, int *run_count)
{
    int runs = 0, start = -1, length = 0;
    for (int k = 0; k < subsets; k++) {
        int at = first[k], left = count[k], sum = 0;
        for (int s = 0; s < WALK_SLICES; s++) sum += slice_vertices[k][s];
        bool whole = sum != count[k];   /* no slices: one run, drawn when any slice is */
        for (int s = 0; s < WALK_SLICES; s++) {
            int n = whole ? (s == 0 ? count[k] : 0) : slice_vertices[k][s] < left ? slice_vertices[k][s] : left;
            if (n < 0) n = 0;
            bool take = (subset_mask >> k & 1u) && (whole ? slices != 0 : (slices >> s & 1u) != 0);
            if (n == 0) {
                at += n;
                continue;   /* joins whatever run is open */
            }
            if (take) {
                if (start < 0) {
                    start = at;
                    length = 0;
                }
                length += n;
            } else if (start >= 0) {
                run_first[runs] = start;
                run_count[runs] = length;
                runs++;
                start = -1;
            }
            at += n;
            left -= n;
        }
        /* the subset's next one may start elsewhere in the buffer (first[] need not be contiguous) */
        if (start >= 0 && (k + 1 >= subsets || first[k + 1] != at)) {
            run_first[runs] = start;
            run_count[runs] = length;
            runs++;
            start = -1;
        }
    }
    if (start >= 0) {
        run_first[runs] = start;
        run_count[runs] = length;
        runs++;
    }
    return runs;
}
