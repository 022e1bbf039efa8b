/* test_block.c — the block registry: the shipped blocks.json, the flat tables, and broken variants of it
 * that must fail with the right code and a message naming the file, the block and the field. */
#include <stdlib.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <stb_image_write.h>

#include "check.h"
#include "strata/block.h"
#include "strata/fileio.h"

#define BLOCKS_JSON "assets/blocks.json"

static char temp_path[256];

static void test_standard_set(void)
{
    BlockRegistry *reg = NULL;
    StResult rc = block_registry_load(BLOCKS_JSON, &reg);
    CHECK_EQ_INT(rc, ST_OK);
    if (rc != ST_OK) {
        fprintf(stderr, "%s\n", st_error_message());
        return;
    }
    CHECK_EQ_INT(reg->count, BLOCK_FIRST_FREE);
    int bad = 0;
    for (int id = 0; id < BLOCK_FIRST_FREE; id++) {
        const BlockDef *d = &reg->defs[id];
        if (!d->defined || d->id != id || strcmp(d->name, block_standard_name(id)) != 0 ||
            block_registry_find(reg, block_standard_name(id)) != id) {
            fprintf(stderr, "standard block %d ('%s') wrong\n", id, block_standard_name(id));
            bad++;
        }
        for (int f = 0; f < 6 && d->shape != BLOCK_SHAPE_NONE; f++)
            if (d->textures[f] < 0 || d->textures[f] >= reg->tile_count) bad++;
    }
    CHECK_EQ_INT(bad, 0);
    CHECK(!block_is_defined(reg, BLOCK_FIRST_FREE));
    CHECK(!block_is_defined(reg, -1));
    CHECK(!block_is_defined(reg, BLOCK_MAX));
    CHECK(block_standard_name(BLOCK_FIRST_FREE) == NULL);
    CHECK_EQ_INT(block_registry_find(reg, "unobtainium"), -1);
    CHECK_EQ_INT(block_registry_find_tile(reg, "stone"), 0);
    CHECK_EQ_INT(block_registry_find_tile(reg, "nope"), -1);

    /* flat tables */
    CHECK_EQ_INT(reg->attenuation[BLOCK_WATER], 2);
    CHECK_EQ_INT(reg->attenuation[BLOCK_ICE], 2);
    CHECK_EQ_INT(reg->attenuation[BLOCK_OAK_LEAVES], 3);
    CHECK_EQ_INT(reg->attenuation[BLOCK_STONE], 15);
    CHECK_EQ_INT(reg->attenuation[BLOCK_GLASS], 0);
    CHECK_EQ_INT(reg->attenuation[BLOCK_AIR], 0);
    CHECK_EQ_INT(reg->emission[BLOCK_TORCH], 15);
    CHECK_EQ_INT(reg->emission[BLOCK_MAGMA], 13);
    CHECK_EQ_INT(reg->emission[BLOCK_JACK_O_LANTERN], 8);
    CHECK_EQ_INT(reg->emission[BLOCK_STONE], 0);
    CHECK_EQ_INT(reg->opaque_cube[BLOCK_STONE], 1);
    CHECK_EQ_INT(reg->opaque_cube[BLOCK_GRASS], 1);
    CHECK_EQ_INT(reg->opaque_cube[BLOCK_WATER], 0);
    CHECK_EQ_INT(reg->opaque_cube[BLOCK_MAGMA], 0);   /* opaque layer, fluid shape */
    CHECK_EQ_INT(reg->opaque_cube[BLOCK_OAK_LEAVES], 0);
    CHECK_EQ_INT(reg->opaque_cube[BLOCK_AIR], 0);
    CHECK_EQ_INT(reg->transparent_to_sun[BLOCK_AIR], 1);
    CHECK_EQ_INT(reg->transparent_to_sun[BLOCK_GLASS], 1);
    CHECK_EQ_INT(reg->transparent_to_sun[BLOCK_TALL_GRASS], 1);
    CHECK_EQ_INT(reg->transparent_to_sun[BLOCK_DIRT], 0);
    CHECK_EQ_INT(reg->solid[BLOCK_STONE], 1);
    CHECK_EQ_INT(reg->solid[BLOCK_ICE], 1);
    CHECK_EQ_INT(reg->solid[BLOCK_WATER], 0);
    CHECK_EQ_INT(reg->solid[BLOCK_TORCH], 0);
    CHECK_EQ_INT(reg->solid[BLOCK_AIR], 0);
    CHECK_EQ_INT(reg->layer[BLOCK_AIR], BLOCK_LAYER_NONE);
    CHECK_EQ_INT(reg->layer[BLOCK_BIRCH_LEAVES], BLOCK_LAYER_ALPHA_TESTED);
    CHECK_EQ_INT(reg->layer[BLOCK_WATER], BLOCK_LAYER_TRANSPARENT);
    CHECK_EQ_INT(reg->shape[BLOCK_WATER], BLOCK_SHAPE_FLUID);
    CHECK_EQ_INT(reg->shape[BLOCK_RED_FLOWER], BLOCK_SHAPE_CROSS);
    CHECK_EQ_INT(reg->shape[BLOCK_TORCH], BLOCK_SHAPE_TORCH);
    CHECK_EQ_INT(reg->shape[BLOCK_AIR], BLOCK_SHAPE_NONE);
    CHECK_EQ_INT(reg->shape[BLOCK_FIRST_FREE], 0);

    /* faces, tints, drops, colours */
    const BlockDef *grass = &reg->defs[BLOCK_GRASS];
    CHECK_EQ_INT(grass->textures[BLOCK_FACE_POS_Y], block_registry_find_tile(reg, "grass_top"));
    CHECK_EQ_INT(grass->textures[BLOCK_FACE_NEG_Y], block_registry_find_tile(reg, "dirt"));
    for (int f = 0; f < 4; f++) CHECK_EQ_INT(grass->textures[f], block_registry_find_tile(reg, "grass_side"));
    CHECK_EQ_INT(grass->tint, BLOCK_TINT_GRASS);
    CHECK(block_face_tinted(grass, BLOCK_FACE_POS_Y));
    CHECK(!block_face_tinted(grass, BLOCK_FACE_POS_X));
    CHECK(block_face_tinted(&reg->defs[BLOCK_OAK_LEAVES], BLOCK_FACE_NEG_Z));
    CHECK(!block_face_tinted(&reg->defs[BLOCK_STONE], BLOCK_FACE_POS_Y));
    CHECK_EQ_INT(reg->defs[BLOCK_WATER].tint, BLOCK_TINT_WATER);
    CHECK_EQ_INT(reg->defs[BLOCK_TALL_GRASS].tint, BLOCK_TINT_GRASS);
    const BlockDef *jack = &reg->defs[BLOCK_JACK_O_LANTERN];
    CHECK_EQ_INT(jack->textures[BLOCK_FACE_POS_Z], block_registry_find_tile(reg, "jack_o_lantern_face"));
    CHECK_EQ_INT(jack->textures[BLOCK_FACE_NEG_Z], block_registry_find_tile(reg, "pumpkin_side"));
    CHECK_EQ_INT(jack->textures[BLOCK_FACE_POS_Y], block_registry_find_tile(reg, "pumpkin_top"));
    CHECK_EQ_INT(reg->defs[BLOCK_STONE].drop, BLOCK_COBBLESTONE);
    CHECK_EQ_INT(reg->defs[BLOCK_GRASS].drop, BLOCK_DIRT);
    CHECK_EQ_INT(reg->defs[BLOCK_DIRT].drop, BLOCK_DIRT);
    CHECK_EQ_INT(reg->defs[BLOCK_GLASS].drop, BLOCK_AIR);
    CHECK_EQ_INT(reg->defs[BLOCK_STONE].map_color[0], 0x80);
    CHECK_EQ_INT(reg->defs[BLOCK_WATER].map_color[2], 0xc4);

    /* snow_layer: thin snow cover, a 2/16 slab textured "snow"; drawn in the opaque pass but not an opaque
     * cube (neighbours keep their faces), lets sunlight through unweakened, walked through, drops itself */
    const BlockDef *layer = &reg->defs[BLOCK_SNOW_LAYER];
    CHECK_EQ_INT(BLOCK_SNOW_LAYER, BLOCK_DRY_BUSH + 1);
    CHECK_EQ_INT(block_registry_find(reg, "snow_layer"), BLOCK_SNOW_LAYER);
    CHECK_EQ_INT(layer->layer, BLOCK_LAYER_OPAQUE);
    CHECK_EQ_INT(layer->shape, BLOCK_SHAPE_LAYER);
    CHECK_EQ_INT(reg->shape[BLOCK_SNOW_LAYER], BLOCK_SHAPE_LAYER);
    CHECK_EQ_INT(reg->opaque_cube[BLOCK_SNOW_LAYER], 0);
    CHECK_EQ_INT(reg->transparent_to_sun[BLOCK_SNOW_LAYER], 1);
    CHECK_EQ_INT(reg->attenuation[BLOCK_SNOW_LAYER], 0);
    CHECK_EQ_INT(reg->emission[BLOCK_SNOW_LAYER], 0);
    CHECK_EQ_INT(reg->solid[BLOCK_SNOW_LAYER], 0);
    CHECK_EQ_INT(layer->drop, BLOCK_SNOW_LAYER);
    CHECK_EQ_INT(layer->tint, BLOCK_TINT_NONE);
    for (int f = 0; f < 6; f++) CHECK_EQ_INT(layer->textures[f], block_registry_find_tile(reg, "snow"));
    CHECK(layer->map_color[0] >= 0xf0 && layer->map_color[1] >= 0xf0 && layer->map_color[2] >= 0xf0);
    /* the full snow block stays, for deep snow and building */
    CHECK_EQ_INT(reg->opaque_cube[BLOCK_SNOW], 1);
    CHECK_EQ_INT(reg->solid[BLOCK_SNOW], 1);
    block_registry_destroy(reg);
    block_registry_destroy(NULL);
}

