/* gen24_fields.c — gen24's 2D fields: ocean shore, mountain range factor, height, temperature, humidity,
 * forest density, and the coarse spawn search.
 *
 * Design: the formulas are Survivalcraft's TerrainContentsGenerator24 (shore lines bent by 4-octave
 * noise, a ridged 3-octave mountain range factor, hills and mountains strengths squished by it, rivers
 * cut where a noise crosses 0.5, height clamped to 10..251). The known weakness is fixed: instead of one
 * permutation table shifted by four +-3000 offsets, every term owns a NoiseTable seeded with
 * rng_derive(seed, "<term>"), so two seeds share no term. All functions are pure and thread safe. */
#include "gen24_internal.h"
#include "gen_heightmap.h"

#include <math.h>
#include <stdlib.h>

float gen24_shore_x(const Gen24 *g, float z)
{
    return g->cfg.terrain.ocean_corner_x +
           g->shore_fluctuations * gen_noise2(&g->n_shore_x, z, 0.0f, 0.005f / g->shore_fluctuations_scaling,
                                                  4, 1.95f, 1.0f);
}

float gen24_shore_z(const Gen24 *g, float x)
{
    return g->cfg.terrain.ocean_corner_z +
           g->shore_fluctuations * gen_noise2(&g->n_shore_z, 0.0f, x, 0.005f / g->shore_fluctuations_scaling,
                                                  4, 1.95f, 1.0f);
}

float gen24_shore_combine(const Gen24 *g, float x, float z, float sx, float sz, float sx_far, float sz_far)
{
    float dx = x - sx;
    float dz = z - sz;
    float d = dx < dz ? dx : dz;
    if (g->island) {
        float fx = sx_far + g->island_x - x;
        float fz = sz_far + g->island_z - z;
        if (fx < d) d = fx;
        if (fz < d) d = fz;
    }
    return d;
}

float gen24_shore_distance(const Gen24 *g, float x, float z)
{
    if (g->hm) /* a heightmap has no shore lines: height above the sea, as a distance (beaches, sandstone) */
        return 4.0f * (gen_heightmap_height(g->hm, x, z) - (float)g->ocean_level);
    float sx_far = 0.0f, sz_far = 0.0f;
    if (g->island) {
        sx_far = gen24_shore_x(g, z + 1000.0f);
        sz_far = gen24_shore_z(g, x + 1000.0f);
    }
    return gen24_shore_combine(g, x, z, gen24_shore_x(g, z), gen24_shore_z(g, x), sx_far, sz_far);
}

/* Survivalcraft's ridged OctavedNoise: the octave sum s in [0,1] folded around 0.5 (1 - |2s - 1|), so
 * mountain ranges run along the lines where the sum crosses its middle.
 * The climate review (version 4) kept this over seed 000's "ridged octaves" (each octave folded, then the
 * folds summed; worldgen.json climate.mountain_ridged_octaves = true): averaging three folded octaves pulls
 * the factor down and toward its middle (seed 1, x, z 0..2048: mean 0.78 -> 0.62, share above 0.8, where the
 * height's mountain term starts, 54% -> 14%), so the mountain ranges all but vanish, the land flattens into
 * low hills and broad lakes (docs/review/mountain_s1_*.png, mountain_s2_*.png). The folded sum is what the
 * engine's ranges were tuned with and what the seed's own pictures of long ranges show. */
float gen24_mountain_raw(const Gen24 *g, float x, float z)
{
    float t, h, m;
    if (g->hm && gen_heightmap_fields(g->hm, x, z, &t, &h, &m)) return m;
    float frequency = g->cfg.terrain.mountain_range_frequency / g->biome_scaling;
    if (g->climate.mountain_ridged_octaves) {
        /* each octave folded (the noise library's ridged mode), with the 2D calibration applied per octave */
        float r = noise_octaved2(&g->n_mountains, x, z, frequency, 3, 1.91f, 0.75f, true);
        return 1.0f - GEN_SC_SCALE_2D * (1.0f - r);
    }
    float s = gen_noise2(&g->n_mountains, x, z, frequency, 3, 1.91f, 0.75f);
    return 1.0f - fabsf(2.0f * s - 1.0f);
}

