/* wfc_tileset.c — WFC tilesets: the seed's JSON schema, rotation expansion and the compatibility bitsets.
 *
 * Design: sockets are interned to small indices; the adjacency table becomes a symmetric socket-pair
 * matrix (from the seed's socket -> list object or a list of pairs); every tile expands into its rotated variants (horizontal sockets turned, +y/-y kept); compat
 * holds, per direction and variant, the bitset of variants whose facing socket pairs with it, which is all
 * the solver's propagation reads. Mesh templates load separately (they need the block registry). */
#include "strata/wfc.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strata/config.h"
#include "strata/fileio.h"
#include "strata/voxel_model.h"

const char *const WFC_DIR_NAMES[WFC_DIRS] = {"+x", "-x", "+y", "-y", "+z", "-z"};

/* one quarter turn (+x towards +z): where direction d goes */
static const int TURN[WFC_DIRS] = {WFC_PZ, WFC_NZ, WFC_PY, WFC_NY, WFC_NX, WFC_PX};

int wfc_tileset_find_socket(const WfcTileset *ts, const char *name)
{
    for (int i = 0; i < ts->socket_count; i++)
        if (strcmp(ts->socket_names[i], name) == 0)
            return i;
    return -1;
}

static int intern(ConfigDoc *doc, WfcTileset *ts, const char *where, const char *key, const cJSON *v, int *out)
{
    if (!cJSON_IsString(v) || !v->valuestring[0] || strlen(v->valuestring) >= sizeof ts->socket_names[0])
        return config_fail_field(doc, where, key, "a socket name (1..31 characters)", v);
    int i = wfc_tileset_find_socket(ts, v->valuestring);
    if (i < 0) {
        if (ts->socket_count == WFC_MAX_SOCKETS)
            return config_fail_field(doc, where, key, "at most 64 distinct sockets", v);
        i = ts->socket_count++;
        strcpy(ts->socket_names[i], v->valuestring);
    }
    *out = i;
    return ST_OK;
}

bool wfc_tile_has_tag(const WfcTile *tile, const char *tag)
{
    for (int i = 0; i < tile->tag_count; i++)
        if (strcmp(tile->tags[i], tag) == 0)
            return true;
    return false;
}

bool wfc_variants_compatible(const WfcTileset *ts, int a, int dir, int b)
{
    return ts->pairs[ts->variants[a].sockets[dir]][ts->variants[b].sockets[dir ^ 1]] != 0;
}

static StResult parse_tile(ConfigDoc *doc, WfcTileset *ts, const cJSON *jt, int index, int *rot_mask)
{
    WfcTile *t = &ts->tiles[index];
    char where[48];
    snprintf(where, sizeof where, "tiles[%d]", index);
    StResult rc;
    double w = 1.0;
    const cJSON *sockets, *tags = config_get_item(jt, "tags");
    if ((rc = config_get_string(doc, jt, where, "id", t->id, sizeof t->id)) != ST_OK ||
        (rc = config_get_string_opt(doc, jt, where, "mesh", t->mesh, sizeof t->mesh)) != ST_OK ||
        (rc = config_get_number_opt(doc, jt, where, "weight", 0.0001, 1e6, &w)) != ST_OK ||
        (rc = config_get_object(doc, jt, where, "sockets", &sockets)) != ST_OK)
        return rc;
    t->weight = (float)w;
    char swhere[64];
    snprintf(swhere, sizeof swhere, "%s.sockets", where);
    for (int d = 0; d < WFC_DIRS; d++) {
        const cJSON *s = config_get_item(sockets, WFC_DIR_NAMES[d]);
        if (!s)
            return config_fail_field(doc, swhere, WFC_DIR_NAMES[d], "a socket name", NULL);
        if ((rc = intern(doc, ts, swhere, WFC_DIR_NAMES[d], s, &t->sockets[d])) != ST_OK)
            return rc;
    }
    if (tags) {
        if (!cJSON_IsArray(tags) || cJSON_GetArraySize(tags) > WFC_MAX_TAGS)
            return config_fail_field(doc, where, "tags", "an array of at most 8 strings", tags);
        for (const cJSON *g = tags->child; g; g = g->next) {
            if (!cJSON_IsString(g) || strlen(g->valuestring) >= sizeof t->tags[0])
                return config_fail_field(doc, where, "tags", "strings of 1..31 characters", tags);
            strcpy(t->tags[t->tag_count++], g->valuestring);
        }
    }
    bool rotatable = false;
    if ((rc = config_get_bool_opt(doc, jt, where, "rotatable", &rotatable)) != ST_OK)
        return rc;
    *rot_mask = 1;
    if (rotatable) {
        int rots[4], n = 0;
        if (config_get_item(jt, "rotations")) {
            if ((rc = config_get_int_array(doc, jt, where, "rotations", 1, 4, 0, 270, rots, &n)) != ST_OK)
                return rc;
            *rot_mask = 0;
            for (int i = 0; i < n; i++) {
                if (rots[i] % 90)
                    return config_fail_field(doc, where, "rotations", "multiples of 90 in 0..270",
                                             config_get_item(jt, "rotations"));
                *rot_mask |= 1 << (rots[i] / 90);
            }
        } else {
            *rot_mask = 15;
        }
    }
    return ST_OK;
}

