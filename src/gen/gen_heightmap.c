/* gen_heightmap.c — loading and sampling the heightmap of a heightmap world (gen_heightmap.h).
 *
 * Design: everything is decided at load time and immutable afterwards, so the worker and strata-map's
 * threads sample without locks. The map's heights are remapped to blocks once (height_range); outside the
 * map the land sinks to an ocean floor over GEN_HEIGHTMAP_FALLOFF blocks with a smoothstep, starting from
 * the height at the nearest map edge, so a map never ends in a cliff. The biome map is turned into three
 * fields per pixel (temperature, humidity, mountain factor) and box-blurred over biome_blend blocks, so
 * neighbouring biomes blend instead of meeting at a line. The splat layers map to blocks by name ("rock"
 * is stone); a column takes one layer, drawn from the layer weights with a hash of its position. */
#include "gen_heightmap.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stb_image.h>

#include "strata/fileio.h"
#include "strata/heightfield_io.h"
#include "strata/rng.h"

/* The biome map palette (README): a pixel names the biome whose colour is nearest. */
static const struct {
    const char *name;
    uint8_t rgb[3];
    float temperature, humidity, mountain;
} BIOMES[GEN_BIOME_COUNT] = {
    [GEN_BIOME_GRASSLAND] = {"grassland", {128, 192, 64}, 9.0f, 7.0f, 0.2f},
    [GEN_BIOME_DESERT] = {"desert", {232, 208, 128}, 15.0f, 1.0f, 0.2f},
    [GEN_BIOME_FOREST] = {"forest", {32, 112, 32}, 8.0f, 13.0f, 0.3f},
    [GEN_BIOME_TUNDRA] = {"tundra", {224, 240, 255}, 1.0f, 6.0f, 0.3f},
    [GEN_BIOME_SWAMP] = {"swamp", {80, 112, 96}, 11.0f, 15.0f, 0.1f},
    [GEN_BIOME_MOUNTAIN] = {"mountain", {128, 128, 128}, 5.0f, 8.0f, 0.97f},
};

GenBiome gen_biome_of_color(uint8_t r, uint8_t g, uint8_t b)
{
    int best = 0;
    long best_d = -1;
    for (int i = 0; i < GEN_BIOME_COUNT; i++) {
        long dr = (long)r - BIOMES[i].rgb[0], dg = (long)g - BIOMES[i].rgb[1], db = (long)b - BIOMES[i].rgb[2];
        long d = dr * dr + dg * dg + db * db;
        if (best_d < 0 || d < best_d) {
            best_d = d;
            best = i;
        }
    }
    return (GenBiome)best;
}

const char *gen_biome_name(GenBiome biome)
{
    return (int)biome >= 0 && biome < GEN_BIOME_COUNT ? BIOMES[biome].name : "unknown";
}

/* ---- loading ---- */

static uint64_t hash_bytes(uint64_t h, const char *data, size_t size)
{
    for (size_t i = 0; i < size; i++) h = (h ^ (uint8_t)data[i]) * 0x100000001b3ull;
    return rng_mix64(h ^ size);
}

static StResult hash_file(const char *path, uint64_t *h)
{
    char *data = NULL;
    size_t size = 0;
    StResult rc = fileio_read_all(path, &data, &size);
    if (rc != ST_OK) return rc;
    *h = hash_bytes(*h, data, size);
    free(data);
    return ST_OK;
}

/* Box blur of `count`-channel fields over `radius` pixels (separable, clamped at the edges). */
static StResult blur_fields(float *fields, int w, int h, int channels, int radius)
{
    if (radius <= 0) return ST_OK;
    float *tmp = malloc(sizeof *tmp * (size_t)w * (size_t)h * (size_t)channels);
    if (!tmp) return st_fail(ST_ERR_NOMEM, "biome map: out of memory");
    for (int pass = 0; pass < 2; pass++) {
        const float *src = pass == 0 ? fields : tmp;
        float *dst = pass == 0 ? tmp : fields;
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                for (int c = 0; c < channels; c++) {
                    float sum = 0.0f;
                    for (int k = -radius; k <= radius; k++) {
                        int sx = pass == 0 ? x + k : x, sy = pass == 0 ? y : y + k;
                        sx = sx < 0 ? 0 : (sx >= w ? w - 1 : sx);
                        sy = sy < 0 ? 0 : (sy >= h ? h - 1 : sy);
                        sum += src[((size_t)sy * (size_t)w + (size_t)sx) * (size_t)channels + (size_t)c];
                    }
                    dst[((size_t)y * (size_t)w + (size_t)x) * (size_t)channels + (size_t)c] = sum / (float)(2 * radius + 1);
                }
    }
    free(tmp);
    return ST_OK;
}

