/* strata-atlas.c — paints the block texture atlas procedurally from the tile names in blocks.json.
 *
 * Design. Every tile is 16x16 RGBA, painted by a function picked by its name (exact names first, then
 * families by suffix: *_trunk, *_trunk_top, *_leaves, *_ore, *_flower). All randomness comes from a hash
 * of (tile name, salt, x, y), so the atlas is byte-for-byte reproducible, and the smooth noise has period
 * 16 so every tile repeats seamlessly across neighbouring blocks. Tinted tiles (grass top, leaves, tall
 * grass, water) are painted in light grey-green or grey-blue because the mesher multiplies them by the
 * biome tint. Cut-out tiles (leaves, plants, torch) use alpha 0 for holes; water, ice and glass carry
 * partial alpha for the transparent pass. An unknown tile name gets a magenta checker so a modder sees
 * at once that it has no painter. Output: 256x256 RGBA (16 columns), tile i at column i % 16, row i / 16.
 * --preview writes the used rows scaled up over a checkerboard, for looking at the result. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stb/stb_image_write.h>

#include "strata/block.h"

#define ATLAS_SIZE 256
#define ATLAS_TILE 16
#define ATLAS_COLUMNS (ATLAS_SIZE / ATLAS_TILE)

typedef struct Rgb { float r, g, b; } Rgb;

/* One tile being painted: its pixels in the atlas and its noise seed. */
typedef struct Tile {
    uint8_t *px;     /* top-left pixel */
    int stride;      /* bytes per atlas row */
    uint32_t seed;
    const char *name;
} Tile;

/* ---- deterministic noise ---- */

static uint32_t mix32(uint32_t h)
{
    h ^= h >> 16; h *= 0x7FEB352Du;
    h ^= h >> 15; h *= 0x846CA68Bu;
    h ^= h >> 16;
    return h;
}

static uint32_t name_hash(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++) h = (h ^ (uint8_t)*s) * 16777619u;
    return h;
}

/* Uniform 0..1 per (seed, salt, x, y). */
static float rnd(const Tile *t, uint32_t salt, int x, int y)
{
    uint32_t h = mix32(t->seed ^ mix32(salt * 0x9E3779B9u ^ mix32((uint32_t)x * 73856093u ^ (uint32_t)y * 19349663u)));
    return (float)(h >> 8) / 16777216.0f;
}

static float smooth(float t) { return t * t * (3.0f - 2.0f * t); }

/* Value noise 0..1 on a lattice of `cell` pixels, wrapping every 16 pixels (cell divides 16). */
static float vnoise(const Tile *t, uint32_t salt, float x, float y, int cell)
{
    int n = ATLAS_TILE / cell;
    float fx = x / (float)cell, fy = y / (float)cell;
    int x0 = (int)floorf(fx), y0 = (int)floorf(fy);
    float tx = smooth(fx - (float)x0), ty = smooth(fy - (float)y0);
    int ax = ((x0 % n) + n) % n, ay = ((y0 % n) + n) % n, bx = (ax + 1) % n, by = (ay + 1) % n;
    float a = rnd(t, salt, ax, ay), b = rnd(t, salt, bx, ay), c = rnd(t, salt, ax, by), d = rnd(t, salt, bx, by);
    return (a + (b - a) * tx) + ((c + (d - c) * tx) - (a + (b - a) * tx)) * ty;
}

/* Two octaves of vnoise, 0..1. */
static float fbm(const Tile *t, uint32_t salt, float x, float y, int cell)
{
    float v = vnoise(t, salt, x, y, cell) * 0.65f;
    if (cell >= 2) v += vnoise(t, salt + 101, x, y, cell / 2) * 0.35f;
    else v += rnd(t, salt + 101, (int)x, (int)y) * 0.35f;
    return v;
}

/* Distance to the nearest and second nearest of `count` wrapped feature points (Voronoi), and the index of
 * the nearest. */
static void voronoi(const Tile *t, uint32_t salt, int count, int x, int y, float *d1, float *d2, int *cell)
{
    *d1 = *d2 = 1e9f;
    *cell = 0;
    for (int i = 0; i < count; i++) {
        float px = rnd(t, salt, i, 0) * ATLAS_TILE, py = rnd(t, salt, i, 1) * ATLAS_TILE;
        float dx = fabsf((float)x + 0.5f - px), dy = fabsf((float)y + 0.5f - py);
        if (dx > ATLAS_TILE / 2) dx = ATLAS_TILE - dx;
        if (dy > ATLAS_TILE / 2) dy = ATLAS_TILE - dy;
        float d = sqrtf(dx * dx + dy * dy);
        if (d < *d1) { *d2 = *d1; *d1 = d; *cell = i; }
        else if (d < *d2) *d2 = d;
    }
}

/* ---- pixels ---- */

static uint8_t clamp8(float v)
{
    return v <= 0 ? 0 : v >= 255 ? 255 : (uint8_t)(v + 0.5f);
}

