/* mesher_merge.c — greedy merging of coplanar faces within one slice and subset.
 *
 * Design. Runs on a slice's finished lists (so face culling, light and AO stay in one place) and rewrites
 * every subset; in the alpha-tested one only leaves' cube faces can merge (plants and torches are not
 * full faces). A quad can merge when it is a full face: an axis-aligned unit square on the integer grid
 * of its plane, with its tile's whole texture mapped on it (local coordinates 0 or 16, one texture axis
 * per plane axis), and when its colour is affine on it: c00 + c11 = c10 + c01 in every channel (uniform,
 * or a gradient along one or both axes; smooth light and AO make many faces so). Then the colour is one
 * plane A + B s + C t per channel in the plane's own coordinates, and faces with the same plane (and
 * facing, tile, texture orientation) can form any rectangle: the merged quad's corner colours are the
 * plane's values there (corner colours of member faces, so within 0..255), and the GPU's interpolation
 * over either triangle of it reproduces the plane exactly, whichever diagonal it is split along, so smooth
 * light and AO look as before. A face whose colour is not affine (AO on one corner only, the commonest
 * case) keeps its own quad: two triangles that bend along the diagonal can be reproduced by no larger
 * quad. Quads are keyed by (facing, alpha, plane, tile, texture orientation, colour plane; the plane's axis
 * is the coordinate a quad's 4 corners share), sorted by (group rank, t, s, index) (merge_sort_grouped: equal
 * keys gathered through a hash table, then three stable counting passes over the small ranges of s, t and
 * rank), and
 * each group is merged greedily on a small grid (rows first, then extended downwards while the whole row
 * matches). The merged quad keeps the vertex order (and so the winding and diagonal) of its first face;
 * its texture coordinate runs to 16 x extent, which the fragment shaders wrap within the tile. Quads that
 * cannot merge (cut faces, shapes, plants) are copied first, in their order; merged quads follow in key
 * order. Deterministic: the output depends only on the input lists.
 * Records made at emission. Classifying a quad from its 4 vertices (floats, corner order, texture and colour
 * checks) was two thirds of the merge. A cube's full face is known when it is emitted (mesher_faces.c): its
 * plane, min corner and tile from the cell, its corner order and texture mapping from the face and the turn
 * of its diagonal (a per-face table, made once per context by classifying a sample face with merge_classify
 * itself), so only the colour check is left; mesher_merge_note_face writes the record then, beside the list
 * (one side array per scratch list the faces go to: ctx->face_recs), and mesher_merge_list takes it instead
 * of classifying. The record is the one merge_classify would make, so the merged lists are byte for byte the
 * same; quads with no record (shapes, sunken fluids, the half-resolution copy) are classified as before. */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "mesher_internal.h"

#define MERGE_GRID 32
#define MERGE_KEY_WORDS 9

typedef struct MesherMergeRec {
    uint32_t key[MERGE_KEY_WORDS]; /* facing | alpha << 8, plane bits, tile, uv signature, colour gradients
                                   * along s and t (3 x 10 bits each), colour at plane origin (3 words) */
    int16_t s, t;           /* the face's min corner in plane coordinates */
    int32_t quad;           /* index of the quad in the input list */
    uint8_t corner[4];      /* canonical corner (is + 2 * it) of each of the quad's 4 vertices */
} MesherMergeRec;

/* A scratch list's records made at emission (mesher_merge_note_face): recs[q] belongs to quad q when
 * recs[q].quad is q (MERGE_REC_NONE: no record, classify; MERGE_REC_NEVER: known not to merge); quads from
 * `filled` on have none. */
#define MERGE_REC_NONE  (-1)
#define MERGE_REC_NEVER (-2)
struct MesherFaceRecs {
    MesherMergeRec *recs;
    int capacity, filled;
};

/* Per cube face and turn of the diagonal (mesher_faces.c: corner (first + i) & 3 at vertex i): what
 * merge_classify finds on every such face whatever its cell, tile and colours. */
typedef struct MesherFaceShape MesherFaceShape;   /* mesher_internal.h: full (a full face with the whole
                                                    * tile, else never merged), corner[i] (canonical corner
                                                    * of vertex i), facing (key[0]'s), sig (key[3]) */

static const int MERGE_S_AXIS[3] = {1, 2, 0};
static const int MERGE_T_AXIS[3] = {2, 0, 1};

static inline float merge_axis(const TerrainVertex *v, int axis)
{
    return axis == 0 ? v->x : axis == 1 ? v->y : v->z;
}

