/* visibility_occlusion.c — the second half of occlusion culling (visibility.h): a horizon of opaque
 * occluder columns around the camera, and the test of a slice's box against it.
 *
 * Design. The cave walk cannot see that a hill hides what lies behind it: the hill's surface slices have
 * air above them that joins every face. The mesher gives each chunk its occluder columns (per column, or
 * group of columns, the highest run of rows that are opaque cubes). Seen from the camera, a column whose
 * footprint spans azimuths A at horizontal distances d_min..d_max stops every ray of azimuth in A whose
 * slope (rise over horizontal run) lies between (bottom - eye) / d and (top + 1 - eye) / d, taking for each
 * bound the distance that makes it strictest: such a ray meets the column's rows. For the top of a column
 * above the eye that distance is the farthest a ray can enter the footprint (the edges facing the camera),
 * not its farthest corner: a rising ray is lowest where it enters, so entering under the top it is stopped
 * (this hides canopies just behind a ridge; test_visibility checks every hidden box against rays). The
 * horizon keeps, per azimuth bin (only bins the footprint covers whole) and per band of
 * distance (occluders wholly nearer than the band's start), two intervals of stopped slopes: an interval
 * that meets a kept one widens it, one apart from both takes the place of the shorter if it is longer
 * (the ground's long interval survives an overhang's or a trunk's short one). A slice box
 * is hidden when, in every bin its footprint touches, its slopes (bounded the same way from its rows and
 * distances) lie inside the interval of the band before its nearest point: every ray to it then ends on a
 * nearer column. Everything rounds towards drawing: no pitch or frustum enters, so looking around does
 * not change the answer, and the horizon costs one pass over the columns when it is built: the walk builds it
 * again only when the camera moved or a chunk's occluders changed (VisibilityView.occluders_epoch). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "visibility_internal.h"

#define OCC_BINS 1024                  /* azimuth bins over the full turn */
#define OCC_BAND 8.0                   /* blocks per distance band */
#define OCC_SPLIT 4                    /* a slice box is tested in 4 x 4 parts */
#define OCC_LOD_NEAR 80.0              /* chunks farther than this use groups of 2 x 2 occluders */
#define OCC_LOD_FAR 160.0              /* ... and farther than this of 4 x 4 */
#define OCC_EPS 1e-4f                  /* slack on every slope bound, towards drawing */

typedef struct OccInterval {
    float lo[2], hi[2];                /* two intervals of stopped slopes; lo > hi: none */
} OccInterval;

struct VisibilityOcclusion {
    OccInterval *bands;                /* [band][bin]: occluders with d_max below the band's start */
    int band_count, band_capacity;
};

VisibilityOcclusion *visibility_occlusion_create(void)
{
    return calloc(1, sizeof(VisibilityOcclusion));
}

void visibility_occlusion_destroy(VisibilityOcclusion *occlusion)
{
    if (!occlusion) return;
    free(occlusion->bands);
    free(occlusion);
}

/* fmin/fmax without their NaN rules (libm calls on this hot path; every value here is finite). */
static inline double occ_min(double a, double b) { return a < b ? a : b; }
static inline double occ_max(double a, double b) { return a > b ? a : b; }
static inline float occ_minf(float a, float b) { return a < b ? a : b; }
static inline float occ_maxf(float a, float b) { return a > b ? a : b; }

/* Azimuths are pseudo-angles in [0, 4): monotonic in the true angle around the camera, one quarter turn
 * per unit (the "diamond angle"), with no trigonometry; bins are equal in pseudo-angle. */
#define OCC_TURN 4.0

static double occ_pseudo_angle(double x, double z)
{
    double s = fabs(x) + fabs(z);
    if (z >= 0.0) return x >= 0.0 ? z / s : 1.0 - x / s;
    return x < 0.0 ? 2.0 - z / s : 3.0 + x / s;
}

/* The azimuths (a0 <= a1, a0 in [0, 4), a1 < a0 + 2) and horizontal distances of a footprint x0..x1 by
 * z0..z1 relative to the camera; false when the camera stands on it (or at its edge). */
static bool occ_footprint(double x0, double x1, double z0, double z1, double *a0, double *a1, double *d_min,
                          double *d_max)
{
    double nx = x0 > 0.0 ? x0 : x1 < 0.0 ? -x1 : 0.0, nz = z0 > 0.0 ? z0 : z1 < 0.0 ? -z1 : 0.0;
    *d_min = sqrt(nx * nx + nz * nz);
    if (*d_min < 1e-3) return false;
    double fx = occ_max(fabs(x0), fabs(x1)), fz = occ_max(fabs(z0), fabs(z1));
    *d_max = sqrt(fx * fx + fz * fz);
    double p[4] = {occ_pseudo_angle(x0, z0), occ_pseudo_angle(x1, z0), occ_pseudo_angle(x0, z1),
                   occ_pseudo_angle(x1, z1)};
    double lo = p[0], hi = p[0];
    for (int k = 1; k < 4; k++) {
        lo = occ_min(lo, p[k]);
        hi = occ_max(hi, p[k]);
    }
    if (hi - lo > OCC_TURN / 2) {   /* it straddles pseudo-angle 0 (the +x axis): unwrap the small ones */
        lo = OCC_TURN;
        hi = 0.0;
        for (int k = 0; k < 4; k++) {
            double q = p[k] < OCC_TURN / 2 ? p[k] + OCC_TURN : p[k];
            lo = occ_min(lo, q);
            hi = occ_max(hi, q);
        }
        if (lo >= OCC_TURN) {
            lo -= OCC_TURN;
            hi -= OCC_TURN;
        }
    }
    *a0 = lo;
    *a1 = hi;
    return true;
}