static void put(const Tile *t, int x, int y, Rgb c, float a)
{
    if (x < 0 || y < 0 || x >= ATLAS_TILE || y >= ATLAS_TILE) return;
    uint8_t *p = t->px + y * t->stride + x * 4;
    p[0] = clamp8(c.r); p[1] = clamp8(c.g); p[2] = clamp8(c.b); p[3] = clamp8(a);
}

static Rgb get(const Tile *t, int x, int y)
{
    const uint8_t *p = t->px + y * t->stride + x * 4;
    return (Rgb){ p[0], p[1], p[2] };
}

static Rgb rgb(float r, float g, float b) { return (Rgb){ r, g, b }; }
static Rgb scale(Rgb c, float k) { return (Rgb){ c.r * k, c.g * k, c.b * k }; }
static Rgb lerp(Rgb a, Rgb b, float k) { return (Rgb){ a.r + (b.r - a.r) * k, a.g + (b.g - a.g) * k, a.b + (b.b - a.b) * k }; }

static void fill_clear(const Tile *t)
{
    for (int y = 0; y < ATLAS_TILE; y++)
        for (int x = 0; x < ATLAS_TILE; x++) put(t, x, y, rgb(0, 0, 0), 0);
}

/* ---- rock, earth ---- */

/* A speckled rock: `base` shaded by soft noise and per-pixel grain. */
static void paint_rock(const Tile *t, Rgb base, float soft, float grain)
{
    for (int y = 0; y < ATLAS_TILE; y++)
        for (int x = 0; x < ATLAS_TILE; x++) {
            float k = 1.0f + (fbm(t, 1, (float)x, (float)y, 8) - 0.5f) * soft + (rnd(t, 2, x, y) - 0.5f) * grain;
            put(t, x, y, scale(base, k), 255);
        }
}

static void paint_stone(const Tile *t)
{
    paint_rock(t, rgb(128, 128, 128), 0.30f, 0.16f);
    for (int i = 0; i < 5; i++) { /* a few darker flecks */
        int x = (int)(rnd(t, 3, i, 0) * 16), y = (int)(rnd(t, 3, i, 1) * 16);
        put(t, x, y, scale(get(t, x, y), 0.78f), 255);
        put(t, (x + 1) & 15, y, scale(get(t, (x + 1) & 15, y), 0.86f), 255);
    }
}

static void paint_bedrock(const Tile *t)
{
    for (int y = 0; y < ATLAS_TILE; y++)
        for (int x = 0; x < ATLAS_TILE; x++) {
            float n = fbm(t, 1, (float)x, (float)y, 4);
            Rgb c = n > 0.58f ? rgb(110, 110, 112) : n > 0.42f ? rgb(70, 70, 72) : rgb(34, 34, 36);
            put(t, x, y, scale(c, 0.9f + rnd(t, 2, x, y) * 0.2f), 255);
        }
}

static void paint_granite(const Tile *t)
{
    for (int y = 0; y < ATLAS_TILE; y++)
        for (int x = 0; x < ATLAS_TILE; x++) {
            float r = rnd(t, 4, x, y);
            Rgb c = rgb(150, 126, 116);
            if (r < 0.16f) c = rgb(186, 140, 128);          /* pink feldspar */
            else if (r < 0.26f) c = rgb(205, 198, 192);     /* quartz */
            else if (r < 0.36f) c = rgb(70, 62, 60);        /* mica */
            put(t, x, y, scale(c, 0.9f + fbm(t, 1, (float)x, (float)y, 8) * 0.2f), 255);
        }
}

static void paint_basalt(const Tile *t)
{
    paint_rock(t, rgb(74, 74, 80), 0.22f, 0.14f);
    for (int y = 0; y < ATLAS_TILE; y += 4) /* faint columnar joints */
        for (int x = 0; x < ATLAS_TILE; x++)
            if (rnd(t, 5, x, y) < 0.5f) put(t, x, y, scale(get(t, x, y), 0.85f), 255);
}

static void paint_limestone(const Tile *t)
{
    paint_rock(t, rgb(200, 194, 172), 0.14f, 0.08f);
    for (int i = 0; i < 7; i++) { /* pores */
        int x = (int)(rnd(t, 3, i, 0) * 16), y = (int)(rnd(t, 3, i, 1) * 16);
        put(t, x, y, rgb(160, 154, 134), 255);
    }
}

static void paint_sandstone_side(const Tile *t)
{
    for (int y = 0; y < ATLAS_TILE; y++) {
        float band = 0.92f + 0.1f * vnoise(t, 6, 0, (float)y, 2);
        if (y == 3 || y == 9 || y == 13) band *= 0.9f;
        for (int x = 0; x < ATLAS_TILE; x++)
            put(t, x, y, scale(rgb(214, 196, 146), band + (rnd(t, 2, x, y) - 0.5f) * 0.06f), 255);
    }
}

static void paint_sand(const Tile *t, Rgb base)
{
    for (int y = 0; y < ATLAS_TILE; y++)
        for (int x = 0; x < ATLAS_TILE; x++) {
            float k = 0.95f + (fbm(t, 1, (float)x, (float)y, 8) - 0.5f) * 0.08f + (rnd(t, 2, x, y) - 0.5f) * 0.1f;
            Rgb c = scale(base, k);
            if (rnd(t, 7, x, y) < 0.04f) c = scale(base, 0.8f);
            put(t, x, y, c, 255);
        }
}