/* ---- broken variants: the shipped file, changed by `mutate`, written to a temp file ---- */

static cJSON *load_shipped(void)
{
    char *text = NULL;
    size_t size = 0;
    if (fileio_read_all(BLOCKS_JSON, &text, &size) != ST_OK) return NULL;
    cJSON *root = cJSON_Parse(text);
    free(text);
    return root;
}

static cJSON *block_at(cJSON *root, int index)
{
    return cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(root, "blocks"), index);
}

static void set_field(cJSON *obj, const char *key, cJSON *value)
{
    if (cJSON_GetObjectItemCaseSensitive(obj, key)) cJSON_ReplaceItemInObjectCaseSensitive(obj, key, value);
    else cJSON_AddItemToObject(obj, key, value);
}

/* Writes root to the temp file, frees it, loads; returns the result and leaves the message. */
static StResult load_variant(cJSON *root)
{
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    FILE *f = fopen(temp_path, "w");
    fputs(text, f);
    fclose(f);
    cJSON_free(text);
    BlockRegistry *reg = NULL;
    StResult rc = block_registry_load(temp_path, &reg);
    if (rc == ST_OK) {
        CHECK(reg != NULL);
        block_registry_destroy(reg);
    } else {
        CHECK(reg == NULL);
    }
    return rc;
}

