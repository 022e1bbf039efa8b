/* voxel_model_cache.c — the cache of voxelized models (voxel_model.h): keys, the cache folder, load-or-voxelize.
 *
 * Design: the key is FNV-1a 64 over the model's bytes, then over each file the model names that the importer
 * reads beside it (a glTF's or .glb's external buffers and images, an OBJ's mtllib files and their map_Kd
 * textures: each as its name and its bytes, or its name and a "missing" mark), then over the options' text.
 * A changed texture or .bin therefore gives a new key, like a changed model; an FBX's external textures are
 * not followed (Blender and game kits embed them). A cache file is cache_dir/<key as 16 hex digits>.json, a
 * voxel template (voxel_template.h) written atomically, so a crash leaves the old file or none; one that does
 * not load (truncated, not JSON, unknown blocks) is voxelized again with a warning and replaced. Voxelizing
 * is deterministic, so a rebuilt cache file is byte-identical to the one it replaces. The folder is made only
 * when a file is written. voxel_model_cache_dir picks the folder: beside the world while the world folder is
 * written, else the user's cache ($XDG_CACHE_HOME/strata/models). */
#include "strata/voxel_model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "strata/fileio.h"
#include "strata/log.h"

#include <cjson/cJSON.h>

#define CACHE_TAG "voxelize"
#define FNV_BASIS 0xcbf29ce484222325ull

static void hash_bytes(uint64_t *h, const void *data, size_t n)
{
    const uint8_t *p = data;
    for (size_t i = 0; i < n; i++)
        *h = (*h ^ p[i]) * 0x100000001b3ull;
}

static void hash_text(uint64_t *h, const char *s)
{
    hash_bytes(h, s, strlen(s) + 1);   /* with its NUL: "ab" + "c" differs from "a" + "bc" */
}

static bool has_ext(const char *path, const char *ext)
{
    size_t n = strlen(path), e = strlen(ext);
    return n >= e && !strcasecmp(path + n - e, ext);
}

/* A glTF URI as a file name: %XX escapes decoded. */
static void uri_decode(const char *uri, char *out, size_t n)
{
    size_t k = 0;
    for (const char *p = uri; *p && k + 1 < n; p++) {
        unsigned v;
        if (p[0] == '%' && p[1] && p[2] && sscanf(p + 1, "%2x", &v) == 1) {
            out[k++] = (char)v;
            p += 2;
        } else {
            out[k++] = *p;
        }
    }
    out[k] = 0;
}

/* Hashes the file `ref` (relative to the model's folder `dir`, or absolute) into the key; with `text`, its
 * contents come back (caller frees) so an .mtl can be followed. */
static void hash_companion(uint64_t *h, const char *dir, const char *ref, char **text)
{
    char path[1200];
    snprintf(path, sizeof path, "%s%s", ref[0] == '/' ? "" : dir, ref);
    hash_text(h, ref);
    char *data = NULL;
    size_t n = 0;
    if (fileio_read_all(path, &data, &n) != ST_OK) {
        hash_text(h, "missing");
        return;
    }
    hash_bytes(h, data, n);
    if (text)
        *text = data;
    else
        free(data);
}

/* The external buffers and images of a glTF's JSON (data: URIs are inside the file already). */
static void hash_gltf_refs(uint64_t *h, const char *dir, const char *json, size_t n)
{
    cJSON *root = cJSON_ParseWithLength(json, n);
    static const char *const LISTS[2] = {"buffers", "images"};
    for (int l = 0; root && l < 2; l++) {
        const cJSON *arr = cJSON_GetObjectItemCaseSensitive(root, LISTS[l]), *e;
        cJSON_ArrayForEach(e, arr)
        {
            const cJSON *uri = cJSON_GetObjectItemCaseSensitive(e, "uri");
            if (!cJSON_IsString(uri) || !strncmp(uri->valuestring, "data:", 5))
                continue;
            char ref[512];
            uri_decode(uri->valuestring, ref, sizeof ref);
            hash_companion(h, dir, ref, NULL);
        }
    }
    cJSON_Delete(root);
}

/* The last word of a line (an OBJ/MTL statement's file name comes after its options), trailing space cut. */
static void last_word(const char *line, size_t len, char *out, size_t n)
{
    while (len && (line[len - 1] == ' ' || line[len - 1] == '\t' || line[len - 1] == '\r'))
        len--;
    size_t start = len;
    while (start && line[start - 1] != ' ' && line[start - 1] != '\t')
        start--;
    snprintf(out, n, "%.*s", (int)(len - start), line + start);
}

/* Each line of `text` that starts with `keyword` names a file: hashed; with `follow`, the files they name in
 * turn (an .mtl's map_Kd textures). */
