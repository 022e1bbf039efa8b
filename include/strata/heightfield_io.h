/* heightfield_io.h — heightmap import and export: raw 8/16-bit (.raw, .r16), PNG 8/16-bit grayscale,
 * OpenEXR 32-bit float (.exr) and SparkEngine's .sparkterrain version 2.
 *
 * Values: integer formats store heights as integers in 0..255 (8-bit) or 0..65535 (16-bit); float formats
 * store heights as they are (nominal range 0..1). Import gives those values; HeightImportOptions.remap
 * maps the format's nominal range [0, 255 | 65535 | 1] to [range_min, range_max]. Export without
 * normalize rounds and clamps into the integer range (float formats are exact); with normalize the map's
 * min..max becomes the full nominal range first.
 * .sparkterrain v2 (little-endian): "SPKT", u32 version (2), u32 width, u32 height, f32 spacing, f32
 * height_scale, u8 generate_collider, width*height f32 heights, u32 splatmap count (0..4) then that many
 * width*height*4 RGBA maps, u32 layer count (0..16) then per layer: string name, string texture (u32
 * length <= 4096 + bytes) and f32 tiling; nothing after. Every read goes through a bounds-checked cursor:
 * an allocation is only sized after the bytes it will hold are known to be present.
 * Files are written atomically (fileio_write_atomic): a failed export leaves no partial file.
 * Errors name the file and the problem ("map.r16: file is 1000 bytes, 64x64 16-bit needs 8192").
 * Thread safety: reentrant. */
#ifndef STRATA_HEIGHTFIELD_IO_H
#define STRATA_HEIGHTFIELD_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "strata/error.h"
#include "strata/heightfield.h"

typedef enum HeightFormat {
    HEIGHT_FORMAT_UNKNOWN = -1,
    HEIGHT_FORMAT_RAW = 0,      /* .raw: 8-bit by default, 16-bit little-endian with bits 16 */
    HEIGHT_FORMAT_R16,          /* .r16: 16-bit little-endian */
    HEIGHT_FORMAT_PNG,          /* .png: 8 or 16-bit grayscale */
    HEIGHT_FORMAT_EXR,          /* .exr: one FLOAT channel "Y", scanlines, ZIP */
    HEIGHT_FORMAT_SPARKTERRAIN  /* .sparkterrain v2 */
} HeightFormat;

#define SPARKTERRAIN_VERSION 2
#define SPARKTERRAIN_MAX_STRING 4096
#define SPARKTERRAIN_MAX_SPLATMAPS 4
#define SPARKTERRAIN_MAX_LAYERS 16

/* By file extension (case-insensitive); HEIGHT_FORMAT_UNKNOWN otherwise. */
HeightFormat heightfield_format_from_path(const char *path);
const char *heightfield_format_name(HeightFormat format);

typedef struct HeightImportOptions {
    int width, height;   /* raw/r16: required (0: missing -> error); others: ignored */
    int bits;            /* .raw: 8 or 16 (0: 8, or 16 when the file is exactly 2 x width x height) */
    bool remap;          /* map the nominal range to [range_min, range_max] */
    float range_min, range_max;
    bool flip;           /* mirror rows (vertical flip) */
} HeightImportOptions;

typedef struct HeightExportOptions {
    int bits;            /* .raw / .png: 8 or 16 (0: 16 for .png and .r16, 8 for .raw) */
    bool normalize;      /* map min..max to the format's full nominal range */
} HeightExportOptions;

/* Reads any supported file (format from the extension). */
StResult heightfield_import(const char *path, const HeightImportOptions *opts, Heightfield *out);
/* Writes any supported file (format from the extension), atomically. */
StResult heightfield_export(const char *path, const Heightfield *hf, const HeightExportOptions *opts);

/* In-memory codecs (`name` is used in messages). Decoders never trust a header for an allocation. */
StResult heightfield_decode_raw(const char *name, const uint8_t *data, size_t size, int width, int height, int bits,
                                Heightfield *out);
StResult heightfield_encode_raw(const Heightfield *hf, int bits, bool normalize, uint8_t **data, size_t *size);
StResult heightfield_decode_png(const char *name, const uint8_t *data, size_t size, Heightfield *out);
StResult heightfield_encode_png(const Heightfield *hf, int bits, bool normalize, uint8_t **data, size_t *size);
StResult heightfield_decode_exr(const char *name, const uint8_t *data, size_t size, Heightfield *out);
StResult heightfield_encode_exr(const Heightfield *hf, bool normalize, uint8_t **data, size_t *size);

/* ---- .sparkterrain ---- */

typedef struct SparkTerrainLayer {
    char *name;      /* malloc'd, <= 4096 bytes, owned */
    char *texture;   /* malloc'd, <= 4096 bytes, owned */
    float tiling;
} SparkTerrainLayer;

typedef struct SparkTerrain {
    Heightfield heights;          /* owned; spacing is the horizontal scale */
    float height_scale;           /* vertical scale (1 = heights in world units) */
    bool generate_collider;
    int splatmap_count;           /* 0..4 */
    uint8_t *splatmaps;           /* splatmap_count x width x height x 4 RGBA bytes, owned */
    int layer_count;              /* 0..16 */
    SparkTerrainLayer layers[SPARKTERRAIN_MAX_LAYERS];
} SparkTerrain;

/* Frees everything owned; safe on a zeroed struct. */
void spark_terrain_free(SparkTerrain *t);
/* ST_ERR_FORMAT for anything malformed (truncated, bad magic, sizes out of bounds, trailing bytes),
 * ST_ERR_VERSION for any version but 2 (version 1 is refused by name). On failure *out is zeroed. */
StResult spark_terrain_decode(const char *name, const uint8_t *data, size_t size, SparkTerrain *out);
StResult spark_terrain_encode(const SparkTerrain *t, uint8_t **data, size_t *size);

#endif