/* The adjacency table in either form: the seed's object (socket -> list of sockets it may face; a pair is allowed
 * when either side lists the other) or a list of [a, b] pairs. */
static StResult parse_adjacency(ConfigDoc *doc, WfcTileset *ts, const cJSON *adj)
{
    StResult rc;
    int k = 0;
    for (const cJSON *p = adj->child; p; p = p->next, k++) {
        char where[80];
        int a, b;
        if (cJSON_IsObject(adj)) {
            snprintf(where, sizeof where, "adjacency.%.60s", p->string);
            if (!cJSON_IsArray(p))
                return config_fail_field(doc, "adjacency", p->string, "a list of socket names", p);
            cJSON name = {.type = cJSON_String, .valuestring = p->string};
            if ((rc = intern(doc, ts, "adjacency", p->string, &name, &a)) != ST_OK)
                return rc;
            int j = 0;
            for (const cJSON *q = p->child; q; q = q->next, j++) {
                char idx[16];
                snprintf(idx, sizeof idx, "%d", j);
                if ((rc = intern(doc, ts, where, idx, q, &b)) != ST_OK)
                    return rc;
                ts->pairs[a][b] = ts->pairs[b][a] = 1;
            }
            continue;
        }
        snprintf(where, sizeof where, "adjacency[%d]", k);
        if (!cJSON_IsArray(p) || cJSON_GetArraySize(p) != 2)
            return config_fail_field(doc, where, NULL, "a pair of socket names", p);
        if ((rc = intern(doc, ts, where, "0", cJSON_GetArrayItem(p, 0), &a)) != ST_OK ||
            (rc = intern(doc, ts, where, "1", cJSON_GetArrayItem(p, 1), &b)) != ST_OK)
            return rc;
        ts->pairs[a][b] = ts->pairs[b][a] = 1;
    }
    return ST_OK;
}

StResult wfc_tileset_parse(const char *path, const char *text, WfcTileset **out)
{
    *out = NULL;
    ConfigDoc doc;
    StResult rc = config_parse(path, text, &doc);
    if (rc != ST_OK)
        return rc;
    WfcTileset *ts = calloc(1, sizeof *ts);
    const cJSON *tiles = NULL, *adj = NULL;
    int masks[WFC_MAX_VARIANTS];
    if (!ts) {
        rc = st_fail(ST_ERR_NOMEM, "%s: out of memory", path);
        goto done;
    }
    snprintf(ts->path, sizeof ts->path, "%s", path);
    if ((rc = config_get_string(&doc, doc.root, "", "tileset", ts->name, sizeof ts->name)) != ST_OK ||
        (rc = config_get_int_array(&doc, doc.root, "", "tileSize", 3, 3, 1, 64, ts->tile_size, NULL)) != ST_OK ||
        (rc = config_get_array(&doc, doc.root, "", "tiles", &tiles)) != ST_OK)
        goto done;
    adj = config_get_item(doc.root, "adjacency");
    if (!cJSON_IsArray(adj) && !cJSON_IsObject(adj)) {
        rc = config_fail_field(&doc, "", "adjacency", "an object (socket -> list of sockets) or a list of pairs", adj);
        goto done;
    }
    int n = cJSON_GetArraySize(tiles);
    if (n < 1 || n > WFC_MAX_VARIANTS) {
        rc = config_fail_field(&doc, "", "tiles", "1..256 tiles", tiles);
        goto done;
    }
    ts->tiles = calloc((size_t)n, sizeof *ts->tiles);
    if (!ts->tiles) {
        rc = st_fail(ST_ERR_NOMEM, "%s: out of memory", path);
        goto done;
    }
    ts->tile_count = n;
    int nv = 0;
    for (int i = 0; i < n; i++) {
        if ((rc = parse_tile(&doc, ts, cJSON_GetArrayItem(tiles, i), i, &masks[i])) != ST_OK)
            goto done;
        for (int r = 0; r < 4; r++)
            nv += (masks[i] >> r) & 1;
    }
    if (nv > WFC_MAX_VARIANTS) {
        rc = config_fail_field(&doc, "", "tiles", "at most 256 variants after rotation", NULL);
        goto done;
    }
    if ((rc = parse_adjacency(&doc, ts, adj)) != ST_OK)
        goto done;
    ts->boundary_socket = -1;   /* no boundarySocket: the grid's boundary constrains nothing */
    const cJSON *bs = config_get_item(doc.root, "boundarySocket");
    if (bs && (rc = intern(&doc, ts, "", "boundarySocket", bs, &ts->boundary_socket)) != ST_OK)
        goto done;
    /* variants */
    ts->variants = calloc((size_t)nv, sizeof *ts->variants);
    ts->words = (nv + 63) / 64;
    ts->compat = calloc((size_t)WFC_DIRS * (size_t)nv * (size_t)ts->words, sizeof(uint64_t));
    if (!ts->variants || !ts->compat) {
        rc = st_fail(ST_ERR_NOMEM, "%s: out of memory", path);
        goto done;
    }
    for (int i = 0; i < n; i++) {
        int count = 0;
        for (int r = 0; r < 4; r++)
            count += (masks[i] >> r) & 1;
        for (int r = 0; r < 4; r++) {
            if (!((masks[i] >> r) & 1))
                continue;
            WfcVariant *v = &ts->variants[ts->variant_count++];
            v->tile = i;
            v->rotation = r;
            v->weight = ts->tiles[i].weight / (float)count;
            int dirs[WFC_DIRS];
            for (int d = 0; d < WFC_DIRS; d++)
                dirs[d] = d;
            for (int q = 0; q < r; q++)
                for (int d = 0; d < WFC_DIRS; d++)
                    dirs[d] = TURN[dirs[d]];
            /* original direction d ends up facing dirs[d] */
            for (int d = 0; d < WFC_DIRS; d++)
                v->sockets[dirs[d]] = ts->tiles[i].sockets[d];
        }
    }
    for (int d = 0; d < WFC_DIRS; d++)
        for (int a = 0; a < nv; a++) {
            uint64_t *row = ts->compat + ((size_t)d * nv + a) * ts->words;
            for (int b = 0; b < nv; b++)
                if (wfc_variants_compatible(ts, a, d, b))
                    row[b >> 6] |= 1ull << (b & 63);
        }
done:
    config_free(&doc);
    if (rc != ST_OK) {
        wfc_tileset_destroy(ts);
        return rc;
    }
    *out = ts;
    return ST_OK;
}