/* The farthest a ray of a footprint's azimuths can travel before it enters the footprint (camera-relative
 * x0..x1 by z0..z1, the camera outside it): the farthest corner of the edges that face the camera. A ray
 * rising over a column is lowest where it enters, so it is stopped when it enters below the top; this
 * distance bounds that tighter than the footprint's farthest corner (which no ray enters by). */
static double occ_enter_max(double x0, double x1, double z0, double z1)
{
    double e2 = 0.0;   /* squared, one root at the end */
    if (x0 > 0.0) e2 = occ_max(e2, x0 * x0 + occ_max(z0 * z0, z1 * z1));
    if (x1 < 0.0) e2 = occ_max(e2, x1 * x1 + occ_max(z0 * z0, z1 * z1));
    if (z0 > 0.0) e2 = occ_max(e2, z0 * z0 + occ_max(x0 * x0, x1 * x1));
    if (z1 < 0.0) e2 = occ_max(e2, z1 * z1 + occ_max(x0 * x0, x1 * x1));
    return sqrt(e2);
}

/* Slopes every ray to rows y0..y1 (eye-relative) across distances d_min..d_max stays within: to stop
 * them all an occluder must hold this whole range; the strictest distance for each bound. */
static void occ_slopes(double y0, double y1, double d_min, double d_max, float *lo, float *hi)
{
    *lo = (float)(y0 / (y0 > 0.0 ? d_max : d_min));
    *hi = (float)(y1 / (y1 > 0.0 ? d_min : d_max));
}

/* Adds stopped slopes lo..hi to a bin: into an interval it meets (which may then meet the other), or
 * into an empty one, or in place of the shorter one if it is longer still. */
static void occ_merge(OccInterval *into, float lo, float hi)
{
    for (int k = 0; k < 2; k++)
        if (!(into->lo[k] > into->hi[k]) && lo <= into->hi[k] && hi >= into->lo[k]) {
            into->lo[k] = occ_minf(into->lo[k], lo);
            into->hi[k] = occ_maxf(into->hi[k], hi);
            int j = 1 - k;
            if (!(into->lo[j] > into->hi[j]) && into->lo[j] <= into->hi[k] && into->hi[j] >= into->lo[k]) {
                into->lo[k] = occ_minf(into->lo[k], into->lo[j]);
                into->hi[k] = occ_maxf(into->hi[k], into->hi[j]);
                into->lo[j] = 1.0f;
                into->hi[j] = 0.0f;
            }
            return;
        }
    int shorter = 0;
    for (int k = 0; k < 2; k++) {
        if (into->lo[k] > into->hi[k]) {
            shorter = k;
            break;
        }
        if (into->hi[k] - into->lo[k] < into->hi[shorter] - into->lo[shorter]) shorter = k;
    }
    if (into->lo[shorter] > into->hi[shorter] || hi - lo > into->hi[shorter] - into->lo[shorter]) {
        into->lo[shorter] = lo;
        into->hi[shorter] = hi;
    }
}