/* Expects ST_ERR_FORMAT and a message holding the file, the block, the field and `detail`. */
static void expect_fail(cJSON *root, const char *block, const char *field, const char *detail)
{
    StResult rc = load_variant(root);
    CHECK_EQ_INT(rc, ST_ERR_FORMAT);
    const char *msg = st_error_message();
    fprintf(stderr, "   %s\n", msg);
    CHECK_STR_CONTAINS(msg, temp_path);
    if (block) CHECK_STR_CONTAINS(msg, block);
    if (field) CHECK_STR_CONTAINS(msg, field);
    if (detail) CHECK_STR_CONTAINS(msg, detail);
}

static void test_bad_layer_exact_message(void)
{
    cJSON *root = load_shipped();
    set_field(block_at(root, 8), "layer", cJSON_CreateString("glowy"));
    CHECK_EQ_INT(load_variant(root), ST_ERR_FORMAT);
    char want[512];
    snprintf(want, sizeof want, "%s: blocks[8] ('grass'): field 'layer': expected one of "
             "opaque|alpha_tested|transparent|none, got \"glowy\"", temp_path);
    CHECK(strcmp(st_error_message(), want) == 0);
    if (strcmp(st_error_message(), want) != 0) fprintf(stderr, "got:  %s\nwant: %s\n", st_error_message(), want);
}