static inline void merge_set_axis(TerrainVertex *v, int axis, float value)
{
    if (axis == 0) v->x = value;
    else if (axis == 1) v->y = value;
    else v->z = value;
}

static inline uint32_t merge_color(const TerrainVertex *v)
{
    uint32_t c;
    memcpy(&c, v->color, 4);
    return c;
}

/* A record's sort key and place: facing and alpha, the plane, the tile, the corners' tile signature, the
 * colour's plane (gradients along s and t, and its value at s = t = 0), the min corner and the quad. */
static inline void merge_rec_set(MesherMergeRec *rec, uint32_t facing_alpha, float plane, uint32_t tile, uint32_t sig,
                                 const int32_t grad_s[3], const int32_t grad_t[3], const int32_t base[3], int s0,
                                 int t0, int q)
{
    uint32_t plane_bits;
    memcpy(&plane_bits, &plane, 4);
    rec->key[0] = facing_alpha;
    rec->key[1] = plane_bits;
    rec->key[2] = tile;
    rec->key[3] = sig;
    rec->key[4] = 0;
    rec->key[5] = 0;
    for (int ch = 0; ch < 3; ch++) {
        rec->key[4] |= (uint32_t)(grad_s[ch] + 512) << (10 * ch);
        rec->key[5] |= (uint32_t)(grad_t[ch] + 512) << (10 * ch);
        rec->key[6 + ch] = (uint32_t)base[ch];
    }
    rec->s = (int16_t)s0;
    rec->t = (int16_t)t0;
    rec->quad = q;
}
/* Fills `rec` for quad q if it is a full face that can merge; false otherwise. */
static bool merge_classify(const TerrainVertex *v, int q, MesherMergeRec *rec)
{
    /* the plane's axis: the one coordinate all 4 corners share (a quad that shares two or none is no full
     * face: the corner checks below, or this one, turn it away) */
    int axis;
    if (v[0].x == v[1].x && v[0].x == v[2].x && v[0].x == v[3].x) axis = 0;
    else if (v[0].y == v[1].y && v[0].y == v[2].y && v[0].y == v[3].y) axis = 1;
    else if (v[0].z == v[1].z && v[0].z == v[2].z && v[0].z == v[3].z) axis = 2;
    else return false;
    int sa = MERGE_S_AXIS[axis], ta = MERGE_T_AXIS[axis];
    float plane = merge_axis(&v[0], axis);
    float sv[4], tv[4];
    for (int k = 0; k < 4; k++) {
        sv[k] = merge_axis(&v[k], sa);
        tv[k] = merge_axis(&v[k], ta);
    }
    float s0 = sv[0], t0 = tv[0];
    for (int k = 1; k < 4; k++) {
        s0 = sv[k] < s0 ? sv[k] : s0;
        t0 = tv[k] < t0 ? tv[k] : t0;
    }
    if (s0 != (float)(int)s0 || t0 != (float)(int)t0) return false;
    int tile_u = v[0].tx / MESHER_UV_TILE_STRIDE, tile_v = v[0].ty / MESHER_UV_TILE_STRIDE;
    int lu[4] = {-1, -1, -1, -1}, lv[4] = {-1, -1, -1, -1};
    uint32_t col[4] = {0, 0, 0, 0};
    unsigned seen = 0;
    for (int k = 0; k < 4; k++) {
        float ds = sv[k] - s0, dt = tv[k] - t0;
        if ((ds != 0.0f && ds != 1.0f) || (dt != 0.0f && dt != 1.0f)) return false;
        int c = (ds != 0.0f) + 2 * (dt != 0.0f);
        if (seen & (1u << c)) return false;
        seen |= 1u << c;
        rec->corner[k] = (uint8_t)c;
        if (v[k].tx / MESHER_UV_TILE_STRIDE != tile_u || v[k].ty / MESHER_UV_TILE_STRIDE != tile_v) return false;
        lu[c] = v[k].tx - tile_u * MESHER_UV_TILE_STRIDE;
        lv[c] = v[k].ty - tile_v * MESHER_UV_TILE_STRIDE;
        if ((lu[c] != 0 && lu[c] != 16) || (lv[c] != 0 && lv[c] != 16)) return false;
        col[c] = merge_color(&v[k]);
    }
    /* the whole tile, one texture axis along each plane axis (affine: corner 3 = 1 + 2 - 0) */
    int us = lu[1] - lu[0], ut = lu[2] - lu[0], vs = lv[1] - lv[0], vt = lv[2] - lv[0];
    if (lu[3] != lu[0] + us + ut || lv[3] != lv[0] + vs + vt) return false;
    bool u_on_s = (us == 16 || us == -16) && ut == 0 && vs == 0 && (vt == 16 || vt == -16);
    bool u_on_t = (ut == 16 || ut == -16) && us == 0 && vt == 0 && (vs == 16 || vs == -16);
    if (!u_on_s && !u_on_t) return false;
    /* the colour must be affine on the face (c00 + c11 = c10 + c01 in every channel, alpha equal): then it is
     * one plane A + B s + C t per channel, which any rectangle of faces on the same plane reproduces */
    int32_t grad_s[3], grad_t[3], base[3];
    for (int ch = 0; ch < 4; ch++) {
        int c00 = (int)(col[0] >> (8 * ch) & 0xFF), c10 = (int)(col[1] >> (8 * ch) & 0xFF),
            c01 = (int)(col[2] >> (8 * ch) & 0xFF), c11 = (int)(col[3] >> (8 * ch) & 0xFF);
        if (c00 + c11 != c10 + c01) return false;
        if (ch == 3) {
            if (c10 != c00 || c01 != c00) return false;
            break;
        }
        grad_s[ch] = c10 - c00;
        grad_t[ch] = c01 - c00;
        base[ch] = c00 - grad_s[ch] * (int)s0 - grad_t[ch] * (int)t0;
    }
    /* the normal's component on the axis (the other two are 0: all 4 corners lie in the plane), from
     * corners 0, 1, 2 as the cross product (v1 - v0) x (v2 - v0): unit steps, so exact */
    float n_axis = (sv[1] - sv[0]) * (tv[2] - tv[0]) - (tv[1] - tv[0]) * (sv[2] - sv[0]);
    int facing = axis * 2 + (n_axis > 0.0f);
    uint32_t sig = 0;
    for (int c = 0; c < 4; c++) sig |= (uint32_t)((lu[c] >> 4) | (lv[c] >> 4) << 1) << (2 * c);
    merge_rec_set(rec, (uint32_t)facing | (col[0] >> 24) << 8, plane, (uint32_t)tile_u | (uint32_t)tile_v << 16, sig,
                  grad_s, grad_t, base, s0, t0, q);
    return true;
}

