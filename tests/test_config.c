/* test_config.c — every getter: ok, missing, wrong type, out of range, and the exact message forms
 * "<file>: field '<where>.<key>': expected <what>, got <json>" / "<file>: missing field ...". */
#define _GNU_SOURCE
#include "check.h"
#include "strata/config.h"
#include "strata/fileio.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

static const char *const TEXT =
    "{\n"
    "  \"name\": \"temperate\",\n"
    "  \"sea_level\": 64,\n"
    "  \"scale\": 0.25,\n"
    "  \"big\": 1e300,\n"
    "  \"flag\": true,\n"
    "  \"nothing\": null,\n"
    "  \"ores\": [ {\"count_base\": 5}, {\"count_base\": 6}, {\"count_base\": \"x\"} ],\n"
    "  \"biome\": { \"size\": 1.5, \"tag\": \"abcdefghij\" }\n"
    "}\n";

static ConfigDoc doc;

static void test_parse_ok(void)
{
    CHECK_EQ_INT(config_parse("assets/worldgen.json", TEXT, &doc), ST_OK);
    CHECK(doc.root != NULL);
    CHECK(strcmp(doc.path, "assets/worldgen.json") == 0);
}

static void test_number(void)
{
    double v = -1;
    CHECK_EQ_INT(config_get_number(&doc, doc.root, "", "scale", 0, 1, &v), ST_OK);
    CHECK_NEAR(v, 0.25, 0);
    CHECK_EQ_INT(config_get_number(&doc, doc.root, "", "scale", 0.5, 1, &v), ST_ERR_FORMAT);
    CHECK(strcmp(st_error_message(), "assets/worldgen.json: field 'scale': expected a number in 0.5..1, got 0.25") == 0);
    CHECK_NEAR(v, 0.25, 0); /* unchanged on failure */
    CHECK_EQ_INT(config_get_number(&doc, doc.root, "", "missing", 0, 1, &v), ST_ERR_FORMAT);
    CHECK(strcmp(st_error_message(), "assets/worldgen.json: missing field 'missing' (expected a number in 0..1)") == 0);
    CHECK_EQ_INT(config_get_number(&doc, doc.root, "", "name", 0, 1, &v), ST_ERR_FORMAT);
    CHECK(strcmp(st_error_message(),
                 "assets/worldgen.json: field 'name': expected a number in 0..1, got \"temperate\"") == 0);
    CHECK_EQ_INT(config_get_number(&doc, doc.root, "", "nothing", 0, 1, &v), ST_ERR_FORMAT);
    CHECK_STR_CONTAINS(st_error_message(), "got null");
    CHECK_EQ_INT(config_get_number(&doc, doc.root, "", "big", -1e308, 1e308, &v), ST_OK);
    CHECK(v == 1e300);

    /* optional: missing leaves *out unchanged, present is validated the same way */
    v = 7;
    CHECK_EQ_INT(config_get_number_opt(&doc, doc.root, "", "missing", 0, 1, &v), ST_OK);
    CHECK(v == 7);
    CHECK_EQ_INT(config_get_number_opt(&doc, doc.root, "", "sea_level", 0, 256, &v), ST_OK);
    CHECK(v == 64);
    CHECK_EQ_INT(config_get_number_opt(&doc, doc.root, "", "sea_level", 0, 10, &v), ST_ERR_FORMAT);
    CHECK_STR_CONTAINS(st_error_message(), "field 'sea_level': expected a number in 0..10, got 64");
    CHECK_EQ_INT(config_get_number_opt(&doc, doc.root, "", "flag", 0, 10, &v), ST_ERR_FORMAT);
    CHECK_STR_CONTAINS(st_error_message(), "got true");
}

