/* test_far_e2e.c — the real game, headless: the voxel chunks and the far terrain meet without a seam.
 *
 * Usage: test_far_e2e STRATA_EXECUTABLE STRATA_HEIGHTMAP_EXECUTABLE (ctest passes both; SDL_VIDEODRIVER=offscreen).
 * Each case flies over a world at view distance 4 (the voxel chunks end 64 to 96 blocks out) with far terrain
 * to 1024 blocks, looks down at the voxel/far boundary so that it crosses the middle of the screen, and takes
 * a 480 x 300 screenshot (hud off). Checks, as test_game_e2e's test_far_seam does for the flat world's grass:
 * across the band of rows that holds the boundary, the mean colour of each row (the crosshair's columns left
 * out) is within 8 levels of the next row's: no step in colour, height or light where the voxel chunks end.
 * Over seed 1's sea (one sea: also the tiles of the band all of one colour, near and far), over seed 42's
 * land and over a heightmap world (made here with strata-heightmap); and over seed 42's woods, whose rows
 * beyond the boundary stay green (the far canopy goes on where the voxel trees end).
 * Returns 77 (skip) when the game cannot get a GL context on this machine. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <stb_image.h>

#include "check.h"
#include "test_run.h"

static const char *strata, *heightmap_tool;
static char tmp[256];
static char out_text[65536];

/* Runs `binary` with args (NULL-terminated), stdout+stderr into out_text. Returns the exit code. */
static int run(const char *binary, const char *const *args)
{
    char out_path[300];
    snprintf(out_path, sizeof out_path, "%s/out.txt", tmp);
    char *argv[48];
    int n = 0;
    argv[n++] = (char *)binary;
    for (int i = 0; args[i] && n < 47; i++) argv[n++] = (char *)args[i];
    argv[n] = NULL;
    return test_run_capture(argv, out_path, out_text, sizeof out_text, NULL);
}

typedef struct Image {
    unsigned char *px;
    int w, h;
} Image;

static void mean_rgb(const Image *im, int x0, int y0, int x1, int y1, double rgb[3])
{
    double s[3] = {0, 0, 0};
    long n = 0;
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++, n++)
            for (int c = 0; c < 3; c++) s[c] += im->px[(y * im->w + x) * 3 + c];
    for (int c = 0; c < 3; c++) rgb[c] = n ? s[c] / (double)n : 0.0;
}

/* Row y's mean colour, the crosshair's columns and 20 pixels at each side left out. */
static void row_rgb(const Image *im, int y, double row[3])
{
    double left[3], right[3];
    mean_rgb(im, 20, y, im->w / 2 - 12, y + 1, left);
    mean_rgb(im, im->w / 2 + 12, y, im->w - 20, y + 1, right);
    for (int c = 0; c < 3; c++) row[c] = 0.5 * (left[c] + right[c]);
}

/* The largest step of a row's mean colour (any channel) to the next row's, over rows y0..y1. */
static double largest_step(const Image *im, int y0, int y1, int *at)
{
    double prev[3], worst = 0.0;
    row_rgb(im, y0, prev);
    *at = y0;
    for (int y = y0 + 1; y < y1; y++) {
        double row[3];
        row_rgb(im, y, row);
        for (int c = 0; c < 3; c++)
            if (fabs(row[c] - prev[c]) > worst) worst = fabs(row[c] - prev[c]), *at = y;
        memcpy(prev, row, sizeof prev);
    }
    return worst;
}

/* Plays `place` (script lines: teleport, look) in the world of `world` (flags, NULL-terminated) and loads its
 * screenshot into *im. Returns 0, 77 without a GL context, 1 on failure. */
static int boundary_shot(const char *name, const char *const *world, const char *place, Image *im)
{
    char script[300], shot[300], text[800];
    snprintf(script, sizeof script, "%s/%s.script", tmp, name);
    snprintf(shot, sizeof shot, "%s/%s.png", tmp, name);
    snprintf(text, sizeof text, "hud off\ntime 0.5\nfly on\n%s\nwait_ready\nwait 20\nscreenshot %s\nquit\n", place, shot);
    FILE *f = fopen(script, "w");
    CHECK(f != NULL);
    if (!f) return 1;
    fputs(text, f);
    fclose(f);
    const char *args[40];
    int n = 0;
    for (int i = 0; world[i]; i++) args[n++] = world[i];
    const char *common[] = {"--no-save", "--view-distance", "4", "--far-distance", "1024", "--width", "480",
                            "--height", "300", "--script", script, NULL};
    for (int i = 0; common[i]; i++) args[n++] = common[i];
    args[n] = NULL;
    int rc = run(strata, args);
    if (rc == 1 && (strstr(out_text, "cannot create an OpenGL") || strstr(out_text, "cannot initialise SDL video") ||
                    strstr(out_text, "cannot create the window"))) {
        fprintf(stderr, "skip: no GL context here:\n%s\n", out_text);
        return 77;
    }
    CHECK_EQ_INT(rc, 0);
    if (rc != 0) {
        fprintf(stderr, "strata output:\n%s\n", out_text);
        return 1;
    }
    int comp = 0;
    im->px = stbi_load(shot, &im->w, &im->h, &comp, 3);
    CHECK(im->px != NULL);
    return im->px ? 0 : 1;
}

