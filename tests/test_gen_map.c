/* test_gen_map.c — strata-map: usage errors exit 2, --help exits 0, the PNG has the rectangle's size,
 * and a rectangle's pixels do not depend on the rectangle around them (the map of a small rectangle
 * equals the same part of a map of a larger one, relief shading included), for every layer; the structures
 * layer marks what the generator lists.
 * usage: test_gen_map PATH/TO/strata-map */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <stb_image.h>

#include "check.h"
#include "strata/block.h"
#include "strata/generator.h"
#include "strata/world_settings.h"

static const char *tool;

static int run(const char *args)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' %s >/dev/null 2>&1", tool, args);
    int status = system(cmd);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void test_usage(void)
{
    CHECK_EQ_INT(run("--help"), 0);
    CHECK_EQ_INT(run(""), 2);                                                    /* missing flags */
    CHECK_EQ_INT(run("--seed 1 --rect 0,0,16,16"), 2);                           /* no --out */
    CHECK_EQ_INT(run("--seed 1 --rect 0,0,16,16 --out /tmp/x.png --bogus 3"), 2);
    CHECK_EQ_INT(run("--seed 1 --rect 0,0,16 --out /tmp/x.png"), 2);
    CHECK_EQ_INT(run("--seed 1 --rect 16,0,0,16 --out /tmp/x.png"), 2);          /* X1 <= X0 */
    CHECK_EQ_INT(run("--seed 1 --rect 0,0,16,16 --out /tmp/x.png --layer bogus"), 2);
    CHECK_EQ_INT(run("--seed 1 --rect 0,0,16,16 --out /tmp/x.png --y 300"), 2);
    CHECK_EQ_INT(run("--seed 1 --rect 0,0,16,16 --out /tmp/x.png --mode heightmap"), 2);
    CHECK_EQ_INT(run("--seed 1 --rect 0,0,16,16 --out /tmp/x.png --biome-size 0"), 2);
    CHECK_EQ_INT(run("--seed 1 --rect 0,0,16,16 --out /tmp/x.png --seed"), 2);    /* flag without value */
    CHECK_EQ_INT(run("--seed 1 --rect 0,0,16,16 --out /nonexistent/dir/x.png"), 1);
}

static unsigned char *load(const char *path, int *w, int *h)
{
    int n;
    unsigned char *p = stbi_load(path, w, h, &n, 3);
    CHECK(p != NULL);
    return p;
}

static void compare(const char *layer, const char *extra)
{
    char small_path[128], big_path[128], args[512];
    snprintf(small_path, sizeof small_path, "/tmp/strata_map_small_%d.png", (int)getpid());
    snprintf(big_path, sizeof big_path, "/tmp/strata_map_big_%d.png", (int)getpid());
    /* the small rectangle starts mid-chunk and crosses chunk borders; the big one surrounds it */
    const int sx0 = -37, sz0 = -29, sx1 = 45, sz1 = 51;
    const int bx0 = -70, bz0 = -61, bx1 = 83, bz1 = 90;
    snprintf(args, sizeof args, "--seed 42 --rect %d,%d,%d,%d --out %s --layer %s %s", sx0, sz0, sx1, sz1, small_path,
             layer, extra);
    CHECK_EQ_INT(run(args), 0);
    snprintf(args, sizeof args, "--seed 42 --rect %d,%d,%d,%d --out %s --layer %s %s --threads 2", bx0, bz0, bx1, bz1,
             big_path, layer, extra);
    CHECK_EQ_INT(run(args), 0);
    int sw, sh, bw, bh;
    unsigned char *s = load(small_path, &sw, &sh), *b = load(big_path, &bw, &bh);
    if (s && b) {
        CHECK_EQ_INT(sw, sx1 - sx0);
        CHECK_EQ_INT(sh, sz1 - sz0);
        CHECK_EQ_INT(bw, bx1 - bx0);
        CHECK_EQ_INT(bh, bz1 - bz0);
        int differ = 0, distinct = 0;
        for (int z = 0; z < sh; z++)
            for (int x = 0; x < sw; x++) {
                const unsigned char *ps = &s[(z * sw + x) * 3];
                const unsigned char *pb = &b[((z + sz0 - bz0) * bw + (x + sx0 - bx0)) * 3];
                differ += memcmp(ps, pb, 3) != 0;
                distinct += memcmp(ps, s, 3) != 0;
            }
        if (differ)
            fprintf(stderr, "  layer %s: %d pixels differ\n", layer, differ);
        CHECK_EQ_INT(differ, 0);
        CHECK(distinct > 0); /* not a blank image */
    }
    stbi_image_free(s);
    stbi_image_free(b);
    remove(small_path);
    remove(big_path);
}