/* The records' total order: key, then t, s, and the quad's index (so any correct sort gives one order). */
static inline bool merge_before(const MesherMergeRec *a, const MesherMergeRec *b)
{
    for (int i = 0; i < MERGE_KEY_WORDS; i++)
        if (a->key[i] != b->key[i]) return a->key[i] < b->key[i];
    if (a->t != b->t) return a->t < b->t;
    if (a->s != b->s) return a->s < b->s;
    return a->quad < b->quad;
}

/* Sorts recs[0..n) into ctx->merge_sorted: a bottom-up merge sort of indices with the comparison inlined
 * (qsort's indirect calls and 48-byte moves were a third of the merge's time), insertion-sorted runs of 8
 * first; then one gather of the records. */
static MesherMergeRec *merge_sort(MesherContext *ctx, int n)
{
    const MesherMergeRec *recs = ctx->merge_recs;
    uint32_t *a = ctx->merge_order, *b = ctx->merge_order + ctx->merge_rec_capacity;
    enum { RUN = 8 };
    for (int i = 0; i < n; i++) {
        uint32_t v = (uint32_t)i;
        int j = i;
        for (; j > i - i % RUN && merge_before(&recs[v], &recs[a[j - 1]]); j--) a[j] = a[j - 1];
        a[j] = v;
    }
    for (int width = RUN; width < n; width *= 2) {
        for (int lo = 0; lo < n; lo += 2 * width) {
            int mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
            int i = lo, j = mid, k = lo;
            while (i < mid && j < hi) b[k++] = merge_before(&recs[a[j]], &recs[a[i]]) ? a[j++] : a[i++];
            while (i < mid) b[k++] = a[i++];
            while (j < hi) b[k++] = a[j++];
        }
        uint32_t *t = a;
        a = b;
        b = t;
    }
    for (int i = 0; i < n; i++) ctx->merge_sorted[i] = recs[a[i]];
    return ctx->merge_sorted;
}


static bool merge_same_group(const MesherMergeRec *a, const MesherMergeRec *b)
{
    return memcmp(a->key, b->key, sizeof a->key) == 0;
}