static StResult load_biomes(GenHeightmap *hm, const WorldSettings *s)
{
    char *data = NULL;
    size_t size = 0;
    StResult rc = fileio_read_all(s->biome_map, &data, &size);
    if (rc != ST_OK) return st_fail_context(rc, "biome map");
    int w = 0, h = 0, n = 0;
    unsigned char *pixels = stbi_load_from_memory((const unsigned char *)data, (int)size, &w, &h, &n, 3);
    free(data);
    if (!pixels) return st_fail(ST_ERR_FORMAT, "%s: not a readable PNG image (%s)", s->biome_map, stbi_failure_reason());
    if (w < 1 || h < 1 || w > 4096 || h > 4096) {
        stbi_image_free(pixels);
        return st_fail(ST_ERR_FORMAT, "%s: %dx%d pixels (a biome map is 1..4096 a side)", s->biome_map, w, h);
    }
    hm->biome_fields = malloc(sizeof *hm->biome_fields * 3 * (size_t)w * (size_t)h);
    if (!hm->biome_fields) {
        stbi_image_free(pixels);
        return st_fail(ST_ERR_NOMEM, "%s: out of memory", s->biome_map);
    }
    for (size_t i = 0; i < (size_t)w * (size_t)h; i++) {
        GenBiome b = gen_biome_of_color(pixels[3 * i], pixels[3 * i + 1], pixels[3 * i + 2]);
        hm->biome_fields[3 * i] = BIOMES[b].temperature;
        hm->biome_fields[3 * i + 1] = BIOMES[b].humidity;
        hm->biome_fields[3 * i + 2] = BIOMES[b].mountain;
    }
    stbi_image_free(pixels);
    hm->biome_w = w;
    hm->biome_h = h;
    hm->has_biomes = true;
    /* the biome map covers the heightmap's extent: blocks per biome pixel along x */
    float blocks_per_pixel = w > 1 ? hm->extent_x / (float)(w - 1) : hm->extent_x;
    int radius = blocks_per_pixel > 0.0f ? (int)lrintf(s->biome_blend / blocks_per_pixel) : 0;
    if (radius > 64) radius = 64;
    return blur_fields(hm->biome_fields, w, h, 3, radius);
}

static StResult resolve_layers(GenHeightmap *hm, const BlockRegistry *blocks, const char *rules_name)
{
    for (int l = 0; l < hm->splat.layer_count; l++) {
        const char *name = hm->splat.layer_names[l];
        int block = !strcmp(name, "rock") ? BLOCK_STONE : block_registry_find(blocks, name);
        if (block < 0 || block == BLOCK_AIR)
            return st_fail(ST_ERR_FORMAT, "%s: layer '%s' names no block (use a block name from blocks.json, or rock)",
                           rules_name, name);
        int depth = 1;
        if (block == BLOCK_GRASS || block == BLOCK_DIRT) {
            block = BLOCK_DIRT;    /* pass 4 grows grass on top, as everywhere */
            depth = -1;
        } else if (block == BLOCK_STONE) {
            depth = 0;             /* bare rock */
        } else if (block == BLOCK_SAND || block == BLOCK_GRAVEL || block == BLOCK_SNOW) {
            depth = 3;
        }
        hm->layer_block[l] = block;
        hm->layer_depth[l] = depth;
    }
    return ST_OK;
}

StResult gen_heightmap_load(const WorldSettings *s, const BlockRegistry *blocks, int sea_level, GenHeightmap **out)
{
    *out = NULL;
    if (!s->heightmap[0]) return st_fail(ST_ERR_ARG, "a heightmap world needs a heightmap file (--heightmap FILE)");
    GenHeightmap *hm = calloc(1, sizeof *hm);
    if (!hm) return st_fail(ST_ERR_NOMEM, "heightmap: out of memory");
    HeightImportOptions opts = {0};
    opts.width = s->map_width;
    opts.height = s->map_height;
    opts.remap = true;
    opts.range_min = s->height_min;
    opts.range_max = s->height_max;
    StResult rc = heightfield_import(s->heightmap, &opts, &hm->map);
    if (rc != ST_OK) {
        free(hm);
        return st_fail_context(rc, "cannot load the heightmap");
    }
    HeightfieldStats st = heightfield_stats(&hm->map);
    hm->scale = s->map_scale;
    hm->extent_x = (float)(hm->map.width - 1) * hm->scale;
    hm->extent_z = (float)(hm->map.height - 1) * hm->scale;
    hm->origin_x = -0.5f * hm->extent_x;
    hm->origin_z = -0.5f * hm->extent_z;
    hm->map_min = st.min;
    hm->map_max = st.max;
    hm->sea_level = (float)sea_level;
    hm->ocean_floor = (float)sea_level - GEN_HEIGHTMAP_FLOOR_DEPTH;
    hm->seed_splat = rng_derive(s->seed, "heightmap_splat");

    uint64_t h = 0xcbf29ce484222325ull;
    rc = hash_file(s->heightmap, &h);
    if (rc == ST_OK && s->biome_map[0]) rc = hash_file(s->biome_map, &h);
    if (rc == ST_OK && s->splat_rules[0]) rc = hash_file(s->splat_rules, &h);
    hm->hash = h;
    if (rc == ST_OK && s->biome_map[0]) rc = load_biomes(hm, s);
    if (rc == ST_OK) {
        if (s->splat_rules[0]) rc = splat_rules_load(s->splat_rules, &hm->splat);
        else splat_rules_default(&hm->splat);
    }
    if (rc == ST_OK) rc = resolve_layers(hm, blocks, s->splat_rules[0] ? s->splat_rules : "built-in splat rules");
    if (rc != ST_OK) {
        gen_heightmap_free(hm);
        return rc;
    }
    *out = hm;
    return ST_OK;
}