/* The boundary case: the worst row step in the middle band (30% .. 75% of the height) is under 8 levels. */
static int check_boundary(const char *name, const char *const *world, const char *place, Image *keep)
{
    Image im = {0};
    int rc = boundary_shot(name, world, place, &im);
    if (rc) return rc;
    int at = 0;
    double worst = largest_step(&im, im.h * 30 / 100, im.h * 75 / 100, &at);
    fprintf(stderr, "%s: largest step between rows %.1f (row %d of %d)\n", name, worst, at, im.h);
    CHECK(worst <= 8.0);
    if (keep) *keep = im;
    else stbi_image_free(im.px);
    return 0;
}

/* One sea: over seed 1's open sea the voxel sea and the far sea beyond it are one colour: the mean colours of
 * 40 x 20 pixel tiles across the band that holds the boundary (45% .. 80% of the height) lie within 12 levels
 * of each other in every channel (before Step 16 the far sea was 50 levels bluer, in stair-stepped squares) */
static int test_sea(void)
{
    Image im = {0};
    /* seed 1, north-east of the spawn: open sea from 150 blocks up, the boundary 64 .. 96 blocks out */
    int rc = check_boundary("sea_seed1", (const char *[]){"--seed", "1", NULL}, "teleport 200 150 -330\nlook 30 -45", &im);
    if (rc) return rc;
    double lo[3] = {255, 255, 255}, hi[3] = {0, 0, 0};
    for (int y = im.h * 45 / 100; y + 20 <= im.h * 80 / 100; y += 20)
        for (int x = 40; x + 40 <= im.w - 40; x += 40) {
            double t[3];
            mean_rgb(&im, x, y, x + 40, y + 20, t);
            for (int c = 0; c < 3; c++) lo[c] = fmin(lo[c], t[c]), hi[c] = fmax(hi[c], t[c]);
        }
    double spread = fmax(hi[0] - lo[0], fmax(hi[1] - lo[1], hi[2] - lo[2]));
    fprintf(stderr, "sea: tiles' colours within %.1f levels (blue %.0f .. %.0f)\n", spread, lo[2], hi[2]);
    CHECK(spread <= 12.0);
    stbi_image_free(im.px);
    return 0;
}

static int test_land(void)
{
    return check_boundary("land_seed42", (const char *[]){"--seed", "42", NULL}, "teleport -90 150 -50\nlook 180 -45", NULL);
}

static int test_heightmap(void)
{
    /* README's recipe: the stations preset, 16-bit and normalised, 30..150 blocks at 2 blocks a pixel */
    char raw[300], map[300];
    snprintf(raw, sizeof raw, "%s/st.r16", tmp);
    snprintf(map, sizeof map, "%s/hm.png", tmp);
    int rc = run(heightmap_tool, (const char *[]){"generate", "--recipe", "stations", "--size", "257x257", "--seed", "7",
                                                  "--out", raw, NULL});
    CHECK_EQ_INT(rc, 0);
    if (rc == 0)
        rc = run(heightmap_tool, (const char *[]){"convert", raw, map, "--map-size", "257x257", "--bits", "16",
                                                  "--normalize", NULL});
    CHECK_EQ_INT(rc, 0);
    if (rc) return 1;
    return check_boundary("heightmap", (const char *[]){"--seed", "5", "--heightmap", map, "--height-range", "30,150",
                                                        "--map-scale", "2", NULL},
                          "teleport 0 230 0\nlook 45 -45", NULL);
}

/* seed 42's woods south of the origin: from the boundary up to the fog, every row is green (leaves and grass,
 * the far canopy's tops), not the bare grass's lighter green or the ground's brown: its mean green channel
 * leads red and blue */
static int test_canopy(void)
{
    Image im = {0};
    int rc = check_boundary("canopy_seed42", (const char *[]){"--seed", "42", NULL}, "teleport -40 130 40\nlook 180 -40", &im);
    if (rc) return rc;
    int green = 0, rows = 0;
    for (int y = im.h * 25 / 100; y < im.h / 2; y++, rows++) {
        double row[3];
        row_rgb(&im, y, row);
        green += row[1] > row[0] + 10.0 && row[1] > row[2] + 10.0;
    }
    fprintf(stderr, "canopy: %d of %d rows beyond the boundary green\n", green, rows);
    CHECK(green >= rows * 9 / 10);
    stbi_image_free(im.px);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: test_far_e2e STRATA_EXECUTABLE STRATA_HEIGHTMAP_EXECUTABLE\n");
        return 2;
    }
    strata = argv[1];
    heightmap_tool = argv[2];
    snprintf(tmp, sizeof tmp, "/tmp/strata_far_e2e_XXXXXX");
    if (!mkdtemp(tmp)) {
        perror("mkdtemp");
        return 1;
    }
    char home[300];
    snprintf(home, sizeof home, "%s/data", tmp);
    setenv("XDG_DATA_HOME", home, 1);
    snprintf(home, sizeof home, "%s/config", tmp);
    setenv("XDG_CONFIG_HOME", home, 1);
    setenv("SDL_AUDIODRIVER", "dummy", 0);
    fprintf(stderr, "-- test_sea\n");
    if (test_sea() == 77) return 77;
    fprintf(stderr, "-- test_land\n");
    test_land();
    fprintf(stderr, "-- test_heightmap\n");
    test_heightmap();
    fprintf(stderr, "-- test_canopy\n");
    test_canopy();
    int rc = check_report();
    if (rc == 0) {
        char cmd[400];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
        if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", tmp);
    } else {
        fprintf(stderr, "files kept in %s\n", tmp);
    }
    return rc;
}