StResult wfc_tileset_load(const char *path, WfcTileset **out)
{
    char *text;
    size_t n;
    *out = NULL;
    StResult rc = fileio_read_all(path, &text, &n);
    if (rc != ST_OK)
        return rc;
    rc = wfc_tileset_parse(path, text, out);
    free(text);
    return rc;
}

StResult wfc_tileset_load_templates(WfcTileset *ts, const BlockRegistry *blocks)
{
    return wfc_tileset_load_templates_cached(ts, blocks, NULL);
}

StResult wfc_tileset_load_templates_cached(WfcTileset *ts, const BlockRegistry *blocks, const char *cache_dir)
{
    char dir[512];
    snprintf(dir, sizeof dir, "%s", ts->path);
    char *slash = strrchr(dir, '/');
    if (slash)
        slash[1] = 0;
    else
        dir[0] = 0;
    for (int i = 0; i < ts->tile_count; i++) {
        WfcTile *t = &ts->tiles[i];
        if (!t->mesh[0] || t->mesh_template.voxels)
            continue;
        char path[800];
        snprintf(path, sizeof path, "%s%s", t->mesh[0] == '/' ? "" : dir, t->mesh);
        StResult rc;
        if (voxel_model_is_model(path)) {   /* seed 001's "*.fbx" meshes: voxelized to fit the tileSize */
            VoxelizeOptions opt = {.fit = {ts->tile_size[0], ts->tile_size[1], ts->tile_size[2]}};
            rc = voxel_model_load_cached(path, &opt, cache_dir, blocks, &t->mesh_template, NULL, 0);
        } else {
            rc = voxel_template_load(path, blocks, &t->mesh_template);
        }
        if (rc != ST_OK)
            return st_fail_context(rc, "%s: tile '%s'", ts->path, t->id);
        if (memcmp(t->mesh_template.size, ts->tile_size, sizeof ts->tile_size) != 0)
            return st_fail(ST_ERR_FORMAT, "%s: tile '%s': mesh %s is %dx%dx%d, the tileSize is %dx%dx%d", ts->path,
                           t->id, path, t->mesh_template.size[0], t->mesh_template.size[1],
                           t->mesh_template.size[2], ts->tile_size[0], ts->tile_size[1], ts->tile_size[2]);
    }
    return ST_OK;
}

void wfc_tileset_destroy(WfcTileset *ts)
{
    if (!ts)
        return;
    for (int i = 0; i < ts->tile_count; i++)
        voxel_template_free(&ts->tiles[i].mesh_template);
    free(ts->tiles);
    free(ts->variants);
    free(ts->compat);
    free(ts);
}
