/* gen24_fill.c — pass 1: shafts (temperature, humidity) and the base fill from a 3D density.
 *
 * Design: density = height - (y + turbulence) + max(4 * (density_bias - y), 0), sampled on a coarse grid
 * (every 4 blocks in x and z, every 8 in y) and trilinearly interpolated, as Survivalcraft does. The
 * turbulence (3D noise, strong only where the mountain factor passes turbulence_zero) makes the cliffs
 * and overhangs; it is zero above the height, so its noise is evaluated only below it. Negative density
 * is water up to the sea level and air above; solid cells are sandstone (hot and dry, or near the shore),
 * granite, or basalt where the density is high (deep).
 *
 * The coarse column and the column interpolation are exported (one copy of the float code), so anything
 * that must know a column's base fill without generating the chunk (tree placement in neighbour chunks,
 * water just outside a chunk for caves) gets bit-identical values. The coarse grid is aligned to world
 * multiples of 4, so neighbouring chunks share corner columns exactly. A coarse column's base (fields, height,
 * turbulence strength) is memoised per thread, keyed by the generator's inputs and the point: neighbouring
 * chunks, tree placement and scatter rules ask for the same lattice points again and again. The memo is
 * indexed by lattice position (a 128 x 64 window of points, 512 x 256 blocks, wrapping), so the points of a
 * neighbourhood never evict each other as a hash's collisions did; it is allocated by the threads that use
 * it (coarse_memo), not part of every thread's TLS. A memo only saves time; the values are the ones computed. */
#include "gen24_internal.h"
#include "structures/gen_structures.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define TL_COARSE 8192

typedef struct CoarseMemo {
    uint64_t tag;
    int wx, wz;
    Gen24Lattice fields;
    float height, turbulence;
} CoarseMemo;

/* The memo (TL_COARSE entries, 320 kB) is made on a thread's first use and freed when the thread ends: as a
 * _Thread_local array it was most of the executable's static TLS, which glibc clears for every thread the
 * process starts (the renderer's, the sound's, the far terrain's: ~0.3 MB of pages and ~80 page faults each,
 * for threads that never generate a chunk). */
static _Thread_local CoarseMemo *tl_coarse;
static pthread_key_t coarse_key;
static pthread_once_t coarse_once = PTHREAD_ONCE_INIT;
static bool coarse_key_made;

static void coarse_key_make(void) { coarse_key_made = pthread_key_create(&coarse_key, free) == 0; }

/* This thread's memo, or NULL (out of memory: no memo, the same values). */
static CoarseMemo *coarse_memo(void)
{
    if (tl_coarse) return tl_coarse;
    pthread_once(&coarse_once, coarse_key_make);
    if (!coarse_key_made) return NULL;
    CoarseMemo *memo = calloc(TL_COARSE, sizeof *memo);   /* tag 0: empty (a tag has its low bit set) */
    if (memo && pthread_setspecific(coarse_key, memo) != 0) {
        free(memo);
        memo = NULL;
    }
    return tl_coarse = memo;
}

static void coarse_base_compute(const Gen24 *g, int wx, int wz, bool fields, Gen24Coarse *out);

void gen24_coarse_base(const Gen24 *g, int wx, int wz, bool fields, Gen24Coarse *out)
{
    CoarseMemo *memo = fields ? coarse_memo() : NULL;
    if (!memo) {
        coarse_base_compute(g, wx, wz, fields, out);
        return;
    }
    uint64_t tag = rng_hash2(g->key, wx, wz) | 1;
    CoarseMemo *m = &memo[(((unsigned)wz >> 2) & 63u) << 7 | (((unsigned)wx >> 2) & 127u)];
    if (m->tag != tag || m->wx != wx || m->wz != wz) {
        coarse_base_compute(g, wx, wz, true, out);
        m->fields = out->fields;
        m->height = out->height;
        m->turbulence = out->turbulence;
        m->wx = wx;
        m->wz = wz;
        m->tag = tag;
        return;
    }
    out->fields = m->fields;
    out->height = m->height;
    out->turbulence = m->turbulence;
}