/* Bottom-up merge sort of n 64-bit values in `a` (b: as much scratch); returns the array holding them sorted. */
static uint64_t *merge_sort_words(uint64_t *a, uint64_t *b, int n)
{
    enum { RUN = 8 };
    for (int lo = 0; lo < n; lo += RUN) {
        int hi = lo + RUN < n ? lo + RUN : n;
        for (int i = lo + 1; i < hi; i++) {
            uint64_t v = a[i];
            int j = i;
            for (; j > lo && a[j - 1] > v; j--) a[j] = a[j - 1];
            a[j] = v;
        }
    }
    for (int width = RUN; width < n; width *= 2) {
        for (int lo = 0; lo < n; lo += 2 * width) {
            int mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
            int i = lo, j = mid, k = lo;
            while (i < mid && j < hi) {
                uint64_t x = a[i], y = a[j];
                bool take_j = y < x;
                b[k++] = take_j ? y : x;
                i += !take_j;
                j += take_j;
            }
            while (i < mid) b[k++] = a[i++];
            while (j < hi) b[k++] = a[j++];
        }
        uint64_t *t = a;
        a = b;
        b = t;
    }
    return a;
}

#define MERGE_RADIX_MAX 1024   /* the most buckets of one counting pass (merge_sort_grouped) */

/* One stable counting pass: the indices in[0..n) into out by their digit dig[index] (0..buckets-1). */
static void merge_count_pass(const uint32_t *in, uint32_t *out, int n, const uint32_t *dig, int buckets)
{
    uint32_t start[MERGE_RADIX_MAX + 1];
    memset(start, 0, (size_t)(buckets + 1) * sizeof *start);
    for (int i = 0; i < n; i++) start[dig[in[i]] + 1]++;
    for (int b = 0; b < buckets; b++) start[b + 1] += start[b];
    for (int i = 0; i < n; i++) out[start[dig[in[i]]]++] = in[i];
}

static inline uint32_t merge_group_hash(const MesherMergeRec *r)
{
    uint64_t h = 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < MERGE_KEY_WORDS; i++) h = (h ^ r->key[i]) * 0xC2B2AE3D27D4EB4Full;
    return (uint32_t)(h >> 32);
}

/* The same order as merge_sort (key, then t, s, quad), sorting 64-bit words instead of records: records with
 * equal keys are gathered into groups through a hash table (in quad order), the groups' keys sorted (far
 * fewer than the records), and each record becomes (group rank, t, s, its index) in one word. NULL when the
 * counts do not fit 16 bits (merge_sort then). */
