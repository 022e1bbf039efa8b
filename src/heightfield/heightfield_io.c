/* heightfield_io.c — raw 8/16, PNG 8/16 and the format dispatch (EXR in heightfield_io_exr.c,
 * .sparkterrain in heightfield_io_spark.c).
 *
 * Design: every codec works on memory; heightfield_import reads the whole file (fileio_read_all) and
 * heightfield_export encodes to memory then writes it with fileio_write_atomic, so no failed export
 * leaves a partial file. PNG is read with stb_image (8 or 16-bit, converted to one grey channel) after
 * stbi_info checks the size, and written with libpng (8 or 16-bit grayscale, big-endian samples as PNG
 * requires) into a memory buffer. Quantisation rounds to nearest and clamps. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <png.h>
#include <stb_image.h>

#include "strata/fileio.h"
#include "strata/heightfield_io.h"

HeightFormat heightfield_format_from_path(const char *path)
{
    const char *dot = strrchr(path, '.');
    const char *slash = strrchr(path, '/');
    if (!dot || (slash && dot < slash)) return HEIGHT_FORMAT_UNKNOWN;
    if (!strcasecmp(dot, ".raw")) return HEIGHT_FORMAT_RAW;
    if (!strcasecmp(dot, ".r16")) return HEIGHT_FORMAT_R16;
    if (!strcasecmp(dot, ".png")) return HEIGHT_FORMAT_PNG;
    if (!strcasecmp(dot, ".exr")) return HEIGHT_FORMAT_EXR;
    if (!strcasecmp(dot, ".sparkterrain")) return HEIGHT_FORMAT_SPARKTERRAIN;
    return HEIGHT_FORMAT_UNKNOWN;
}

const char *heightfield_format_name(HeightFormat format)
{
    switch (format) {
    case HEIGHT_FORMAT_RAW: return "raw";
    case HEIGHT_FORMAT_R16: return "r16";
    case HEIGHT_FORMAT_PNG: return "png";
    case HEIGHT_FORMAT_EXR: return "exr";
    case HEIGHT_FORMAT_SPARKTERRAIN: return "sparkterrain";
    default: return "unknown";
    }
}

/* Scale and offset that bring the map into [0, nominal] for export. */
static void quant_frame(const Heightfield *hf, bool normalize, float nominal, double *lo, double *k)
{
    *lo = 0.0;
    *k = 1.0;
    if (!normalize) return;
    HeightfieldStats s = heightfield_stats(hf);
    *lo = s.min;
    *k = s.max > s.min ? (double)nominal / ((double)s.max - (double)s.min) : 0.0;
}

static inline unsigned quantize(float v, double lo, double k, unsigned max)
{
    double q = ((double)v - lo) * k;
    if (!(q > 0.0)) return 0;   /* also NaN */
    if (q >= (double)max) return max;
    return (unsigned)(q + 0.5);
}

/* ---- raw ---- */

StResult heightfield_decode_raw(const char *name, const uint8_t *data, size_t size, int width, int height, int bits,
                                Heightfield *out)
{
    memset(out, 0, sizeof *out);
    if (width <= 0 || height <= 0)
        return st_fail(ST_ERR_ARG, "%s: raw heightmaps need their dimensions (--map-size WxH)", name);
    if (width > HEIGHTFIELD_MAX_SIDE || height > HEIGHTFIELD_MAX_SIDE)
        return st_fail(ST_ERR_ARG, "%s: size %dx%d outside 1..%d", name, width, height, HEIGHTFIELD_MAX_SIDE);
    size_t cells = (size_t)width * (size_t)height;
    if (bits == 0) bits = size == cells * 2 ? 16 : 8;
    if (bits != 8 && bits != 16) return st_fail(ST_ERR_ARG, "%s: raw bits must be 8 or 16, got %d", name, bits);
    size_t need = cells * (size_t)(bits / 8);
    if (size != need)
        return st_fail(ST_ERR_FORMAT, "%s: file is %zu bytes, %dx%d %d-bit needs %zu", name, size, width, height, bits, need);
    StResult rc = heightfield_init(out, width, height);
    if (rc != ST_OK) return rc;
    float *h = out->heights;
    if (bits == 8) {
        for (size_t i = 0; i < cells; i++) h[i] = (float)data[i];
    } else {
        for (size_t i = 0; i < cells; i++) h[i] = (float)((unsigned)data[2 * i] | (unsigned)data[2 * i + 1] << 8);
    }
    return ST_OK;
}

StResult heightfield_encode_raw(const Heightfield *hf, int bits, bool normalize, uint8_t **data, size_t *size)
{
    if (bits != 8 && bits != 16) return st_fail(ST_ERR_ARG, "raw bits must be 8 or 16, got %d", bits);
    size_t cells = (size_t)hf->width * (size_t)hf->height;
    uint8_t *buf = malloc(cells * (size_t)(bits / 8));
    if (!buf) return st_fail(ST_ERR_NOMEM, "raw export: out of memory");
    unsigned max = bits == 8 ? 255u : 65535u;
    double lo, k;
    quant_frame(hf, normalize, (float)max, &lo, &k);
    for (size_t i = 0; i < cells; i++) {
        unsigned q = quantize(hf->heights[i], lo, k, max);
        if (bits == 8) {
            buf[i] = (uint8_t)q;
        } else {
            buf[2 * i] = (uint8_t)q;
            buf[2 * i + 1] = (uint8_t)(q >> 8);
        }
    }
    *data = buf;
    *size = cells * (size_t)(bits / 8);
    return ST_OK;
}

