/* heightfield_io_spark.c — SparkEngine's .sparkterrain version 2, read through a bounds-checked cursor.
 *
 * Design: the decoder never allocates from a header value it has not checked against the bytes left:
 * dimensions are bounded (1..HEIGHTFIELD_MAX_SIDE), then `cursor_need(width * height * 4)` must pass
 * before the heights are allocated; splatmap and layer counts are bounded by the seed's limits (4 maps,
 * 16 layers) and strings by 4096 bytes, each checked against the remaining bytes first. Any failure frees
 * what was built and leaves the output zeroed. The encoder writes the same layout. */
#include <stdlib.h>
#include <string.h>

#include "strata/heightfield_io.h"

typedef struct Cursor {
    const char *name;
    const uint8_t *data;
    size_t size, pos;
} Cursor;

static StResult cursor_need(Cursor *c, size_t n, const char *what)
{
    if (n > c->size - c->pos)
        return st_fail(ST_ERR_FORMAT, "%s: truncated at byte %zu: %s needs %zu bytes, %zu left", c->name, c->pos, what, n,
                       c->size - c->pos);
    return ST_OK;
}

static StResult cursor_u32(Cursor *c, const char *what, uint32_t *out)
{
    StResult rc = cursor_need(c, 4, what);
    if (rc != ST_OK) return rc;
    const uint8_t *p = c->data + c->pos;
    *out = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    c->pos += 4;
    return ST_OK;
}

static StResult cursor_f32(Cursor *c, const char *what, float *out)
{
    uint32_t u;
    StResult rc = cursor_u32(c, what, &u);
    if (rc == ST_OK) memcpy(out, &u, 4);
    return rc;
}

static StResult cursor_u8(Cursor *c, const char *what, uint8_t *out)
{
    StResult rc = cursor_need(c, 1, what);
    if (rc != ST_OK) return rc;
    *out = c->data[c->pos++];
    return ST_OK;
}

/* A length-prefixed string, <= SPARKTERRAIN_MAX_STRING bytes; malloc'd and NUL-terminated. */
static StResult cursor_string(Cursor *c, const char *what, char **out)
{
    uint32_t len;
    StResult rc = cursor_u32(c, what, &len);
    if (rc != ST_OK) return rc;
    if (len > SPARKTERRAIN_MAX_STRING)
        return st_fail(ST_ERR_FORMAT, "%s: %s is %u bytes long, the limit is %d", c->name, what, len, SPARKTERRAIN_MAX_STRING);
    if ((rc = cursor_need(c, len, what)) != ST_OK) return rc;
    char *s = malloc((size_t)len + 1);
    if (!s) return st_fail(ST_ERR_NOMEM, "%s: out of memory", c->name);
    memcpy(s, c->data + c->pos, len);
    s[len] = '\0';
    if (strlen(s) != len) {
        free(s);
        return st_fail(ST_ERR_FORMAT, "%s: %s holds a NUL byte", c->name, what);
    }
    c->pos += len;
    *out = s;
    return ST_OK;
}

void spark_terrain_free(SparkTerrain *t)
{
    if (!t) return;
    heightfield_free(&t->heights);
    free(t->splatmaps);
    for (int i = 0; i < t->layer_count && i < SPARKTERRAIN_MAX_LAYERS; i++) {
        free(t->layers[i].name);
        free(t->layers[i].texture);
    }
    memset(t, 0, sizeof *t);
}

