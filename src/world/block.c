/* block.c — the block registry: loads and validates assets/blocks.json.
 *
 * Design. Blocks are data; the only thing code knows about them is the standard set (BlockId), whose
 * names are listed below next to the enum values so code and data cannot drift apart: the loader refuses
 * a file where a standard name has another id, a standard id has another name, or a standard block is
 * missing. Everything is validated once at load time, and every failure names the file, the block (index
 * and name) and the field, and says what was expected; a typo'd field name is an error rather than a
 * silent default. After loading, the flat per-id tables (opaque_cube, attenuation, ...) serve hot loops
 * in lighting and meshing, and the registry is immutable (shareable by all threads). */
#include "strata/block.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "strata/config.h"

static const char *const BLOCK_STANDARD_NAMES[BLOCK_FIRST_FREE] = {
    [BLOCK_AIR] = "air", [BLOCK_BEDROCK] = "bedrock", [BLOCK_STONE] = "stone", [BLOCK_GRANITE] = "granite",
    [BLOCK_BASALT] = "basalt", [BLOCK_SANDSTONE] = "sandstone", [BLOCK_LIMESTONE] = "limestone",
    [BLOCK_DIRT] = "dirt", [BLOCK_GRASS] = "grass", [BLOCK_SAND] = "sand", [BLOCK_GRAVEL] = "gravel",
    [BLOCK_CLAY] = "clay", [BLOCK_WATER] = "water", [BLOCK_ICE] = "ice", [BLOCK_SNOW] = "snow",
    [BLOCK_MAGMA] = "magma", [BLOCK_OAK_TRUNK] = "oak_trunk", [BLOCK_OAK_LEAVES] = "oak_leaves",
    [BLOCK_BIRCH_TRUNK] = "birch_trunk", [BLOCK_BIRCH_LEAVES] = "birch_leaves",
    [BLOCK_SPRUCE_TRUNK] = "spruce_trunk", [BLOCK_SPRUCE_LEAVES] = "spruce_leaves",
    [BLOCK_POPLAR_TRUNK] = "poplar_trunk", [BLOCK_POPLAR_LEAVES] = "poplar_leaves",
    [BLOCK_MIMOSA_TRUNK] = "mimosa_trunk", [BLOCK_MIMOSA_LEAVES] = "mimosa_leaves",
    [BLOCK_TALL_GRASS] = "tall_grass", [BLOCK_RED_FLOWER] = "red_flower", [BLOCK_YELLOW_FLOWER] = "yellow_flower",
    [BLOCK_PURPLE_FLOWER] = "purple_flower", [BLOCK_CACTUS] = "cactus", [BLOCK_PUMPKIN] = "pumpkin",
    [BLOCK_JACK_O_LANTERN] = "jack_o_lantern", [BLOCK_COAL_ORE] = "coal_ore", [BLOCK_COPPER_ORE] = "copper_ore",
    [BLOCK_IRON_ORE] = "iron_ore", [BLOCK_DIAMOND_ORE] = "diamond_ore", [BLOCK_SALTPETER_ORE] = "saltpeter_ore",
    [BLOCK_SULPHUR_ORE] = "sulphur_ore", [BLOCK_GERMANIUM_ORE] = "germanium_ore", [BLOCK_PLANKS] = "planks",
    [BLOCK_GLASS] = "glass", [BLOCK_TORCH] = "torch", [BLOCK_COBBLESTONE] = "cobblestone",
    [BLOCK_BRICKS] = "bricks", [BLOCK_DRY_BUSH] = "dry_bush", [BLOCK_SNOW_LAYER] = "snow_layer",
};

static const char *const BLOCK_LAYER_NAMES[] = { "opaque", "alpha_tested", "transparent", "none" };
static const char *const BLOCK_SHAPE_NAMES[] = { "cube", "cross", "torch", "fluid", "layer", "none" };
#define BLOCK_SHAPE_COUNT (int)(sizeof BLOCK_SHAPE_NAMES / sizeof BLOCK_SHAPE_NAMES[0])
_Static_assert(BLOCK_SHAPE_COUNT == BLOCK_SHAPE_NONE + 1, "one name per BlockShape, in enum order");
static const char *const BLOCK_TINT_NAMES[] = { "none", "grass", "foliage", "water" };
static const char *const BLOCK_FIELDS[] = { "id", "name", "layer", "shape", "emission", "attenuation", "solid",
                                            "textures", "tint", "tint_faces", "map_color", "drop",
                                            "behaviour" };
