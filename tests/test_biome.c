/* test_biome.c — biomes (assets/biomes.json): the shipped file loads and covers the climate, errors name the
 * file and field, classification by box, priority and nearest box, scatter layers, splat rules, and the
 * blended fog: weights sum to 1, pure far from a border, and continuous across one. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "strata/biome.h"
#include "strata/block.h"
#include "strata/generator.h"

static const char *TWO =
    "{\"biomes\": ["
    "{\"name\": \"hot\", \"temperature\": [8, 15], \"humidity\": [0, 15], \"splatRules\": "
    "[{\"block\": \"sand\", \"maxHeight\": 80}, {\"color\": [0.5, 0.5, 0.5], \"minSlope\": 1}], "
    "\"scatterLayers\": [\"cacti\"], \"fogColor\": [1, 0.8, 0.6], \"fogDensity\": 0.6},"
    "{\"name\": \"cold\", \"temperature\": [0, 7], \"humidity\": [0, 15], \"splatRules\": [], "
    "\"scatterLayers\": [\"spruce_forest\", \"tall_grass\"], \"fogColor\": [0.6, 0.7, 0.9], \"fogDensity\": 0.2}]}";

static void test_shipped_file(void)
{
    BlockRegistry *blocks = NULL;
    CHECK(block_registry_load("assets/blocks.json", &blocks) == ST_OK);
    BiomeSet *set = NULL;
    StResult rc = biome_set_load("assets/biomes.json", blocks, &set);
    if (rc != ST_OK)
        fprintf(stderr, "%s\n", st_error_message());
    CHECK(rc == ST_OK);
    if (!set) {
        block_registry_destroy(blocks);
        return;
    }
    CHECK(biome_set_count(set) >= 8);
    int desert = biome_set_find(set, "desert"), taiga = biome_set_find(set, "spruce_taiga");
    CHECK(desert >= 0 && taiga >= 0);
    CHECK_EQ_INT(biome_set_classify(set, 14, 2, 80), desert);
    CHECK_EQ_INT(biome_set_classify(set, 6, 12, 80), taiga);
    CHECK(biome_set_layer_allowed(set, desert, "cacti"));
    CHECK(!biome_set_layer_allowed(set, desert, "spruce_forest"));
    CHECK(biome_set_layer_allowed(set, taiga, "spruce_forest"));
    /* every land climate has a biome whose box holds it (no climate falls to the nearest-box rule) */
    for (int t = 0; t < 16; t++)
        for (int h = 0; h < 16; h++) {
            const Biome *b = biome_set_get(set, biome_set_classify(set, t, h, 80));
            CHECK(b && t >= b->temperature_min && t <= b->temperature_max && h >= b->humidity_min &&
                  h <= b->humidity_max);
        }
    /* every rule's block resolved against the registry */
    for (int i = 0; i < biome_set_count(set); i++) {
        const Biome *b = biome_set_get(set, i);
        for (int r = 0; r < b->splat_rule_count; r++)
            CHECK(!b->splat_rules[r].block_name[0] || b->splat_rules[r].block > 0);
    }
    biome_set_destroy(set);
    block_registry_destroy(blocks);
}

static void expect_error(const char *json, const char *field, const char *expect)
{
    BlockRegistry *blocks = NULL;
    CHECK(block_registry_load("assets/blocks.json", &blocks) == ST_OK);
    BiomeSet *set = (BiomeSet *)1;
    CHECK(biome_set_parse("biomes_test.json", json, blocks, &set) == ST_ERR_FORMAT);
    CHECK(set == NULL);
    CHECK_STR_CONTAINS(st_error_message(), "biomes_test.json");
    CHECK_STR_CONTAINS(st_error_message(), field);
    CHECK_STR_CONTAINS(st_error_message(), expect);
    block_registry_destroy(blocks);
}