static void test_broken_variants(void)
{
    cJSON *root;

    root = load_shipped(); /* wrong type */
    set_field(block_at(root, 2), "attenuation", cJSON_CreateString("high"));
    expect_fail(root, "blocks[2] ('stone')", "field 'attenuation'", "\"high\"");

    root = load_shipped(); /* out of range */
    set_field(block_at(root, 42), "emission", cJSON_CreateNumber(16));
    expect_fail(root, "blocks[42] ('torch')", "field 'emission'", "0..15");

    root = load_shipped(); /* fractional */
    set_field(block_at(root, 42), "emission", cJSON_CreateNumber(2.5));
    expect_fail(root, "blocks[42] ('torch')", "field 'emission'", "integer");

    root = load_shipped();
    set_field(block_at(root, 3), "solid", cJSON_CreateNumber(1));
    expect_fail(root, "blocks[3] ('granite')", "field 'solid'", "true or false");

    root = load_shipped();
    set_field(block_at(root, 4), "shape", cJSON_CreateString("sphere"));
    expect_fail(root, "blocks[4] ('basalt')", "field 'shape'", "cube|cross|torch|fluid|layer|none");

    root = load_shipped();
    set_field(block_at(root, 12), "tint", cJSON_CreateString("blue"));
    expect_fail(root, "blocks[12] ('water')", "field 'tint'", "none|grass|foliage|water");

    root = load_shipped(); /* duplicate id */
    cJSON *mud = cJSON_Duplicate(block_at(root, 7), 1);
    set_field(mud, "name", cJSON_CreateString("mud"));
    set_field(mud, "id", cJSON_CreateNumber(100));
    cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(root, "blocks"), mud);
    mud = cJSON_Duplicate(mud, 1);
    set_field(mud, "name", cJSON_CreateString("wet_mud"));
    cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(root, "blocks"), mud);
    expect_fail(root, "blocks[48] ('wet_mud')", "field 'id'", "already used by blocks[47] ('mud')");

    root = load_shipped(); /* duplicate name */
    mud = cJSON_Duplicate(block_at(root, 7), 1);
    set_field(mud, "id", cJSON_CreateNumber(100));
    cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(root, "blocks"), mud);
    expect_fail(root, "blocks[47] ('dirt')", "field 'name'", "already used by blocks[7]");

    root = load_shipped(); /* id out of range */
    set_field(block_at(root, 45), "id", cJSON_CreateNumber(1024));
    set_field(block_at(root, 45), "name", cJSON_CreateString("bush2"));
    expect_fail(root, "blocks[45] ('bush2')", "field 'id'", "0..1023");

    root = load_shipped(); /* name too long */
    set_field(block_at(root, 45), "name", cJSON_CreateString("a_name_that_is_far_too_long_for_it"));
    expect_fail(root, "blocks[45]", "field 'name'", "1..31 characters");

    root = load_shipped(); /* unknown tile */
    cJSON *tex = cJSON_GetObjectItemCaseSensitive(block_at(root, 9), "textures");
    set_field(tex, "all", cJSON_CreateString("sandy"));
    expect_fail(root, "blocks[9] ('sand')", "field 'textures.all'", "unknown tile \"sandy\"");

    root = load_shipped(); /* a face without a tile */
    tex = cJSON_GetObjectItemCaseSensitive(block_at(root, 8), "textures");
    cJSON_DeleteItemFromObjectCaseSensitive(tex, "bottom");
    expect_fail(root, "blocks[8] ('grass')", "field 'textures'", "'bottom'");

    root = load_shipped(); /* unknown texture key */
    tex = cJSON_GetObjectItemCaseSensitive(block_at(root, 9), "textures");
    set_field(tex, "front", cJSON_CreateString("sand"));
    expect_fail(root, "blocks[9] ('sand')", "field 'textures'", "unknown key 'front'");

    root = load_shipped(); /* typo'd field name */
    set_field(block_at(root, 2), "attentuation", cJSON_CreateNumber(3));
    expect_fail(root, "blocks[2] ('stone')", "field 'attentuation'", "unknown field");

    root = load_shipped(); /* missing standard block */
    cJSON_DeleteItemFromArray(cJSON_GetObjectItemCaseSensitive(root, "blocks"), 42);
    expect_fail(root, NULL, "field 'blocks'", "standard block 'torch' (id 42) is missing");

    root = load_shipped(); /* standard name at another id */
    set_field(block_at(root, 42), "id", cJSON_CreateNumber(200));
    expect_fail(root, "blocks[42] ('torch')", "field 'id'", "must have id 42, got 200");

    root = load_shipped(); /* standard id under another name */
    set_field(block_at(root, 42), "name", cJSON_CreateString("lamp"));
    expect_fail(root, "blocks[42] ('lamp')", "field 'id'", "standard block 'torch'");

    root = load_shipped(); /* missing required field */
    cJSON_DeleteItemFromObjectCaseSensitive(block_at(root, 10), "layer");
    expect_fail(root, "blocks[10] ('gravel')", "field 'layer'", "got nothing");

    root = load_shipped();
    set_field(block_at(root, 11), "map_color", cJSON_CreateString("#12345g"));
    expect_fail(root, "blocks[11] ('clay')", "field 'map_color'", "#rrggbb");

    root = load_shipped();
    set_field(block_at(root, 2), "drop", cJSON_CreateString("rubble"));
    expect_fail(root, "blocks[2] ('stone')", "field 'drop'", "unknown block \"rubble\"");

    root = load_shipped();
    set_field(block_at(root, 2), "layer", cJSON_CreateString("none"));
    expect_fail(root, "blocks[2] ('stone')", "field 'shape'", "disagree");

    root = load_shipped();
    set_field(block_at(root, 8), "tint_faces", cJSON_CreateString("top"));
    expect_fail(root, "blocks[8] ('grass')", "field 'tint_faces'", "array");

    root = load_shipped(); /* not an object */
    cJSON_ReplaceItemInArray(cJSON_GetObjectItemCaseSensitive(root, "blocks"), 5, cJSON_CreateNumber(5));
    expect_fail(root, "blocks[5]", NULL, "expected an object");

    root = load_shipped(); /* duplicate tile */
    cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(root, "tiles"), cJSON_CreateString("dirt"));
    expect_fail(root, NULL, "field 'tiles[54]'", "already listed as tiles[7]");

    root = load_shipped(); /* wrong type of a top-level field */
    set_field(root, "tiles", cJSON_CreateString("stone"));
    expect_fail(root, NULL, "'tiles'", "an array");
}