void gen24_lattice(const Gen24 *g, int wx, int wz, Gen24Lattice *out)
{
    float x = (float)wx, z = (float)wz;
    float t, h, m;
    if (g->hm && gen_heightmap_fields(g->hm, x, z, &t, &h, &m)) {
        /* the raw values that gen24_temperature_of / _humidity_of turn into the biome map's t and h */
        out->temperature = ((t + 0.5f) / 16.0f + 1.1f) / 3.0f;
        out->humidity = ((h + 0.5f) / 16.0f + 0.9f) / 3.0f;
        out->mountain = m;
        return;
    }
    out->temperature = gen_noise2(&g->n_temperature, x, z, g->cfg.terrain.temperature_frequency / g->biome_scaling, 5,
                                  2.0f, 0.6f);
    out->humidity = gen_noise2(&g->n_humidity, x, z, g->cfg.terrain.humidity_frequency / g->biome_scaling, 5, 2.0f, 0.6f);
    out->mountain = gen24_mountain_raw(g, x, z);
}

/* The four lattice points around (x, z) and the position between them. */
static void lattice_around(const Gen24 *g, float x, float z, Gen24Lattice c[4], float *fx, float *fz)
{
    float x0 = floorf(x * 0.25f) * 4.0f, z0 = floorf(z * 0.25f) * 4.0f;
    int ix = (int)x0, iz = (int)z0;
    gen24_lattice(g, ix, iz, &c[0]);
    gen24_lattice(g, ix + 4, iz, &c[1]);
    gen24_lattice(g, ix, iz + 4, &c[2]);
    gen24_lattice(g, ix + 4, iz + 4, &c[3]);
    *fx = (x - x0) * 0.25f;
    *fz = (z - z0) * 0.25f;
}

float gen24_mountain_factor(const Gen24 *g, float x, float z)
{
    Gen24Lattice c[4];
    float fx, fz;
    lattice_around(g, x, z, c, &fx, &fz);
    return gen24_field_bilerp(c[0].mountain, c[1].mountain, c[2].mountain, c[3].mountain, fx, fz);
}

int gen24_temperature(const Gen24 *g, float x, float z)
{
    Gen24Lattice c[4];
    float fx, fz;
    lattice_around(g, x, z, c, &fx, &fz);
    return gen24_temperature_of(g, gen24_field_bilerp(c[0].temperature, c[1].temperature, c[2].temperature,
                                                       c[3].temperature, fx, fz));
}

int gen24_humidity(const Gen24 *g, float x, float z)
{
    Gen24Lattice c[4];
    float fx, fz;
    lattice_around(g, x, z, c, &fx, &fz);
    return gen24_humidity_of(g, gen24_field_bilerp(c[0].humidity, c[1].humidity, c[2].humidity, c[3].humidity, fx, fz));
}

/* Survivalcraft's PowSign(v, 0.5): the signed square root. */
static float sqrt_sign(float v)
{
    return v < 0.0f ? -sqrtf(-v) : sqrtf(v);
}

