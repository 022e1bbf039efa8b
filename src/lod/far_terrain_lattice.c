/* far_terrain_lattice.c — the shared height grid far patches are built from.
 *
 * Design. Sampling the generator (height, climate, surface block, tree rules) is what a far patch costs; its
 * columns are many more than its samples. So the generator is asked only at the points of a square grid:
 * FAR_LATTICE_STEP blocks apart for level 0, twice as far apart each level up (patches of every level have
 * 8 x 8 grid cells and 32 x 32 columns), so every level's points are points of the finer levels' grids, and
 * the patch a level up or down, or next door, finds most of its samples made. The samples live in a
 * FarLattice: a cache of 4-way sets keyed by the finest grid's point, each entry the point's far_surface_at
 * (heights first; colours, canopy and water when a patch's inside needs them), filled on demand and evicted
 * round-robin within its set; the far worker owns one (its thread only), and far_patch_build without one makes
 * a small one for the call. A column's height is the grid's bilinear mix at its centre rounded to a whole
 * block (far_terrain_columns.c), which is the voxel look (flat tops, vertical sides) at the column's width. */
#include <stdlib.h>
#include <string.h>

#include "far_internal.h"

#define FAR_LATTICE_WAYS 4

enum { FAR_SAMPLE_EMPTY = 0, FAR_SAMPLE_HEIGHT, FAR_SAMPLE_FULL };

typedef struct FarLatticeEntry {
    int32_t ix, iz;
    uint8_t state;        /* FAR_SAMPLE_* */
    FarSurface surface;
} FarLatticeEntry;

struct FarLattice {
    FarLatticeEntry *entries;
    uint32_t set_mask;    /* sets - 1 */
    uint32_t victim;      /* round-robin way to evict */
};

FarLattice *far_lattice_create(int capacity_log2)
{
    if (capacity_log2 < 4) capacity_log2 = 4;
    FarLattice *lat = malloc(sizeof *lat);
    if (!lat) return NULL;
    size_t n = (size_t)1 << capacity_log2;
    lat->entries = calloc(n, sizeof *lat->entries);   /* state 0: empty */
    if (!lat->entries) {
        free(lat);
        return NULL;
    }
    lat->set_mask = (uint32_t)(n / FAR_LATTICE_WAYS) - 1u;
    lat->victim = 0;
    return lat;
}

void far_lattice_destroy(FarLattice *lat)
{
    if (!lat) return;
    free(lat->entries);
    free(lat);
}

int far_lattice_spacing(int level)
{
    return FAR_LATTICE_STEP << level;
}

static uint32_t far_lattice_hash(int32_t ix, int32_t iz)
{
    uint32_t h = (uint32_t)ix * 0x9E3779B1u ^ (uint32_t)iz * 0x85EBCA77u;
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 12;
    return h;
}

void far_lattice_sample(FarLattice *lat, const Generator *gen, const FarPalette *palette, long ix, long iz,
                        bool full, FarSurface *out)
{
    int32_t x = (int32_t)ix, z = (int32_t)iz;
    uint8_t need = full ? FAR_SAMPLE_FULL : FAR_SAMPLE_HEIGHT;
    FarLatticeEntry *set = &lat->entries[(far_lattice_hash(x, z) & lat->set_mask) * FAR_LATTICE_WAYS], *slot = NULL;
    for (int w = 0; w < FAR_LATTICE_WAYS; w++) {
        FarLatticeEntry *e = &set[w];
        if (e->state != FAR_SAMPLE_EMPTY && e->ix == x && e->iz == z) {
            if (e->state >= need) {
                *out = e->surface;
                return;
            }
            slot = e;   /* heights only: fill in the rest */
            break;
        }
        if (!slot && e->state == FAR_SAMPLE_EMPTY) slot = e;
    }
    if (!slot) slot = &set[lat->victim++ % FAR_LATTICE_WAYS];
    far_surface_at(gen, palette, (double)x * FAR_LATTICE_STEP, (double)z * FAR_LATTICE_STEP, full, &slot->surface);
    slot->ix = x;
    slot->iz = z;
    slot->state = need;
    *out = slot->surface;
}

float far_lattice_height(FarLattice *lat, const Generator *gen, int level, double x, double z)
{
    float tx, tz;
    long cx = far_lattice_cell(level, x, &tx), cz = far_lattice_cell(level, z, &tz);
    long step = 1L << level;   /* finest-grid points between this level's */
    FarSurface s[4];
    for (int k = 0; k < 4; k++)
        far_lattice_sample(lat, gen, NULL, (cx + (k & 1)) * step, (cz + (k >> 1)) * step, false, &s[k]);
    return far_lattice_mix(s[0].height, s[1].height, s[2].height, s[3].height, tx, tz);
}