/* ---- PNG ---- */

StResult heightfield_decode_png(const char *name, const uint8_t *data, size_t size, Heightfield *out)
{
    memset(out, 0, sizeof *out);
    if (size > (size_t)0x7fffffff) return st_fail(ST_ERR_FORMAT, "%s: PNG too large", name);
    int w, h, comp;
    if (!stbi_info_from_memory(data, (int)size, &w, &h, &comp))
        return st_fail(ST_ERR_FORMAT, "%s: not a readable PNG (%s)", name, stbi_failure_reason());
    if (w < 1 || h < 1 || w > HEIGHTFIELD_MAX_SIDE || h > HEIGHTFIELD_MAX_SIDE)
        return st_fail(ST_ERR_FORMAT, "%s: image size %dx%d outside 1..%d", name, w, h, HEIGHTFIELD_MAX_SIDE);
    bool sixteen = stbi_is_16_bit_from_memory(data, (int)size) != 0;
    StResult rc;
    if (sixteen) {
        stbi_us *px = stbi_load_16_from_memory(data, (int)size, &w, &h, &comp, 1);
        if (!px) return st_fail(ST_ERR_FORMAT, "%s: PNG decode failed (%s)", name, stbi_failure_reason());
        if ((rc = heightfield_init(out, w, h)) == ST_OK)
            for (size_t i = 0; i < (size_t)w * (size_t)h; i++) out->heights[i] = (float)px[i];
        stbi_image_free(px);
    } else {
        stbi_uc *px = stbi_load_from_memory(data, (int)size, &w, &h, &comp, 1);
        if (!px) return st_fail(ST_ERR_FORMAT, "%s: PNG decode failed (%s)", name, stbi_failure_reason());
        if ((rc = heightfield_init(out, w, h)) == ST_OK)
            for (size_t i = 0; i < (size_t)w * (size_t)h; i++) out->heights[i] = (float)px[i];
        stbi_image_free(px);
    }
    return rc;
}

typedef struct PngBuffer {
    uint8_t *data;
    size_t size, cap;
    bool failed;
} PngBuffer;

static void png_buffer_write(png_structp png, png_bytep bytes, png_size_t n)
{
    PngBuffer *b = png_get_io_ptr(png);
    if (b->failed) return;
    if (b->size + n > b->cap) {
        size_t cap = b->cap ? b->cap : 65536;
        while (cap < b->size + n) cap *= 2;
        uint8_t *p = realloc(b->data, cap);
        if (!p) {
            b->failed = true;
            return;
        }
        b->data = p;
        b->cap = cap;
    }
    memcpy(b->data + b->size, bytes, n);
    b->size += n;
}

static void png_buffer_flush(png_structp png) { (void)png; }

StResult heightfield_encode_png(const Heightfield *hf, int bits, bool normalize, uint8_t **data, size_t *size)
{
    if (bits != 8 && bits != 16) return st_fail(ST_ERR_ARG, "PNG bits must be 8 or 16, got %d", bits);
    size_t w = (size_t)hf->width, bpp = (size_t)(bits / 8);
    unsigned max = bits == 8 ? 255u : 65535u;
    double lo, k;
    quant_frame(hf, normalize, (float)max, &lo, &k);
    uint8_t *row = malloc(w * bpp);
    PngBuffer buf = {0};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!row || !png || !info) {
        free(row);
        png_destroy_write_struct(&png, &info);
        return st_fail(ST_ERR_NOMEM, "PNG export: out of memory");
    }
    if (setjmp(png_jmpbuf(png))) {
        free(row);
        free(buf.data);
        png_destroy_write_struct(&png, &info);
        return st_fail(ST_ERR_FORMAT, "PNG export: libpng failed");
    }
    png_set_write_fn(png, &buf, png_buffer_write, png_buffer_flush);
    png_set_IHDR(png, info, (png_uint_32)hf->width, (png_uint_32)hf->height, bits, PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_compression_level(png, 6);
    png_write_info(png, info);
    for (int y = 0; y < hf->height; y++) {
        const float *src = hf->heights + (size_t)y * w;
        for (size_t x = 0; x < w; x++) {
            unsigned q = quantize(src[x], lo, k, max);
            if (bits == 8) {
                row[x] = (uint8_t)q;
            } else {   /* PNG samples are big-endian */
                row[2 * x] = (uint8_t)(q >> 8);
                row[2 * x + 1] = (uint8_t)q;
            }
        }
        png_write_row(png, row);
    }
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    free(row);
    if (buf.failed) {
        free(buf.data);
        return st_fail(ST_ERR_NOMEM, "PNG export: out of memory");
    }
    *data = buf.data;
    *size = buf.size;
    return ST_OK;
}

