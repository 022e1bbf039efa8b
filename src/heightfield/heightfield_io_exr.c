/* heightfield_io_exr.c — OpenEXR 32-bit float heightmaps through the OpenEXR core C API (openexr.h).
 *
 * Design: both directions run on memory streams (read_fn/size_fn/write_fn in the context initializer),
 * so export can go through fileio_write_atomic and import never touches a half-written file. Export
 * writes one scanline part with a single FLOAT channel "Y", ZIP compressed. Import takes part 0 (scanline
 * storage), the channel "Y" (else "R", else the first channel) and converts it to float (HALF and UINT are
 * converted by the library's unpacker); the data window size is checked against HEIGHTFIELD_MAX_SIDE
 * (and the library's own max_image_* limits) before anything is allocated. Library messages go to the
 * thread-local error through the context's error handler. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openexr.h>

#include "strata/heightfield_io.h"

typedef struct ExrStream {
    const uint8_t *in;
    size_t in_size;
    uint8_t *out;
    size_t out_size, out_cap;
    int failed;
    char message[256];
} ExrStream;

static void exr_on_error(exr_const_context_t ctxt, exr_result_t code, const char *msg)
{
    void *user = NULL;
    if (exr_get_user_data(ctxt, &user) == EXR_ERR_SUCCESS && user) {
        ExrStream *s = user;
        snprintf(s->message, sizeof s->message, "%s (%s)", msg ? msg : "", exr_get_error_code_as_string(code));
    }
}

static int64_t exr_mem_read(exr_const_context_t ctxt, void *user, void *buffer, uint64_t sz, uint64_t offset,
                            exr_stream_error_func_ptr_t error_cb)
{
    (void)ctxt;
    (void)error_cb;
    ExrStream *s = user;
    if (offset >= s->in_size) return 0;
    uint64_t n = s->in_size - offset < sz ? s->in_size - offset : sz;
    memcpy(buffer, s->in + offset, (size_t)n);
    return (int64_t)n;
}

static int64_t exr_mem_size(exr_const_context_t ctxt, void *user)
{
    (void)ctxt;
    return (int64_t)((ExrStream *)user)->in_size;
}

static int64_t exr_mem_write(exr_const_context_t ctxt, void *user, const void *buffer, uint64_t sz, uint64_t offset,
                             exr_stream_error_func_ptr_t error_cb)
{
    (void)ctxt;
    (void)error_cb;
    ExrStream *s = user;
    if (s->failed) return -1;
    size_t end = (size_t)(offset + sz);
    if (end > s->out_cap) {
        size_t cap = s->out_cap ? s->out_cap : 65536;
        while (cap < end) cap *= 2;
        uint8_t *p = realloc(s->out, cap);
        if (!p) {
            s->failed = 1;
            return -1;
        }
        s->out = p;
        s->out_cap = cap;
    }
    memcpy(s->out + offset, buffer, (size_t)sz);
    if (end > s->out_size) s->out_size = end;
    return (int64_t)sz;
}

static StResult exr_fail(const char *name, const char *what, exr_result_t r, const ExrStream *s)
{
    return st_fail(ST_ERR_FORMAT, "%s: OpenEXR %s failed: %s", name, what, s->message[0] ? s->message : exr_get_default_error_message(r));
}

StResult heightfield_encode_exr(const Heightfield *hf, bool normalize, uint8_t **data, size_t *size)
{
    const char *name = "EXR export";
    Heightfield norm = {0};
    const Heightfield *src = hf;
    StResult rc;
    if (normalize) {
        if ((rc = heightfield_copy(hf, &norm)) != ST_OK) return rc;
        HeightfieldStats st = heightfield_stats(hf);
        heightfield_remap(&norm, st.min, st.max, 0.0f, 1.0f);
        src = &norm;
    }
    ExrStream s = {0};
    exr_context_initializer_t init = EXR_DEFAULT_CONTEXT_INITIALIZER;
    init.user_data = &s;
    init.write_fn = exr_mem_write;
    init.error_handler_fn = exr_on_error;
    exr_context_t ctx = NULL;
    exr_encode_pipeline_t enc;
    int enc_ready = 0, part = 0;
    exr_result_t r = exr_start_write(&ctx, "heights.exr", EXR_WRITE_FILE_DIRECTLY, &init);
    if (r != EXR_ERR_SUCCESS) { rc = exr_fail(name, "start", r, &s); goto done; }
    if ((r = exr_add_part(ctx, "heights", EXR_STORAGE_SCANLINE, &part)) != EXR_ERR_SUCCESS ||
        (r = exr_initialize_required_attr_simple(ctx, part, src->width, src->height, EXR_COMPRESSION_ZIP)) != EXR_ERR_SUCCESS ||
        (r = exr_add_channel(ctx, part, "Y", EXR_PIXEL_FLOAT, EXR_PERCEPTUALLY_LINEAR, 1, 1)) != EXR_ERR_SUCCESS ||
        (r = exr_write_header(ctx)) != EXR_ERR_SUCCESS) {
        rc = exr_fail(name, "header", r, &s);
        goto done;
    }
    int32_t lines = 1;
    if ((r = exr_get_scanlines_per_chunk(ctx, part, &lines)) != EXR_ERR_SUCCESS || lines < 1) { rc = exr_fail(name, "chunking", r, &s); goto done; }
    size_t w = (size_t)src->width;
    for (int y = 0; y < src->height; y += lines) {
        exr_chunk_info_t ci;
        if ((r = exr_write_scanline_chunk_info(ctx, part, y, &ci)) != EXR_ERR_SUCCESS) { rc = exr_fail(name, "chunk", r, &s); goto done; }
        r = enc_ready ? exr_encoding_update(ctx, part, &ci, &enc) : exr_encoding_initialize(ctx, part, &ci, &enc);
        if (r != EXR_ERR_SUCCESS) { rc = exr_fail(name, "encoder", r, &s); goto done; }
        enc_ready = 1;
        enc.channels[0].encode_from_ptr = (const uint8_t *)(src->heights + (size_t)y * w);
        enc.channels[0].user_pixel_stride = 4;
        enc.channels[0].user_line_stride = (int32_t)(w * 4);
        enc.channels[0].user_data_type = EXR_PIXEL_FLOAT;
        enc.channels[0].user_bytes_per_element = 4;
        if ((r = exr_encoding_choose_default_routines(ctx, part, &enc)) != EXR_ERR_SUCCESS ||
            (r = exr_encoding_run(ctx, part, &enc)) != EXR_ERR_SUCCESS) {
            rc = exr_fail(name, "encode", r, &s);
            goto done;
        }
    }
    if (enc_ready) exr_encoding_destroy(ctx, &enc);
    enc_ready = 0;
    r = exr_finish(&ctx);
    ctx = NULL;
    if (r != EXR_ERR_SUCCESS || s.failed) { rc = exr_fail(name, "finish", r, &s); goto done; }
    *data = s.out;
    *size = s.out_size;
    s.out = NULL;
    rc = ST_OK;
done:
    if (enc_ready) exr_encoding_destroy(ctx, &enc);
    if (ctx) exr_finish(&ctx);
    free(s.out);
    heightfield_free(&norm);
    return rc;
}

StResult heightfield_decode_exr(const char *name, const uint8_t *data, size_t size, Heightfield *out)
{
    memset(out, 0, sizeof *out);
    ExrStream s = {.in = data, .in_size = size};
    exr_context_initializer_t init = EXR_DEFAULT_CONTEXT_INITIALIZER;
    init.user_data = &s;
    init.read_fn = exr_mem_read;
    init.size_fn = exr_mem_size;
    init.error_handler_fn = exr_on_error;
    init.max_image_width = HEIGHTFIELD_MAX_SIDE;
    init.max_image_height = HEIGHTFIELD_MAX_SIDE;
    exr_context_t ctx = NULL;
    exr_decode_pipeline_t dec;
    int dec_ready = 0;
    StResult rc;
    exr_result_t r = exr_start_read(&ctx, name, &init);
    if (r != EXR_ERR_SUCCESS) { rc = exr_fail(name, "open", r, &s); goto done; }
    exr_storage_t storage;
    if ((r = exr_get_storage(ctx, 0, &storage)) != EXR_ERR_SUCCESS) { rc = exr_fail(name, "storage query", r, &s); goto done; }
    if (storage != EXR_STORAGE_SCANLINE) { rc = st_fail(ST_ERR_FORMAT, "%s: only scanline EXR images are supported (this one is tiled or deep)", name); goto done; }
    exr_attr_box2i_t dw;
    if ((r = exr_get_data_window(ctx, 0, &dw)) != EXR_ERR_SUCCESS) { rc = exr_fail(name, "data window", r, &s); goto done; }
    int64_t w = (int64_t)dw.max.x - dw.min.x + 1, h = (int64_t)dw.max.y - dw.min.y + 1;
    if (w < 1 || h < 1 || w > HEIGHTFIELD_MAX_SIDE || h > HEIGHTFIELD_MAX_SIDE) {
        rc = st_fail(ST_ERR_FORMAT, "%s: image size %lldx%lld outside 1..%d", name, (long long)w, (long long)h, HEIGHTFIELD_MAX_SIDE);
        goto done;
    }
    const exr_attr_chlist_t *chl = NULL;
    if ((r = exr_get_channels(ctx, 0, &chl)) != EXR_ERR_SUCCESS || !chl || chl->num_channels < 1) {
        rc = st_fail(ST_ERR_FORMAT, "%s: the image has no channels", name);
        goto done;
    }
    const char *want = chl->entries[0].name.str;
    for (int pass = 0; pass < 2; pass++)
        for (int c = 0; c < chl->num_channels; c++)
            if (!strcmp(chl->entries[c].name.str, pass == 0 ? "Y" : "R")) { want = chl->entries[c].name.str; pass = 2; break; }
    int32_t lines = 1;
    if ((r = exr_get_scanlines_per_chunk(ctx, 0, &lines)) != EXR_ERR_SUCCESS || lines < 1) { rc = exr_fail(name, "chunking", r, &s); goto done; }
    if ((rc = heightfield_init(out, (int)w, (int)h)) != ST_OK) goto done;
    for (int64_t y = dw.min.y; y <= dw.max.y; y += lines) {
        exr_chunk_info_t ci;
        if ((r = exr_read_scanline_chunk_info(ctx, 0, (int)y, &ci)) != EXR_ERR_SUCCESS) { rc = exr_fail(name, "chunk table", r, &s); goto done; }
        r = dec_ready ? exr_decoding_update(ctx, 0, &ci, &dec) : exr_decoding_initialize(ctx, 0, &ci, &dec);
        if (r != EXR_ERR_SUCCESS) { rc = exr_fail(name, "decoder", r, &s); goto done; }
        dec_ready = 1;
        int64_t row = (int64_t)ci.start_y - dw.min.y;
        if (row < 0 || row + ci.height > h) { rc = st_fail(ST_ERR_FORMAT, "%s: chunk rows outside the data window", name); goto done; }
        for (int c = 0; c < dec.channel_count; c++) {
            exr_coding_channel_info_t *ch = &dec.channels[c];
            if (!strcmp(ch->channel_name, want) && ch->x_samples == 1 && ch->y_samples == 1 && ch->width == w) {
                ch->decode_to_ptr = (uint8_t *)(out->heights + (size_t)row * (size_t)w);
                ch->user_pixel_stride = 4;
                ch->user_line_stride = (int32_t)(w * 4);
                ch->user_data_type = EXR_PIXEL_FLOAT;
                ch->user_bytes_per_element = 4;
            } else {
                ch->decode_to_ptr = NULL;
            }
        }
        if ((r = exr_decoding_choose_default_routines(ctx, 0, &dec)) != EXR_ERR_SUCCESS ||
            (r = exr_decoding_run(ctx, 0, &dec)) != EXR_ERR_SUCCESS) {
            rc = exr_fail(name, "decode", r, &s);
            goto done;
        }
    }
    rc = ST_OK;
done:
    if (dec_ready) exr_decoding_destroy(ctx, &dec);
    if (ctx) exr_finish(&ctx);
    if (rc != ST_OK) heightfield_free(out);
    return rc;
}