static void test_errors(void)
{
    expect_error("{\"biomes\": [}", "biomes_test.json", "");   /* syntax */
    expect_error("{}", "biomes", "");
    expect_error("{\"biomes\": []}", "biomes", "at least one biome");
    expect_error("{\"biomes\": [{\"name\": \"a\", \"temperature\": [0, 15], \"humidity\": [0, 15], \"splatRules\": [],"
                 " \"scatterLayers\": [], \"fogColor\": [1, 1, 1], \"fogDensity\": 3}]}",
                 "biomes[0].fogDensity", "0..1");
    expect_error("{\"biomes\": [{\"name\": \"a\", \"temperature\": [0, 16], \"humidity\": [0, 15], \"splatRules\": [],"
                 " \"scatterLayers\": [], \"fogColor\": [1, 1, 1], \"fogDensity\": 0.3}]}",
                 "biomes[0].temperature", "0..15");
    expect_error("{\"biomes\": [{\"name\": \"a\", \"temperature\": [9, 3], \"humidity\": [0, 15], \"splatRules\": [],"
                 " \"scatterLayers\": [], \"fogColor\": [1, 1, 1], \"fogDensity\": 0.3}]}",
                 "biomes[0].temperature", "min <= max");
    expect_error("{\"biomes\": [{\"name\": \"a\", \"temperature\": [0, 15], \"humidity\": [0, 15], \"splatRules\": "
                 "[{\"block\": \"sand\"}, {\"block\": \"moon_rock\"}], \"scatterLayers\": [], \"fogColor\": [1, 1, 1], "
                 "\"fogDensity\": 0.3}]}",
                 "biomes[0].splatRules[1].block", "moon_rock");
    expect_error("{\"biomes\": [{\"name\": \"a\", \"temperature\": [0, 15], \"humidity\": [0, 15], \"splatRules\": "
                 "[{\"maxHeight\": 3}], \"scatterLayers\": [], \"fogColor\": [1, 1, 1], \"fogDensity\": 0.3}]}",
                 "biomes[0].splatRules[0].block", "color");
    expect_error("{\"biomes\": [{\"name\": \"a\", \"temperature\": [0, 15], \"humidity\": [0, 15], \"splatRules\": [],"
                 " \"scatterLayers\": [\"x\", 3], \"fogColor\": [1, 1, 1], \"fogDensity\": 0.3}]}",
                 "biomes[0].scatterLayers[1]", "layer name");
    expect_error("{\"biomes\": [{\"name\": \"a\", \"temperature\": [0, 15], \"humidity\": [0, 15], \"splatRules\": [],"
                 " \"scatterLayers\": [], \"fogColor\": [1, 1], \"fogDensity\": 0.3}]}",
                 "biomes[0].fogColor", "3 numbers");
    expect_error("{\"biomes\": [{\"name\": \"a\", \"temperature\": [0, 15], \"humidity\": [0, 15], \"splatRules\": [],"
                 " \"scatterLayers\": [], \"fogColor\": [1, 1, 1], \"fogDensity\": 0.3},"
                 "{\"name\": \"a\", \"temperature\": [0, 15], \"humidity\": [0, 15], \"splatRules\": [],"
                 " \"scatterLayers\": [], \"fogColor\": [1, 1, 1], \"fogDensity\": 0.3}]}",
                 "biomes[1].name", "no earlier biome");
    expect_error("{\"biomes\": [{\"name\": \"a\", \"temperature\": [0, 15], \"humidity\": [0, 15], \"splatRules\": [],"
                 " \"scatterLayers\": [], \"fogColor\": [1, 1, 1]}]}",
                 "biomes[0].fogDensity", "missing");
    BiomeSet *set = (BiomeSet *)1;
    CHECK(biome_set_load("/nonexistent/biomes.json", NULL, &set) == ST_ERR_IO);
    CHECK(set == NULL);
    CHECK_STR_CONTAINS(st_error_message(), "/nonexistent/biomes.json");
}

