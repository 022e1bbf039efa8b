/* wfc.c — the 3D Wave Function Collapse solver (wfc.h).
 *
 * Design: each cell's domain is a bitset of variants with cached sum(w), sum(w log w) and count, so the
 * least-entropy observation is one scan over the cells. Propagation is AC-3 with a stack: when a cell's
 * domain shrinks, each neighbour keeps only variants supported by some variant left here (the OR of the
 * tileset's compat rows). Every domain change is recorded on a trail; a decision remembers the trail
 * position, so a contradiction undoes to the last decision and bans the chosen variant there
 * (chronological backtracking, at most WFC_BACKTRACKS per attempt), then restarts with a derived seed
 * (WFC_RESTARTS). All randomness comes from the seed: the result is a pure function of the inputs. */
#include "strata/wfc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "strata/rng.h"

#define WFC_BACKTRACKS 4000
#define WFC_RESTARTS 12
#define W_MAX (WFC_MAX_VARIANTS / 64)

typedef struct Dom {
    uint64_t bits[W_MAX];
    float sum_w, sum_wlw;
    int count;
} Dom;

typedef struct TrailEntry {
    int cell;
    Dom old;
} TrailEntry;

typedef struct Decision {
    int trail_pos;
    int cell;
    int variant;
} Decision;

typedef struct Solver {
    const WfcTileset *ts;
    int sx, sy, sz, n, words;
    Dom *dom;
    float *noise;
    float *wlw;               /* per variant w log w */
    TrailEntry *trail;
    int trail_len, trail_cap;
    Decision *dec;
    int dec_len;
    int *stack;
    int stack_len;
    uint8_t *on_stack;
    Rng rng;
} Solver;

static int neighbour(const Solver *s, int c, int d)
{
    int x = c % s->sx, z = (c / s->sx) % s->sz, y = c / (s->sx * s->sz);
    switch (d) {
    case WFC_PX: return x + 1 < s->sx ? c + 1 : -1;
    case WFC_NX: return x > 0 ? c - 1 : -1;
    case WFC_PZ: return z + 1 < s->sz ? c + s->sx : -1;
    case WFC_NZ: return z > 0 ? c - s->sx : -1;
    case WFC_PY: return y + 1 < s->sy ? c + s->sx * s->sz : -1;
    default: return y > 0 ? c - s->sx * s->sz : -1;
    }
}

static void dom_recount(const Solver *s, Dom *d)
{
    d->sum_w = d->sum_wlw = 0.0f;
    d->count = 0;
    for (int v = 0; v < s->ts->variant_count; v++)
        if ((d->bits[v >> 6] >> (v & 63)) & 1) {
            d->sum_w += s->ts->variants[v].weight;
            d->sum_wlw += s->wlw[v];
            d->count++;
        }
}

static bool trail_push(Solver *s, int cell)
{
    if (s->trail_len == s->trail_cap) {
        int cap = s->trail_cap ? s->trail_cap * 2 : 1024;
        TrailEntry *t = realloc(s->trail, (size_t)cap * sizeof *t);
        if (!t)
            return false;
        s->trail = t;
        s->trail_cap = cap;
    }
    s->trail[s->trail_len].cell = cell;
    s->trail[s->trail_len].old = s->dom[cell];
    s->trail_len++;
    return true;
}

/* Sets cell's bits to `bits` (a subset), recording the change. -1 out of memory, 0 empty, 1 ok. */
static int restrict_cell(Solver *s, int cell, const uint64_t *bits)
{
    if (!trail_push(s, cell))
        return -1;
    Dom *d = &s->dom[cell];
    memcpy(d->bits, bits, sizeof(uint64_t) * (size_t)s->words);
    dom_recount(s, d);
    if (!s->on_stack[cell]) {
        s->on_stack[cell] = 1;
        s->stack[s->stack_len++] = cell;
    }
    return d->count > 0;
}