static StResult decode_body(Cursor *c, SparkTerrain *t)
{
    StResult rc = cursor_need(c, 4, "magic");
    if (rc != ST_OK) return rc;
    if (memcmp(c->data, "SPKT", 4) != 0) return st_fail(ST_ERR_FORMAT, "%s: not a .sparkterrain file (no 'SPKT' magic)", c->name);
    c->pos = 4;
    uint32_t version, width, height;
    if ((rc = cursor_u32(c, "version", &version)) != ST_OK) return rc;
    if (version == 1)
        return st_fail(ST_ERR_VERSION, "%s: .sparkterrain version 1 is not supported (re-export it as version 2)", c->name);
    if (version != SPARKTERRAIN_VERSION)
        return st_fail(ST_ERR_VERSION, "%s: unknown .sparkterrain version %u (expected 2)", c->name, version);
    if ((rc = cursor_u32(c, "width", &width)) != ST_OK || (rc = cursor_u32(c, "height", &height)) != ST_OK) return rc;
    if (width < 1 || height < 1 || width > HEIGHTFIELD_MAX_SIDE || height > HEIGHTFIELD_MAX_SIDE)
        return st_fail(ST_ERR_FORMAT, "%s: size %ux%u outside 1..%d", c->name, width, height, HEIGHTFIELD_MAX_SIDE);
    float spacing, height_scale;
    uint8_t collider;
    if ((rc = cursor_f32(c, "spacing", &spacing)) != ST_OK || (rc = cursor_f32(c, "height scale", &height_scale)) != ST_OK ||
        (rc = cursor_u8(c, "generateCollider", &collider)) != ST_OK)
        return rc;
    if (!(spacing > 0.0f && spacing < 1e6f)) return st_fail(ST_ERR_FORMAT, "%s: spacing %g is not a positive number", c->name, (double)spacing);
    if (!(height_scale > -1e9f && height_scale < 1e9f)) return st_fail(ST_ERR_FORMAT, "%s: height scale is not finite", c->name);
    if (collider > 1) return st_fail(ST_ERR_FORMAT, "%s: generateCollider byte is %u (expected 0 or 1)", c->name, collider);
    size_t cells = (size_t)width * (size_t)height;
    if ((rc = cursor_need(c, cells * 4, "heights")) != ST_OK) return rc;
    if ((rc = heightfield_init(&t->heights, (int)width, (int)height)) != ST_OK) return rc;
    memcpy(t->heights.heights, c->data + c->pos, cells * 4);   /* little-endian host (x86, arm) */
    c->pos += cells * 4;
    t->heights.spacing = spacing;
    t->height_scale = height_scale;
    t->generate_collider = collider != 0;
    uint32_t maps;
    if ((rc = cursor_u32(c, "splatmap count", &maps)) != ST_OK) return rc;
    if (maps > SPARKTERRAIN_MAX_SPLATMAPS)
        return st_fail(ST_ERR_FORMAT, "%s: %u splatmaps (at most %d)", c->name, maps, SPARKTERRAIN_MAX_SPLATMAPS);
    if (maps) {
        size_t bytes = (size_t)maps * cells * 4;
        if ((rc = cursor_need(c, bytes, "splatmaps")) != ST_OK) return rc;
        t->splatmaps = malloc(bytes);
        if (!t->splatmaps) return st_fail(ST_ERR_NOMEM, "%s: out of memory", c->name);
        memcpy(t->splatmaps, c->data + c->pos, bytes);
        c->pos += bytes;
        t->splatmap_count = (int)maps;
    }
    uint32_t layers;
    if ((rc = cursor_u32(c, "layer count", &layers)) != ST_OK) return rc;
    if (layers > SPARKTERRAIN_MAX_LAYERS)
        return st_fail(ST_ERR_FORMAT, "%s: %u texture layers (at most %d)", c->name, layers, SPARKTERRAIN_MAX_LAYERS);
    for (uint32_t i = 0; i < layers; i++) {
        SparkTerrainLayer *l = &t->layers[i];
        t->layer_count = (int)i + 1;
        if ((rc = cursor_string(c, "layer name", &l->name)) != ST_OK) return rc;
        if ((rc = cursor_string(c, "layer texture", &l->texture)) != ST_OK) return rc;
        if ((rc = cursor_f32(c, "layer tiling", &l->tiling)) != ST_OK) return rc;
        if (!(l->tiling > -1e9f && l->tiling < 1e9f)) return st_fail(ST_ERR_FORMAT, "%s: layer %u tiling is not finite", c->name, i);
    }
    if (c->pos != c->size) return st_fail(ST_ERR_FORMAT, "%s: %zu unexpected bytes after the last section", c->name, c->size - c->pos);
    return ST_OK;
}