static void test_modder_block(void)
{
    cJSON *root = load_shipped();
    cJSON *lamp = cJSON_Parse("{\"id\": 300, \"name\": \"lamp\", \"layer\": \"opaque\", \"shape\": \"cube\","
                              "\"emission\": 12, \"attenuation\": 15, \"solid\": true,"
                              "\"textures\": {\"all\": \"glass\", \"top\": \"planks\", \"neg_x\": \"bricks\"},"
                              "\"map_color\": \"#FFee00\", \"drop\": \"glass\"}");
    cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(root, "blocks"), lamp);
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    FILE *f = fopen(temp_path, "w");
    fputs(text, f);
    fclose(f);
    cJSON_free(text);
    BlockRegistry *reg = NULL;
    CHECK_EQ_INT(block_registry_load(temp_path, &reg), ST_OK);
    if (!reg) return;
    CHECK_EQ_INT(reg->count, 301);
    CHECK_EQ_INT(block_registry_find(reg, "lamp"), 300);
    CHECK(!block_is_defined(reg, 299));
    CHECK_EQ_INT(reg->emission[300], 12);
    CHECK_EQ_INT(reg->opaque_cube[300], 1);
    CHECK_EQ_INT(reg->defs[300].drop, BLOCK_GLASS);
    CHECK_EQ_INT(reg->defs[300].textures[BLOCK_FACE_POS_Y], block_registry_find_tile(reg, "planks"));
    CHECK_EQ_INT(reg->defs[300].textures[BLOCK_FACE_NEG_X], block_registry_find_tile(reg, "bricks"));
    CHECK_EQ_INT(reg->defs[300].textures[BLOCK_FACE_POS_X], block_registry_find_tile(reg, "glass"));
    CHECK_EQ_INT(reg->defs[300].map_color[0], 0xff);
    CHECK_EQ_INT(reg->defs[300].map_color[1], 0xee);
    CHECK_EQ_INT(reg->defs[300].map_color[2], 0x00);
    block_registry_destroy(reg);
}

static void test_syntax_and_io(void)
{
    FILE *f = fopen(temp_path, "w");
    fputs("{\"tiles\": [\"stone\"],\n \"blocks\": [ {\"id\": 0,, } ]}\n", f);
    fclose(f);
    BlockRegistry *reg = (BlockRegistry *)&reg; /* must be reset to NULL on failure */
    CHECK_EQ_INT(block_registry_load(temp_path, &reg), ST_ERR_FORMAT);
    CHECK(reg == NULL);
    CHECK_STR_CONTAINS(st_error_message(), temp_path);
    CHECK_STR_CONTAINS(st_error_message(), "line 2");

    CHECK_EQ_INT(block_registry_load("/nonexistent/blocks.json", &reg), ST_ERR_IO);
    CHECK_STR_CONTAINS(st_error_message(), "/nonexistent/blocks.json");
}