/* ---- dispatch ---- */

static StResult decode_any(const char *path, HeightFormat f, const uint8_t *data, size_t size, const HeightImportOptions *o,
                           Heightfield *out, float *nominal)
{
    switch (f) {
    case HEIGHT_FORMAT_RAW:
    case HEIGHT_FORMAT_R16: {
        int bits = f == HEIGHT_FORMAT_R16 ? 16 : o->bits;
        StResult rc = heightfield_decode_raw(path, data, size, o->width, o->height, bits, out);
        size_t cells = (size_t)(o->width > 0 ? o->width : 0) * (size_t)(o->height > 0 ? o->height : 0);
        *nominal = (f == HEIGHT_FORMAT_R16 || bits == 16 || (bits == 0 && size == cells * 2)) ? 65535.0f : 255.0f;
        return rc;
    }
    case HEIGHT_FORMAT_PNG: {
        StResult rc = heightfield_decode_png(path, data, size, out);
        *nominal = stbi_is_16_bit_from_memory(data, (int)(size > 0x7fffffff ? 0 : size)) ? 65535.0f : 255.0f;
        return rc;
    }
    case HEIGHT_FORMAT_EXR:
        *nominal = 1.0f;
        return heightfield_decode_exr(path, data, size, out);
    case HEIGHT_FORMAT_SPARKTERRAIN: {
        *nominal = 1.0f;
        SparkTerrain t;
        StResult rc = spark_terrain_decode(path, data, size, &t);
        if (rc != ST_OK) return rc;
        *out = t.heights;
        memset(&t.heights, 0, sizeof t.heights);
        spark_terrain_free(&t);
        return ST_OK;
    }
    default:
        return st_fail(ST_ERR_ARG, "%s: unknown heightmap format (expected .raw, .r16, .png, .exr or .sparkterrain)", path);
    }
}

StResult heightfield_import(const char *path, const HeightImportOptions *opts, Heightfield *out)
{
    HeightImportOptions none = {0};
    const HeightImportOptions *o = opts ? opts : &none;
    memset(out, 0, sizeof *out);
    HeightFormat f = heightfield_format_from_path(path);
    if (f == HEIGHT_FORMAT_UNKNOWN)
        return st_fail(ST_ERR_ARG, "%s: unknown heightmap format (expected .raw, .r16, .png, .exr or .sparkterrain)", path);
    char *data = NULL;
    size_t size = 0;
    StResult rc = fileio_read_all(path, &data, &size);
    if (rc != ST_OK) return rc;
    float nominal = 1.0f;
    rc = decode_any(path, f, (const uint8_t *)data, size, o, out, &nominal);
    free(data);
    if (rc != ST_OK) return rc;
    if (o->remap) heightfield_remap(out, 0.0f, nominal, o->range_min, o->range_max);
    if (o->flip) heightfield_flip_vertical(out);
    return ST_OK;
}

StResult heightfield_export(const char *path, const Heightfield *hf, const HeightExportOptions *opts)
{
    HeightExportOptions none = {0};
    const HeightExportOptions *o = opts ? opts : &none;
    HeightFormat f = heightfield_format_from_path(path);
    uint8_t *data = NULL;
    size_t size = 0;
    StResult rc;
    switch (f) {
    case HEIGHT_FORMAT_RAW: rc = heightfield_encode_raw(hf, o->bits ? o->bits : 8, o->normalize, &data, &size); break;
    case HEIGHT_FORMAT_R16:
        if (o->bits && o->bits != 16) return st_fail(ST_ERR_ARG, "%s: .r16 is always 16-bit (got --bits %d)", path, o->bits);
        rc = heightfield_encode_raw(hf, 16, o->normalize, &data, &size);
        break;
    case HEIGHT_FORMAT_PNG: rc = heightfield_encode_png(hf, o->bits ? o->bits : 16, o->normalize, &data, &size); break;
    case HEIGHT_FORMAT_EXR: rc = heightfield_encode_exr(hf, o->normalize, &data, &size); break;
    case HEIGHT_FORMAT_SPARKTERRAIN: {
        SparkTerrain t = {0};
        t.heights = *hf;
        t.height_scale = 1.0f;
        t.generate_collider = true;
        Heightfield normalized = {0};
        if (o->normalize) {
            if ((rc = heightfield_copy(hf, &normalized)) != ST_OK) return rc;
            HeightfieldStats s = heightfield_stats(hf);
            heightfield_remap(&normalized, s.min, s.max, 0.0f, 1.0f);
            t.heights = normalized;
        }
        rc = spark_terrain_encode(&t, &data, &size);
        heightfield_free(&normalized);
        break;
    }
    default:
        return st_fail(ST_ERR_ARG, "%s: unknown heightmap format (expected .raw, .r16, .png, .exr or .sparkterrain)", path);
    }
    if (rc != ST_OK) return st_fail_context(rc, "%s", path);
    rc = fileio_write_atomic(path, data, size);
    free(data);
    return rc;
}