static void paint_dirt(const Tile *t)
{
    for (int y = 0; y < ATLAS_TILE; y++)
        for (int x = 0; x < ATLAS_TILE; x++) {
            float k = 0.88f + fbm(t, 1, (float)x, (float)y, 4) * 0.22f + (rnd(t, 2, x, y) - 0.5f) * 0.12f;
            Rgb c = scale(rgb(122, 88, 58), k);
            float r = rnd(t, 7, x, y);
            if (r < 0.05f) c = rgb(88, 62, 40);
            else if (r < 0.08f) c = rgb(150, 118, 86);
            put(t, x, y, c, 255);
        }
}

static void paint_clay(const Tile *t)
{
    for (int y = 0; y < ATLAS_TILE; y++)
        for (int x = 0; x < ATLAS_TILE; x++) {
            float k = 0.94f + vnoise(t, 1, (float)x * 0.5f, (float)y, 4) * 0.08f + (rnd(t, 2, x, y) - 0.5f) * 0.05f;
            put(t, x, y, scale(rgb(160, 166, 180), k), 255);
        }
}

/* Stones in mortar: Voronoi cells of random greys, dark borders. */
static void paint_stones(const Tile *t, int count, float border, Rgb mortar, Rgb lo, Rgb hi)
{
    for (int y = 0; y < ATLAS_TILE; y++)
        for (int x = 0; x < ATLAS_TILE; x++) {
            float d1, d2;
            int cell;
            voronoi(t, 8, count, x, y, &d1, &d2, &cell);
            Rgb c = lerp(lo, hi, rnd(t, 9, cell, 0));
            if (d2 - d1 < border) c = mortar;
            else c = scale(c, 1.08f - d1 * 0.05f + (rnd(t, 2, x, y) - 0.5f) * 0.1f); /* rounded look */
            put(t, x, y, c, 255);
        }
}

static void paint_gravel(const Tile *t) { paint_stones(t, 14, 0.7f, rgb(72, 68, 64), rgb(110, 104, 98), rgb(170, 164, 158)); }
static void paint_cobblestone(const Tile *t) { paint_stones(t, 8, 0.9f, rgb(58, 58, 58), rgb(100, 100, 100), rgb(150, 150, 150)); }

/* ---- grass, snow, water, ice, magma ---- */

static void paint_grass_top(const Tile *t)
{
    for (int y = 0; y < ATLAS_TILE; y++)
        for (int x = 0; x < ATLAS_TILE; x++) {
            float k = 0.84f + fbm(t, 1, (float)x, (float)y, 4) * 0.2f + (rnd(t, 2, x, y) - 0.5f) * 0.16f;
            put(t, x, y, scale(rgb(196, 210, 184), k), 255);
        }
}

static void paint_grass_side(const Tile *t)
{
    paint_dirt(t);
    for (int x = 0; x < ATLAS_TILE; x++) {
        int fringe = 3 + (int)(rnd(t, 10, x, 0) * 2.5f) + (rnd(t, 11, x, 0) < 0.25f ? 2 : 0);
        for (int y = 0; y < fringe; y++) {
            float k = 0.86f + (rnd(t, 2, x, y) - 0.5f) * 0.2f - (y == fringe - 1 ? 0.12f : 0);
            put(t, x, y, scale(rgb(102, 156, 62), k), 255);
        }
    }
}

static void paint_snow(const Tile *t)
{
    for (int y = 0; y < ATLAS_TILE; y++)
        for (int x = 0; x < ATLAS_TILE; x++) {
            float k = 0.95f + fbm(t, 1, (float)x, (float)y, 8) * 0.05f;
            Rgb c = scale(rgb(244, 248, 252), k);
            if (rnd(t, 2, x, y) < 0.07f) c = rgb(214, 224, 238);
            put(t, x, y, c, 255);
        }
}

static void paint_water(const Tile *t)
{
    for (int y = 0; y < ATLAS_TILE; y++)
        for (int x = 0; x < ATLAS_TILE; x++) {
            float wave = vnoise(t, 1, (float)x, (float)y * 2.0f, 8);
            float k = 0.86f + wave * 0.16f;
            if (wave > 0.78f) k = 1.06f; /* light ripple crests */
            put(t, x, y, scale(rgb(212, 224, 240), k), 180);
        }
}

static void paint_ice(const Tile *t)
{
    for (int y = 0; y < ATLAS_TILE; y++)
        for (int x = 0; x < ATLAS_TILE; x++) {
            float d1, d2;
            int cell;
            voronoi(t, 8, 4, x, y, &d1, &d2, &cell);
            Rgb c = scale(rgb(168, 204, 244), 0.92f + fbm(t, 1, (float)x, (float)y, 8) * 0.12f);
            float a = 190;
            if (d2 - d1 < 0.55f) { c = rgb(232, 244, 255); a = 230; } /* cracks */
            put(t, x, y, c, a);
        }
}