static void test_rect_independence(void)
{
    compare("surface", "");
    compare("caves", "--y 50");
    compare("height", "");
    compare("temperature", "");
    compare("humidity", "");
    compare("mountain", "");
    compare("surface", "--mode island --island-size 120,90");
}

/* The structures layer: around the nearest settlement and dungeon of seed 1, the plaza and entrance marks,
 * the footprint outlines and the zone cores are where the generator lists them. */
static void test_structures_layer(void)
{
    BlockRegistry *blocks = NULL;
    Generator *gen = NULL;
    WorldSettings ws;
    world_settings_default(&ws);
    ws.seed = 1;
    CHECK(block_registry_load(STRATA_ASSET_DIR "/blocks.json", &blocks) == ST_OK);
    CHECK(generator_create(&ws, blocks, STRATA_ASSET_DIR "/worldgen.json", &gen) == ST_OK);
    if (!gen) return;
    GeneratorStructure list[64];
    int n = generator_list_structures(gen, 0, 0, 3000, list, 64);
    const GeneratorStructure *settle = NULL, *dungeon = NULL;
    for (int i = 0; i < n; i++) {
        if (list[i].type == GEN_STRUCTURE_SETTLEMENT && !settle) settle = &list[i];
        if (list[i].type == GEN_STRUCTURE_DUNGEON && !dungeon) dungeon = &list[i];
    }
    CHECK(settle != NULL);
    CHECK(dungeon != NULL);
    char path[128], args[512];
    snprintf(path, sizeof path, "/tmp/strata_map_structures_%d.png", (int)getpid());
    for (int k = 0; k < 2; k++) {
        const GeneratorStructure *g = k ? dungeon : settle;
        if (!g) continue;
        int x0 = g->min_x - 40, z0 = g->min_z - 40, x1 = g->max_x + 41, z1 = g->max_z + 41;
        snprintf(args, sizeof args, "--seed 1 --rect %d,%d,%d,%d --out %s --layer structures", x0, z0, x1, z1, path);
        CHECK_EQ_INT(run(args), 0);
        int w = 0, h = 0;
        unsigned char *p = load(path, &w, &h);
        if (!p) continue;
        CHECK_EQ_INT(w, x1 - x0);
        CHECK_EQ_INT(h, z1 - z0);
#define PX(x, z) (&p[((size_t)((z) - z0) * (size_t)w + (size_t)((x) - x0)) * 3])
        const unsigned char *c = PX(g->x, g->z);
        const unsigned char *o = PX(g->min_x, g->min_z + (g->max_z - g->min_z) / 3);
        if (k == 0) {
            CHECK(c[0] == 255 && c[1] == 255 && c[2] == 255);   /* plaza mark */
            CHECK(o[0] == 230 && o[1] == 30 && o[2] == 30);     /* settlement outline */
            const unsigned char *core = PX(g->x + 5, g->z + 5); /* inside the round plaza's core: orange */
            CHECK(core[0] > core[1] && core[1] > core[2] + 40);
        } else {
            CHECK(c[0] == 40 && c[1] == 230 && c[2] == 230);    /* entrance mark */
            CHECK(o[0] == 230 && o[1] == 40 && o[2] == 230);    /* dungeon outline */
        }
        /* far corners stay the dimmed surface: no channel above 150 */
        const unsigned char *far = PX(x0 + 1, z0 + 1);
        CHECK(far[0] <= 150 && far[1] <= 150 && far[2] <= 150);
#undef PX
        stbi_image_free(p);
    }
    remove(path);
    generator_destroy(gen);
    block_registry_destroy(blocks);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_gen_map PATH/TO/strata-map\n");
        return 2;
    }
    tool = argv[1];
    RUN(test_usage);
    RUN(test_rect_independence);
    RUN(test_structures_layer);
    return check_report();
}