static const char *const BLOCK_BEHAVIOUR_NAMES[] = { "none", "falling", "fluid", "needs_support" };
_Static_assert(sizeof BLOCK_BEHAVIOUR_NAMES / sizeof BLOCK_BEHAVIOUR_NAMES[0] == BLOCK_BEHAVIOUR_COUNT,
               "one name per BlockBehaviour, in enum order");

/* Texture keys and the faces each covers, from the most general to the most specific. */
typedef struct BlockFaceKey { const char *key; uint8_t faces; } BlockFaceKey;
static const BlockFaceKey BLOCK_FACE_KEYS[] = {
    { "all", 0x3F }, { "side", 0x0F }, { "top", 1u << BLOCK_FACE_POS_Y }, { "bottom", 1u << BLOCK_FACE_NEG_Y },
    { "pos_z", 1u << BLOCK_FACE_POS_Z }, { "pos_x", 1u << BLOCK_FACE_POS_X },
    { "neg_z", 1u << BLOCK_FACE_NEG_Z }, { "neg_x", 1u << BLOCK_FACE_NEG_X },
};
#define BLOCK_FACE_KEY_COUNT (int)(sizeof BLOCK_FACE_KEYS / sizeof BLOCK_FACE_KEYS[0])
#define BLOCK_FACE_KEY_LIST "all|side|top|bottom|pos_z|pos_x|neg_z|neg_x"

void block_shape_bounds(BlockShape shape, float lo[3], float hi[3])
{
    /* in 16ths of a block, as mesher_shapes.c draws them (torch: 7..9 drawn, 6..10 aimed) */
    int l[3] = {0, 0, 0}, h[3] = {16, 16, 16};
    switch (shape) {
    case BLOCK_SHAPE_LAYER: h[1] = 2; break;
    case BLOCK_SHAPE_TORCH: l[0] = l[2] = 6; h[0] = h[2] = 10; h[1] = 10; break;
    case BLOCK_SHAPE_CROSS: l[0] = l[2] = 2; h[0] = h[2] = 14; break;
    case BLOCK_SHAPE_NONE: h[0] = h[1] = h[2] = 0; break;
    default: break;
    }
    for (int a = 0; a < 3; a++) {
        lo[a] = (float)l[a] / 16.0f;
        hi[a] = (float)h[a] / 16.0f;
    }
}

const char *block_standard_name(int id)
{
    return id >= 0 && id < BLOCK_FIRST_FREE ? BLOCK_STANDARD_NAMES[id] : NULL;
}

int block_registry_find(const BlockRegistry *reg, const char *name)
{
    for (int id = 0; id < reg->count; id++)
        if (reg->defs[id].defined && strcmp(reg->defs[id].name, name) == 0) return id;
    return -1;
}

int block_registry_find_tile(const BlockRegistry *reg, const char *name)
{
    for (int i = 0; i < reg->tile_count; i++)
        if (strcmp(reg->tiles[i], name) == 0) return i;
    return -1;
}

void block_registry_destroy(BlockRegistry *reg)
{
    free(reg);
}

/* ---- messages ---- */

/* "<file>: <where>: field '<field>': <message>" as ST_ERR_FORMAT. */
static StResult __attribute__((format(printf, 4, 5)))
block_fail(const ConfigDoc *doc, const char *where, const char *field, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (field)
        return st_fail(ST_ERR_FORMAT, "%s: %s: field '%s': %s", doc->path, where, field, msg);
    return st_fail(ST_ERR_FORMAT, "%s: %s: %s", doc->path, where, msg);
}

/* A JSON value shown in a message: strings quoted, other types by kind. */
static void block_describe(const cJSON *v, char *out, size_t size)
{
    if (!v) snprintf(out, size, "nothing");
    else if (cJSON_IsString(v)) snprintf(out, size, "\"%.60s\"", v->valuestring);
    else if (cJSON_IsNumber(v)) snprintf(out, size, "%g", v->valuedouble);
    else if (cJSON_IsBool(v)) snprintf(out, size, "%s", cJSON_IsTrue(v) ? "true" : "false");
    else if (cJSON_IsNull(v)) snprintf(out, size, "null");
    else if (cJSON_IsArray(v)) snprintf(out, size, "an array");
    else snprintf(out, size, "an object");
}

/* ---- field parsers ---- */