static void coarse_base_compute(const Gen24 *g, int wx, int wz, bool fields, Gen24Coarse *out)
{
    const GenTerrainConfig *t = &g->cfg.terrain;
    float x = (float)wx, z = (float)wz;
    float m;
    if (fields) {
        gen24_lattice(g, wx, wz, &out->fields);
        m = out->fields.mountain;
    } else {
        m = gen24_mountain_raw(g, x, z);
        out->fields.temperature = out->fields.humidity = 0.0f;
        out->fields.mountain = m;
    }
    out->height = gen24_height(g, x, z);
    /* heightmap worlds: the surface is the map's, with no overhangs added */
    out->turbulence = g->hm ? 0.0f
                            : t->turbulence_strength *
                                  gen_lerp(t->min_turbulence, 1.0f, gen_squish(m, t->turbulence_zero, 1.0f));
}

float gen24_coarse_level(const Gen24 *g, const Gen24Coarse *c, int wx, int wz, int l)
{
    const GenTerrainConfig *t = &g->cfg.terrain;
    float y = (float)(l * 8);
    float below = gen_saturate(c->height - y);
    float turb = 0.0f;
    if (below > 0.0f) /* the turbulence vanishes above the height: no noise there */
        turb = c->turbulence * below *
               (2.0f * gen_noise3(&g->n_turbulence, (float)wx, y, (float)wz, t->turbulence_frequency,
                                  t->turbulence_octaves, 4.0f, t->turbulence_persistence) - 1.0f);
    float bias = 4.0f * (t->density_bias - y);
    return c->height - (y + turb) + (bias > 0.0f ? bias : 0.0f);
}

void gen24_coarse_column(const Gen24 *g, int wx, int wz, int max_level, bool fields, Gen24Coarse *out)
{
    gen24_coarse_base(g, wx, wz, fields, out);
    if (max_level > GEN24_COARSE_LEVELS)
        max_level = GEN24_COARSE_LEVELS;
    for (int l = 0; l < max_level; l++)
        out->density[l] = gen24_coarse_level(g, out, wx, wz, l);
    for (int l = max_level; l < GEN24_COARSE_LEVELS; l++)
        out->density[l] = -1.0f; /* never read: callers ask only below max_level * 8 */
}

void gen24_column_density(const Gen24Coarse *c00, const Gen24Coarse *c10, const Gen24Coarse *c01,
                          const Gen24Coarse *c11, int wx, int wz, int y_end, float *out)
{
    static const float k8[8] = {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f};
    float fx = (float)(wx & 3) * 0.25f, fz = (float)(wz & 3) * 0.25f;
    int levels = (y_end + 7) >> 3;
    if (levels > GEN24_COARSE_LEVELS - 1)
        levels = GEN24_COARSE_LEVELS - 1;
    float v[GEN24_COARSE_LEVELS];
    for (int l = 0; l <= levels; l++)
        v[l] = gen24_level_bilerp(c00->density[l], c10->density[l], c01->density[l], c11->density[l], fx, fz);
    /* cell y = 8 l + k: v[l] + (v[l+1] - v[l]) / 8 * k, eight independent cells per level */
    for (int l = 0; l < levels; l++) {
        float prev = v[l], step = (v[l + 1] - prev) * 0.125f;
        float *o = out + l * 8;
        if (l * 8 + 8 <= y_end) {
            for (int k = 0; k < 8; k++)
                o[k] = prev + step * k8[k];
        } else {
            for (int k = 0; l * 8 + k < y_end; k++)
                o[k] = prev + step * k8[k];
        }
    }
}

void gen24_column_fields(const Gen24 *g, const Gen24Coarse *c00, const Gen24Coarse *c10, const Gen24Coarse *c01,
                         const Gen24Coarse *c11, int wx, int wz, int *temperature, int *humidity, float *mountain)
{
    float fx = (float)(wx & 3) * 0.25f, fz = (float)(wz & 3) * 0.25f;
    *temperature = gen24_temperature_of(g, gen24_field_bilerp(c00->fields.temperature, c10->fields.temperature,
                                                              c01->fields.temperature, c11->fields.temperature, fx, fz));
    *humidity = gen24_humidity_of(g, gen24_field_bilerp(c00->fields.humidity, c10->fields.humidity, c01->fields.humidity,
                                                        c11->fields.humidity, fx, fz));
    *mountain = gen24_field_bilerp(c00->fields.mountain, c10->fields.mountain, c01->fields.mountain,
                                   c11->fields.mountain, fx, fz);
}