static void paint_magma(const Tile *t)
{
    for (int y = 0; y < ATLAS_TILE; y++)
        for (int x = 0; x < ATLAS_TILE; x++) {
            float d1, d2;
            int cell;
            voronoi(t, 8, 7, x, y, &d1, &d2, &cell);
            float glow = 1.0f - fminf((d2 - d1) / 2.2f, 1.0f); /* bright in the cracks between crust plates */
            glow = glow * glow;
            Rgb crust = scale(rgb(150, 44, 14), 0.75f + rnd(t, 2, x, y) * 0.3f);
            Rgb hot = lerp(rgb(255, 120, 20), rgb(255, 236, 120), glow);
            put(t, x, y, lerp(crust, hot, fminf(glow * 1.4f, 1.0f)), 255);
        }
}

/* ---- wood ---- */

typedef struct Species { const char *name; Rgb bark, inner; } Species;
static const Species SPECIES[] = {
    { "oak", { 96, 74, 46 }, { 180, 144, 92 } },
    { "birch", { 222, 218, 206 }, { 214, 194, 150 } },
    { "spruce", { 66, 48, 34 }, { 164, 124, 82 } },
    { "poplar", { 142, 132, 112 }, { 196, 176, 126 } },
    { "mimosa", { 124, 98, 76 }, { 204, 164, 112 } },
};

static const Species *species_of(const char *name)
{
    for (size_t i = 0; i < sizeof SPECIES / sizeof SPECIES[0]; i++)
        if (strncmp(name, SPECIES[i].name, strlen(SPECIES[i].name)) == 0) return &SPECIES[i];
    return &SPECIES[0];
}

static void paint_bark(const Tile *t, const Species *s)
{
    bool birch = strcmp(s->name, "birch") == 0;
    for (int y = 0; y < ATLAS_TILE; y++)
        for (int x = 0; x < ATLAS_TILE; x++) {
            float k;
            if (birch) {
                k = 0.93f + (rnd(t, 2, x, y) - 0.5f) * 0.08f + (vnoise(t, 1, (float)x, (float)y, 8) - 0.5f) * 0.06f;
            } else {
                /* vertical plates separated by dark furrows that wander a pixel left and right */
                int wob = (int)lrintf((vnoise(t, 13, (float)x * 0.25f, (float)y, 4) - 0.5f) * 2.0f);
                int cx = (x + wob) & 15;
                bool furrow = (cx % 4 == 0) ^ (rnd(t, 12, cx / 4, y / 3) < 0.2f);
                k = furrow ? 0.58f : 0.86f + (rnd(t, 12, cx, y / 2) - 0.5f) * 0.22f;
                k += (rnd(t, 2, x, y) - 0.5f) * 0.1f;
            }
            put(t, x, y, scale(s->bark, k), 255);
        }
    if (birch) /* dark horizontal lenticels */
        for (int i = 0; i < 9; i++) {
            int x = (int)(rnd(t, 14, i, 0) * 16), y = (int)(rnd(t, 14, i, 1) * 16), len = 2 + (int)(rnd(t, 14, i, 2) * 4);
            for (int k = 0; k < len; k++) put(t, (x + k) & 15, y, rgb(40, 38, 36), 255);
        }
}

static void paint_trunk_top(const Tile *t, const Species *s)
{
    for (int y = 0; y < ATLAS_TILE; y++)
        for (int x = 0; x < ATLAS_TILE; x++) {
            float dx = (float)x - 7.5f, dy = (float)y - 7.5f;
            float d = sqrtf(dx * dx + dy * dy) + vnoise(t, 15, (float)x, (float)y, 4) * 0.8f;
            Rgb c;
            if (x == 0 || y == 0 || x == 15 || y == 15) c = scale(s->bark, 0.85f + rnd(t, 2, x, y) * 0.2f);
            else {
                float ring = 0.5f + 0.5f * cosf(d * 2.1f);
                c = scale(s->inner, 0.8f + ring * 0.2f + (rnd(t, 2, x, y) - 0.5f) * 0.05f);
            }
            put(t, x, y, c, 255);
        }
}

static void paint_planks(const Tile *t)
{
    for (int y = 0; y < ATLAS_TILE; y++) {
        int board = y / 4;
        int seam = (int)(rnd(t, 16, board, 0) * 12) + 2; /* staggered butt joints */
        float tone = 0.9f + rnd(t, 17, board, 0) * 0.16f;
        for (int x = 0; x < ATLAS_TILE; x++) {
            float grain = vnoise(t, 18, (float)x * 0.25f, (float)y * 2.0f, 4);
            Rgb c = scale(rgb(176, 138, 86), tone * (0.9f + grain * 0.14f));
            if (y % 4 == 3) c = scale(c, 0.62f);          /* gap between boards */
            else if (x == seam && (board & 1)) c = scale(c, 0.68f);
            else if (x == (seam + 8) % 16 && !(board & 1)) c = scale(c, 0.68f);
            put(t, x, y, c, 255);
        }
    }
}

/* ---- leaves and plants ---- */