/* AC-3 from the cells on the stack. -1 out of memory, 0 contradiction, 1 ok. */
static int propagate(Solver *s)
{
    const WfcTileset *ts = s->ts;
    const int W = s->words, nv = ts->variant_count;
    while (s->stack_len > 0) {
        int c = s->stack[--s->stack_len];
        s->on_stack[c] = 0;
        for (int d = 0; d < WFC_DIRS; d++) {
            int nb = neighbour(s, c, d);
            if (nb < 0)
                continue;
            uint64_t allowed[W_MAX] = {0};
            const Dom *dc = &s->dom[c];
            for (int w = 0; w < W; w++)
                for (uint64_t b = dc->bits[w]; b; b &= b - 1) {
                    int v = w * 64 + __builtin_ctzll(b);
                    const uint64_t *row = ts->compat + ((size_t)d * nv + v) * W;
                    for (int k = 0; k < W; k++)
                        allowed[k] |= row[k];
                }
            bool changed = false;
            uint64_t next[W_MAX];
            for (int k = 0; k < W; k++) {
                next[k] = s->dom[nb].bits[k] & allowed[k];
                changed |= next[k] != s->dom[nb].bits[k];
            }
            if (changed) {
                int r = restrict_cell(s, nb, next);
                if (r <= 0)
                    return r;
            }
        }
    }
    return 1;
}

static void undo_to(Solver *s, int pos)
{
    while (s->trail_len > pos) {
        TrailEntry *t = &s->trail[--s->trail_len];
        s->dom[t->cell] = t->old;
    }
    for (int i = 0; i < s->stack_len; i++)
        s->on_stack[s->stack[i]] = 0;
    s->stack_len = 0;
}

/* The undecided cell of least entropy, or -1 when all are decided. */
static int observe_cell(const Solver *s)
{
    int best = -1;
    float best_h = INFINITY;
    for (int c = 0; c < s->n; c++) {
        const Dom *d = &s->dom[c];
        if (d->count <= 1)
            continue;
        float h = logf(d->sum_w) - d->sum_wlw / d->sum_w + s->noise[c];
        if (h < best_h) {
            best_h = h;
            best = c;
        }
    }
    return best;
}

static int pick_variant(Solver *s, const Dom *d)
{
    float r = rng_float(&s->rng) * d->sum_w, acc = 0.0f;
    int last = -1;
    for (int v = 0; v < s->ts->variant_count; v++)
        if ((d->bits[v >> 6] >> (v & 63)) & 1) {
            acc += s->ts->variants[v].weight;
            last = v;
            if (r < acc)
                return v;
        }
    return last;
}

/* Initial domains: everything, minus boundary faces and constraints. -1 oom, 0 contradiction, 1 ok. */
static int init_domains(Solver *s, const WfcConstraint *cons, int ncons)
{
    const WfcTileset *ts = s->ts;
    for (int c = 0; c < s->n; c++) {
        Dom *d = &s->dom[c];
        memset(d->bits, 0, sizeof d->bits);
        for (int v = 0; v < ts->variant_count; v++) {
            bool ok = true;
            for (int dir = 0; dir < WFC_DIRS && ok; dir++)
                if (neighbour(s, c, dir) < 0 && ts->boundary_socket >= 0 &&
                    !ts->pairs[ts->variants[v].sockets[dir]][ts->boundary_socket])
                    ok = false;
            if (ok)
                d->bits[v >> 6] |= 1ull << (v & 63);
        }
        dom_recount(s, d);
        if (d->count == 0)
            return 0;
        s->noise[c] = rng_float(&s->rng) * 1e-4f;
    }
    for (int i = 0; i < ncons; i++) {
        int c = (cons[i].y * s->sz + cons[i].z) * s->sx + cons[i].x;
        uint64_t bits[W_MAX] = {0};
        for (int v = 0; v < ts->variant_count; v++)
            if (wfc_tile_has_tag(&ts->tiles[ts->variants[v].tile], cons[i].tag))
                bits[v >> 6] |= 1ull << (v & 63);
        for (int w = 0; w < s->words; w++)
            bits[w] &= s->dom[c].bits[w];
        int r = restrict_cell(s, c, bits);
        if (r <= 0)
            return r;
    }
    for (int c = 0; c < s->n; c++)
        if (!s->on_stack[c]) {
            s->on_stack[c] = 1;
            s->stack[s->stack_len++] = c;
        }
    int r = propagate(s);
    s->trail_len = 0; /* the initial state is never undone past */
    return r;
}