static MesherMergeRec *merge_sort_grouped(MesherContext *ctx, int n)
{
    const MesherMergeRec *recs = ctx->merge_recs;
    int cap = ctx->merge_rec_capacity;
    if (n > 0xFFFF) return NULL;
    uint32_t *scratch = ctx->merge_order;
    uint64_t *wa = (uint64_t *)(void *)scratch, *wb = wa + cap;                   /* 4 cap */
    uint32_t *gid = scratch + 4 * cap, *first = gid + cap, *rank = first + cap;  /* 3 cap */
    uint32_t *table = rank + cap;                                               /* 2 cap */
    int tsize = 16;                                                             /* a power of two >= 2 n */
    while (tsize < 2 * n) tsize *= 2;
    memset(table, 0xFF, (size_t)tsize * sizeof *table);
    int groups = 0;
    for (int i = 0; i < n; i++) {
        uint32_t h = merge_group_hash(&recs[i]) & (uint32_t)(tsize - 1);
        for (;;) {
            uint32_t g = table[h];
            if (g == UINT32_MAX) {
                table[h] = (uint32_t)groups;
                first[groups] = (uint32_t)i;
                gid[i] = (uint32_t)groups++;
                break;
            }
            if (merge_same_group(&recs[first[g]], &recs[i])) {
                gid[i] = g;
                break;
            }
            h = (h + 1) & (uint32_t)(tsize - 1);
        }
    }
    /* the groups in key order: insertion-sorted runs then merges of their indices (keys all differ) */
    uint32_t *ga = table, *gb = table + cap;   /* the table is done with */
    for (int g = 0; g < groups; g++) {
        int j = g;
        for (; j > g - g % 8 && merge_before(&recs[first[g]], &recs[first[ga[j - 1]]]); j--) ga[j] = ga[j - 1];
        ga[j] = (uint32_t)g;
    }
    for (int width = 8; width < groups; width *= 2) {
        for (int lo = 0; lo < groups; lo += 2 * width) {
            int mid = lo + width < groups ? lo + width : groups, hi = lo + 2 * width < groups ? lo + 2 * width : groups;
            int i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                gb[k++] = merge_before(&recs[first[ga[j]]], &recs[first[ga[i]]]) ? ga[j++] : ga[i++];
            while (i < mid) gb[k++] = ga[i++];
            while (j < hi) gb[k++] = ga[j++];
        }
        uint32_t *t = ga;
        ga = gb;
        gb = t;
    }
    for (int r = 0; r < groups; r++) rank[ga[r]] = (uint32_t)r;
    /* (rank, t, s, index) in three stable counting passes, s first, over the records in index order, where
     * the ranges of s and t are small (they are within a slice); else as 64-bit words */
    int s_lo = recs[0].s, s_hi = recs[0].s, t_lo = recs[0].t, t_hi = recs[0].t;
    for (int i = 1; i < n; i++) {
        s_lo = recs[i].s < s_lo ? recs[i].s : s_lo;
        s_hi = recs[i].s > s_hi ? recs[i].s : s_hi;
        t_lo = recs[i].t < t_lo ? recs[i].t : t_lo;
        t_hi = recs[i].t > t_hi ? recs[i].t : t_hi;
    }
    if (s_hi - s_lo < MERGE_RADIX_MAX && t_hi - t_lo < MERGE_RADIX_MAX && groups <= MERGE_RADIX_MAX) {
        uint32_t *dig = first, *ia = (uint32_t *)(void *)wa, *ib = (uint32_t *)(void *)wb;   /* first: done with */
        for (int i = 0; i < n; i++) {
            ia[i] = (uint32_t)i;
            dig[i] = (uint32_t)(recs[i].s - s_lo);
        }
        merge_count_pass(ia, ib, n, dig, s_hi - s_lo + 1);
        for (int i = 0; i < n; i++) dig[i] = (uint32_t)(recs[i].t - t_lo);
        merge_count_pass(ib, ia, n, dig, t_hi - t_lo + 1);
        for (int i = 0; i < n; i++) dig[i] = rank[gid[i]];
        merge_count_pass(ia, ib, n, dig, groups);
        for (int i = 0; i < n; i++) ctx->merge_sorted[i] = recs[ib[i]];
        return ctx->merge_sorted;
    }
    for (int i = 0; i < n; i++)
        wa[i] = (uint64_t)rank[gid[i]] << 48 | (uint64_t)((uint16_t)recs[i].t ^ 0x8000u) << 32 |
                (uint64_t)((uint16_t)recs[i].s ^ 0x8000u) << 16 | (uint64_t)i;
    const uint64_t *sorted = merge_sort_words(wa, wb, n);
    for (int i = 0; i < n; i++) ctx->merge_sorted[i] = recs[sorted[i] & 0xFFFF];
    return ctx->merge_sorted;
}

/* Appends quad `src` of the input (or, with w x h > 1, the merged quad it starts) to the output. */
static void merge_emit(MesherContext *ctx, const TerrainVertex *src, const MesherMergeRec *rec, int w, int h)
{
    VertexList *out = &ctx->merge_out;
    if (out->count + 4 > out->capacity && !mesher_list_grow(ctx, out, 4)) return;
    TerrainVertex *dst = &out->data[out->count];
    memcpy(dst, src, 4 * sizeof *dst);
    out->count += 4;
    if (!rec || (w == 1 && h == 1)) return;
    int facing = (int)(rec->key[0] & 0xFF), axis = facing >> 1;
    int sa = MERGE_S_AXIS[axis], ta = MERGE_T_AXIS[axis];
    float scale = ctx->merge_half ? 2.0f : 1.0f;   /* records at half scale: back to the list's (exact) */
    int tile_u = (int)(rec->key[2] & 0xFFFF), tile_v = (int)(rec->key[2] >> 16);
    bool u_on_s = false;   /* u changes between two corners that differ in s only */
    for (int j = 0; j < 4; j++)
        for (int m = 0; m < 4; m++)
            if ((rec->corner[j] ^ rec->corner[m]) == 1 && src[j].tx != src[m].tx) u_on_s = true;
    for (int k = 0; k < 4; k++) {
        int c = rec->corner[k], is = c & 1, it = c >> 1;
        merge_set_axis(&dst[k], sa, (float)(rec->s + is * w) * scale);
        merge_set_axis(&dst[k], ta, (float)(rec->t + it * h) * scale);
        /* local coordinates are 0 or 16 on a face: scale by the extent along the axis each one runs on */
        int lu = src[k].tx - tile_u * MESHER_UV_TILE_STRIDE, lv = src[k].ty - tile_v * MESHER_UV_TILE_STRIDE;
        dst[k].tx = (int16_t)(tile_u * MESHER_UV_TILE_STRIDE + lu * (u_on_s ? w : h));
        dst[k].ty = (int16_t)(tile_v * MESHER_UV_TILE_STRIDE + lv * (u_on_s ? h : w));
        /* the colour plane at the corner (within 0..255: it is a corner colour of one of the faces) */
        for (int ch = 0; ch < 3; ch++) {
            int grad_s = (int)(rec->key[4] >> (10 * ch) & 1023) - 512, grad_t = (int)(rec->key[5] >> (10 * ch) & 1023) - 512;
            int value = (int)rec->key[6 + ch] + grad_s * (rec->s + is * w) + grad_t * (rec->t + it * h);
            dst[k].color[ch] = (uint8_t)value;
        }
    }
}