static void test_int(void)
{
    long v = -1;
    CHECK_EQ_INT(config_get_int(&doc, doc.root, "", "sea_level", 0, 255, &v), ST_OK);
    CHECK_EQ_INT(v, 64);
    CHECK_EQ_INT(config_get_int(&doc, doc.root, "", "sea_level", 0, 63, &v), ST_ERR_FORMAT);
    CHECK(strcmp(st_error_message(),
                 "assets/worldgen.json: field 'sea_level': expected an integer in 0..63, got 64") == 0);
    CHECK_EQ_INT(config_get_int(&doc, doc.root, "", "scale", 0, 10, &v), ST_ERR_FORMAT);
    CHECK_STR_CONTAINS(st_error_message(), "field 'scale': expected an integer in 0..10, got 0.25");
    CHECK_EQ_INT(config_get_int(&doc, doc.root, "", "big", -2147483647L - 1, 2147483647L, &v), ST_ERR_FORMAT);
    CHECK_EQ_INT(config_get_int(&doc, doc.root, "", "big", -9223372036854775807L - 1, 9223372036854775807L, &v),
                 ST_ERR_FORMAT);
    CHECK_EQ_INT(config_get_int(&doc, doc.root, "", "absent", 0, 5, &v), ST_ERR_FORMAT);
    CHECK(strcmp(st_error_message(), "assets/worldgen.json: missing field 'absent' (expected an integer in 0..5)") == 0);
    CHECK_EQ_INT(config_get_int(&doc, doc.root, "", "ores", 0, 5, &v), ST_ERR_FORMAT);
    CHECK_STR_CONTAINS(st_error_message(), "field 'ores': expected an integer in 0..5, got [{");
    CHECK_EQ_INT(v, 64);

    v = 3;
    CHECK_EQ_INT(config_get_int_opt(&doc, doc.root, "", "absent", 0, 5, &v), ST_OK);
    CHECK_EQ_INT(v, 3);
    CHECK_EQ_INT(config_get_int_opt(&doc, doc.root, "", "sea_level", 60, 70, &v), ST_OK);
    CHECK_EQ_INT(v, 64);
    CHECK_EQ_INT(config_get_int_opt(&doc, doc.root, "", "sea_level", 65, 70, &v), ST_ERR_FORMAT);
    CHECK_EQ_INT(config_get_int_opt(&doc, doc.root, "", "name", 65, 70, &v), ST_ERR_FORMAT);
    CHECK_STR_CONTAINS(st_error_message(), "got \"temperate\"");
}

static void test_bool(void)
{
    bool b = false;
    CHECK_EQ_INT(config_get_bool_opt(&doc, doc.root, "", "flag", &b), ST_OK);
    CHECK(b == true);
    b = false;
    CHECK_EQ_INT(config_get_bool_opt(&doc, doc.root, "", "absent", &b), ST_OK);
    CHECK(b == false);
    CHECK_EQ_INT(config_get_bool_opt(&doc, doc.root, "", "sea_level", &b), ST_ERR_FORMAT);
    CHECK(strcmp(st_error_message(), "assets/worldgen.json: field 'sea_level': expected true or false, got 64") == 0);
}

static void test_string(void)
{
    char s[16] = "";
    CHECK_EQ_INT(config_get_string(&doc, doc.root, "", "name", s, sizeof s), ST_OK);
    CHECK(strcmp(s, "temperate") == 0);
    char small[9] = "keep";
    CHECK_EQ_INT(config_get_string(&doc, doc.root, "", "name", small, sizeof small), ST_ERR_FORMAT);
    CHECK(strcmp(st_error_message(),
                 "assets/worldgen.json: field 'name': expected a string of at most 8 bytes, got \"temperate\"") == 0);
    CHECK(strcmp(small, "keep") == 0);
    char exact[10];
    CHECK_EQ_INT(config_get_string(&doc, doc.root, "", "name", exact, sizeof exact), ST_OK);
    CHECK(strcmp(exact, "temperate") == 0);
    CHECK_EQ_INT(config_get_string(&doc, doc.root, "", "absent", s, sizeof s), ST_ERR_FORMAT);
    CHECK(strcmp(st_error_message(), "assets/worldgen.json: missing field 'absent' (expected a string of at most 15 bytes)") == 0);
    CHECK_EQ_INT(config_get_string(&doc, doc.root, "", "scale", s, sizeof s), ST_ERR_FORMAT);
    CHECK_STR_CONTAINS(st_error_message(), "field 'scale': expected a string of at most 15 bytes, got 0.25");

    strcpy(s, "default");
    CHECK_EQ_INT(config_get_string_opt(&doc, doc.root, "", "absent", s, sizeof s), ST_OK);
    CHECK(strcmp(s, "default") == 0);
    CHECK_EQ_INT(config_get_string_opt(&doc, doc.root, "", "flag", s, sizeof s), ST_ERR_FORMAT);
    CHECK_STR_CONTAINS(st_error_message(), "field 'flag': expected a string");
    CHECK_EQ_INT(config_get_string_opt(&doc, doc.root, "", "name", s, 4), ST_ERR_FORMAT);
    CHECK(strcmp(s, "default") == 0);
}

