/* test_render_leaves.c — far leaves: from RENDER_FAR_LEAVES_FROM blocks (horizontal, camera to chunk centre)
 * a chunk's leaves are drawn one-sided (back faces culled, terrain_leaves.frag) in a pass of their own, and its
 * plants stay in the two-sided cut-out pass; nearer chunks draw both two-sided; from RENDER_LOD_FROM
 * the leaves pass draws the chunk's half-resolution leaves instead of its leaves.
 *
 * One hand-built chunk whose slice 0 holds, in the mesher's layout (ChunkMesh.lod_vertices: far leaves,
 * then leaves, then the rest), a wall of far-leaf faces toward the camera at x 6..9, a wall of leaf faces toward
 * the camera at x 1..4, a wall of leaf faces away from it at x 6..9, then a wall of plant quads at x 11..14.
 * Each frame is compared with an empty frame from the same camera: from 40 blocks the wall facing away is gone
 * and the leaves toward the camera and the plants are there, with one draw call more (the leaves pass); from
 * 18 blocks the leaves and plants show, in one call, and no far leaves; from 56 blocks the far leaves show, and
 * neither the leaves nor the plants. A mesh without a per-slice layout draws as before. Crossing
 * RENDER_LOD_FROM the chunk dissolves from one resolution to the other (a dither), pixel for pixel between
 * the two pictures. Exit 77 when no GL context. */
#define _GNU_SOURCE
#include "render_fixture.h"

#define WALL_Z 8
#define WALL_Y0 3
#define WALL_Y1 9   /* exclusive */

/* Leaf faces toward +Z (the camera) at x 1..4, toward -Z at x 6..9, plant quads at x 11..14 (chunk-local). */
static ChunkMesh *walls_mesh(bool layout)
{
    static const uint8_t white[4] = { 255, 255, 255, 255 };
    int leaf = test_tile("oak_leaves"), plant = test_tile("tall_grass");
    ChunkMesh *mesh = calloc(1, sizeof *mesh);
    mesh->coord_x = TEST_CHUNK_X;
    mesh->coord_z = TEST_CHUNK_Z;
    if (layout)
        for (int y = WALL_Y0; y < WALL_Y1; y++)
            for (int x = 6; x <= 9; x++)
                test_add_face(mesh, MESH_SUBSET_ALPHA_TESTED, x, y, WALL_Z, 0, leaf, white);
    int lod = mesh->subsets[MESH_SUBSET_ALPHA_TESTED].count;
    for (int y = WALL_Y0; y < WALL_Y1; y++)
        for (int x = 1; x <= 4; x++)
            test_add_face(mesh, MESH_SUBSET_ALPHA_TESTED, x, y, WALL_Z, 0, leaf, white);
    for (int y = WALL_Y0; y < WALL_Y1; y++)
        for (int x = 6; x <= 9; x++)
            test_add_face(mesh, MESH_SUBSET_ALPHA_TESTED, x, y, WALL_Z + 1, 2, leaf, white);
    int leaves = mesh->subsets[MESH_SUBSET_ALPHA_TESTED].count - lod;
    for (int y = WALL_Y0; y < WALL_Y1; y++)
        for (int x = 11; x <= 14; x++)   /* a plant's quad faces -Z: only two-sided drawing shows it */
            test_add_face(mesh, MESH_SUBSET_ALPHA_TESTED, x, y, WALL_Z + 1, 2, plant, white);
    if (layout) {
        mesh->slice_vertices[MESH_SUBSET_ALPHA_TESTED][0] = mesh->subsets[MESH_SUBSET_ALPHA_TESTED].count;
        mesh->lod_vertices[MESH_SUBSET_ALPHA_TESTED][0] = lod;
        mesh->lod = true;
        mesh->alpha_leaf_vertices[0] = leaves;
    }
    mesh->min_y = WALL_Y0;
    mesh->max_y = WALL_Y1;
    return mesh;
}

/* The screen column of chunk-local x (block centre) seen from `cam` looking north (-Z) level. */
static int column_of(const RenderCamera *cam, double local_x, double depth)
{
    double dx = TEST_CHUNK_X * 16.0 + local_x - cam->position[0];
    double aspect = (double)TEST_WIDTH / TEST_HEIGHT;
    double ndc = dx / (depth * tan(cam->fov_y_deg * 0.5 * 3.14159265358979 / 180.0) * aspect);
    return (int)((ndc + 1.0) * 0.5 * TEST_WIDTH);
}

/* Pixels of `a` and `b` that differ, in the columns of chunk-local x0..x1 (whole blocks) and the wall's rows. */
static int changed_in(const TestImage *a, const TestImage *b, const RenderCamera *cam, int x0, int x1)
{
    double depth = cam->position[2] - (TEST_CHUNK_Z * 16.0 + WALL_Z + 0.5);
    int c0 = column_of(cam, x0 + 0.2, depth), c1 = column_of(cam, x1 + 0.8, depth);
    int n = 0;
    for (int y = 0; y < a->height; y++)
        for (int x = c0 < 0 ? 0 : c0; x <= c1 && x < a->width; x++)
            n += !test_near(test_pixel(a, x, y), test_pixel(b, x, y), 6);
    return n;
}

