/* voxel_template.c — the voxel template format (assets/templates/README.md): parse, rotate, save.
 *
 * Design: cells are stored as int16 block ids in (y, z, x) order; rotation is an index remap at read time,
 * so one template serves every rotated WFC variant. Saving picks a palette character per distinct block
 * from a fixed alphabet ('.' is always air, ' ' always "keep"). */
#include "strata/voxel_template.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strata/config.h"
#include "strata/fileio.h"

void voxel_template_free(VoxelTemplate *t)
{
    if (!t)
        return;
    free(t->voxels);
    t->voxels = NULL;
}

int voxel_template_get_rotated(const VoxelTemplate *t, int quarter, int x, int y, int z)
{
    int sx = t->size[0], sz = t->size[2];
    switch (quarter & 3) {
    case 1: return voxel_template_get(t, z, y, sx - 1 - x);
    case 2: return voxel_template_get(t, sx - 1 - x, y, sz - 1 - z);
    case 3: return voxel_template_get(t, sz - 1 - z, y, x);
    default: return voxel_template_get(t, x, y, z);
    }
}

StResult voxel_template_parse(const char *path, const char *text, const BlockRegistry *blocks, VoxelTemplate *out)
{
    memset(out, 0, sizeof *out);
    ConfigDoc doc;
    StResult rc = config_parse(path, text, &doc);
    if (rc != ST_OK)
        return rc;
    const cJSON *root = doc.root, *palette, *layers;
    int size[3];
    if ((rc = config_get_int_array(&doc, root, "", "size", 3, 3, 1, VOXEL_TEMPLATE_MAX_SIDE, size, NULL)) != ST_OK ||
        (rc = config_get_object(&doc, root, "", "palette", &palette)) != ST_OK ||
        (rc = config_get_array(&doc, root, "", "layers", &layers)) != ST_OK)
        goto done;
    config_get_string_opt(&doc, root, "", "name", out->name, sizeof out->name);
    int map[256];
    for (int i = 0; i < 256; i++)
        map[i] = -2; /* not in the palette */
    for (const cJSON *p = palette->child; p; p = p->next) {
        if (!p->string || strlen(p->string) != 1) {
            rc = config_fail_field(&doc, "palette", p->string, "single-character keys", p);
            goto done;
        }
        unsigned char ch = (unsigned char)p->string[0];
        if (cJSON_IsNull(p)) {
            map[ch] = VOXEL_TEMPLATE_KEEP;
        } else if (cJSON_IsString(p)) {
            int id = block_registry_find(blocks, p->valuestring);
            if (id < 0) {
                rc = config_fail_field(&doc, "palette", p->string, "a block name from blocks.json", p);
                goto done;
            }
            map[ch] = id;
        } else {
            rc = config_fail_field(&doc, "palette", p->string, "a block name or null", p);
            goto done;
        }
    }
    if (cJSON_GetArraySize(layers) != size[1]) {
        rc = config_fail_field(&doc, "", "layers", "one layer per size[1]", layers);
        goto done;
    }
    out->voxels = malloc(sizeof(int16_t) * (size_t)size[0] * (size_t)size[1] * (size_t)size[2]);
    if (!out->voxels) {
        rc = st_fail(ST_ERR_NOMEM, "%s: out of memory", path);
        goto done;
    }
    memcpy(out->size, size, sizeof size);
    for (int y = 0; y < size[1]; y++) {
        const cJSON *layer = cJSON_GetArrayItem(layers, y);
        char where[48];
        snprintf(where, sizeof where, "layers[%d]", y);
        if (!cJSON_IsArray(layer) || cJSON_GetArraySize(layer) != size[2]) {
            rc = config_fail_field(&doc, where, NULL, "an array of size[2] row strings", layer);
            goto done;
        }
        for (int z = 0; z < size[2]; z++) {
            const cJSON *row = cJSON_GetArrayItem(layer, z);
            if (!cJSON_IsString(row) || (int)strlen(row->valuestring) != size[0]) {
                snprintf(where, sizeof where, "layers[%d][%d]", y, z);
                rc = config_fail_field(&doc, where, NULL, "a string of size[0] palette characters", row);
                goto done;
            }
            for (int x = 0; x < size[0]; x++) {
                int v = map[(unsigned char)row->valuestring[x]];
                if (v == -2) {
                    snprintf(where, sizeof where, "layers[%d][%d]", y, z);
                    rc = config_fail_field(&doc, where, NULL, "characters that the palette defines", row);
                    goto done;
                }
                out->voxels[(y * size[2] + z) * size[0] + x] = (int16_t)v;
            }
        }
    }
done:
    if (rc != ST_OK)
        voxel_template_free(out);
    config_free(&doc);
    return rc;
}