static void test_classify(void)
{
    BiomeSet *set = NULL;
    CHECK(biome_set_parse("two", TWO, NULL, &set) == ST_OK);
    if (!set) return;
    CHECK_EQ_INT(biome_set_classify(set, 8, 0, 70), 0);
    CHECK_EQ_INT(biome_set_classify(set, 7, 15, 70), 1);
    CHECK_EQ_INT(biome_set_classify(set, 0, 3, 70), 1);
    CHECK(biome_set_layer_allowed(set, 1, "tall_grass"));
    CHECK(!biome_set_layer_allowed(set, 1, "cacti"));
    CHECK(!biome_set_layer_allowed(set, 7, "cacti"));
    CHECK(!biome_set_layer_allowed(set, -1, "cacti"));
    /* splat rules: first that holds */
    const BiomeSplatRule *r = biome_set_splat_rule(set, 0, 70, 0.2f);
    CHECK(r && strcmp(r->block_name, "sand") == 0 && r->block == -1);
    r = biome_set_splat_rule(set, 0, 90, 2.0f);
    CHECK(r && r->has_color && r->block_name[0] == 0);
    CHECK(biome_set_splat_rule(set, 0, 90, 0.2f) == NULL);
    CHECK(biome_set_splat_rule(set, 1, 90, 0.2f) == NULL);
    biome_set_destroy(set);

    /* priority, height bands and the nearest box */
    const char *json =
        "{\"biomes\": ["
        "{\"name\": \"peak\", \"temperature\": [0, 15], \"humidity\": [0, 15], \"height\": [140, 256], "
        "\"splatRules\": [], \"scatterLayers\": [], \"fogColor\": [1, 1, 1], \"fogDensity\": 0.5},"
        "{\"name\": \"dry\", \"temperature\": [10, 15], \"humidity\": [0, 4], "
        "\"splatRules\": [], \"scatterLayers\": [], \"fogColor\": [1, 1, 0], \"fogDensity\": 0.5},"
        "{\"name\": \"wet\", \"temperature\": [0, 6], \"humidity\": [10, 15], "
        "\"splatRules\": [], \"scatterLayers\": [], \"fogColor\": [0, 0, 1], \"fogDensity\": 0.5}]}";
    CHECK(biome_set_parse("three", json, NULL, &set) == ST_OK);
    if (!set) return;
    CHECK_EQ_INT(biome_set_classify(set, 12, 2, 150), 0);   /* the height band first */
    CHECK_EQ_INT(biome_set_classify(set, 12, 2, 100), 1);
    CHECK_EQ_INT(biome_set_classify(set, 3, 12, 100), 2);
    CHECK_EQ_INT(biome_set_classify(set, 9, 3, 100), 1);    /* nearest: dry is 1 away, wet 3 + 7 */
    CHECK_EQ_INT(biome_set_classify(set, 7, 9, 100), 2);    /* wet is 2 away, dry 3 + 5 */
    CHECK_EQ_INT(biome_set_classify(set, 8, 7, 100), 1);    /* a tie (3 and 3): the earlier biome */
    CHECK_EQ_INT(biome_set_find(set, "wet"), 2);
    CHECK_EQ_INT(biome_set_find(set, "none"), -1);
    CHECK(biome_set_get(set, 3) == NULL);
    biome_set_destroy(set);
}

/* A sharp border: hot for x >= 0, cold for x < 0. */
static void border_climate(void *user, float x, float z, int *t, int *h, float *height)
{
    (void)user;
    (void)z;
    *t = x >= 0.0f ? 12 : 3;
    *h = 5;
    *height = 70.0f;
}

/* Patches of hot in a cold world on a 100-block checker. */
static void patch_climate(void *user, float x, float z, int *t, int *h, float *height)
{
    (void)user;
    *t = ((int)floorf(x / 100.0f) + (int)floorf(z / 100.0f)) & 1 ? 12 : 3;
    *h = 5;
    *height = 70.0f;
}