StResult spark_terrain_decode(const char *name, const uint8_t *data, size_t size, SparkTerrain *out)
{
    memset(out, 0, sizeof *out);
    Cursor c = {name ? name : "sparkterrain", data, data ? size : 0, 0};
    StResult rc = decode_body(&c, out);
    if (rc != ST_OK) spark_terrain_free(out);
    return rc;
}

typedef struct Writer {
    uint8_t *data;
    size_t pos;
} Writer;

static void put_bytes(Writer *w, const void *p, size_t n) { memcpy(w->data + w->pos, p, n); w->pos += n; }
static void put_u32(Writer *w, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    put_bytes(w, b, 4);
}
static void put_f32(Writer *w, float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    put_u32(w, u);
}

StResult spark_terrain_encode(const SparkTerrain *t, uint8_t **data, size_t *size)
{
    const Heightfield *hf = &t->heights;
    if (!hf->heights) return st_fail(ST_ERR_ARG, "sparkterrain: no heights");
    if (t->splatmap_count < 0 || t->splatmap_count > SPARKTERRAIN_MAX_SPLATMAPS || t->layer_count < 0 ||
        t->layer_count > SPARKTERRAIN_MAX_LAYERS)
        return st_fail(ST_ERR_ARG, "sparkterrain: %d splatmaps / %d layers out of bounds", t->splatmap_count, t->layer_count);
    size_t cells = (size_t)hf->width * (size_t)hf->height;
    size_t total = 4 + 4 * 3 + 4 * 2 + 1 + cells * 4 + 4 + (size_t)t->splatmap_count * cells * 4 + 4;
    for (int i = 0; i < t->layer_count; i++) {
        const char *n = t->layers[i].name ? t->layers[i].name : "", *x = t->layers[i].texture ? t->layers[i].texture : "";
        if (strlen(n) > SPARKTERRAIN_MAX_STRING || strlen(x) > SPARKTERRAIN_MAX_STRING)
            return st_fail(ST_ERR_ARG, "sparkterrain: layer %d strings exceed %d bytes", i, SPARKTERRAIN_MAX_STRING);
        total += 4 + strlen(n) + 4 + strlen(x) + 4;
    }
    Writer w = {malloc(total), 0};
    if (!w.data) return st_fail(ST_ERR_NOMEM, "sparkterrain: out of memory");
    put_bytes(&w, "SPKT", 4);
    put_u32(&w, SPARKTERRAIN_VERSION);
    put_u32(&w, (uint32_t)hf->width);
    put_u32(&w, (uint32_t)hf->height);
    put_f32(&w, hf->spacing > 0.0f ? hf->spacing : 1.0f);
    put_f32(&w, t->height_scale);
    uint8_t collider = t->generate_collider ? 1 : 0;
    put_bytes(&w, &collider, 1);
    put_bytes(&w, hf->heights, cells * 4);
    put_u32(&w, (uint32_t)t->splatmap_count);
    if (t->splatmap_count) put_bytes(&w, t->splatmaps, (size_t)t->splatmap_count * cells * 4);
    put_u32(&w, (uint32_t)t->layer_count);
    for (int i = 0; i < t->layer_count; i++) {
        const char *n = t->layers[i].name ? t->layers[i].name : "", *x = t->layers[i].texture ? t->layers[i].texture : "";
        put_u32(&w, (uint32_t)strlen(n));
        put_bytes(&w, n, strlen(n));
        put_u32(&w, (uint32_t)strlen(x));
        put_bytes(&w, x, strlen(x));
        put_f32(&w, t->layers[i].tiling);
    }
    *data = w.data;
    *size = w.pos;
    return ST_OK;
}