static void paint_leaves(const Tile *t, const char *name)
{
    Rgb base = rgb(176, 196, 164);
    float holes = 0.36f;
    int clusters = 10;
    if (strncmp(name, "birch", 5) == 0) base = rgb(190, 210, 168);
    else if (strncmp(name, "spruce", 6) == 0) { base = rgb(128, 156, 140); holes = 0.3f; clusters = 14; }
    else if (strncmp(name, "poplar", 6) == 0) base = rgb(170, 198, 152);
    else if (strncmp(name, "mimosa", 6) == 0) { base = rgb(198, 210, 150); holes = 0.4f; clusters = 8; }
    /* leaf clusters are Voronoi cells: lit near their centre, shaded at the rim, holes between them */
    for (int y = 0; y < ATLAS_TILE; y++)
        for (int x = 0; x < ATLAS_TILE; x++) {
            float d1, d2;
            int cell;
            voronoi(t, 8, clusters, x, y, &d1, &d2, &cell);
            float gap = d2 - d1;
            if (gap < holes * 4.0f && rnd(t, 19, x, y) < 0.9f - gap * 0.25f) {
                put(t, x, y, scale(base, 0.45f), 0);
                continue;
            }
            float k = 1.08f - d1 * 0.1f + (rnd(t, 9, cell, 0) - 0.5f) * 0.16f + (rnd(t, 2, x, y) - 0.5f) * 0.16f;
            if (gap < 0.9f) k *= 0.8f;
            put(t, x, y, scale(base, k), 255);
        }
}

/* A blade from (x, 15) upward `h` pixels, leaning `lean` pixels at the top. */
static void blade(const Tile *t, int x, int h, float lean, Rgb c)
{
    for (int i = 0; i < h; i++) {
        float f = (float)i / (float)(h > 1 ? h - 1 : 1);
        int px = x + (int)lrintf(lean * f * f);
        put(t, px, 15 - i, scale(c, 0.8f + f * 0.3f), 255);
    }
}

static void paint_tall_grass(const Tile *t)
{
    fill_clear(t);
    for (int i = 0; i < 12; i++) {
        int x = 1 + (int)(rnd(t, 20, i, 0) * 14);
        int h = 5 + (int)(rnd(t, 20, i, 1) * 10);
        float lean = (rnd(t, 20, i, 2) - 0.5f) * 6.0f;
        blade(t, x, h, lean, scale(rgb(186, 204, 170), 0.8f + rnd(t, 20, i, 3) * 0.25f));
    }
}

static void paint_flower(const Tile *t, Rgb petal, Rgb centre)
{
    fill_clear(t);
    Rgb stem = rgb(70, 130, 50);
    for (int y = 7; y < 16; y++) put(t, 7 + (y > 12), y, stem, 255);
    for (int i = 0; i < 3; i++) put(t, 6 - i / 2, 12 - i, scale(stem, 1.1f), 255); /* a leaf */
    for (int i = 0; i < 3; i++) put(t, 9 + i / 2, 11 - i, scale(stem, 1.1f), 255);
    static const int petals[][2] = { { 0, -2 }, { 0, 2 }, { -2, 0 }, { 2, 0 }, { -1, -1 }, { 1, -1 }, { -1, 1 },
                                     { 1, 1 }, { 0, -1 }, { 0, 1 }, { -1, 0 }, { 1, 0 } };
    for (size_t i = 0; i < sizeof petals / sizeof petals[0]; i++)
        put(t, 7 + petals[i][0], 5 + petals[i][1], scale(petal, 0.85f + rnd(t, 21, (int)i, 0) * 0.25f), 255);
    put(t, 7, 5, centre, 255);
}

static void paint_dry_bush(const Tile *t)
{
    fill_clear(t);
    Rgb twig = rgb(128, 96, 58);
    for (int i = 0; i < 6; i++) { /* twigs fanning out from the base */
        float ang = -1.25f + (float)i * 0.5f + (rnd(t, 22, i, 0) - 0.5f) * 0.3f;
        int len = 7 + (int)(rnd(t, 22, i, 1) * 6);
        for (int s = 0; s < len; s++) {
            int x = 7 + (int)lrintf(sinf(ang) * (float)s), y = 15 - (int)lrintf(cosf(ang) * (float)s);
            put(t, x, y, scale(twig, 0.8f + rnd(t, 2, x, y) * 0.35f), 255);
            if (s == len / 2 && s > 2) put(t, x + (ang < 0 ? -1 : 1), y - 1, twig, 255);
        }
    }
}

static void paint_torch(const Tile *t)
{
    fill_clear(t);
    for (int y = 6; y < 16; y++)
        for (int x = 7; x < 9; x++) put(t, x, y, scale(rgb(120, 86, 50), x == 7 ? 1.0f : 0.8f), 255);
    static const char *flame[] = { " .. ", ".oo.", "oYYo", "oWWo", ".YY." };
    for (int y = 0; y < 5; y++)
        for (int x = 0; x < 4; x++) {
            char c = flame[y][x];
            Rgb col = c == 'W' ? rgb(255, 252, 220) : c == 'Y' ? rgb(255, 220, 70) : c == 'o' ? rgb(250, 150, 30)
                                                                                             : rgb(220, 90, 20);
            if (c != ' ') put(t, 6 + x, 2 + y, col, 255);
        }
}