/* A name or tile: printable ASCII without spaces or quotes, 1..BLOCK_NAME_MAX-1 characters. */
static bool block_name_ok(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n >= BLOCK_NAME_MAX) return false;
    for (size_t i = 0; i < n; i++)
        if (s[i] <= ' ' || s[i] > '~' || s[i] == '"' || s[i] == '\'' || s[i] == '\\') return false;
    return true;
}

/* An integer field in min..max; absent leaves *out unchanged unless required. */
static StResult block_get_int(const ConfigDoc *doc, const cJSON *obj, const char *where, const char *key,
                              long min, long max, bool required, long *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v && !required) return ST_OK;
    if (cJSON_IsNumber(v) && v->valuedouble >= (double)min && v->valuedouble <= (double)max &&
        v->valuedouble == (double)(long)v->valuedouble) {
        *out = (long)v->valuedouble;
        return ST_OK;
    }
    char got[80];
    block_describe(v, got, sizeof got);
    return block_fail(doc, where, key, "expected an integer in %ld..%ld, got %s", min, max, got);
}

static StResult block_get_bool(const ConfigDoc *doc, const cJSON *obj, const char *where, const char *key,
                               bool *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v) return ST_OK;
    if (cJSON_IsBool(v)) {
        *out = cJSON_IsTrue(v);
        return ST_OK;
    }
    char got[80];
    block_describe(v, got, sizeof got);
    return block_fail(doc, where, key, "expected true or false, got %s", got);
}

/* Matches a string field against an enum's names; `out` gets the index. */
static StResult block_parse_enum(const ConfigDoc *doc, const cJSON *obj, const char *where, const char *key,
                                 const char *const *names, int count, bool required, int *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v && !required) return ST_OK;
    if (cJSON_IsString(v))
        for (int i = 0; i < count; i++)
            if (strcmp(v->valuestring, names[i]) == 0) { *out = i; return ST_OK; }
    char expected[160] = "", got[80];
    for (int i = 0; i < count; i++) {
        if (i) strcat(expected, "|");
        strcat(expected, names[i]);
    }
    block_describe(v, got, sizeof got);
    return block_fail(doc, where, key, "expected one of %s, got %s", expected, got);
}

static int block_hex_digit(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static StResult block_parse_color(const ConfigDoc *doc, const cJSON *obj, const char *where, uint8_t rgb[3])
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, "map_color");
    if (cJSON_IsString(v) && strlen(v->valuestring) == 7 && v->valuestring[0] == '#') {
        bool ok = true;
        for (int i = 0; i < 3; i++) {
            int hi = block_hex_digit(v->valuestring[1 + 2 * i]), lo = block_hex_digit(v->valuestring[2 + 2 * i]);
            if (hi < 0 || lo < 0) ok = false;
            else rgb[i] = (uint8_t)(hi * 16 + lo);
        }
        if (ok) return ST_OK;
    }
    char got[80];
    block_describe(v, got, sizeof got);
    return block_fail(doc, where, "map_color", "expected a colour \"#rrggbb\", got %s", got);
}

/* Face bits named by a face key, or 0 if the key is not one. */
static uint8_t block_face_key_bits(const char *key)
{
    for (int k = 0; k < BLOCK_FACE_KEY_COUNT; k++)
        if (strcmp(key, BLOCK_FACE_KEYS[k].key) == 0) return BLOCK_FACE_KEYS[k].faces;
    return 0;
}