float gen24_height(const Gen24 *g, float x, float z)
{
    if (g->hm) return gen_heightmap_height(g->hm, x, z);
    const GenTerrainConfig *t = &g->cfg.terrain;
    float slope = t->ocean_slope +
                  t->ocean_slope_variation *
                      sqrt_sign(2.0f * gen_noise2(&g->n_ocean_slope, x, z, 0.01f, 1, 2.0f, 0.5f) - 1.0f);
    float shore = gen24_shore_distance(g, x, z);
    float shore_fade = gen_saturate(2.0f - 0.05f * fabsf(shore));
    float islands = gen_saturate(gen_sin(t->islands_frequency * shore));
    float ocean_depth = gen_saturate(gen_saturate(-slope * shore) - 0.85f * islands);
    float ocean_flat = gen_saturate(gen_saturate(0.05f * (-shore - 10.0f)) - islands);
    float m = gen24_mountain_raw(g, x, z);
    float f1 = (1.0f - shore_fade) * gen_noise2(&g->n_biome1, x, z, 0.001f / g->biome_scaling, 2, 2.0f, 0.5f);
    float f2 = (1.0f - shore_fade) * gen_noise2(&g->n_biome2, x, z, 0.0017f / g->biome_scaling, 2, 4.0f, 0.7f);
    float hills_k = (1.0f - ocean_flat) * (1.0f - shore_fade) *
                    gen_squish(m, 1.0f - t->hills_percentage, 1.0f - t->mountains_percentage);
    float mountains_k = (1.0f - ocean_flat) * gen_squish(m, 1.0f - t->mountains_percentage, 1.0f);
    float hills_n = gen_noise2(&g->n_hills, x, z, t->hills_frequency, t->hills_octaves, 1.93f, t->hills_persistence);
    float amp_step = gen_lerp(0.75f * t->mountains_detail_persistence, 1.33f * t->mountains_detail_persistence, f1);
    float mountains_n = 1.5f * gen_noise2(&g->n_mountain_detail, x, z, t->mountains_detail_frequency,
                                              t->mountains_detail_octaves, 1.98f, amp_step) - 0.5f;
    float river_width = gen_lerp(80.0f, 35.0f,
                                 gen_saturate(mountains_k + 0.5f * hills_k + gen_saturate(1.0f - shore / 30.0f)));
    float river_floor = gen_lerp(-2.0f, -4.0f, gen_saturate(mountains_k + 0.5f * hills_k));
    float river = gen_saturate(
        1.5f - river_width * fabsf(2.0f * gen_noise2(&g->n_rivers, x, z, 0.001f, 4, 2.0f, 0.5f) - 1.0f));
    float h = -50.0f * ocean_depth + t->height_bias + gen_lerp(0.0f, 8.0f, f1) + gen_lerp(0.0f, -6.0f, f2) +
              t->mountains_strength * mountains_k * mountains_n + t->hills_strength * hills_k * hills_n;
    float carved = gen_lerp(h, river_floor, t->rivers_strength * river);
    if (carved < h)
        h = carved;
    h += (float)g->cfg.sea_level;
    return h < 10.0f ? 10.0f : (h > 251.0f ? 251.0f : h);
}

/* Per chunk: noise over chunk coordinates plus a 30% chance of a dense patch. */
float gen24_forest_density(const Gen24 *g, int cx, int cz)
{
    bool patch = rng_hash2(g->seed_forest, cx, cz) % 1000u < 300u;
    float n = gen_noise2(&g->n_forest, (float)cx, (float)cz, 0.1f, 2, 2.0f, 0.5f);
    return gen_saturate((n - 0.25f) / 0.2f + (patch ? 0.6f : 0.0f));
}

static float distance_from_range(float v, float lo, float hi)
{
    return v < lo ? lo - v : (v > hi ? v - hi : 0.0f);
}

static const int SPAWN_CORNERS[4][2] = {{-8, -8}, {-8, 8}, {8, -8}, {8, 8}};

#define SPAWN_RINGS 48                          /* candidates every 16 blocks out to 768 */
#define SPAWN_CORNER_SIDE (2 * SPAWN_RINGS + 2) /* the corner lattice: 16 * k + 8 for k in -RINGS-1 .. RINGS */

/* The heights 8 blocks off (x, z) diagonally, in the order of SPAWN_CORNERS. The spiral's candidates share
 * their corners (each lattice point 8 blocks off four of them), so `lattice` (the spiral's, NaN where not yet
 * made; NULL off the spiral) keeps each corner's height from the first time a candidate's score gets that far
 * (most stop at their own height: under the sea or too high). The search runs before the world's first chunk
 * can start: ~70 ms of a ~0.9 s launch, ~50 ms with every lattice height made ahead, ~7 ms now. Same heights,
 * same scores: the spawn does not move. */
static void spawn_corners(const Gen24 *g, float *lattice, int x, int z, float out[4])
{
    for (int i = 0; i < 4; i++) {
        int cx = x + SPAWN_CORNERS[i][0], cz = z + SPAWN_CORNERS[i][1];
        if (!lattice) {
            out[i] = gen24_height(g, (float)cx, (float)cz);
            continue;
        }
        int ci = (cx - 8) / 16 + SPAWN_RINGS + 1;   /* exact: x = 16 * k, corner 16 * k +- 8 */
        int cj = (cz - 8) / 16 + SPAWN_RINGS + 1;
        float *h = &lattice[cj * SPAWN_CORNER_SIDE + ci];
        if (isnan(*h)) *h = gen24_height(g, (float)cx, (float)cz);
        out[i] = *h;
    }
}