static void test_containers_and_paths(void)
{
    const cJSON *ores = NULL, *biome = NULL, *tmp = NULL;
    CHECK_EQ_INT(config_get_array(&doc, doc.root, "", "ores", &ores), ST_OK);
    CHECK_EQ_INT(cJSON_GetArraySize(ores), 3);
    CHECK_EQ_INT(config_get_array(&doc, doc.root, "", "biome", &tmp), ST_ERR_FORMAT);
    CHECK(strcmp(st_error_message(), "assets/worldgen.json: field 'biome': expected an array, got {\"size\":1.5,\"tag\":\"abcdefghij\"}") == 0);
    CHECK_EQ_INT(config_get_array(&doc, doc.root, "", "absent", &tmp), ST_ERR_FORMAT);
    CHECK(strcmp(st_error_message(), "assets/worldgen.json: missing field 'absent' (expected an array)") == 0);
    CHECK_EQ_INT(config_get_object(&doc, doc.root, "", "biome", &biome), ST_OK);
    CHECK_EQ_INT(config_get_object(&doc, doc.root, "", "ores", &tmp), ST_ERR_FORMAT);
    CHECK_STR_CONTAINS(st_error_message(), "field 'ores': expected an object, got [");
    CHECK_EQ_INT(config_get_object(&doc, doc.root, "", "nope", &tmp), ST_ERR_FORMAT);
    CHECK(strcmp(st_error_message(), "assets/worldgen.json: missing field 'nope' (expected an object)") == 0);

    /* Nested paths: the caller's `where` prefixes the key. */
    long count = -1;
    char where[32];
    for (int i = 0; i < 2; i++) {
        snprintf(where, sizeof where, "ores[%d]", i);
        CHECK_EQ_INT(config_get_int(&doc, cJSON_GetArrayItem(ores, i), where, "count_base", 0, 64, &count), ST_OK);
        CHECK_EQ_INT(count, 5 + i);
    }
    CHECK_EQ_INT(config_get_number(&doc, cJSON_GetArrayItem(ores, 2), "ores[2]", "count_base", 0, 64, NULL),
                 ST_ERR_FORMAT);
    CHECK(strcmp(st_error_message(),
                 "assets/worldgen.json: field 'ores[2].count_base': expected a number in 0..64, got \"x\"") == 0);
    double size = 0;
    CHECK_EQ_INT(config_get_number(&doc, biome, "biome", "size", 0, 1, &size), ST_ERR_FORMAT);
    CHECK(strcmp(st_error_message(), "assets/worldgen.json: field 'biome.size': expected a number in 0..1, got 1.5") == 0);
    CHECK_EQ_INT(config_get_number(&doc, biome, "biome", "weight", 0, 1, &size), ST_ERR_FORMAT);
    CHECK(strcmp(st_error_message(), "assets/worldgen.json: missing field 'biome.weight' (expected a number in 0..1)") == 0);

    /* A getter on a node that is not an object names that node. */
    CHECK_EQ_INT(config_get_number(&doc, ores, "ores", "count_base", 0, 1, &size), ST_ERR_FORMAT);
    CHECK_STR_CONTAINS(st_error_message(), "assets/worldgen.json: field 'ores': expected an object, got [");

    /* config_fail_field for custom checks. */
    CHECK_EQ_INT(config_fail_field(&doc, "biome", "tag", "one of \"hot\", \"cold\"",
                                   cJSON_GetObjectItemCaseSensitive(biome, "tag")), ST_ERR_FORMAT);
    CHECK(strcmp(st_error_message(),
                 "assets/worldgen.json: field 'biome.tag': expected one of \"hot\", \"cold\", got \"abcdefghij\"") == 0);
}

static void test_syntax_errors(void)
{
    ConfigDoc bad;
    CHECK_EQ_INT(config_parse("bad.json", "{\n  \"a\": 1,\n  \"b\": ]\n}\n", &bad), ST_ERR_FORMAT);
    CHECK(bad.root == NULL);
    CHECK_STR_CONTAINS(st_error_message(), "bad.json: JSON syntax error at line 3, column 8");
    CHECK_EQ_INT(config_parse("trail.json", "{\"a\": 1}\n  x", &bad), ST_ERR_FORMAT);
    CHECK_STR_CONTAINS(st_error_message(), "trail.json: JSON syntax error at line 2, column 3");
    CHECK_EQ_INT(config_parse("empty.json", "", &bad), ST_ERR_FORMAT);
    CHECK_STR_CONTAINS(st_error_message(), "empty.json: JSON syntax error at line 1, column 1");
    CHECK_EQ_INT(config_parse("open.json", "[1, 2,\n", &bad), ST_ERR_FORMAT);
    CHECK_STR_CONTAINS(st_error_message(), "open.json: JSON syntax error at line ");
    config_free(&bad); /* freeing a failed doc is harmless */
    config_free(NULL);
}