/* ---- cactus, pumpkin ---- */

static void paint_cactus_side(const Tile *t)
{
    for (int y = 0; y < ATLAS_TILE; y++)
        for (int x = 0; x < ATLAS_TILE; x++) {
            float rib = 0.5f + 0.5f * cosf((float)x * 6.2832f / 4.0f); /* four ribs per face */
            Rgb c = scale(rgb(70, 138, 58), 0.72f + rib * 0.36f + (rnd(t, 2, x, y) - 0.5f) * 0.08f);
            if (x % 4 == 0 && (y + x / 4 * 2) % 5 == 0) c = rgb(226, 222, 180); /* spines */
            put(t, x, y, c, 255);
        }
}

static void paint_cactus_top(const Tile *t)
{
    for (int y = 0; y < ATLAS_TILE; y++)
        for (int x = 0; x < ATLAS_TILE; x++) {
            float dx = (float)x - 7.5f, dy = (float)y - 7.5f;
            float ang = atan2f(dy, dx), d = sqrtf(dx * dx + dy * dy);
            float rib = 0.5f + 0.5f * cosf(ang * 8.0f);
            Rgb c = scale(rgb(86, 150, 66), 0.75f + rib * 0.25f * fminf(d / 4.0f, 1.0f) + (rnd(t, 2, x, y) - 0.5f) * 0.06f);
            if (d < 1.6f) c = rgb(200, 196, 120);
            put(t, x, y, c, 255);
        }
}

static void paint_pumpkin_side(const Tile *t)
{
    for (int y = 0; y < ATLAS_TILE; y++)
        for (int x = 0; x < ATLAS_TILE; x++) {
            float groove = 0.5f + 0.5f * cosf(((float)x + 0.5f) * 6.2832f / 5.33f);
            Rgb c = scale(rgb(222, 128, 30), 0.74f + groove * 0.3f + (rnd(t, 2, x, y) - 0.5f) * 0.06f);
            put(t, x, y, c, 255);
        }
}

static void paint_pumpkin_top(const Tile *t)
{
    for (int y = 0; y < ATLAS_TILE; y++)
        for (int x = 0; x < ATLAS_TILE; x++) {
            float dx = (float)x - 7.5f, dy = (float)y - 7.5f;
            float groove = 0.5f + 0.5f * cosf(atan2f(dy, dx) * 6.0f);
            Rgb c = scale(rgb(218, 126, 30), 0.78f + groove * 0.22f + (rnd(t, 2, x, y) - 0.5f) * 0.06f);
            if (fabsf(dx) < 1.0f && fabsf(dy) < 1.0f) c = rgb(96, 112, 44);      /* stem */
            else if (fabsf(dx) < 2.0f && fabsf(dy) < 2.0f) c = rgb(120, 100, 40);
            put(t, x, y, c, 255);
        }
}

static void paint_jack_o_lantern_face(const Tile *t)
{
    paint_pumpkin_side(t);
    static const char *face[] = {
        "................", "................", "................", "..XX........XX..",
        "..XXX......XXX..", "..XXXX....XXXX..", "................", ".......XX.......",
        "................", "................", "..X..X.XX.X..X..", "..XXXXXXXXXXXX..",
        "...XXXXXXXXXX...", "....XX....XX....", "................", "................",
    };
    for (int y = 0; y < ATLAS_TILE; y++)
        for (int x = 0; x < ATLAS_TILE; x++)
            if (face[y][x] == 'X') {
                float k = 0.9f + rnd(t, 23, x, y) * 0.1f;
                put(t, x, y, scale(rgb(255, 226, 90), k), 255);
            }
}

/* ---- ores, masonry ---- */

typedef struct Ore { const char *name; Rgb speck, light; } Ore;
static const Ore ORES[] = {
    { "coal_ore", { 34, 34, 36 }, { 70, 70, 74 } },
    { "copper_ore", { 196, 110, 60 }, { 96, 182, 150 } },
    { "iron_ore", { 196, 160, 128 }, { 226, 200, 176 } },
    { "diamond_ore", { 90, 220, 230 }, { 220, 255, 255 } },
    { "saltpeter_ore", { 236, 236, 228 }, { 255, 255, 255 } },
    { "sulphur_ore", { 222, 206, 50 }, { 250, 240, 130 } },
    { "germanium_ore", { 120, 110, 150 }, { 196, 190, 220 } },
};