static void hash_statement_refs(uint64_t *h, const char *dir, const char *text, const char *keyword, bool follow)
{
    size_t kw = strlen(keyword);
    for (const char *line = text; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        while (len && (*line == ' ' || *line == '\t'))
            line++, len--;
        if (len > kw && !strncmp(line, keyword, kw) && (line[kw] == ' ' || line[kw] == '\t')) {
            char ref[512];
            last_word(line + kw, len - kw, ref, sizeof ref);
            char *mtl = NULL;
            if (ref[0])
                hash_companion(h, dir, ref, follow ? &mtl : NULL);
            if (mtl)
                hash_statement_refs(h, dir, mtl, "map_Kd", false);
            free(mtl);
        }
        line = end ? end + 1 : NULL;
    }
}

static void hash_companions(uint64_t *h, const char *path, const char *data, size_t n)
{
    char dir[1024] = "";
    const char *slash = strrchr(path, '/');
    if (slash)
        snprintf(dir, sizeof dir, "%.*s/", (int)(slash - path), path);
    if (has_ext(path, ".gltf")) {
        hash_gltf_refs(h, dir, data, n);
    } else if (has_ext(path, ".glb") && n >= 20 && !memcmp(data, "glTF", 4) && !memcmp(data + 16, "JSON", 4)) {
        const uint8_t *b = (const uint8_t *)data + 12;   /* the first chunk: its length, then "JSON" */
        size_t len = (size_t)b[0] | (size_t)b[1] << 8 | (size_t)b[2] << 16 | (size_t)b[3] << 24;
        if (len <= n - 20)
            hash_gltf_refs(h, dir, data + 20, len);
    } else if (has_ext(path, ".obj")) {
        hash_statement_refs(h, dir, data, "mtllib", true);
    }
}

StResult voxel_model_cache_key(const char *path, const VoxelizeOptions *opt, uint64_t *key)
{
    char *data = NULL;
    size_t n = 0;
    StResult rc = fileio_read_all(path, &data, &n);
    if (rc != ST_OK)
        return st_fail_context(rc, "%s: cannot read the model", path);
    uint64_t h = FNV_BASIS;
    hash_bytes(&h, data, n);
    hash_companions(&h, path, data, n);
    free(data);
    char text[160];
    snprintf(text, sizeof text, "v2 size=%d scale=%.9g fit=%d,%d,%d fill=%d", opt->size, (double)opt->scale,
             opt->fit[0], opt->fit[1], opt->fit[2], (int)opt->fill);
    hash_text(&h, text);
    hash_text(&h, opt->palette ? opt->palette : "blocks");
    if (opt->atlas_path)
        hash_text(&h, opt->atlas_path);
    *key = h;
    return ST_OK;
}

void voxel_model_cache_dir(const char *world_dir, bool world_written, char *out, size_t n)
{
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (world_dir && world_dir[0] && world_written)
        snprintf(out, n, "%s/models", world_dir);
    else if (xdg && xdg[0] == '/')   /* the XDG rule: a relative value is ignored */
        snprintf(out, n, "%s/strata/models", xdg);
    else if (home && home[0])
        snprintf(out, n, "%s/.cache/strata/models", home);
    else if (n)
        out[0] = 0;
}

StResult voxel_model_load_cached(const char *path, const VoxelizeOptions *opt, const char *cache_dir,
                                 const BlockRegistry *blocks, VoxelTemplate *out, char *cache_file, size_t n)
{
    memset(out, 0, sizeof *out);
    if (cache_file && n)
        cache_file[0] = 0;
    if (!cache_dir || !cache_dir[0])
        return voxel_model_voxelize(path, opt, blocks, out);
    uint64_t key;
    StResult rc = voxel_model_cache_key(path, opt, &key);
    if (rc != ST_OK)
        return rc;
    char file[1200];
    snprintf(file, sizeof file, "%s/%016llx.json", cache_dir, (unsigned long long)key);
    if (cache_file && n)
        snprintf(cache_file, n, "%s", file);
    if (fileio_exists(file)) {
        if (voxel_template_load(file, blocks, out) == ST_OK) {
            log_info(CACHE_TAG, "%s: read from the cache %s", path, file);
            return ST_OK;
        }
        log_warn(CACHE_TAG, "%s: a bad cache file (%s): voxelizing %s again", file, st_error_message(), path);
        memset(out, 0, sizeof *out);
    }
    if ((rc = voxel_model_voxelize(path, opt, blocks, out)) != ST_OK)
        return rc;
    if (fileio_make_dirs(cache_dir) != ST_OK || voxel_template_save(out, blocks, file) != ST_OK)
        log_warn(CACHE_TAG, "%s: cannot write the cache (%s): the model is voxelized again next time", file,
                 st_error_message());
    else
        log_info(CACHE_TAG, "%s: voxelized into the cache %s", path, file);
    return ST_OK;
}