/* Greedy merge of one sorted group recs[0..n). */
static void merge_group(MesherContext *ctx, const TerrainVertex *in, MesherMergeRec *recs, int n)
{
    static _Thread_local int32_t grid[MERGE_GRID][MERGE_GRID];   /* rec index + 1; -1 once used */
    int min_s = recs[0].s, min_t = recs[0].t;
    for (int i = 1; i < n; i++) min_s = recs[i].s < min_s ? recs[i].s : min_s;
    for (int i = 0; i < n; i++) {
        int gs = recs[i].s - min_s, gt = recs[i].t - min_t;
        if (gs < MERGE_GRID && gt < MERGE_GRID && grid[gt][gs] == 0) grid[gt][gs] = i + 1;
        else merge_emit(ctx, &in[recs[i].quad * 4], NULL, 1, 1);   /* out of the grid or a duplicate */
    }
    for (int i = 0; i < n; i++) {
        int gs = recs[i].s - min_s, gt = recs[i].t - min_t;
        if (gs >= MERGE_GRID || gt >= MERGE_GRID || grid[gt][gs] != i + 1) continue;
        int w = 1, h = 1;
        while (gs + w < MERGE_GRID && grid[gt][gs + w] > 0) w++;
        for (;;) {
            if (gt + h >= MERGE_GRID) break;
            bool full = true;
            for (int k = 0; k < w && full; k++) full = grid[gt + h][gs + k] > 0;
            if (!full) break;
            h++;
        }
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) grid[gt + y][gs + x] = -1;
        merge_emit(ctx, &in[recs[i].quad * 4], &recs[i], w, h);
    }
    for (int i = 0; i < n; i++) {
        int gs = recs[i].s - min_s, gt = recs[i].t - min_t;
        if (gs < MERGE_GRID && gt < MERGE_GRID) grid[gt][gs] = 0;
    }
}

#ifndef NDEBUG
/* Debug builds: a record made at emission is the one merge_classify makes from the vertices (and a face
 * noted as never merging is one it turns away). */
static void merge_check_record(const TerrainVertex *quad, bool half, int q, int32_t made, const MesherMergeRec *rec)
{
    if (made != q && made != MERGE_REC_NEVER) return;
    TerrainVertex v[4];   /* at the records' scale (half for the far copy: positions and local texture halved) */
    memcpy(v, quad, sizeof v);
    for (int k = 0; k < 4 && half; k++) {
        v[k].x *= 0.5f;
        v[k].y *= 0.5f;
        v[k].z *= 0.5f;
        int tile_u = v[k].tx / MESHER_UV_TILE_STRIDE, tile_v = v[k].ty / MESHER_UV_TILE_STRIDE;
        v[k].tx = (int16_t)(tile_u * MESHER_UV_TILE_STRIDE + (v[k].tx - tile_u * MESHER_UV_TILE_STRIDE) / 2);
        v[k].ty = (int16_t)(tile_v * MESHER_UV_TILE_STRIDE + (v[k].ty - tile_v * MESHER_UV_TILE_STRIDE) / 2);
    }
    MesherMergeRec check = {0};
    bool mergeable = merge_classify(v, q, &check);
    assert(mergeable == (made == q));
    if (made == q)
        assert(memcmp(check.key, rec->key, sizeof check.key) == 0 && check.s == rec->s && check.t == rec->t &&
               memcmp(check.corner, rec->corner, sizeof check.corner) == 0);
    (void)mergeable;
    (void)rec;
}
#endif