static void paint_ore(const Tile *t)
{
    const Ore *ore = &ORES[0];
    for (size_t i = 0; i < sizeof ORES / sizeof ORES[0]; i++)
        if (strcmp(t->name, ORES[i].name) == 0) ore = &ORES[i];
    paint_stone(t);
    /* lumps: a 2x2 core plus random neighbours, a darkened rim in the stone, one highlight pixel */
    static const int around[][2] = { { -1, 0 }, { 2, 0 }, { 0, -1 }, { 1, -1 }, { 0, 2 }, { 1, 2 }, { -1, 1 }, { 2, 1 } };
    for (int i = 0; i < 4; i++) {
        int cx = (int)(rnd(t, 24, i, 0) * 16), cy = (int)(rnd(t, 24, i, 1) * 16);
        uint8_t lump[4][4] = { { 0 } };
        for (int k = 0; k < 4; k++) lump[1 + k / 2][1 + k % 2] = 1;
        for (int k = 0; k < 8; k++)
            if (rnd(t, 25, i, k) < 0.45f) lump[1 + around[k][1]][1 + around[k][0]] = 1;
        for (int y = -1; y < 5; y++)
            for (int x = -1; x < 5; x++) {
                bool in = x >= 0 && y >= 0 && x < 4 && y < 4 && lump[y][x];
                bool near = false;
                for (int dy = -1; dy <= 1; dy++)
                    for (int dx = -1; dx <= 1; dx++) {
                        int nx = x + dx, ny = y + dy;
                        if (nx >= 0 && ny >= 0 && nx < 4 && ny < 4 && lump[ny][nx]) near = true;
                    }
                int px = (cx + x - 1) & 15, py = (cy + y - 1) & 15;
                if (in) put(t, px, py, scale(ore->speck, 0.82f + rnd(t, 27, px, py) * 0.3f), 255);
                else if (near) put(t, px, py, scale(get(t, px, py), 0.8f), 255);
            }
        put(t, cx & 15, cy & 15, ore->light, 255);
    }
}

static void paint_bricks(const Tile *t)
{
    for (int y = 0; y < ATLAS_TILE; y++) {
        int row = y / 4;
        for (int x = 0; x < ATLAS_TILE; x++) {
            int bx = (x + (row & 1) * 4) & 15;
            int brick = row * 2 + (x + (row & 1) * 4) / 8 % 2;
            Rgb c = scale(rgb(160, 74, 56), 0.86f + rnd(t, 28, brick, 0) * 0.2f + (rnd(t, 2, x, y) - 0.5f) * 0.1f);
            if (y % 4 == 3 || bx % 8 == 7) c = scale(rgb(190, 182, 170), 0.92f + rnd(t, 2, x, y) * 0.1f);
            put(t, x, y, c, 255);
        }
    }
}

static void paint_glass(const Tile *t)
{
    for (int y = 0; y < ATLAS_TILE; y++)
        for (int x = 0; x < ATLAS_TILE; x++) {
            bool frame = x == 0 || y == 0 || x == 15 || y == 15;
            bool streak = (x + y == 10 || x + y == 11 || x + y == 13) && x > 2 && y > 2;
            if (frame) put(t, x, y, scale(rgb(214, 232, 236), 0.9f + rnd(t, 2, x, y) * 0.1f), 235);
            else if (streak) put(t, x, y, rgb(240, 250, 255), 110);
            else put(t, x, y, rgb(200, 226, 236), 28);
        }
}

static void paint_unknown(const Tile *t)
{
    for (int y = 0; y < ATLAS_TILE; y++)
        for (int x = 0; x < ATLAS_TILE; x++)
            put(t, x, y, ((x / 4 + y / 4) & 1) ? rgb(255, 0, 255) : rgb(20, 20, 20), 255);
}

/* ---- dispatch ---- */

static void paint_stone_tile(const Tile *t) { paint_stone(t); }
static void paint_sand_tile(const Tile *t) { paint_sand(t, rgb(222, 208, 160)); }
static void paint_sandstone_top(const Tile *t) { paint_sand(t, rgb(216, 198, 148)); }

typedef struct Painter { const char *name; void (*paint)(const Tile *t); } Painter;
static const Painter PAINTERS[] = {
    { "stone", paint_stone_tile }, { "bedrock", paint_bedrock }, { "granite", paint_granite },
    { "basalt", paint_basalt }, { "sandstone_side", paint_sandstone_side }, { "sandstone_top", paint_sandstone_top },
    { "limestone", paint_limestone }, { "dirt", paint_dirt }, { "grass_top", paint_grass_top },
    { "grass_side", paint_grass_side }, { "sand", paint_sand_tile }, { "gravel", paint_gravel }, { "clay", paint_clay },
    { "water", paint_water }, { "ice", paint_ice }, { "snow", paint_snow }, { "magma", paint_magma },
    { "tall_grass", paint_tall_grass }, { "dry_bush", paint_dry_bush }, { "cactus_side", paint_cactus_side },
    { "cactus_top", paint_cactus_top }, { "pumpkin_side", paint_pumpkin_side }, { "pumpkin_top", paint_pumpkin_top },
    { "jack_o_lantern_face", paint_jack_o_lantern_face }, { "planks", paint_planks }, { "glass", paint_glass },
    { "torch", paint_torch }, { "cobblestone", paint_cobblestone }, { "bricks", paint_bricks },
};

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Paints tile `name`; returns false when no painter knows the name (the tile gets the checker). */
static bool paint_tile(const Tile *t)
{
    const char *name = t->name;
    for (size_t i = 0; i < sizeof PAINTERS / sizeof PAINTERS[0]; i++)
        if (strcmp(name, PAINTERS[i].name) == 0) { PAINTERS[i].paint(t); return true; }
    if (ends_with(name, "_trunk_top")) paint_trunk_top(t, species_of(name));
    else if (ends_with(name, "_trunk")) paint_bark(t, species_of(name));
    else if (ends_with(name, "_leaves")) paint_leaves(t, name);
    else if (ends_with(name, "_ore")) paint_ore(t);
    else if (strcmp(name, "red_flower") == 0) paint_flower(t, rgb(214, 40, 36), rgb(250, 210, 60));
    else if (strcmp(name, "yellow_flower") == 0) paint_flower(t, rgb(246, 210, 40), rgb(200, 120, 20));
    else if (strcmp(name, "purple_flower") == 0) paint_flower(t, rgb(150, 80, 210), rgb(250, 240, 200));
    else if (ends_with(name, "_flower")) paint_flower(t, rgb(240, 240, 240), rgb(250, 210, 60));
    else { paint_unknown(t); return false; }
    return true;
}