static bool draw_and_capture(Renderer *r, const RenderCamera *cam, const char *name, TestImage *image,
                             RenderStats *stats)
{
    RenderFrame frame = test_frame(10.0f);
    renderer_draw(r, cam, &frame);
    renderer_draw(r, cam, &frame);
    renderer_get_stats(r, stats);
    return test_capture(r, name, image);
}

/* Which walls show (pixels changed in their columns), how many calls and triangles. `away` is x 6..9: the
 * leaves facing away, or the far leaves facing the camera. */
static void check_walls(bool layout, double distance, bool toward_shows, bool away_shows, bool plants_show, int calls,
                        int triangles)
{
    unsetenv("STRATA_FAR_LEAVES_FROM");
    unsetenv("STRATA_LOD_FROM");
    Renderer *r = test_create();
    if (!r)
        return;
    RenderCamera cam = { { TEST_CHUNK_X * 16.0 + 8.0, 6.0, TEST_CHUNK_Z * 16.0 + 8.0 + distance }, 0.0f, 0.0f, 70.0f };
    TestImage empty, walls;
    RenderStats stats;
    char name[64];
    snprintf(name, sizeof name, "empty_%d.png", (int)distance);
    if (!draw_and_capture(r, &cam, name, &empty, &stats)) {
        renderer_destroy(r);
        return;
    }
    renderer_set_chunk_mesh(r, test_chunk_at(TEST_CHUNK_X, TEST_CHUNK_Z), walls_mesh(layout));
    snprintf(name, sizeof name, "walls_%s_%d.png", layout ? "layout" : "flat", (int)distance);
    if (draw_and_capture(r, &cam, name, &walls, &stats)) {
        int toward = changed_in(&empty, &walls, &cam, 1, 4), away = changed_in(&empty, &walls, &cam, 6, 9);
        int plants = changed_in(&empty, &walls, &cam, 11, 14);
        fprintf(stderr, "%s layout, %.0f blocks: toward %d, away %d, plants %d pixels; %d calls\n",
                layout ? "slice" : "no", distance, toward, away, plants, stats.draw_calls);
        if (toward_shows)
            CHECK(toward > 20);
        else
            CHECK_EQ_INT(toward, 0);
        if (plants_show)
            CHECK(plants > 20);
        else
            CHECK_EQ_INT(plants, 0);
        if (away_shows)
            CHECK(away > 20);
        else
            CHECK_EQ_INT(away, 0);
        CHECK_EQ_INT(stats.draw_calls, calls);
        CHECK_EQ_INT(stats.triangles_drawn, triangles);
        stbi_image_free(walls.pixels);
    }
    stbi_image_free(empty.pixels);
    renderer_destroy(r);
}

#define WALL_TRIANGLES (4 * (WALL_Y1 - WALL_Y0) * 2)   /* one wall's */

static void test_far_chunk_leaves_one_sided(void) { check_walls(true, 40.0, true, false, true, 2, 3 * WALL_TRIANGLES); }
static void test_near_chunk_two_sided(void) { check_walls(true, RENDER_FAR_LEAVES_FROM - 2.0, true, true, true, 1, 3 * WALL_TRIANGLES); }
/* from RENDER_LOD_FROM: the far leaves alone, no plants (they would stand on ground the copy may round down) */
static void test_farther_chunk_lod_leaves(void) { check_walls(true, 56.0, false, true, false, 1, WALL_TRIANGLES); }
static void test_no_layout_two_sided(void) { check_walls(false, 48.0, true, true, true, 1, 3 * WALL_TRIANGLES); }

/* The pixels where pictures `full` and `half` differ, by which of them `mid` shows there (or neither). */
typedef struct DissolveCount {
    int from_full, from_half, neither;
} DissolveCount;

static DissolveCount dissolve_count(const TestImage *full, const TestImage *half, const TestImage *mid)
{
    DissolveCount n = { 0, 0, 0 };
    for (int y = 0; y < full->height; y++)
        for (int x = 0; x < full->width; x++) {
            const uint8_t *f = test_pixel(full, x, y), *h = test_pixel(half, x, y), *m = test_pixel(mid, x, y);
            if (test_near(f, h, 6))
                continue;
            if (test_near(m, h, 6))
                n.from_half++;
            else if (test_near(m, f, 6))
                n.from_full++;
            else
                n.neither++;
        }
    return n;
}

/* The chunk seen from `distance` blocks, drawn by a renderer that first showed it from `shown_from` (10-s frames:
 * every dissolve over), then `frames` frames of `seconds` each from `distance`. lod_from: STRATA_LOD_FROM (NULL:
 * the default). */