/* The side array of the scratch list `list` (the slice's lists, leaves, near faces), else NULL. */
static struct MesherFaceRecs *merge_face_recs(MesherContext *ctx, const VertexList *list)
{
    if (!ctx->face_recs) return NULL;
    if (list >= ctx->build_lists && list < ctx->build_lists + MESH_SUBSET_COUNT) return &ctx->face_recs[list - ctx->build_lists];
    if (list == &ctx->leaf_list) return &ctx->face_recs[MESH_SUBSET_COUNT];
    if (list == &ctx->near_list) return &ctx->face_recs[MESH_SUBSET_COUNT + 1];
    if (list >= ctx->lod_lists && list < ctx->lod_lists + MESH_SUBSET_COUNT)
        return &ctx->face_recs[MESH_SUBSET_COUNT + 2 + (list - ctx->lod_lists)];
    return NULL;
}

/* The face table: a sample face of each kind (cell 0, tile 0, white) built as mesher_faces.c builds them,
 * classified. */
static void merge_init_face_shapes(MesherContext *ctx)
{
    MesherFaceShape (*shape)[2] = ctx->face_shapes;
    for (int f = 0; f < 6; f++)
        for (int first = 0; first < 2; first++) {
            TerrainVertex v[4];
            for (int i = 0; i < 4; i++) {
                int k = (first + i) & 3;
                const int *c = MESHER_FACE_CORNER[f][k];
                v[i].x = (float)c[0];
                v[i].y = (float)c[1];
                v[i].z = (float)c[2];
                v[i].tx = (int16_t)MESHER_CORNER_UV[k][0];
                v[i].ty = (int16_t)MESHER_CORNER_UV[k][1];
                memset(v[i].color, 255, 4);
            }
            MesherMergeRec rec = {0};
            MesherFaceShape *fs = &shape[f][first];
            fs->full = merge_classify(v, 0, &rec);
            memcpy(fs->corner, rec.corner, 4);
            fs->facing = rec.key[0] & 0xFF;
            fs->sig = rec.key[3];
        }
    ctx->face_shapes_ready = true;
}

void mesher_merge_begin_slice(MesherContext *ctx)
{
    if (!ctx->face_recs) return;
    for (int k = 0; k < MESHER_FACE_REC_LISTS; k++) ctx->face_recs[k].filled = 0;
}

void mesher_merge_begin_list(MesherContext *ctx, const VertexList *list)
{
    struct MesherFaceRecs *fr = merge_face_recs(ctx, list);
    if (fr) fr->filled = 0;
}

void mesher_merge_note_face(MesherContext *ctx, const VertexList *list, int face, int first, bool full, int x, int y,
                            int z, float plane, int tile, const uint8_t color[4][4])
{
    if (!ctx->merge) return;
    if (!ctx->face_recs && !(ctx->face_recs = calloc(MESHER_FACE_REC_LISTS, sizeof *ctx->face_recs))) return;
    struct MesherFaceRecs *fr = merge_face_recs(ctx, list);
    if (!fr || list->count < 4) return;
    int q = list->count / 4 - 1;   /* the quad just emitted */
    if (q < fr->filled) return;    /* not after the last noted one: leave it to classification */
    if (q >= fr->capacity) {
        int cap = fr->capacity ? fr->capacity : 256;
        while (cap <= q) cap *= 2;
        MesherMergeRec *recs = realloc(fr->recs, (size_t)cap * sizeof *recs);
        if (!recs) return;   /* no record: the quad is classified */
        fr->recs = recs;
        fr->capacity = cap;
    }
    for (int i = fr->filled; i < q; i++) fr->recs[i].quad = MERGE_REC_NONE;
    fr->filled = q + 1;
    MesherMergeRec *rec = &fr->recs[q];
    if (!ctx->face_shapes_ready) merge_init_face_shapes(ctx);
    const MesherFaceShape *fs = &ctx->face_shapes[face][first];
    if (!full || !fs->full) {
        rec->quad = MERGE_REC_NEVER;
        return;
    }
    /* the plane and the min corner in plane coordinates (MERGE_S_AXIS, MERGE_T_AXIS) of the cell's face */
    int axis = (int)fs->facing >> 1;
    int cell[3] = {x, y, z};
    int s0 = cell[MERGE_S_AXIS[axis]], t0 = cell[MERGE_T_AXIS[axis]];
    uint32_t col[4];
    for (int i = 0; i < 4; i++) memcpy(&col[fs->corner[i]], color[i], 4);
    int32_t grad_s[3], grad_t[3], base[3];
    for (int ch = 0; ch < 4; ch++) {
        int c00 = (int)(col[0] >> (8 * ch) & 0xFF), c10 = (int)(col[1] >> (8 * ch) & 0xFF),
            c01 = (int)(col[2] >> (8 * ch) & 0xFF), c11 = (int)(col[3] >> (8 * ch) & 0xFF);
        if (c00 + c11 != c10 + c01 || (ch == 3 && (c10 != c00 || c01 != c00))) {
            rec->quad = MERGE_REC_NEVER;
            return;
        }
        if (ch == 3) break;
        grad_s[ch] = c10 - c00;
        grad_t[ch] = c01 - c00;
        base[ch] = c00 - grad_s[ch] * s0 - grad_t[ch] * t0;
    }
    merge_rec_set(rec, fs->facing | (col[0] >> 24) << 8, plane, (uint32_t)(tile & 15) | (uint32_t)(tile >> 4) << 16,
                  fs->sig, grad_s, grad_t, base, s0, t0, q);
    memcpy(rec->corner, fs->corner, 4);
}