void visibility_occlusion_build(VisibilityOcclusion *o, const VisibilityView *view,
                                const VisibilityChunk *const *chunks, int side, int first_x, int first_z)
{
    enum { G = VISIBILITY_OCCLUDER_GROUPS, SPAN = VISIBILITY_OCCLUDER_SPAN };
    double reach = ((double)side * 0.5 + 1.0) * 16.0 * 1.5;   /* beyond every footprint of the square */
    int bands = (int)(reach / OCC_BAND) + 2;
    if (bands * OCC_BINS > o->band_capacity) {
        OccInterval *b = realloc(o->bands, (size_t)bands * OCC_BINS * sizeof *b);
        if (!b) {
            o->band_count = 0;   /* no horizon: nothing hidden */
            return;
        }
        o->bands = b;
        o->band_capacity = bands * OCC_BINS;
    }
    o->band_count = bands;
    for (int i = 0; i < bands * OCC_BINS; i++) o->bands[i] = (OccInterval){{1.0f, 1.0f}, {0.0f, 0.0f}};
    const double bin = OCC_TURN / OCC_BINS;
    for (int cz = 0; cz < side; cz++)
        for (int cx = 0; cx < side; cx++) {
            const VisibilityChunk *c = chunks[cx + side * cz];
            if (!c) continue;
            double ox = (double)(first_x + cx) * 16.0 - view->camera[0];
            double oz = (double)(first_z + cz) * 16.0 - view->camera[2];
            /* far chunks in coarser groups (the rows all of a group's columns share): fewer, as good */
            double nx = ox > 0.0 ? ox : ox + 16.0 < 0.0 ? -(ox + 16.0) : 0.0;
            double nz = oz > 0.0 ? oz : oz + 16.0 < 0.0 ? -(oz + 16.0) : 0.0;
            double near = sqrt(nx * nx + nz * nz);
            int merge = near > OCC_LOD_FAR ? 4 : near > OCC_LOD_NEAR ? 2 : 1;
            if (merge > G) merge = G;
            int groups = G / merge, span = SPAN * merge;
            for (int k = 0; k < groups * groups; k++) {
                int kx = k % groups, kz = k / groups, bottom = 0, top = 255;
                for (int j = 0; j < merge * merge; j++) {
                    int i = (kx * merge + j % merge) + G * (kz * merge + j / merge);
                    if (c->occluder_top[i] < c->occluder_bottom[i]) {
                        top = -1;
                        break;
                    }
                    bottom = c->occluder_bottom[i] > bottom ? c->occluder_bottom[i] : bottom;
                    top = c->occluder_top[i] < top ? c->occluder_top[i] : top;
                }
                if (top < bottom) continue;
                double x0 = ox + span * kx, z0 = oz + span * kz, a0, a1, d_min, d_max;
                if (!occ_footprint(x0, x0 + span, z0, z0 + span, &a0, &a1, &d_min, &d_max)) continue;
                /* the rows it stops: all of them, whatever the distance within its footprint */
                double y0 = (double)bottom - view->camera[1];
                double y1 = (double)top + 1.0 - view->camera[1];
                float lo = (float)(y0 / (y0 < 0.0 ? d_max : d_min)) + OCC_EPS;
                float hi = (float)(y1 / (y1 > 0.0 ? occ_enter_max(x0, x0 + span, z0, z0 + span) : d_min)) - OCC_EPS;
                if (lo > hi) continue;
                double band_at = ceil(d_max / OCC_BAND);  /* counts for boxes starting at band * OCC_BAND on */
                if (!(band_at < bands)) continue;           /* beyond the horizon (or not a number) */
                int band = (int)band_at;
                int b0 = (int)ceil(a0 / bin), b1 = (int)floor(a1 / bin);   /* bins [b0, b1) wholly covered */
                OccInterval *row = &o->bands[(size_t)band * OCC_BINS];
                for (int b = b0; b < b1; b++) occ_merge(&row[b % OCC_BINS], lo, hi);
            }
        }
    /* band r holds every occluder of bands 0..r */
    for (int r = 1; r < bands; r++) {
        OccInterval *prev = &o->bands[(size_t)(r - 1) * OCC_BINS], *row = &o->bands[(size_t)r * OCC_BINS];
        for (int b = 0; b < OCC_BINS; b++)
            for (int k = 0; k < 2; k++)
                if (!(prev[b].lo[k] > prev[b].hi[k])) occ_merge(&row[b], prev[b].lo[k], prev[b].hi[k]);
    }
}

static bool occ_hides_box(const VisibilityOcclusion *o, const VisibilityView *view, const double lo[3],
                          const double hi[3])
{
    double a0, a1, d_min, d_max;
    if (!occ_footprint(lo[0] - view->camera[0], hi[0] - view->camera[0], lo[2] - view->camera[2],
                       hi[2] - view->camera[2], &a0, &a1, &d_min, &d_max))
        return false;   /* the camera stands over it */
    double band_at = floor(d_min / OCC_BAND);
    int band = band_at < o->band_count - 1 ? (int)band_at : o->band_count - 1;   /* d_min > 0: band_at >= 0 */
    float slope_lo, slope_hi;
    occ_slopes(lo[1] - view->camera[1], hi[1] - view->camera[1], d_min, d_max, &slope_lo, &slope_hi);
    const double bin = OCC_TURN / OCC_BINS;
    const OccInterval *row = &o->bands[(size_t)band * OCC_BINS];
    int b0 = (int)floor(a0 / bin), b1 = (int)floor(a1 / bin);
    for (int b = b0; b <= b1; b++) {
        const OccInterval *h = &row[b % OCC_BINS];
        bool inside = false;
        for (int k = 0; k < 2 && !inside; k++) inside = slope_lo >= h->lo[k] && slope_hi <= h->hi[k];
        if (!inside) return false;
    }
    return true;
}

bool visibility_occlusion_hides(const VisibilityOcclusion *o, const VisibilityView *view, const double lo[3],
                                const double hi[3])
{
    if (o->band_count == 0) return false;
    /* in OCC_SPLIT x OCC_SPLIT parts: each part's nearest distance and azimuths bound its slopes tighter */
    double step_x = (hi[0] - lo[0]) / OCC_SPLIT, step_z = (hi[2] - lo[2]) / OCC_SPLIT;
    for (int pz = 0; pz < OCC_SPLIT; pz++)
        for (int px = 0; px < OCC_SPLIT; px++) {
            double plo[3] = {lo[0] + step_x * px, lo[1], lo[2] + step_z * pz};
            double phi[3] = {plo[0] + step_x, hi[1], plo[2] + step_z};
            if (!occ_hides_box(o, view, plo, phi)) return false;
        }
    return true;
}