/* Higher is better: dry land a little above the sea, flat, not in the mountains, temperate, wooded, and
 * close to the origin. Every term after the first only takes away, so a candidate whose score so far is no
 * better than `beat` cannot win: spawn_score stops there (and returns that partial score) before reading the
 * costlier fields. The terms are taken in the same order either way, so a score that is finished is the same
 * float. `lattice` as for spawn_corners. */
static float spawn_score(const Gen24 *g, int x, int z, float *lattice, float beat)
{
    float h = gen24_height(g, (float)x, (float)z);
    float sea = (float)g->ocean_level;
    float score = 0.0f;
    float dist = sqrtf((float)x * (float)x + (float)z * (float)z);
    score -= 0.004f * dist;
    score -= 2.0f * distance_from_range(h, sea + 3.0f, sea + 12.0f);
    if (score <= beat) return score;
    float corner[4];
    spawn_corners(g, lattice, x, z, corner);
    float lo = h, hi = h;
    for (int i = 0; i < 4; i++) {
        if (corner[i] < lo) lo = corner[i];
        if (corner[i] > hi) hi = corner[i];
    }
    score -= 50.0f * distance_from_range(lo, sea + 2.0f, 1000.0f);   /* every corner dry */
    score -= 2.0f * distance_from_range(hi - lo, 0.0f, 4.0f);        /* not a cliff */
    if (score <= beat) return score;
    score -= 30.0f * distance_from_range(gen24_mountain_factor(g, (float)x, (float)z), 0.0f, 0.8f);
    if (score <= beat) return score;
    score -= distance_from_range((float)gen24_temperature(g, (float)x, (float)z), 5.0f, 13.0f);
    if (score <= beat) return score;
    score -= distance_from_range((float)gen24_humidity(g, (float)x, (float)z), 5.0f, 15.0f);
    if (score <= beat) return score;
    score -= 3.0f * distance_from_range(gen24_forest_density(g, x >> 4, z >> 4), 0.3f, 1.0f);
    return score;
}

/* Scans a square spiral of candidates every 16 blocks out to 768 from the origin; the first best wins,
 * so nearer candidates win ties. Then refines around the winner every 2 blocks. */
void gen24_find_spawn(const Gen24 *g, int *out_x, int *out_z)
{
    float *lattice = malloc(sizeof *lattice * SPAWN_CORNER_SIDE * SPAWN_CORNER_SIDE);   /* NULL: no sharing */
    for (int i = 0; lattice && i < SPAWN_CORNER_SIDE * SPAWN_CORNER_SIDE; i++) lattice[i] = NAN;
    int best_x = 0, best_z = 0;
    float best = spawn_score(g, 0, 0, lattice, -INFINITY);
    for (int ring = 1; ring <= SPAWN_RINGS; ring++) {
        for (int i = -ring; i <= ring; i++) {
            int cand[4][2] = {{i, -ring}, {i, ring}, {-ring, i}, {ring, i}};
            for (int k = 0; k < 4; k++) {
                if (k >= 2 && (i == -ring || i == ring))
                    continue; /* corners already visited */
                int x = cand[k][0] * 16, z = cand[k][1] * 16;
                float s = spawn_score(g, x, z, lattice, best);
                if (s > best) {
                    best = s;
                    best_x = x;
                    best_z = z;
                }
            }
        }
    }
    free(lattice);
    int cx = best_x, cz = best_z;
    for (int dz = -8; dz <= 8; dz += 2)
        for (int dx = -8; dx <= 8; dx += 2) {
            float s = spawn_score(g, cx + dx, cz + dz, NULL, best);
            if (s > best) {
                best = s;
                best_x = cx + dx;
                best_z = cz + dz;
            }
        }
    *out_x = best_x;
    *out_z = best_z;
}
