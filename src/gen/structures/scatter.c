/* scatter.c — order-independent scatter placement (scatter.h): jittered candidate grids, hash priorities and
 * the per-position spacing rule.
 *
 * Design: a query over [x0, x1) x [z0, z1) gathers the eligible candidates of the group's rules over the area
 * grown by the spacing group's reach (its largest minSpacing), buckets them in a grid of reach-sized cells, and keeps
 * each inner candidate that no eligible candidate within max(minSpacing of both) outranks. Whether a
 * candidate is eligible is decided from its own position alone (hashes, map, rectangles, the caller's
 * environment), so every query that sees a candidate agrees on it, and so on acceptance. */
#include "strata/scatter.h"
#include "strata/rng.h"

#include <math.h>
#include <stdlib.h>

typedef ScatterCandidate Cand;

static int floor_div(int a, int b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

static float unit24(uint64_t h) { return (float)(h >> 40) * (1.0f / 16777216.0f); }

float scatter_map_sample(const ScatterMap *m, float x, float z)
{
    if (!m->pixels || x < m->x0 || x >= m->x1 || z < m->z0 || z >= m->z1)
        return m->outside;
    int u = (int)((x - m->x0) / (m->x1 - m->x0) * (float)m->width);
    int v = (int)((z - m->z0) / (m->z1 - m->z0) * (float)m->height);
    u = u < 0 ? 0 : (u >= m->width ? m->width - 1 : u);
    v = v < 0 ? 0 : (v >= m->height ? m->height - 1 : v);
    return (float)m->pixels[(size_t)v * (size_t)m->width + (size_t)u] * (1.0f / 255.0f);
}

bool scatter_excluded_rect(const ScatterConfig *cfg, float x, float z)
{
    for (int i = 0; i < cfg->exclusion_count; i++) {
        const ScatterRect *r = &cfg->exclusions[i];
        if (x >= r->x0 && x <= r->x1 && z >= r->z0 && z <= r->z1)
            return true;
    }
    return false;
}

/* The candidate of `rule` in cell (i, j), and whether it is eligible and lies in [ex0, ex1) x [ez0, ez1).
 * Whether it is eligible depends on the candidate alone; the bounds only skip work. */
static bool candidate(const ScatterConfig *cfg, uint64_t seeded, int r, int i, int j, ScatterEnvFn env, void *user,
                      const int bounds[4], Cand *out)
{
    const ScatterRule *rule = &cfg->rules[r];
    uint64_t cell = rng_hash3_cell(seeded, i, j); /* rng_hash3(seed ^ salt, i, j, tag) = rng_hash3_tag(cell, tag) */
    float roll = unit24(rng_hash3_tag(cell, 2));
    float density = rule->base_density;
    if (roll >= density)
        return false; /* most candidates stop here, before their position is even hashed */
    uint64_t h = rng_hash3_tag(cell, 0);
    int c = rule->cell;
    out->x = i * c + (int)(h % (uint64_t)c);
    out->z = j * c + (int)((h >> 24) % (uint64_t)c);
    if (out->x < bounds[0] || out->x >= bounds[2] || out->z < bounds[1] || out->z >= bounds[3])
        return false;
    out->rule = r;
    out->i = i;
    out->j = j;
    if (rule->map >= 0)
        density *= scatter_map_sample(&cfg->maps[rule->map], (float)out->x, (float)out->z);
    if (roll >= density || scatter_excluded_rect(cfg, (float)out->x, (float)out->z))
        return false;
    if (env && roll >= density * env(user, rule, out->x, out->z))
        return false;
    out->priority = rng_hash3_tag(cell, 1);
    return true;
}

/* Does a outrank b? A total order: priority, then rule, then cell. */
static bool outranks(const Cand *a, const Cand *b)
{
    if (a->priority != b->priority) return a->priority > b->priority;
    if (a->rule != b->rule) return a->rule < b->rule;
    if (a->j != b->j) return a->j < b->j;
    return a->i < b->i;
}

/* [b0, b1) x [b2, b3): the candidates that can outrank a point of [x0, x1) x [z0, z1). One `reach` or more away
 * from the area in x or z, a candidate is at least max(minSpacing) from every inner point, and spacing needs less. */
static int query_reach(const ScatterConfig *cfg, int group)
{
    int reach = (int)ceilf(cfg->group_reach[group]);
    return reach < 1 ? 1 : reach;
}

void scatter_query_area(const ScatterConfig *cfg, int group, int x0, int z0, int x1, int z1, int area[4])
{
    int reach = group >= 0 && group < cfg->group_count ? query_reach(cfg, group) : 1;
    area[0] = x0 - reach + 1;
    area[1] = z0 - reach + 1;
    area[2] = x1 + reach - 1;
    area[3] = z1 + reach - 1;
}

int scatter_candidates(const ScatterConfig *cfg, uint64_t seed, int group, int x0, int z0, int x1, int z1,
                       ScatterEnvFn env, void *user, const uint8_t *skip, ScatterCandidate *out, int max)
{
    if (group < 0 || group >= cfg->group_count || x1 <= x0 || z1 <= z0)
        return 0;
    const int bounds[4] = {x0, z0, x1, z1};
    int n = 0;
    for (int r = 0; r < cfg->rule_count; r++) {
        const ScatterRule *rule = &cfg->rules[r];
        if (rule->group_index != group || (skip && skip[r]))
            continue;
        int c = rule->cell;
        uint64_t seeded = rng_hash3_seed(seed ^ rule->seed_salt);
        for (int j = floor_div(z0, c); j <= floor_div(z1 - 1, c); j++)
            for (int i = floor_div(x0, c); i <= floor_div(x1 - 1, c); i++) {
                Cand cd;
                if (!candidate(cfg, seeded, r, i, j, env, user, bounds, &cd))
                    continue;
                if (n < max)
                    out[n] = cd;
                n++;
            }
    }
    return n;
}

/* Gathering order: rule, then cell z, then cell x (unique per candidate). */
static int gathering_order(const void *pa, const void *pb)
{
    const Cand *a = pa, *b = pb;
    if (a->rule != b->rule) return a->rule < b->rule ? -1 : 1;
    if (a->j != b->j) return a->j < b->j ? -1 : 1;
    return (a->i > b->i) - (a->i < b->i);
}

int scatter_select(const ScatterConfig *cfg, uint64_t seed, int group, int x0, int z0, int x1, int z1,
                   const ScatterCandidate *all, int count, ScatterPoint *out, int max)
{
    if (group < 0 || group >= cfg->group_count || x1 <= x0 || z1 <= z0)
        return 0;
    int reach = query_reach(cfg, group), area[4];
    scatter_query_area(cfg, group, x0, z0, x1, z1, area);
    int ex0 = area[0], ez0 = area[1], ex1 = area[2], ez1 = area[3];
    /* the candidates of the grown area, then buckets of reach x reach blocks over it: a counting sort */
    Cand *cands = malloc(sizeof *cands * (size_t)(count > 0 ? count : 1));
    if (!cands)
        return -1;
    int n = 0;
    for (int k = 0; k < count; k++)
        if (all[k].x >= ex0 && all[k].x < ex1 && all[k].z >= ez0 && all[k].z < ez1)
            cands[n++] = all[k];
    int bw = (ex1 - ex0 + reach - 1) / reach, bh = (ez1 - ez0 + reach - 1) / reach;
    int *start = calloc((size_t)(bw * bh + 1), sizeof *start);
    int *order = malloc(sizeof *order * (size_t)(n > 0 ? n : 1));
    if (!start || !order) {
        free(start);
        free(order);
        free(cands);
        return -1;
    }
    for (int k = 0; k < n; k++)
        start[((cands[k].z - ez0) / reach) * bw + (cands[k].x - ex0) / reach + 1]++;
    for (int b = 0; b < bw * bh; b++)
        start[b + 1] += start[b];
    int *fill = malloc(sizeof *fill * (size_t)(bw * bh + 1));
    if (!fill) {
        free(start);
        free(order);
        free(cands);
        return -1;
    }
    for (int b = 0; b <= bw * bh; b++)
        fill[b] = start[b];
    for (int k = 0; k < n; k++)
        order[fill[((cands[k].z - ez0) / reach) * bw + (cands[k].x - ex0) / reach]++] = k;
    free(fill);

    /* accepted inner candidates, in gathering order (rule, cell z, cell x) */
    int kept = 0;
    int *acc = malloc(sizeof *acc * (size_t)(n > 0 ? n : 1));
    if (!acc) {
        free(start);
        free(order);
        free(cands);
        return -1;
    }
    for (int k = 0; k < n; k++) {
        const Cand *a = &cands[k];
        if (a->x < x0 || a->x >= x1 || a->z < z0 || a->z >= z1)
            continue;
        float sa = cfg->rules[a->rule].min_spacing;
        int bx = (a->x - ex0) / reach, bz = (a->z - ez0) / reach;
        bool beaten = false;
        for (int dz = -1; dz <= 1 && !beaten; dz++)
            for (int dx = -1; dx <= 1 && !beaten; dx++) {
                int cx = bx + dx, cz = bz + dz;
                if (cx < 0 || cz < 0 || cx >= bw || cz >= bh)
                    continue;
                int b = cz * bw + cx;
                for (int q = start[b]; q < start[b + 1] && !beaten; q++) {
                    const Cand *o = &cands[order[q]];
                    if (o == a || !outranks(o, a))
                        continue;
                    float s = cfg->rules[o->rule].min_spacing;
                    if (sa > s) s = sa;
                    float ddx = (float)(o->x - a->x), ddz = (float)(o->z - a->z);
                    beaten = ddx * ddx + ddz * ddz < s * s;
                }
            }
        if (!beaten)
            acc[kept++] = k;
    }
    Cand *accepted = malloc(sizeof *accepted * (size_t)(kept > 0 ? kept : 1));
    if (!accepted) {
        free(acc);
        free(start);
        free(order);
        free(cands);
        return -1;
    }
    for (int q = 0; q < kept; q++)
        accepted[q] = cands[acc[q]];
    bool sorted = true; /* callers may gather in any order; scatter_points gathers in this one */
    for (int q = 1; q < kept && sorted; q++)
        sorted = gathering_order(&accepted[q - 1], &accepted[q]) < 0;
    if (!sorted)
        qsort(accepted, (size_t)kept, sizeof *accepted, gathering_order);
    for (int q = 0; q < kept && q < max; q++) {
        const Cand *a = &accepted[q];
        const ScatterRule *rule = &cfg->rules[a->rule];
        uint64_t h = rng_hash3(seed ^ rule->seed_salt, a->i, a->j, 3);
        out[q] = (ScatterPoint){
            .x = a->x, .z = a->z, .rule = a->rule, .priority = a->priority,
            .scale = rule->scale_min + (rule->scale_max - rule->scale_min) * unit24(h),
            .rotation = rule->rotation_min + (rule->rotation_max - rule->rotation_min) * unit24(h << 24),
        };
    }
    free(accepted);
    free(acc);
    free(start);
    free(order);
    free(cands);
    return kept;
}

int scatter_points(const ScatterConfig *cfg, uint64_t seed, int group, int x0, int z0, int x1, int z1,
                   ScatterEnvFn env, void *user, ScatterPoint *out, int max)
{
    if (group < 0 || group >= cfg->group_count || x1 <= x0 || z1 <= z0)
        return 0;
    int area[4], cap = 1024;
    scatter_query_area(cfg, group, x0, z0, x1, z1, area);
    for (;;) {
        Cand *cands = malloc(sizeof *cands * (size_t)cap);
        if (!cands)
            return -1;
        int n = scatter_candidates(cfg, seed, group, area[0], area[1], area[2], area[3], env, user, NULL, cands, cap);
        if (n <= cap) {
            int kept = scatter_select(cfg, seed, group, x0, z0, x1, z1, cands, n, out, max);
            free(cands);
            return kept;
        }
        free(cands);
        cap = n;
    }
}