void mesher_merge_list(MesherContext *ctx, VertexList *list)
{
    int quads = list->count / 4;
    if (quads < 2) return;
    if (quads > ctx->merge_rec_capacity) {
        int cap = ctx->merge_rec_capacity ? ctx->merge_rec_capacity : 1024;
        while (cap < quads) cap *= 2;
        MesherMergeRec *recs = malloc((size_t)cap * sizeof *recs), *sorted = malloc((size_t)cap * sizeof *sorted);
        uint32_t *order = malloc((size_t)cap * 9 * sizeof *order);   /* merge_sort_grouped's 9 x cap */
        if (!recs || !sorted || !order) {
            free(recs);
            free(sorted);
            free(order);
            return;   /* unmerged is still correct */
        }
        free(ctx->merge_recs);
        free(ctx->merge_sorted);
        free(ctx->merge_order);
        ctx->merge_recs = recs;
        ctx->merge_sorted = sorted;
        ctx->merge_order = order;
        ctx->merge_rec_capacity = cap;
    }
    VertexList *out = &ctx->merge_out;
    out->count = 0;
    bool failed = ctx->failed;
    if (out->capacity < list->count && !mesher_list_grow(ctx, out, list->count)) {
        ctx->failed = failed;   /* not fatal: the unmerged list stays (the output never outgrows the input) */
        return;
    }
    int n = 0;
    struct MesherFaceRecs *fr = merge_face_recs(ctx, list);
    int known = fr && fr->filled <= quads ? fr->filled : 0;   /* more records than quads: stale, unused */
    if (fr) fr->filled = 0;   /* used up: the list is rewritten below */
    for (int q = 0; q < quads; q++) {
        int32_t made = q < known ? fr->recs[q].quad : MERGE_REC_NONE;
#ifndef NDEBUG
        merge_check_record(&list->data[q * 4], ctx->merge_half, q, made, q < known ? &fr->recs[q] : NULL);
#endif
        if (made == q) ctx->merge_recs[n++] = fr->recs[q];
        else if (made == MERGE_REC_NONE && merge_classify(&list->data[q * 4], q, &ctx->merge_recs[n])) n++;
        else merge_emit(ctx, &list->data[q * 4], NULL, 1, 1);
    }
    if (n == 0) return;   /* nothing to merge: the input stays */
    MesherMergeRec *sorted = merge_sort_grouped(ctx, n);
    if (!sorted) sorted = merge_sort(ctx, n);
    for (int i = 0; i < n;) {
        int j = i + 1;
        while (j < n && merge_same_group(&sorted[i], &sorted[j])) j++;
        merge_group(ctx, list->data, &sorted[i], j - i);
        i = j;
    }
    VertexList swap = *list;
    *list = *out;
    *out = swap;
}

void mesher_merge_slice(MesherContext *ctx, VertexList *lists)
{
    for (int s = 0; s < MESH_SUBSET_COUNT; s++) mesher_merge_list(ctx, &lists[s]);
}

void mesher_merge_free(MesherContext *ctx)
{
    free(ctx->merge_recs);
    free(ctx->merge_sorted);
    free(ctx->merge_order);
    free(ctx->merge_out.data);
    ctx->merge_recs = NULL;
    ctx->merge_sorted = NULL;
    ctx->merge_order = NULL;
    ctx->merge_out = (VertexList){0};
    ctx->merge_rec_capacity = 0;
    if (ctx->face_recs)
        for (int k = 0; k < MESHER_FACE_REC_LISTS; k++) free(ctx->face_recs[k].recs);
    free(ctx->face_recs);
    ctx->face_recs = NULL;
}