Gen24RockRule gen24_rock_rule(const Gen24 *g, float shore_distance, float mountain, int temperature, int humidity)
{
    Gen24RockRule r;
    float f = mountain - 0.01f * (float)humidity;
    r.sandstone_below = gen_lerp(100.0f, 0.0f, f);
    r.basalt_from = gen_lerp(300.0f, 30.0f, f);
    r.sandstone = mountain < 0.97f && ((temperature > 8 && humidity < 8) ||
                                       fabsf(shore_distance) < g->cfg.terrain.beach_distance);
    return r;
}

void gen24_pass1(const Generator *gen, TerrainChunk *chunk, GenContext *ctx)
{
    CellView view = chunk_cell_view(chunk);
    (void)ctx;
    const Gen24 *g = gen->impl;
    int ox = chunk->origin_x, oz = chunk->origin_z;

    Gen24Coarse coarse[5][5]; /* [z][x] */
    for (int cz = 0; cz < 5; cz++)
        for (int cx = 0; cx < 5; cx++)
            gen24_coarse_column(g, ox + cx * 4, oz + cz * 4, GEN24_COARSE_LEVELS, true, &coarse[cz][cx]);

    /* shore lines: x of the shore for each row z, z of the shore for each column x */
    float shore_x[16], shore_z[16], shore_x_far[16] = {0}, shore_z_far[16] = {0};
    for (int i = 0; i < 16; i++) {
        shore_x[i] = gen24_shore_x(g, (float)(oz + i));
        shore_z[i] = gen24_shore_z(g, (float)(ox + i));
        if (g->island) {
            shore_x_far[i] = gen24_shore_x(g, (float)(oz + i) + 1000.0f);
            shore_z_far[i] = gen24_shore_z(g, (float)(ox + i) + 1000.0f);
        }
    }

    const int32_t water = cell_make(BLOCK_WATER, 0);
    const int ocean = g->ocean_level;
    /* version 3: flat zones of the chunk's structure site (a pure function of the seed) */
    GenSite site_scratch;
    const GenSite *site = g->structures ? gen_structures_site(g->structures, (int)floor((double)ox / GEN_SITE_REGION),
                                                              (int)floor((double)oz / GEN_SITE_REGION), &site_scratch)
                                        : NULL;
    float density[256];
    for (int z = 0; z < 16; z++)
        for (int x = 0; x < 16; x++) {
            int wx = ox + x, wz = oz + z, i = CHUNK_SHAFT_INDEX(x, z);
            const Gen24Coarse *c00 = &coarse[z >> 2][x >> 2], *c10 = &coarse[z >> 2][(x >> 2) + 1],
                              *c01 = &coarse[(z >> 2) + 1][x >> 2], *c11 = &coarse[(z >> 2) + 1][(x >> 2) + 1];
            int temperature, humidity;
            float mountain;
            gen24_column_fields(g, c00, c10, c01, c11, wx, wz, &temperature, &humidity, &mountain);
            chunk->shafts[i] = shaft_set_humidity(shaft_set_temperature(chunk->shafts[i], temperature), humidity);
            gen24_column_density(c00, c10, c01, c11, wx, wz, 256, density);
            if (site)
                gen_structures_flatten_column(site, wx, wz, density);
            float shore = g->hm ? gen24_shore_distance(g, (float)wx, (float)wz)
                                : gen24_shore_combine(g, (float)wx, (float)wz, shore_x[z], shore_z[x], shore_x_far[z],
                                                      shore_z_far[x]);
            Gen24RockRule rule = gen24_rock_rule(g, shore, mountain, temperature, humidity);
            int32_t *column = cell_view_column(view, x, z);
            for (int y = 0; y < 256; y++) {
                float d = density[y];
                if (d < 0.0f)
                    column[y] = y <= ocean ? water : 0;
                else
                    column[y] = cell_make(gen24_rock(rule, d), 0);
            }
        }
}