static void test_load(void)
{
    char dir[] = "/tmp/strata_test_config_XXXXXX";
    if (!mkdtemp(dir)) { CHECK(0); return; }
    char path[128];
    snprintf(path, sizeof path, "%s/world.json", dir);
    ConfigDoc d;
    CHECK_EQ_INT(config_load(path, &d), ST_ERR_IO);
    CHECK_STR_CONTAINS(st_error_message(), path);
    CHECK(d.root == NULL);

    CHECK_EQ_INT(fileio_write_atomic(path, TEXT, strlen(TEXT)), ST_OK);
    CHECK_EQ_INT(config_load(path, &d), ST_OK);
    long sea = 0;
    CHECK_EQ_INT(config_get_int(&d, d.root, "", "sea_level", 0, 255, &sea), ST_OK);
    CHECK_EQ_INT(sea, 64);
    CHECK_EQ_INT(config_get_int(&d, d.root, "", "sea_level", 0, 10, &sea), ST_ERR_FORMAT);
    CHECK_STR_CONTAINS(st_error_message(), path);
    config_free(&d);
    CHECK(d.root == NULL);

    const char broken[] = "{\"a\": [1, 2}";
    CHECK_EQ_INT(fileio_write_atomic(path, broken, sizeof broken - 1), ST_OK);
    CHECK_EQ_INT(config_load(path, &d), ST_ERR_FORMAT);
    CHECK_STR_CONTAINS(st_error_message(), path);
    CHECK_STR_CONTAINS(st_error_message(), "line 1, column 12");

    /* A NUL byte inside the file (found by fuzz_blocks: the message read the freed text). */
    const char nul[] = "{\"a\": 1}\0 trailing";
    CHECK_EQ_INT(fileio_write_atomic(path, nul, sizeof nul - 1), ST_OK);
    CHECK_EQ_INT(config_load(path, &d), ST_ERR_FORMAT);
    CHECK_STR_CONTAINS(st_error_message(), "NUL byte at offset 8");
    unlink(path);
    rmdir(dir);
}

static void test_arrays(void)
{
    ConfigDoc a;
    CHECK_EQ_INT(config_parse("arr.json", "{\"pair\": [1.5, 2], \"sizes\": [2, 3, 4], \"bad\": [1, \"x\"], \"n\": 3}",
                              &a), ST_OK);
    double v[4] = {9, 9, 9, 9};
    int count = -1;
    CHECK_EQ_INT(config_get_number_array(&a, a.root, "", "pair", 2, 2, 0, 10, v, &count), ST_OK);
    CHECK(count == 2 && v[0] == 1.5 && v[1] == 2.0);
    CHECK_EQ_INT(config_get_number_array(&a, a.root, "", "pair", 3, 3, 0, 10, v, &count), ST_ERR_FORMAT);
    CHECK_STR_CONTAINS(st_error_message(), "arr.json: field 'pair': expected an array of 3 numbers in 0..10, got [1.5,2]");
    CHECK_EQ_INT(config_get_number_array(&a, a.root, "", "pair", 1, 4, 0, 1.5, v, &count), ST_ERR_FORMAT);
    CHECK_STR_CONTAINS(st_error_message(), "an array of 1..4 numbers in 0..1.5");
    CHECK_EQ_INT(config_get_number_array(&a, a.root, "", "bad", 2, 2, 0, 10, v, &count), ST_ERR_FORMAT);
    CHECK_EQ_INT(config_get_number_array(&a, a.root, "", "n", 1, 1, 0, 10, v, &count), ST_ERR_FORMAT);
    CHECK_EQ_INT(config_get_number_array(&a, a.root, "", "missing", 1, 1, 0, 10, v, &count), ST_ERR_FORMAT);
    CHECK_STR_CONTAINS(st_error_message(), "missing field 'missing'");
    /* _opt: missing leaves out and count alone; a bad array leaves out alone */
    v[0] = 7;
    count = -1;
    CHECK_EQ_INT(config_get_number_array_opt(&a, a.root, "", "missing", 1, 1, 0, 10, v, &count), ST_OK);
    CHECK(v[0] == 7 && count == -1);
    CHECK_EQ_INT(config_get_number_array_opt(&a, a.root, "", "bad", 2, 2, 0, 10, v, &count), ST_ERR_FORMAT);
    CHECK(v[0] == 7);
    int sizes[4] = {0};
    CHECK_EQ_INT(config_get_int_array(&a, a.root, "", "sizes", 1, 4, 2, 16, sizes, &count), ST_OK);
    CHECK(count == 3 && sizes[0] == 2 && sizes[2] == 4);
    CHECK_EQ_INT(config_get_int_array(&a, a.root, "", "pair", 1, 4, 0, 16, sizes, &count), ST_ERR_FORMAT);
    CHECK_STR_CONTAINS(st_error_message(), "expected an array of 1..4 integers in 0..16, got [1.5,2]");
    CHECK(config_get_item(a.root, "n") != NULL && config_get_item(a.root, "zz") == NULL);
    config_free(&a);
}

int main(void)
{
    RUN(test_arrays);
    RUN(test_parse_ok);
    RUN(test_number);
    RUN(test_int);
    RUN(test_bool);
    RUN(test_string);
    RUN(test_containers_and_paths);
    RUN(test_syntax_errors);
    RUN(test_load);
    config_free(&doc);
    return check_report();
}