StResult voxel_template_load(const char *path, const BlockRegistry *blocks, VoxelTemplate *out)
{
    char *text;
    size_t n;
    StResult rc = fileio_read_all(path, &text, &n);
    if (rc != ST_OK)
        return rc;
    rc = voxel_template_parse(path, text, blocks, out);
    free(text);
    return rc;
}

StResult voxel_template_save(const VoxelTemplate *t, const BlockRegistry *blocks, const char *path)
{
    static const char alphabet[] = "#abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+*=%@$&";
    char chars[BLOCK_MAX];
    memset(chars, 0, sizeof chars);
    int used = 0;
    StResult rc = ST_OK;
    cJSON *root = cJSON_CreateObject(), *pal = cJSON_CreateObject(), *layers = cJSON_CreateArray();
    char *row = malloc((size_t)t->size[0] + 1);
    if (!root || !pal || !layers || !row) {
        cJSON_Delete(root);
        cJSON_Delete(pal);
        cJSON_Delete(layers);
        free(row);
        return st_fail(ST_ERR_NOMEM, "template: out of memory");
    }
    cJSON_AddStringToObject(root, "name", t->name);
    double size[3] = {t->size[0], t->size[1], t->size[2]};
    config_add_number_array(root, "size", size, 3);
    cJSON_AddItemToObject(root, "palette", pal);
    cJSON_AddItemToObject(root, "layers", layers);
    for (int y = 0; y < t->size[1] && rc == ST_OK; y++) {
        cJSON *layer = cJSON_CreateArray();
        cJSON_AddItemToArray(layers, layer);
        for (int z = 0; z < t->size[2] && rc == ST_OK; z++) {
            for (int x = 0; x < t->size[0]; x++) {
                int id = voxel_template_get(t, x, y, z);
                char ch;
                if (id == VOXEL_TEMPLATE_KEEP) {
                    ch = ' ';
                    if (!cJSON_GetObjectItemCaseSensitive(pal, " "))
                        cJSON_AddNullToObject(pal, " ");
                } else if (id == 0) {
                    ch = '.';
                    if (!cJSON_GetObjectItemCaseSensitive(pal, "."))
                        cJSON_AddStringToObject(pal, ".", "air");
                } else {
                    if (!chars[id]) {
                        if (used >= (int)sizeof alphabet - 1) {
                            rc = st_fail(ST_ERR_ARG, "template: more than %d distinct blocks", used);
                            break;
                        }
                        chars[id] = alphabet[used++];
                        char key[2] = {chars[id], 0};
                        cJSON_AddStringToObject(pal, key, blocks->defs[id].name);
                    }
                    ch = chars[id];
                }
                row[x] = ch;
            }
            row[t->size[0]] = 0;
            cJSON_AddItemToArray(layer, cJSON_CreateString(row));
        }
    }
    char *text = rc == ST_OK ? cJSON_Print(root) : NULL;
    if (rc == ST_OK && !text)
        rc = st_fail(ST_ERR_NOMEM, "template: out of memory");
    if (rc == ST_OK)
        rc = fileio_write_atomic(path, text, strlen(text));
    free(text);
    free(row);
    cJSON_Delete(root);
    return rc;
}