static StResult block_parse_textures(const ConfigDoc *doc, const BlockRegistry *reg, const cJSON *obj,
                                     const char *where, BlockDef *def)
{
    const cJSON *tex = cJSON_GetObjectItemCaseSensitive(obj, "textures");
    if (!tex && def->shape == BLOCK_SHAPE_NONE) return ST_OK;
    if (!cJSON_IsObject(tex)) {
        char got[80];
        block_describe(tex, got, sizeof got);
        return block_fail(doc, where, "textures", "expected an object with keys %s, got %s", BLOCK_FACE_KEY_LIST, got);
    }
    const cJSON *item;
    cJSON_ArrayForEach(item, tex) {
        if (!block_face_key_bits(item->string))
            return block_fail(doc, where, "textures", "unknown key '%s' (expected one of %s)", item->string,
                              BLOCK_FACE_KEY_LIST);
    }
    /* General keys first, specific ones last, so specific keys override. */
    int tiles[6] = { -1, -1, -1, -1, -1, -1 };
    for (int k = 0; k < BLOCK_FACE_KEY_COUNT; k++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(tex, BLOCK_FACE_KEYS[k].key);
        if (!v) continue;
        char field[48];
        snprintf(field, sizeof field, "textures.%s", BLOCK_FACE_KEYS[k].key);
        if (!cJSON_IsString(v)) {
            char got[80];
            block_describe(v, got, sizeof got);
            return block_fail(doc, where, field, "expected a tile name, got %s", got);
        }
        int tile = block_registry_find_tile(reg, v->valuestring);
        if (tile < 0)
            return block_fail(doc, where, field, "unknown tile \"%.60s\" (not in the file's \"tiles\" list)",
                              v->valuestring);
        for (int f = 0; f < 6; f++)
            if (BLOCK_FACE_KEYS[k].faces & (1u << f)) tiles[f] = tile;
    }
    static const char *const face_names[6] = { "pos_z", "pos_x", "neg_z", "neg_x", "top", "bottom" };
    for (int f = 0; f < 6; f++) {
        if (tiles[f] < 0)
            return block_fail(doc, where, "textures", "no tile for face '%s' (give \"all\", or \"side\", \"top\" "
                              "and \"bottom\", or that face)", face_names[f]);
        def->textures[f] = tiles[f];
    }
    return ST_OK;
}

static StResult block_parse_tint_faces(const ConfigDoc *doc, const cJSON *obj, const char *where, BlockDef *def)
{
    const cJSON *arr = cJSON_GetObjectItemCaseSensitive(obj, "tint_faces");
    def->tint_faces = 0x3F;
    if (!arr) return ST_OK;
    if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) == 0) {
        char got[80];
        block_describe(arr, got, sizeof got);
        return block_fail(doc, where, "tint_faces", "expected a non-empty array of face keys (%s), got %s",
                          BLOCK_FACE_KEY_LIST, got);
    }
    def->tint_faces = 0;
    int i = 0;
    const cJSON *v;
    cJSON_ArrayForEach(v, arr) {
        uint8_t bits = cJSON_IsString(v) ? block_face_key_bits(v->valuestring) : 0;
        if (!bits) {
            char field[32], got[80];
            snprintf(field, sizeof field, "tint_faces[%d]", i);
            block_describe(v, got, sizeof got);
            return block_fail(doc, where, field, "expected one of %s, got %s", BLOCK_FACE_KEY_LIST, got);
        }
        def->tint_faces |= bits;
        i++;
    }
    return ST_OK;
}

/* ---- the file ---- */

static StResult block_parse_tiles(const ConfigDoc *doc, BlockRegistry *reg)
{
    const cJSON *tiles;
    StResult rc = config_get_array(doc, doc->root, "", "tiles", &tiles);
    if (rc != ST_OK) return rc;
    int i = 0;
    const cJSON *v;
    cJSON_ArrayForEach(v, tiles) {
        char where[32];
        snprintf(where, sizeof where, "tiles[%d]", i);
        if (i >= BLOCK_TILE_MAX)
            return st_fail(ST_ERR_FORMAT, "%s: field 'tiles': more than %d tiles (the atlas holds %d)", doc->path,
                           BLOCK_TILE_MAX, BLOCK_TILE_MAX);
        if (!cJSON_IsString(v) || !block_name_ok(v->valuestring)) {
            char got[80];
            block_describe(v, got, sizeof got);
            return st_fail(ST_ERR_FORMAT, "%s: field '%s': expected a tile name of 1..%d characters without "
                           "spaces or quotes, got %s", doc->path, where, BLOCK_NAME_MAX - 1, got);
        }
        int dup = block_registry_find_tile(reg, v->valuestring);
        if (dup >= 0)
            return st_fail(ST_ERR_FORMAT, "%s: field '%s': tile \"%s\" already listed as tiles[%d]", doc->path,
                           where, v->valuestring, dup);
        snprintf(reg->tiles[i], BLOCK_NAME_MAX, "%s", v->valuestring);
        reg->tile_count = ++i;
    }
    return ST_OK;
}

/* Per-block state kept until every block is known: where it came from and what it drops. */
typedef struct BlockPending {
    int index;                       /* position in "blocks" */
    char drop[BLOCK_NAME_MAX];       /* "" = itself */
} BlockPending;