static bool dissolve_capture(const char *lod_from, double shown_from, double distance, int frames, float seconds,
                             const char *name, TestImage *image)
{
    if (lod_from)
        setenv("STRATA_LOD_FROM", lod_from, 1);
    else
        unsetenv("STRATA_LOD_FROM");
    unsetenv("STRATA_FAR_LEAVES_FROM");
    Renderer *r = test_create();
    unsetenv("STRATA_LOD_FROM");
    if (!r)
        return false;
    RenderCamera cam = { { TEST_CHUNK_X * 16.0 + 8.0, 6.0, TEST_CHUNK_Z * 16.0 + 8.0 + shown_from }, 0.0f, 0.0f,
                         70.0f };
    renderer_set_chunk_mesh(r, test_chunk_at(TEST_CHUNK_X, TEST_CHUNK_Z), walls_mesh(true));
    RenderFrame settled = test_frame(10.0f), step = test_frame(seconds);
    renderer_draw(r, &cam, &settled);
    renderer_draw(r, &cam, &settled);
    cam.position[2] = TEST_CHUNK_Z * 16.0 + 8.0 + distance;
    for (int i = 0; i < frames; i++)
        renderer_draw(r, &cam, &step);
    bool ok = test_capture(r, name, image);
    renderer_destroy(r);
    return ok;
}

/* Crossing RENDER_LOD_FROM a chunk dissolves from its full-resolution faces to its half-resolution ones over
 * RENDER_LOD_DISSOLVE_SECONDS: two frames of 0.05 s in, each pixel where the two pictures differ shows one of
 * them (a 4x4 dither), the half-resolution one in as many of 16 as the dither's thresholds below the share;
 * when it is over, only that one. A chunk first shown beyond RENDER_LOD_FROM takes its half resolution at once. */
static void test_lod_dissolve(void)
{
    const double near = RENDER_LOD_FROM - 8.0, far = RENDER_LOD_FROM + 8.0;
    TestImage full, half, mid, done, arrived;
    if (!dissolve_capture("0", far, far, 2, 0.05f, "dissolve_full.png", &full))
        return;
    if (dissolve_capture(NULL, far, far, 2, 10.0f, "dissolve_half.png", &half)) {
        if (dissolve_capture(NULL, near, far, 2, 0.05f, "dissolve_mid.png", &mid)) {
            DissolveCount n = dissolve_count(&full, &half, &mid);
            fprintf(stderr, "dissolving: %d pixels from the full resolution, %d from the half, %d neither\n",
                    n.from_full, n.from_half, n.neither);
            CHECK(n.from_full + n.from_half > 200);
            CHECK(n.neither <= (n.from_full + n.from_half) / 50);   /* edges where both pictures blend */
            double share = 0.1 / RENDER_LOD_DISSOLVE_SECONDS, expected = 0.0;
            for (int m = 0; m < 16; m++)
                expected += ((m + 0.5) / 16.0 < share) / 16.0;
            double seen = (double)n.from_half / (n.from_full + n.from_half);
            fprintf(stderr, "share %.2f: the half resolution in %.3f of them, %.3f expected\n", share, seen, expected);
            CHECK(seen > expected - 0.06 && seen < expected + 0.06);
            stbi_image_free(mid.pixels);
        }
        if (dissolve_capture(NULL, near, far, 12, 0.05f, "dissolve_done.png", &done)) {
            DissolveCount n = dissolve_count(&full, &half, &done);
            CHECK_EQ_INT(n.from_full, 0);
            CHECK(n.from_half > 200);
            stbi_image_free(done.pixels);
        }
        if (dissolve_capture(NULL, far, far, 1, 0.05f, "dissolve_arrived.png", &arrived)) {
            DissolveCount n = dissolve_count(&full, &half, &arrived);
            CHECK_EQ_INT(n.from_full, 0);
            stbi_image_free(arrived.pixels);
        }
        stbi_image_free(half.pixels);
    }
    stbi_image_free(full.pixels);
}

/* STRATA_FAR_LEAVES_FROM=0 turns the pass off (comparisons and benchmarks). */
static void test_switched_off(void)
{
    setenv("STRATA_FAR_LEAVES_FROM", "0", 1);
    Renderer *r = test_create();
    if (!r)
        return;
    renderer_set_chunk_mesh(r, test_chunk_at(TEST_CHUNK_X, TEST_CHUNK_Z), walls_mesh(true));
    RenderCamera cam = { { TEST_CHUNK_X * 16.0 + 8.0, 6.0, TEST_CHUNK_Z * 16.0 + 56.0 }, 0.0f, 0.0f, 70.0f };
    RenderFrame frame = test_frame(10.0f);
    renderer_draw(r, &cam, &frame);
    renderer_draw(r, &cam, &frame);
    RenderStats stats;
    renderer_get_stats(r, &stats);
    CHECK_EQ_INT(stats.draw_calls, 1);
    renderer_destroy(r);
    unsetenv("STRATA_FAR_LEAVES_FROM");
}

int main(void)
{
    log_set_level(LOG_WARN);
    int rc = render_fixture_start("test_render_leaves");
    if (rc != 0)
        return rc;
    RUN(test_far_chunk_leaves_one_sided);
    RUN(test_near_chunk_two_sided);
    RUN(test_farther_chunk_lod_leaves);
    RUN(test_no_layout_two_sided);
    RUN(test_switched_off);
    RUN(test_lod_dissolve);
    render_fixture_end();
    return check_report();
}