/* block_registry_fit_tiles. An atlas of 32-texel tiles (a 512 x 512 PNG) where tall grass's tile draws texels in columns 5..20 and
 * rows 9..31 and the red flower's tile only one texel of alpha 127 (below the cut): the grass's margin is
 * in whole sixteenths, rounded outwards; the flower's, with nothing drawn, stays 0; other tiles stay 0. */
static void test_fit_tiles(void)
{
    BlockRegistry *reg = NULL;
    CHECK_EQ_INT(block_registry_load(BLOCKS_JSON, &reg), ST_OK);
    if (!reg) return;
    const int size = 32, width = 16 * size;
    unsigned char *image = calloc((size_t)width * width, 4);
    int grass = reg->defs[BLOCK_TALL_GRASS].textures[0], flower = reg->defs[BLOCK_RED_FLOWER].textures[0];
    for (int y = 9; y <= 31; y++)
        for (int x = 5; x <= 20; x++) {
            unsigned char *px = image + (((size_t)(grass / 16 * size + y) * width) + (size_t)(grass % 16 * size + x)) * 4;
            px[1] = 200;
            px[3] = (x == 5 || y == 9) ? 128 : 255;  /* the box's edge texels just make the cut */
        }
    image[(((size_t)(flower / 16 * size + 3) * width) + (size_t)(flower % 16 * size + 3)) * 4 + 3] = 127;
    char png[300];
    snprintf(png, sizeof png, "%s.png", temp_path);
    CHECK(stbi_write_png(png, width, width, 4, image, width * 4) != 0);
    free(image);
    CHECK_EQ_INT(block_registry_fit_tiles(reg, png), ST_OK);
    const BlockTileMargin *m = &reg->tile_margin[grass];
    /* columns 5..20 of 32 are sixteenths 2.5..10.5: the box is 2..11, margins 2 and 5; rows 9..31: 4..16 */
    CHECK_EQ_INT(m->left, 2);
    CHECK_EQ_INT(m->right, 5);
    CHECK_EQ_INT(m->top, 4);
    CHECK_EQ_INT(m->bottom, 0);
    m = &reg->tile_margin[flower];
    CHECK_EQ_INT(m->left + m->right + m->top + m->bottom, 0);
    int stone = reg->defs[BLOCK_STONE].textures[0];
    CHECK_EQ_INT(reg->tile_margin[stone].left + reg->tile_margin[stone].top, 0);
    CHECK_EQ_INT(reg->far_opaque[BLOCK_ICE], 0);   /* its tile is empty here */
    unlink(png);

    /* the shipped atlas: ice is mostly opaque, glass mostly clear; water is no cube */
    CHECK_EQ_INT(block_registry_fit_tiles(reg, "assets/textures/atlas.png"), ST_OK);
    CHECK_EQ_INT(reg->far_opaque[BLOCK_ICE], 1);
    CHECK_EQ_INT(reg->far_opaque[BLOCK_GLASS], 0);
    CHECK_EQ_INT(reg->far_opaque[BLOCK_WATER], 0);
    CHECK_EQ_INT(reg->far_opaque[BLOCK_STONE], 0);

    /* a missing or malformed atlas: an error naming the file, the registry as it was */
    CHECK_EQ_INT(block_registry_fit_tiles(reg, "/nonexistent/atlas.png"), ST_ERR_IO);
    CHECK_STR_CONTAINS(st_error_message(), "/nonexistent/atlas.png");
    image = calloc(16 * 8 * 4, 1);
    CHECK(stbi_write_png(png, 16, 8, 4, image, 16 * 4) != 0);
    free(image);
    CHECK_EQ_INT(block_registry_fit_tiles(reg, png), ST_ERR_FORMAT);
    CHECK_STR_CONTAINS(st_error_message(), "16x8");
    CHECK_EQ_INT(reg->far_opaque[BLOCK_ICE], 1);
    unlink(png);
    block_registry_destroy(reg);
}

int main(void)
{
    snprintf(temp_path, sizeof temp_path, "/tmp/strata_test_block_%d.json", (int)getpid());
    RUN(test_standard_set);
    RUN(test_bad_layer_exact_message);
    RUN(test_broken_variants);
    RUN(test_modder_block);
    RUN(test_syntax_and_io);
    RUN(test_fit_tiles);
    unlink(temp_path);
    return check_report();
}