static StResult block_parse_one(const ConfigDoc *doc, BlockRegistry *reg, BlockPending *pending,
                                const cJSON *obj, int index)
{
    char where[96];
    snprintf(where, sizeof where, "blocks[%d]", index);
    if (!cJSON_IsObject(obj)) {
        char got[80];
        block_describe(obj, got, sizeof got);
        return st_fail(ST_ERR_FORMAT, "%s: %s: expected an object, got %s", doc->path, where, got);
    }
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(obj, "name");
    if (!cJSON_IsString(name) || !block_name_ok(name->valuestring)) {
        char got[80];
        block_describe(name, got, sizeof got);
        return block_fail(doc, where, "name", "expected a name of 1..%d characters without spaces or quotes, "
                          "got %s", BLOCK_NAME_MAX - 1, got);
    }
    snprintf(where, sizeof where, "blocks[%d] ('%s')", index, name->valuestring);

    const cJSON *field;
    cJSON_ArrayForEach(field, obj) {
        bool known = false;
        for (size_t k = 0; k < sizeof BLOCK_FIELDS / sizeof BLOCK_FIELDS[0]; k++)
            if (strcmp(field->string, BLOCK_FIELDS[k]) == 0) known = true;
        if (!known)
            return block_fail(doc, where, field->string, "unknown field (expected id, name, layer, shape, emission, "
                              "attenuation, solid, textures, tint, tint_faces, map_color, drop or behaviour)");
    }

    long id = 0;
    StResult rc = block_get_int(doc, obj, where, "id", 0, BLOCK_MAX - 1, true, &id);
    if (rc != ST_OK) return rc;
    if (reg->defs[id].defined)
        return block_fail(doc, where, "id", "id %ld already used by blocks[%d] ('%s')", id, pending[id].index,
                          reg->defs[id].name);
    int other = block_registry_find(reg, name->valuestring);
    if (other >= 0)
        return block_fail(doc, where, "name", "'%s' already used by blocks[%d]", name->valuestring,
                          pending[other].index);
    for (int s = 0; s < BLOCK_FIRST_FREE; s++) {
        if (strcmp(BLOCK_STANDARD_NAMES[s], name->valuestring) == 0 && s != id)
            return block_fail(doc, where, "id", "the standard block '%s' must have id %d, got %ld",
                              name->valuestring, s, id);
    }
    if (id < BLOCK_FIRST_FREE && strcmp(BLOCK_STANDARD_NAMES[id], name->valuestring) != 0)
        return block_fail(doc, where, "id", "id %ld belongs to the standard block '%s' (new blocks take ids "
                          "%d..%d)", id, BLOCK_STANDARD_NAMES[id], BLOCK_FIRST_FREE, BLOCK_MAX - 1);

    BlockDef *def = &reg->defs[id];
    memset(def, 0, sizeof *def);
    snprintf(def->name, sizeof def->name, "%s", name->valuestring);
    def->id = (int)id;
    pending[id].index = index;

    int layer = 0, shape = 0, tint = BLOCK_TINT_NONE;
    if ((rc = block_parse_enum(doc, obj, where, "layer", BLOCK_LAYER_NAMES, 4, true, &layer)) != ST_OK) return rc;
    if ((rc = block_parse_enum(doc, obj, where, "shape", BLOCK_SHAPE_NAMES, BLOCK_SHAPE_COUNT, true, &shape)) != ST_OK) return rc;
    if ((rc = block_parse_enum(doc, obj, where, "tint", BLOCK_TINT_NAMES, 4, false, &tint)) != ST_OK) return rc;
    int behaviour = BLOCK_BEHAVIOUR_NONE;
    if ((rc = block_parse_enum(doc, obj, where, "behaviour", BLOCK_BEHAVIOUR_NAMES, BLOCK_BEHAVIOUR_COUNT, false,
                               &behaviour)) != ST_OK)
        return rc;
    def->layer = (BlockRenderLayer)layer;
    def->shape = (BlockShape)shape;
    def->tint = (BlockTint)tint;
    def->behaviour = (BlockBehaviour)behaviour;
    if ((layer == BLOCK_LAYER_NONE) != (shape == BLOCK_SHAPE_NONE))
        return block_fail(doc, where, "shape", "layer \"%s\" and shape \"%s\" disagree (\"none\" goes with \"none\")",
                          BLOCK_LAYER_NAMES[layer], BLOCK_SHAPE_NAMES[shape]);

    long emission = 0, attenuation = 0;
    bool solid = false;
    if ((rc = block_get_int(doc, obj, where, "emission", 0, 15, false, &emission)) != ST_OK) return rc;
    if ((rc = block_get_int(doc, obj, where, "attenuation", 0, 15, false, &attenuation)) != ST_OK) return rc;
    if ((rc = block_get_bool(doc, obj, where, "solid", &solid)) != ST_OK) return rc;
    def->emission = (int)emission;
    def->attenuation = (int)attenuation;
    def->solid = solid;

    if ((rc = block_parse_textures(doc, reg, obj, where, def)) != ST_OK) return rc;
    if ((rc = block_parse_tint_faces(doc, obj, where, def)) != ST_OK) return rc;
    if ((rc = block_parse_color(doc, obj, where, def->map_color)) != ST_OK) return rc;

    const cJSON *drop = cJSON_GetObjectItemCaseSensitive(obj, "drop");
    if (drop && (!cJSON_IsString(drop) || !block_name_ok(drop->valuestring))) {
        char got[80];
        block_describe(drop, got, sizeof got);
        return block_fail(doc, where, "drop", "expected a block name, got %s", got);
    }
    snprintf(pending[id].drop, BLOCK_NAME_MAX, "%s", drop ? drop->valuestring : "");
    def->drop = (int)id;
    def->defined = true;
    if (id + 1 > reg->count) reg->count = (int)id + 1;
    return ST_OK;
}