/* One attempt: 1 solved, 0 failed within the bounds, -1 out of memory. */
static int attempt(Solver *s, const WfcConstraint *cons, int ncons, int *backtracks)
{
    s->trail_len = s->dec_len = s->stack_len = 0;
    memset(s->on_stack, 0, (size_t)s->n);
    int r = init_domains(s, cons, ncons);
    if (r <= 0)
        return r < 0 ? -1 : 0;
    for (;;) {
        int c = observe_cell(s);
        if (c < 0)
            return 1;
        int v = pick_variant(s, &s->dom[c]);
        s->dec[s->dec_len++] = (Decision){s->trail_len, c, v};
        uint64_t bits[W_MAX] = {0};
        bits[v >> 6] = 1ull << (v & 63);
        r = restrict_cell(s, c, bits);
        if (r > 0)
            r = propagate(s);
        while (r == 0) { /* contradiction: undo the last decision and ban its variant */
            if (s->dec_len == 0 || ++*backtracks > WFC_BACKTRACKS)
                return 0;
            Decision dd = s->dec[--s->dec_len];
            undo_to(s, dd.trail_pos);
            uint64_t left[W_MAX];
            memcpy(left, s->dom[dd.cell].bits, sizeof left);
            left[dd.variant >> 6] &= ~(1ull << (dd.variant & 63));
            r = restrict_cell(s, dd.cell, left);
            if (r > 0)
                r = propagate(s);
        }
        if (r < 0)
            return -1;
    }
}

StResult wfc_solve(const WfcTileset *ts, int sx, int sy, int sz, uint64_t seed, const WfcConstraint *constraints,
                   int constraint_count, WfcGrid *out)
{
    if (sx < 1 || sy < 1 || sz < 1 || sx > WFC_MAX_SIDE || sy > WFC_MAX_SIDE || sz > WFC_MAX_SIDE)
        return st_fail(ST_ERR_ARG, "wfc: grid %dx%dx%d outside 1..%d", sx, sy, sz, WFC_MAX_SIDE);
    for (int i = 0; i < constraint_count; i++) {
        const WfcConstraint *c = &constraints[i];
        if (c->x < 0 || c->y < 0 || c->z < 0 || c->x >= sx || c->y >= sy || c->z >= sz || !c->tag)
            return st_fail(ST_ERR_ARG, "wfc: constraint %d outside the grid", i);
    }
    Solver s = {.ts = ts, .sx = sx, .sy = sy, .sz = sz, .n = sx * sy * sz, .words = ts->words};
    s.dom = calloc((size_t)s.n, sizeof *s.dom);
    s.noise = calloc((size_t)s.n, sizeof *s.noise);
    s.wlw = calloc((size_t)ts->variant_count, sizeof *s.wlw);
    s.dec = calloc((size_t)s.n + 1, sizeof *s.dec);
    s.stack = calloc((size_t)s.n, sizeof *s.stack);
    s.on_stack = calloc((size_t)s.n, 1);
    int16_t *cells = malloc(sizeof(int16_t) * (size_t)s.n);
    StResult rc = ST_OK;
    int backtracks = 0, restarts = 0, r = 0;
    if (!s.dom || !s.noise || !s.wlw || !s.dec || !s.stack || !s.on_stack || !cells) {
        rc = st_fail(ST_ERR_NOMEM, "wfc: out of memory");
        goto done;
    }
    for (int v = 0; v < ts->variant_count; v++)
        s.wlw[v] = ts->variants[v].weight * logf(ts->variants[v].weight);
    for (restarts = 0; restarts < WFC_RESTARTS; restarts++) {
        rng_init(&s.rng, rng_hash2(seed, restarts, 0x57FC));
        int bt = 0;
        r = attempt(&s, constraints, constraint_count, &bt);
        backtracks += bt;
        if (r != 0)
            break;
    }
    if (r < 0) {
        rc = st_fail(ST_ERR_NOMEM, "wfc: out of memory");
    } else if (r == 0) {
        rc = st_fail(ST_ERR_STATE, "wfc: tileset '%s' cannot tile a %dx%dx%d grid (seed %llu; %d restarts, %d "
                     "backtracks)", ts->name, sx, sy, sz, (unsigned long long)seed, WFC_RESTARTS, backtracks);
    } else {
        for (int c = 0; c < s.n; c++)
            for (int w = 0; w < s.words; w++)
                if (s.dom[c].bits[w]) {
                    cells[c] = (int16_t)(w * 64 + __builtin_ctzll(s.dom[c].bits[w]));
                    break;
                }
        out->size[0] = sx;
        out->size[1] = sy;
        out->size[2] = sz;
        out->tiles = cells;
        out->restarts = restarts;
        out->backtracks = backtracks;
        cells = NULL;
    }
done:
    free(cells);
    free(s.dom);
    free(s.noise);
    free(s.wlw);
    free(s.dec);
    free(s.stack);
    free(s.on_stack);
    free(s.trail);
    return rc;
}

void wfc_grid_free(WfcGrid *g)
{
    if (!g)
        return;
    free(g->tiles);
    g->tiles = NULL;
}
