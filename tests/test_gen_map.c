/* test_gen_map.c — strata-map: usage errors exit 2, --help exits 0, the PNG has the rectangle's size,
 * and a rectangle's pixels do not depend on the rectangle around them (the map of a small rectangle
 * equals the same part of a map of a larger one, relief shading included), for every layer.
 * usage: test_gen_map PATH/TO/strata-map */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <stb_image.h>

#include "check.h"

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

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_gen_map PATH/TO/strata-map\n");
        return 2;
    }
    tool = argv[1];
    RUN(test_usage);
    RUN(test_rect_independence);
    return check_report();
}