static void test_blend(void)
{
    BiomeSet *set = NULL;
    CHECK(biome_set_parse("two", TWO, NULL, &set) == ST_OK);
    if (!set) return;
    BiomeFog fog;
    /* far from the border: pure */
    biome_set_fog_at(set, border_climate, NULL, 200.0f, 13.0f, &fog);
    CHECK_NEAR(fog.density, 0.6, 1e-6);
    CHECK_NEAR(fog.color[2], 0.6, 1e-6);
    biome_set_fog_at(set, border_climate, NULL, -200.0f, 13.0f, &fog);
    CHECK_NEAR(fog.density, 0.2, 1e-6);
    CHECK_NEAR(fog.color[2], 0.9, 1e-6);
    /* at the border: a mix of both, not either */
    biome_set_fog_at(set, border_climate, NULL, 0.0f, 0.0f, &fog);
    CHECK(fog.density > 0.3f && fog.density < 0.5f);
    /* walking across: monotonic, continuous (small steps), and done within 2 radii */
    float prev = -1.0f, max_step = 0.0f;
    bool monotonic = true;
    for (float x = -80.0f; x <= 80.0f; x += 0.5f) {
        biome_set_fog_at(set, border_climate, NULL, x, 5.0f, &fog);
        if (prev >= 0.0f) {
            if (fog.density < prev - 1e-6f) monotonic = false;
            if (fabsf(fog.density - prev) > max_step) max_step = fabsf(fog.density - prev);
        }
        prev = fog.density;
    }
    CHECK(monotonic);
    CHECK(max_step < 0.02f);    /* the whole change is 0.4 over ~96 blocks: no jump */
    biome_set_fog_at(set, border_climate, NULL, -BIOME_BLEND_RADIUS - 1.0f, 0.0f, &fog);
    CHECK_NEAR(fog.density, 0.2, 1e-6);
    /* weights sum to 1 everywhere and the fog is continuous in 2D too */
    float w[BIOME_MAX];
    float worst = 0.0f;
    for (int i = 0; i < 2000; i++) {
        float x = (float)(rand() % 4000) / 7.0f - 300.0f, z = (float)(rand() % 4000) / 7.0f - 300.0f;
        biome_set_weights_at(set, patch_climate, NULL, x, z, w);
        CHECK_NEAR(w[0] + w[1], 1.0, 1e-5);
        BiomeFog a, b;
        biome_set_fog_at(set, patch_climate, NULL, x, z, &a);
        biome_set_fog_at(set, patch_climate, NULL, x + 0.25f, z - 0.25f, &b);
        if (fabsf(a.density - b.density) > worst) worst = fabsf(a.density - b.density);
    }
    CHECK(worst < 0.02f);
    biome_set_destroy(set);
}

static void generator_climate(void *user, float x, float z, int *t, int *h, float *height)
{
    const Generator *g = user;
    *t = g->calculate_temperature(g, x, z);
    *h = g->calculate_humidity(g, x, z);
    *height = g->calculate_height(g, x, z);
}

/* The generator wrapper is the same blend over the generator's climate; seed 1's desert and spruce taiga
 * (docs/screenshots/step8_fog_*.png) get their own fog. */
static void test_generator_fog(void)
{
    BlockRegistry *blocks = NULL;
    CHECK(block_registry_load("assets/blocks.json", &blocks) == ST_OK);
    BiomeSet *set = NULL;
    CHECK(biome_set_load("assets/biomes.json", blocks, &set) == ST_OK);
    WorldSettings s;
    world_settings_default(&s);
    s.seed = 1;
    Generator *g = NULL;
    CHECK(generator_create(&s, blocks, "assets/worldgen.json", &g) == ST_OK);
    if (set && g) {
        BiomeFog a, b, desert, taiga;
        biome_set_fog_at_generator(set, g, 100.0f, -37.0f, &a);
        biome_set_fog_at(set, generator_climate, g, 100.0f, -37.0f, &b);
        CHECK(memcmp(&a, &b, sizeof a) == 0);
        biome_set_fog_at_generator(set, g, 0.0f, 896.0f, &desert);
        biome_set_fog_at_generator(set, g, 384.0f, 1920.0f, &taiga);
        const Biome *d = biome_set_get(set, biome_set_find(set, "desert"));
        const Biome *t = biome_set_get(set, biome_set_find(set, "spruce_taiga"));
        CHECK(d && t);
        if (d && t) {
            CHECK_NEAR(desert.color[0], d->fog_color[0], 1e-5);
            CHECK_NEAR(taiga.color[0], t->fog_color[0], 1e-5);
            CHECK_NEAR(taiga.density, t->fog_density, 1e-5);
        }
    }
    generator_destroy(g);
    biome_set_destroy(set);
    block_registry_destroy(blocks);
}

int main(void)
{
    RUN(test_shipped_file);
    RUN(test_errors);
    RUN(test_classify);
    RUN(test_blend);
    RUN(test_generator_fog);
    return check_report();
}