void gen_heightmap_free(GenHeightmap *hm)
{
    if (!hm) return;
    heightfield_free(&hm->map);
    free(hm->biome_fields);
    free(hm);
}

/* ---- sampling ---- */

static float smoothstep01(float t)
{
    t = t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
    return t * t * (3.0f - 2.0f * t);
}

float gen_heightmap_height(const GenHeightmap *hm, float x, float z)
{
    float mx = x - hm->origin_x, mz = z - hm->origin_z;
    float h = heightfield_sample_world(&hm->map, mx, mz, hm->scale);   /* clamps to the edge outside */
    float dx = mx < 0.0f ? -mx : (mx > hm->extent_x ? mx - hm->extent_x : 0.0f);
    float dz = mz < 0.0f ? -mz : (mz > hm->extent_z ? mz - hm->extent_z : 0.0f);
    if (dx > 0.0f || dz > 0.0f) {
        float d = sqrtf(dx * dx + dz * dz);
        float t = smoothstep01(d / GEN_HEIGHTMAP_FALLOFF);
        h = h + (hm->ocean_floor - h) * t;
    }
    return h < 1.0f ? 1.0f : (h > 250.0f ? 250.0f : h);
}

float gen_heightmap_slope(const GenHeightmap *hm, float x, float z)
{
    float dx = gen_heightmap_height(hm, x + 1.0f, z) - gen_heightmap_height(hm, x - 1.0f, z);
    float dz = gen_heightmap_height(hm, x, z + 1.0f) - gen_heightmap_height(hm, x, z - 1.0f);
    return 0.5f * sqrtf(dx * dx + dz * dz);
}

bool gen_heightmap_fields(const GenHeightmap *hm, float x, float z, float *temperature, float *humidity,
                          float *mountain)
{
    if (!hm->has_biomes) return false;
    float u = hm->extent_x > 0.0f ? (x - hm->origin_x) / hm->extent_x : 0.0f;
    float v = hm->extent_z > 0.0f ? (z - hm->origin_z) / hm->extent_z : 0.0f;
    float px = u * (float)(hm->biome_w - 1), pz = v * (float)(hm->biome_h - 1);
    px = px < 0.0f ? 0.0f : (px > (float)(hm->biome_w - 1) ? (float)(hm->biome_w - 1) : px);
    pz = pz < 0.0f ? 0.0f : (pz > (float)(hm->biome_h - 1) ? (float)(hm->biome_h - 1) : pz);
    int x0 = (int)px, z0 = (int)pz;
    int x1 = x0 + 1 < hm->biome_w ? x0 + 1 : x0, z1 = z0 + 1 < hm->biome_h ? z0 + 1 : z0;
    float fx = px - (float)x0, fz = pz - (float)z0;
    float out[3];
    for (int c = 0; c < 3; c++) {
        const float *f = hm->biome_fields;
        size_t w = (size_t)hm->biome_w;
        float a = f[((size_t)z0 * w + (size_t)x0) * 3 + (size_t)c], b = f[((size_t)z0 * w + (size_t)x1) * 3 + (size_t)c];
        float d = f[((size_t)z1 * w + (size_t)x0) * 3 + (size_t)c], e = f[((size_t)z1 * w + (size_t)x1) * 3 + (size_t)c];
        float top = a + (b - a) * fx, bottom = d + (e - d) * fx;
        out[c] = top + (bottom - top) * fz;
    }
    *temperature = out[0];
    *humidity = out[1];
    *mountain = out[2];
    return true;
}

void gen_heightmap_surface(const GenHeightmap *hm, int x, int z, int top_y, int *block, int *depth)
{
    float range = hm->map_max > hm->map_min ? hm->map_max - hm->map_min : 1.0f;
    float height = hm->splat.relative ? ((float)top_y - hm->map_min) / range : (float)top_y;
    float weights[SPLAT_MAX_LAYERS];
    splat_weights(&hm->splat, height, gen_heightmap_slope(hm, (float)x + 0.5f, (float)z + 0.5f), weights);
    /* one seeded draw per column between the layers by weight: borders dither */
    float r = (float)(rng_hash2(hm->seed_splat, x, z) >> 40) * (1.0f / 16777216.0f);
    int layer = hm->splat.default_layer;
    float acc = 0.0f;
    for (int l = 0; l < hm->splat.layer_count; l++) {
        acc += weights[l];
        if (r < acc) {
            layer = l;
            break;
        }
    }
    *block = hm->layer_block[layer];
    *depth = hm->layer_depth[layer];
}