/* Drops resolve by name once all blocks are known; then the standard set must be complete. */
static StResult block_finish(const ConfigDoc *doc, BlockRegistry *reg, const BlockPending *pending)
{
    for (int id = 0; id < reg->count; id++) {
        BlockDef *def = &reg->defs[id];
        if (!def->defined || !pending[id].drop[0]) continue;
        int drop = block_registry_find(reg, pending[id].drop);
        if (drop < 0)
            return st_fail(ST_ERR_FORMAT, "%s: blocks[%d] ('%s'): field 'drop': unknown block \"%s\"", doc->path,
                           pending[id].index, def->name, pending[id].drop);
        def->drop = drop;
    }
    for (int s = 0; s < BLOCK_FIRST_FREE; s++)
        if (!reg->defs[s].defined)
            return st_fail(ST_ERR_FORMAT, "%s: field 'blocks': the standard block '%s' (id %d) is missing",
                           doc->path, BLOCK_STANDARD_NAMES[s], s);
    for (int id = 0; id < reg->count; id++) {
        const BlockDef *def = &reg->defs[id];
        if (!def->defined) continue;
        bool opaque_cube = def->layer == BLOCK_LAYER_OPAQUE && def->shape == BLOCK_SHAPE_CUBE;
        reg->opaque_cube[id] = opaque_cube;
        reg->transparent_to_sun[id] = !opaque_cube;
        reg->attenuation[id] = (uint8_t)def->attenuation;
        reg->emission[id] = (uint8_t)def->emission;
        reg->solid[id] = def->solid;
        reg->layer[id] = (uint8_t)def->layer;
        reg->shape[id] = (uint8_t)def->shape;
        reg->behaviour[id] = (uint8_t)def->behaviour;
    }
    return ST_OK;
}

static StResult block_parse_doc(const ConfigDoc *doc, BlockRegistry *reg, BlockPending *pending)
{
    if (!cJSON_IsObject(doc->root))
        return st_fail(ST_ERR_FORMAT, "%s: expected an object with \"tiles\" and \"blocks\" at the top", doc->path);
    StResult rc = block_parse_tiles(doc, reg);
    if (rc != ST_OK) return rc;
    const cJSON *blocks;
    if ((rc = config_get_array(doc, doc->root, "", "blocks", &blocks)) != ST_OK) return rc;
    int index = 0;
    const cJSON *obj;
    cJSON_ArrayForEach(obj, blocks) {
        if ((rc = block_parse_one(doc, reg, pending, obj, index)) != ST_OK) return rc;
        index++;
    }
    return block_finish(doc, reg, pending);
}

StResult block_registry_load(const char *path, BlockRegistry **out)
{
    *out = NULL;
    BlockRegistry *reg = calloc(1, sizeof *reg);
    BlockPending *pending = calloc(BLOCK_MAX, sizeof *pending);
    if (!reg || !pending) {
        free(reg);
        free(pending);
        return st_fail(ST_ERR_NOMEM, "%s: out of memory for the block registry", path);
    }
    ConfigDoc doc;
    StResult rc = config_load(path, &doc);
    if (rc == ST_OK) {
        rc = block_parse_doc(&doc, reg, pending);
        config_free(&doc);
    }
    free(pending);
    if (rc != ST_OK) {
        free(reg);
        return rc;
    }
    *out = reg;
    return ST_OK;
}