/* ---- main ---- */

static int usage(FILE *f, int code)
{
    fprintf(f, "usage: strata-atlas [--blocks assets/blocks.json] [--out assets/textures/atlas.png]\n"
               "                    [--preview PATH [--scale N]]\n"
               "Paints the 256x256 block texture atlas from the \"tiles\" list of blocks.json.\n"
               "--preview writes the used rows scaled up N times (default 4) over a checkerboard.\n");
    return code;
}

static int write_preview(const uint8_t *atlas, int rows, const char *path, int zoom)
{
    int w = ATLAS_SIZE * zoom, h = rows * ATLAS_TILE * zoom;
    uint8_t *img = malloc((size_t)w * (size_t)h * 3);
    if (!img) return 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            const uint8_t *p = atlas + ((y / zoom) * ATLAS_SIZE + x / zoom) * 4;
            float bg = ((x / 8 + y / 8) & 1) ? 96 : 160, a = p[3] / 255.0f;
            for (int c = 0; c < 3; c++) img[((size_t)y * w + x) * 3 + c] = clamp8(p[c] * a + bg * (1 - a));
        }
    int ok = stbi_write_png(path, w, h, 3, img, w * 3);
    free(img);
    return ok;
}

int main(int argc, char **argv)
{
    const char *blocks = "assets/blocks.json", *out = "assets/textures/atlas.png", *preview = NULL;
    int zoom = 4;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) return usage(stdout, 0);
        if (i + 1 >= argc) return usage(stderr, 2);
        if (strcmp(argv[i], "--blocks") == 0) blocks = argv[++i];
        else if (strcmp(argv[i], "--out") == 0) out = argv[++i];
        else if (strcmp(argv[i], "--preview") == 0) preview = argv[++i];
        else if (strcmp(argv[i], "--scale") == 0) {
            zoom = atoi(argv[++i]);
            if (zoom < 1 || zoom > 16) {
                fprintf(stderr, "strata-atlas: --scale: expected 1..16, got '%s'\n", argv[i]);
                return 2;
            }
        } else return usage(stderr, 2);
    }

    BlockRegistry *reg = NULL;
    if (block_registry_load(blocks, &reg) != ST_OK) {
        fprintf(stderr, "strata-atlas: %s\n", st_error_message());
        return 1;
    }
    uint8_t *atlas = calloc(ATLAS_SIZE * ATLAS_SIZE, 4);
    if (!atlas) {
        fprintf(stderr, "strata-atlas: out of memory\n");
        block_registry_destroy(reg);
        return 1;
    }
    int unknown = 0;
    for (int i = 0; i < reg->tile_count; i++) {
        Tile t = { .px = atlas + ((i / ATLAS_COLUMNS) * ATLAS_TILE * ATLAS_SIZE + (i % ATLAS_COLUMNS) * ATLAS_TILE) * 4,
                   .stride = ATLAS_SIZE * 4, .seed = name_hash(reg->tiles[i]), .name = reg->tiles[i] };
        if (!paint_tile(&t)) {
            fprintf(stderr, "strata-atlas: tile %d '%s' has no painter: drawn as a magenta checker\n", i, t.name);
            unknown++;
        }
    }
    int rows = (reg->tile_count + ATLAS_COLUMNS - 1) / ATLAS_COLUMNS, rc = 0;
    if (!stbi_write_png(out, ATLAS_SIZE, ATLAS_SIZE, 4, atlas, ATLAS_SIZE * 4)) {
        fprintf(stderr, "strata-atlas: could not write %s\n", out);
        rc = 1;
    } else {
        printf("strata-atlas: %d tiles (%d without a painter) -> %s\n", reg->tile_count, unknown, out);
    }
    if (rc == 0 && preview && !write_preview(atlas, rows > 0 ? rows : 1, preview, zoom)) {
        fprintf(stderr, "strata-atlas: could not write %s\n", preview);
        rc = 1;
    }
    free(atlas);
    block_registry_destroy(reg);
    return rc;
}
