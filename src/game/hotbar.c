/* hotbar.c — the hotbar's slots and selection, and hotbar.json in a world folder.
 *
 * Design: a plain value (nine ids and an index) that input, scripts and the picker change through these
 * calls only. The file is small and lives beside world.json (the store module's world.json format stays
 * as it is): {"format_version": 1, "slots": ["dirt", ...9 names], "selected": 1} with `selected` 1-based
 * like the keys. Written atomically (fileio_write_atomic), read with validated getters. */
#include "hotbar.h"

#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "strata/config.h"
#include "strata/fileio.h"

static const int HOTBAR_DEFAULT[HOTBAR_SLOTS] = {
    BLOCK_DIRT, BLOCK_STONE, BLOCK_PLANKS, BLOCK_GLASS, BLOCK_TORCH, BLOCK_BRICKS, BLOCK_COBBLESTONE, BLOCK_SAND,
    BLOCK_OAK_LEAVES,
};

void hotbar_default(Hotbar *hotbar)
{
    memcpy(hotbar->slots, HOTBAR_DEFAULT, sizeof hotbar->slots);
    hotbar->selected = 0;
}

void hotbar_select(Hotbar *hotbar, int slot)
{
    if (slot >= 0 && slot < HOTBAR_SLOTS) hotbar->selected = slot;
}

void hotbar_scroll(Hotbar *hotbar, int steps)
{
    int s = (hotbar->selected + steps) % HOTBAR_SLOTS;
    hotbar->selected = s < 0 ? s + HOTBAR_SLOTS : s;
}

void hotbar_set(Hotbar *hotbar, int slot, int block)
{
    if (slot < 0 || slot >= HOTBAR_SLOTS || block <= BLOCK_AIR) return;
    hotbar->slots[slot] = block;
}

int hotbar_find(const Hotbar *hotbar, int block)
{
    for (int i = 0; i < HOTBAR_SLOTS; i++)
        if (hotbar->slots[i] == block) return i;
    return -1;
}

void hotbar_pick(Hotbar *hotbar, int block)
{
    if (block <= BLOCK_AIR) return;
    int slot = hotbar_find(hotbar, block);
    if (slot >= 0) hotbar->selected = slot;
    else hotbar->slots[hotbar->selected] = block;
}

static void hotbar_path(char *out, size_t size, const char *world_dir)
{
    snprintf(out, size, "%s/%s", world_dir, HOTBAR_FILE);
}

StResult hotbar_load(const char *world_dir, const BlockRegistry *blocks, Hotbar *hotbar)
{
    char path[1100];
    hotbar_path(path, sizeof path, world_dir);
    if (!fileio_exists(path)) return st_fail(ST_ERR_NOT_FOUND, "%s: no hotbar saved", path);
    ConfigDoc doc;
    StResult rc = config_load(path, &doc);
    if (rc != ST_OK) return rc;
    Hotbar loaded = *hotbar;
    long version = 0, selected = 1;
    const cJSON *slots = NULL;
    if ((rc = config_get_int(&doc, doc.root, "", "format_version", 1, HOTBAR_FORMAT_VERSION, &version)) != ST_OK ||
        (rc = config_get_array(&doc, doc.root, "", "slots", &slots)) != ST_OK ||
        (rc = config_get_int_opt(&doc, doc.root, "", "selected", 1, HOTBAR_SLOTS, &selected)) != ST_OK) {
        config_free(&doc);
        return rc;
    }
    if (cJSON_GetArraySize(slots) != HOTBAR_SLOTS) {
        rc = config_fail_field(&doc, "", "slots", "an array of 9 block names", slots);
        config_free(&doc);
        return rc;
    }
    for (int i = 0; i < HOTBAR_SLOTS; i++) {
        const cJSON *name = cJSON_GetArrayItem(slots, i);
        if (!cJSON_IsString(name)) {
            char where[32];
            snprintf(where, sizeof where, "slots[%d]", i);
            rc = config_fail_field(&doc, where, NULL, "a block name", name);
            config_free(&doc);
            return rc;
        }
        int id = block_registry_find(blocks, name->valuestring);
        if (id > BLOCK_AIR) loaded.slots[i] = id; /* a block gone from blocks.json keeps the slot's default */
    }
    loaded.selected = (int)selected - 1;
    config_free(&doc);
    *hotbar = loaded;
    return ST_OK;
}

StResult hotbar_save(const char *world_dir, const BlockRegistry *blocks, const Hotbar *hotbar)
{
    char path[1100];
    hotbar_path(path, sizeof path, world_dir);
    cJSON *root = cJSON_CreateObject();
    cJSON *slots = root ? cJSON_AddArrayToObject(root, "slots") : NULL;
    bool ok = root && slots && cJSON_AddNumberToObject(root, "format_version", HOTBAR_FORMAT_VERSION);
    for (int i = 0; ok && i < HOTBAR_SLOTS; i++) {
        int id = hotbar->slots[i];
        const char *name = block_is_defined(blocks, id) ? blocks->defs[id].name : "dirt";
        cJSON *item = cJSON_CreateString(name);
        ok = item && cJSON_AddItemToArray(slots, item);
    }
    ok = ok && cJSON_AddNumberToObject(root, "selected", hotbar->selected + 1);
    char *text = ok ? cJSON_Print(root) : NULL;
    cJSON_Delete(root);
    if (!text) return st_fail(ST_ERR_NOMEM, "%s: out of memory writing the hotbar", path);
    StResult rc = fileio_write_atomic(path, text, strlen(text));
    cJSON_free(text);
    return rc == ST_OK ? ST_OK : st_fail_context(rc, "saving the hotbar");
}
