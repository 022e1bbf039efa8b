/* test_render.c — the renderer against a real GL 3.3 core context (SDL offscreen, Mesa llvmpipe).
 *
 * A hidden 320x200 window; the real shaders and atlas. Hand-built chunk meshes (a 5x5 platform of stone
 * cubes far from the origin, plants, water) and one built by the real mesher are drawn and read back
 * through renderer_screenshot: the
 * platform covers the centre, the sky fills the top rows, a new chunk starts hazed and fades in, a
 * released chunk is gone. Exact triangle counts check the camera-side subset mask and the culling; the
 * upload queue, budget and chunk table are checked through renderer_get_stats; a chunk marked edited goes
 * up at once, outside the budget; renderer_read_pixels returns the same pixels as the screenshot, top row
 * first. Broken shaders, a missing
 * atlas and an unwritable screenshot path give the right codes and messages.
 * Exit 77 (skipped) when no GL context can be made. */
#define _GNU_SOURCE
#include "render_fixture.h"

/* ---- tests ---- */

static void test_sky_colors(void)
{
    float noon[3], midnight[3], dawn[3], dusk[3], dim[3];
    renderer_sky_color(0.5f, 1.0f, noon);
    renderer_sky_color(0.0f, 1.0f, midnight);
    renderer_sky_color(0.25f, 1.0f, dawn);
    renderer_sky_color(0.75f, 1.0f, dusk);
    renderer_sky_color(0.5f, 0.0f, dim);
    CHECK(noon[2] > noon[0] && noon[2] > 0.8f);        /* light blue */
    CHECK(midnight[0] < 0.1f && midnight[1] < 0.1f && midnight[2] < 0.15f && midnight[2] > midnight[0]);
    CHECK(dawn[0] > dawn[2] && dusk[0] > dusk[2]);      /* warm */
    CHECK_NEAR(dim[2], noon[2] * 0.5f, 1e-5);
    float wrapped[3];
    renderer_sky_color(1.5f, 1.0f, wrapped);            /* times wrap around the day */
    CHECK_NEAR(wrapped[0], noon[0], 1e-5);
}

/* The biome fog: at noon the sky becomes the biome's colour, at night it keeps the night; density 1/3 is the
 * plain fog band, more widens it toward the camera, and fog_end never moves. */
static void test_biome_fog(void)
{
    const float desert[3] = {0.94f, 0.84f, 0.64f};
    float sky[3], start = 80.0f;
    renderer_sky_color(0.5f, 1.0f, sky);
    renderer_biome_fog(desert, 1.0f / 3.0f, sky, &start, 120.0f);
    CHECK_NEAR(sky[0], desert[0], 1e-5);
    CHECK_NEAR(sky[1], desert[1], 1e-5);
    CHECK_NEAR(sky[2], desert[2], 1e-5);
    CHECK_NEAR(start, 80.0f, 1e-4);
    start = 80.0f;
    renderer_biome_fog(desert, 0.6f, sky, &start, 120.0f);
    CHECK_NEAR(start, 120.0f - 40.0f * 1.8f, 1e-4);
    start = 80.0f;
    renderer_biome_fog(desert, 1.0f, sky, &start, 120.0f);
    CHECK_NEAR(start, 0.0f, 1e-6);                      /* the band never reaches behind the camera */
    float night[3], plain[3];
    renderer_sky_color(0.0f, 1.0f, night);
    memcpy(plain, night, sizeof plain);
    start = 80.0f;
    renderer_biome_fog(desert, 1.0f / 3.0f, night, &start, 120.0f);
    CHECK(night[0] < 0.05f && night[2] < plain[2] && night[0] > plain[0]); /* still night, warmer */
}

static void test_platform_draw(void)
{
    Renderer *r = test_create();
    if (!r)
        return;
    uint8_t sky[3];
    test_sky_bytes(0.5f, sky);
    RenderCamera cam = test_camera();
    ChunkMesh *mesh = test_platform_mesh(TEST_CHUNK_X, TEST_CHUNK_Z);
    int quads = 0;
    for (int s = 0; s < MESH_SUBSET_COUNT; s++)
        quads += test_mesh_quads(mesh, s);
    CHECK_EQ_INT(quads, 25 * 2 + 4 * 5);

    RenderStats stats;
    renderer_set_chunk_mesh(r, test_chunk_at(TEST_CHUNK_X, TEST_CHUNK_Z), mesh);
    renderer_get_stats(r, &stats);
    CHECK_EQ_INT(stats.uploads_pending, 1);
    CHECK_EQ_INT(stats.chunks_resident, 0);

    /* First frame: uploaded, but the new chunk is still wholly in its haze: the centre shows the sky. */
    RenderFrame frame = test_frame(0.0f);
    renderer_draw(r, &cam, &frame);
    renderer_get_stats(r, &stats);
    CHECK_EQ_INT(stats.uploads_pending, 0);
    CHECK_EQ_INT(stats.chunks_resident, 1);
    CHECK_EQ_INT(stats.chunks_drawn, 1);
    CHECK_EQ_INT(stats.triangles_drawn, quads * 2); /* camera inside the chunk footprint: every side subset */
    TestImage image;
    if (test_capture(r, "hazed.png", &image)) {
        CHECK_EQ_INT(image.width, TEST_WIDTH);
        CHECK_EQ_INT(image.height, TEST_HEIGHT);
        CHECK_EQ_INT(test_count_centre_sky(&image, sky), 8);
        stbi_image_free(image.pixels);
    }

    /* The haze recedes at 32 blocks per second: after 10 s the platform is fully there. */
    frame = test_frame(10.0f);
    renderer_draw(r, &cam, &frame);
    if (test_capture(r, "platform.png", &image)) {
        CHECK_EQ_INT(test_count_centre_sky(&image, sky), 0);
        CHECK(test_top_rows_sky(&image, sky));
        stbi_image_free(image.pixels);
    }

    /* Released: the centre is sky again. */
    renderer_release_chunk(r, test_chunk_at(TEST_CHUNK_X, TEST_CHUNK_Z));
    renderer_get_stats(r, &stats);
    CHECK_EQ_INT(stats.chunks_resident, 0);
    renderer_draw(r, &cam, &frame);
    renderer_get_stats(r, &stats);
    CHECK_EQ_INT(stats.chunks_drawn, 0);
    CHECK_EQ_INT(stats.triangles_drawn, 0);
    if (test_capture(r, "released.png", &image)) {
        CHECK_EQ_INT(test_count_centre_sky(&image, sky), 8);
        CHECK(test_top_rows_sky(&image, sky));
        stbi_image_free(image.pixels);
    }
    renderer_destroy(r);
}

static void test_subset_mask_and_culling(void)
{
    Renderer *r = test_create();
    if (!r)
        return;
    ChunkMesh *mesh = test_platform_mesh(TEST_CHUNK_X, TEST_CHUNK_Z);
    int total = 0;
    for (int s = 0; s < MESH_SUBSET_COUNT; s++)
        total += test_mesh_quads(mesh, s);
    int pos_z = test_mesh_quads(mesh, MESH_SUBSET_OPAQUE_POS_Z), neg_x = test_mesh_quads(mesh, MESH_SUBSET_OPAQUE_NEG_X);
    renderer_set_chunk_mesh(r, test_chunk_at(TEST_CHUNK_X, TEST_CHUNK_Z), mesh);
    RenderFrame frame = test_frame(10.0f);
    RenderStats stats;

    /* North of the chunk (z below its min z) looking south (+Z): the +Z faces point away, not drawn. */
    RenderCamera cam = { { TEST_CHUNK_X * 16.0 + 8.5, 9.0, TEST_CHUNK_Z * 16.0 - 4.0 }, 180.0f, -25.0f, 70.0f };
    renderer_draw(r, &cam, &frame);
    renderer_get_stats(r, &stats);
    CHECK_EQ_INT(stats.chunks_drawn, 1);
    CHECK_EQ_INT(stats.triangles_drawn, (total - pos_z) * 2);

    /* East of the chunk and north of it, looking at it: +Z and -X faces skipped. */
    RenderCamera east = { { TEST_CHUNK_X * 16.0 + 20.0, 9.0, TEST_CHUNK_Z * 16.0 - 4.0 }, 225.0f, -20.0f, 70.0f };
    renderer_draw(r, &east, &frame);
    renderer_get_stats(r, &stats);
    CHECK_EQ_INT(stats.chunks_drawn, 1);
    CHECK_EQ_INT(stats.triangles_drawn, (total - pos_z - neg_x) * 2);

    /* Looking away (north): frustum-culled. */
    cam.yaw_deg = 0.0f;
    renderer_draw(r, &cam, &frame);
    renderer_get_stats(r, &stats);
    CHECK_EQ_INT(stats.chunks_drawn, 0);
    CHECK_EQ_INT(stats.triangles_drawn, 0);
    CHECK_EQ_INT(stats.chunks_resident, 1);

    /* Looking straight down from above the platform: drawn. Straight up: culled. */
    RenderCamera down = { { TEST_CHUNK_X * 16.0 + 8.5, 40.0, TEST_CHUNK_Z * 16.0 + 8.5 }, 0.0f, -90.0f, 70.0f };
    renderer_draw(r, &down, &frame);
    renderer_get_stats(r, &stats);
    CHECK_EQ_INT(stats.chunks_drawn, 1);
    down.pitch_deg = 90.0f;
    renderer_draw(r, &down, &frame);
    renderer_get_stats(r, &stats);
    CHECK_EQ_INT(stats.chunks_drawn, 0);

    /* Beyond the view distance (8 chunks = 128 blocks of fog): culled even when in the frustum. */
    RenderCamera far_cam = { { TEST_CHUNK_X * 16.0 + 8.5, 9.0, TEST_CHUNK_Z * 16.0 + 16.0 + 130.0 }, 0.0f, 0.0f, 70.0f };
    renderer_draw(r, &far_cam, &frame);
    renderer_get_stats(r, &stats);
    CHECK_EQ_INT(stats.chunks_drawn, 0);
    far_cam.position[2] -= 10.0;
    renderer_draw(r, &far_cam, &frame);
    renderer_get_stats(r, &stats);
    CHECK_EQ_INT(stats.chunks_drawn, 1);
    renderer_destroy(r);
}

/* Plants (alpha-tested crosses) and a water surface (transparent) in a chunk with no opaque geometry. */
static void test_alpha_and_transparent(void)
{
    Renderer *r = test_create();
    if (!r)
        return;
    static const uint8_t green[4] = { 120, 200, 90, 255 }, water[4] = { 60, 110, 220, 200 };
    ChunkMesh *mesh = calloc(1, sizeof *mesh);
    int plant = test_tile("tall_grass"), water_tile = test_tile("water");
    for (int i = 0; i < 3; i++) {
        float x = 6.0f + (float)i * 2.0f, z = 7.0f;
        /* Two crossed quads. */
        test_push(&mesh->subsets[5], x, 5, z, plant, 0, green);
        test_push(&mesh->subsets[5], x + 1, 5, z + 1, plant, 1, green);
        test_push(&mesh->subsets[5], x + 1, 6, z + 1, plant, 2, green);
        test_push(&mesh->subsets[5], x, 6, z, plant, 3, green);
        test_push(&mesh->subsets[5], x + 1, 5, z, plant, 0, green);
        test_push(&mesh->subsets[5], x, 5, z + 1, plant, 1, green);
        test_push(&mesh->subsets[5], x, 6, z + 1, plant, 2, green);
        test_push(&mesh->subsets[5], x + 1, 6, z, plant, 3, green);
    }
    for (int x = 4; x < 12; x++)
        test_add_face(mesh, 6, x, 3, 8, 4, water_tile, water);
    mesh->min_y = 3;
    mesh->max_y = 5;
    renderer_set_chunk_mesh(r, test_chunk_at(TEST_CHUNK_X, TEST_CHUNK_Z), mesh);
    RenderCamera cam = { { TEST_CHUNK_X * 16.0 + 8.5, 7.5, TEST_CHUNK_Z * 16.0 + 12.5 }, 0.0f, -30.0f, 70.0f };
    RenderFrame frame = test_frame(10.0f);
    frame.highlight = true;
    frame.highlight_cell[0] = TEST_CHUNK_X * 16 + 8;
    frame.highlight_cell[1] = 3;
    frame.highlight_cell[2] = TEST_CHUNK_Z * 16 + 8;
    renderer_draw(r, &cam, &frame);
    renderer_draw(r, &cam, &frame);
    RenderStats stats;
    renderer_get_stats(r, &stats);
    CHECK_EQ_INT(stats.chunks_drawn, 1);
    CHECK_EQ_INT(stats.triangles_drawn, (6 + 8) * 2);
    CHECK_EQ_INT(stats.draw_calls, 2);    /* no opaque faces: one alpha-tested call, one transparent */
    CHECK_EQ_INT(stats.chunk_draws, 2);
    TestImage image;
    if (test_capture(r, "plants_water.png", &image))
        stbi_image_free(image.pixels);
    renderer_destroy(r);
}

static void test_hud_and_outline(void)
{
    Renderer *r = test_create();
    if (!r)
        return;
    renderer_set_chunk_mesh(r, test_chunk_at(TEST_CHUNK_X, TEST_CHUNK_Z), test_platform_mesh(TEST_CHUNK_X, TEST_CHUNK_Z));
    RenderCamera cam = test_camera();
    RenderFrame frame = test_frame(10.0f);
    frame.show_hud = true;
    frame.hud_lines[0] = "Strata 60 fps";
    frame.hud_lines[1] = "pos 16008.5 8.0 -31986.5";
    frame.hud_lines[2] = "non-ASCII \x01\x7f ok";
    frame.highlight = true;
    frame.highlight_cell[0] = TEST_CHUNK_X * 16 + 8;
    frame.highlight_cell[1] = 5;
    frame.highlight_cell[2] = TEST_CHUNK_Z * 16 + 8;
    renderer_draw(r, &cam, &frame);
    renderer_draw(r, &cam, &frame);
    uint8_t sky[3];
    test_sky_bytes(0.5f, sky);
    TestImage image;
    if (test_capture(r, "hud.png", &image)) {
        /* The backdrop darkens the sky behind the first line; the text is bright on it. */
        const uint8_t *corner = test_pixel(&image, 3, 3);
        CHECK(corner[2] < sky[2] * 0.6);
        int bright = 0;
        for (int y = 3; y < 14; y++)
            for (int x = 4; x < 80; x++)
                bright += test_pixel(&image, x, y)[0] > 200 && test_pixel(&image, x, y)[1] > 200;
        CHECK(bright > 20);
        stbi_image_free(image.pixels);
    }
    renderer_destroy(r);
}

/* The real mesher's output (winding, UVs, light colours) drawn by the renderer: a grass platform with a
 * leaves block (alpha-tested) and a water cell (transparent) on it, in a fully sunlit chunk. */
static void test_mesher_platform(void)
{
    if (!test_blocks)
        return;
    Renderer *r = test_create();
    Terrain *terrain = terrain_create();
    MesherContext *ctx = mesher_context_create();
    CHECK(terrain != NULL && ctx != NULL);
    if (!r || !terrain || !ctx) {
        renderer_destroy(r);
        terrain_destroy(terrain);
        mesher_context_destroy(ctx);
        return;
    }
    TerrainChunk *chunk = terrain_allocate_chunk(terrain, TEST_CHUNK_X, TEST_CHUNK_Z);
    CHECK(chunk != NULL);
    if (chunk) {
        int32_t *cells = chunk_cell_view(chunk).cells;
        for (int i = 0; i < CHUNK_CELLS; i++) cells[i] = cell_replace_light(cell_make(BLOCK_AIR, 0), LIGHT_MAX);
        for (int i = 0; i < CHUNK_SHAFTS; i++)
            chunk->shafts[i] = shaft_set_humidity(shaft_set_temperature(0, 10), 10);
        for (int x = 6; x <= 10; x++)
            for (int z = 6; z <= 10; z++)
                chunk_set_cell(chunk, x, 5, z, cell_make(BLOCK_GRASS, 0));
        chunk_set_cell(chunk, 7, 6, 7, cell_make(BLOCK_OAK_LEAVES, 0));
        chunk_set_cell(chunk, 9, 6, 7, cell_make(BLOCK_STONE, 0));
        chunk_set_cell(chunk, 8, 6, 9, cell_replace_light(cell_make(BLOCK_WATER, 0), LIGHT_MAX - 1));
        mesher_build_pass(terrain, chunk, test_blocks, ctx, 1);
        mesher_build_pass(terrain, chunk, test_blocks, ctx, 2);
        ChunkMesh *mesh = mesher_pack(chunk);
        CHECK(mesh != NULL);
        chunk_geometry_destroy(chunk->worker_geometry);
        chunk->worker_geometry = NULL;
        if (mesh) {
            int vertices = 0;   /* at full resolution: the camera is near */
            for (int k = 0; k < MESH_SUBSET_COUNT; k++) vertices += chunk_mesh_subset_vertices(mesh, k, false);
            CHECK(vertices > 0);
            CHECK(mesh->subsets[MESH_SUBSET_ALPHA_TESTED].count > 0);
            CHECK(mesh->subsets[MESH_SUBSET_TRANSPARENT].count > 0);
            renderer_set_chunk_mesh(r, chunk, mesh);
            RenderCamera cam = test_camera();
            RenderFrame frame = test_frame(10.0f);
            renderer_draw(r, &cam, &frame);
            renderer_draw(r, &cam, &frame);
            RenderStats stats;
            renderer_get_stats(r, &stats);
            CHECK_EQ_INT(stats.chunks_drawn, 1);
            CHECK_EQ_INT(stats.triangles_drawn, vertices / 2); /* camera over the chunk: every subset */
            uint8_t sky[3];
            test_sky_bytes(0.5f, sky);
            TestImage image;
            if (test_capture(r, "mesher_platform.png", &image)) {
                /* Front faces are counter-clockwise: culling keeps the mesher's faces that face us. */
                CHECK_EQ_INT(test_count_centre_sky(&image, sky), 0);
                CHECK(test_top_rows_sky(&image, sky));
                stbi_image_free(image.pixels);
            }
            renderer_release_chunk(r, chunk);
        }
        terrain_free_chunk(terrain, chunk);
    }
    mesher_context_destroy(ctx);
    terrain_destroy(terrain);
    renderer_destroy(r);
}

/* The upload budget, the nearest-first queue and the chunk table under growth and removal. */
static void test_upload_queue(void)
{
    Renderer *r = test_create();
    if (!r)
        return;
    RenderCamera cam = test_camera();
    RenderFrame frame = test_frame(0.016f);
    RenderStats stats;
    enum { SIDE = 20 };  /* 400 chunks: the table grows past its first capacities */
    for (int z = 0; z < SIDE; z++)
        for (int x = 0; x < SIDE; x++)
            renderer_set_chunk_mesh(r, test_chunk_at(TEST_CHUNK_X + x - SIDE / 2, TEST_CHUNK_Z + z - SIDE / 2),
                                    test_platform_mesh(TEST_CHUNK_X + x - SIDE / 2, TEST_CHUNK_Z + z - SIDE / 2));
    /* A second mesh for a queued chunk replaces the first (no leak, still one pending). */
    renderer_set_chunk_mesh(r, test_chunk_at(TEST_CHUNK_X, TEST_CHUNK_Z), test_platform_mesh(TEST_CHUNK_X, TEST_CHUNK_Z));
    renderer_get_stats(r, &stats);
    CHECK_EQ_INT(stats.uploads_pending, SIDE * SIDE);
    CHECK_EQ_INT(stats.chunks_resident, 0);

    frame.upload_ms = 1e-6f; /* a budget spent at once: still one mesh, the nearest */
    renderer_draw(r, &cam, &frame);
    renderer_get_stats(r, &stats);
    CHECK_EQ_INT(stats.chunks_resident, 1);
    CHECK_EQ_INT(stats.uploads_pending, SIDE * SIDE - 1);
    CHECK(stats.chunks_drawn == 1);  /* nearest first: the camera's own chunk */
    CHECK(renderer_chunk_uploaded(r, TEST_CHUNK_X, TEST_CHUNK_Z));
    CHECK(!renderer_chunk_uploaded(r, TEST_CHUNK_X + 9, TEST_CHUNK_Z + 9));
    CHECK(renderer_chunk_uploaded(r, TEST_CHUNK_X + 500, TEST_CHUNK_Z)); /* unknown: nothing queued */
    CHECK_EQ_INT(stats.chunks_fading, 1); /* new geometry fades in */

    renderer_flush_uploads(r, &cam);
    renderer_get_stats(r, &stats);
    CHECK_EQ_INT(stats.uploads_pending, 0);
    CHECK_EQ_INT(stats.chunks_resident, SIDE * SIDE);
    /* Flushed for a screenshot: no haze, even with no time passing. */
    RenderFrame still = test_frame(0.0f);
    renderer_draw(r, &cam, &still);
    /* Every visible chunk's subsets in one multi-draw per arena, pass and build (platforms: opaque only; the
     * near ones clear of the fog, the far ones not). With STRATA_ARENA_VERTICES small
     * (test_render_small_arenas) the chunks spread over many arenas. */
    renderer_get_stats(r, &stats);
    bool small_arenas = getenv("STRATA_ARENA_VERTICES") != NULL;
    CHECK(stats.chunks_drawn > 1);
    CHECK(stats.chunk_draws >= stats.chunks_drawn);
    CHECK(stats.arenas >= 1 && stats.draw_calls >= 1 && stats.draw_calls <= 2 * stats.arenas);
    if (small_arenas)
        CHECK(stats.arenas > 1);
    else
        CHECK(stats.arenas == 1 && stats.draw_calls == 2);
    uint8_t sky[3];
    test_sky_bytes(0.5f, sky);
    TestImage image;
    if (test_capture(r, "flushed.png", &image)) {
        CHECK_EQ_INT(test_count_centre_sky(&image, sky), 0);
        stbi_image_free(image.pixels);
    }

    /* Release in a scrambled order; every release must find its chunk. */
    int released = 0;
    for (int i = 0; i < SIDE * SIDE; i++) {
        int k = (i * 137) % (SIDE * SIDE);
        renderer_release_chunk(r, test_chunk_at(TEST_CHUNK_X + k % SIDE - SIDE / 2, TEST_CHUNK_Z + k / SIDE - SIDE / 2));
        released++;
        if (i % 50 == 49) {
            renderer_get_stats(r, &stats);
            CHECK_EQ_INT(stats.chunks_resident, SIDE * SIDE - released);
        }
    }
    /* Releasing an unknown chunk is harmless; a queued chunk released before upload is dropped. */
    renderer_release_chunk(r, test_chunk_at(5, 5));
    renderer_set_chunk_mesh(r, test_chunk_at(7, 7), test_platform_mesh(7, 7));
    renderer_release_chunk(r, test_chunk_at(7, 7));
    renderer_draw(r, &cam, &frame);
    renderer_get_stats(r, &stats);
    CHECK_EQ_INT(stats.chunks_resident, 0);
    CHECK_EQ_INT(stats.uploads_pending, 0);
    CHECK_EQ_INT(stats.chunks_drawn, 0);
    CHECK_EQ_INT(stats.draw_calls, 0);
    /* once the frames in flight are done, the emptied arenas past the first go back */
    for (int i = 0; i < 3; i++)
        renderer_draw(r, &cam, &frame);
    renderer_get_stats(r, &stats);
    CHECK_EQ_INT(stats.arenas, 1);
    renderer_destroy(r);
}

/* renderer_read_pixels: a box of the back buffer, rows top to bottom, the same pixels the screenshot has. */
static void test_read_pixels(void)
{
    Renderer *r = test_create();
    if (!r)
        return;
    RenderCamera cam = test_camera();
    RenderFrame frame = test_frame(0.016f);
    renderer_set_chunk_mesh(r, test_chunk_at(TEST_CHUNK_X, TEST_CHUNK_Z),
                            test_platform_mesh(TEST_CHUNK_X, TEST_CHUNK_Z));
    renderer_flush_uploads(r, &cam);
    renderer_draw(r, &cam, &frame);
    enum { BX = 100, BY = 20, BW = 120, BH = 150 };  /* from the sky rows down into the platform */
    static uint8_t box[BW * BH * 4];
    CHECK_EQ_INT(renderer_read_pixels(r, BX, BY, BW, BH, box), ST_OK);
    TestImage image;
    if (test_capture(r, "read_pixels.png", &image)) {
        int mismatched = 0;
        for (int y = 0; y < BH; y++)
            for (int x = 0; x < BW; x++) {
                const uint8_t *want = test_pixel(&image, BX + x, BY + y), *got = box + ((size_t)y * BW + x) * 4;
                mismatched += want[0] != got[0] || want[1] != got[1] || want[2] != got[2];
            }
        CHECK_EQ_INT(mismatched, 0);
        uint8_t sky[3];
        test_sky_bytes(0.5f, sky);
        CHECK(test_near(box, sky, 3));                                      /* top-left: sky */
        CHECK(!test_near(box + ((size_t)(BH - 1) * BW + BW / 2) * 4, sky, 3)); /* bottom: the platform */
        stbi_image_free(image.pixels);
    }
    uint8_t one[4];
    CHECK_EQ_INT(renderer_read_pixels(r, TEST_WIDTH - 1, TEST_HEIGHT - 1, 1, 1, one), ST_OK);
    CHECK_EQ_INT(renderer_read_pixels(r, TEST_WIDTH - 1, 0, 2, 1, one), ST_ERR_ARG);
    CHECK_STR_CONTAINS(st_error_message(), "outside the 320x200 framebuffer");
    CHECK_EQ_INT(renderer_read_pixels(r, -1, 0, 1, 1, one), ST_ERR_ARG);
    CHECK_EQ_INT(renderer_read_pixels(r, 0, 0, 0, 1, one), ST_ERR_ARG);
    renderer_destroy(r);
}

/* The loading frame: queued meshes go up within the frame's time, no world is drawn (the backdrop and the UI
 * only), and renderer_end_fades shows the uploaded chunks whole at once. */
static void test_loading_and_ui(void)
{
    Renderer *r = test_create();
    if (!r)
        return;
    RenderCamera cam = test_camera();
    RenderFrame frame = test_frame(0.016f);
    frame.upload_ms = 1000.0f;
    enum { SIDE = 5 };
    for (int z = 0; z < SIDE; z++)
        for (int x = 0; x < SIDE; x++)
            renderer_set_chunk_mesh(r, test_chunk_at(TEST_CHUNK_X + x - 2, TEST_CHUNK_Z + z - 2),
                                    test_platform_mesh(TEST_CHUNK_X + x - 2, TEST_CHUNK_Z + z - 2));
    const float backdrop[3] = { 0.0f, 0.0f, 0.0f };
    renderer_ui_rect(r, 10.0f, 20.0f, 30.0f, 10.0f, 0xFF0000FF);
    renderer_ui_text(r, 10.0f, 40.0f, 2.0f, 0xFFFFFFFF, "Loading");
    CHECK(renderer_ui_text_width(r, 2.0f, "Loading") > renderer_ui_text_width(r, 1.0f, "Loading"));
    renderer_ui_block_icon(r, 1, 100.0f, 100.0f, 48.0f);
    renderer_draw_loading(r, &cam, &frame, backdrop);
    RenderStats stats;
    renderer_get_stats(r, &stats);
    CHECK_EQ_INT(stats.uploads_pending, 0);
    CHECK_EQ_INT(stats.chunks_resident, SIDE * SIDE);
    CHECK_EQ_INT(stats.chunks_drawn, 0);
    CHECK_EQ_INT(stats.chunks_fading, SIDE * SIDE);
    TestImage image;
    if (test_capture(r, "loading.png", &image)) {
        const uint8_t red[3] = { 255, 0, 0 }, black[3] = { 0, 0, 0 };
        CHECK(test_near(test_pixel(&image, 25, 25), red, 2));        /* the rectangle */
        CHECK(test_near(test_pixel(&image, 300, 190), black, 2));   /* the backdrop, no world */
        const uint8_t *icon = test_pixel(&image, 124, 112);         /* the icon's top face: textured, lit */
        CHECK(icon[0] + icon[1] + icon[2] > 60);
        int white = 0;
        for (int y = 40; y < 56; y++)
            for (int x = 10; x < 90; x++)
                white += test_pixel(&image, x, y)[0] > 200 && test_pixel(&image, x, y)[2] > 200;
        CHECK(white > 30);                                          /* the text */
        stbi_image_free(image.pixels);
    }
    renderer_end_fades(r);
    renderer_get_stats(r, &stats);
    CHECK_EQ_INT(stats.chunks_fading, 0);
    /* The queue was emptied by the loading frame: a world frame shows no leftover UI. */
    RenderFrame still = test_frame(0.0f);
    renderer_draw(r, &cam, &still);
    if (test_capture(r, "after_loading.png", &image)) {
        uint8_t sky[3];
        test_sky_bytes(0.5f, sky);
        CHECK_EQ_INT(test_count_centre_sky(&image, sky), 0);
        const uint8_t red[3] = { 255, 0, 0 };
        CHECK(!test_near(test_pixel(&image, 25, 25), red, 2));
        stbi_image_free(image.pixels);
    }
    renderer_destroy(r);
}

/* Geometry arenas are made as uploads need them, none ahead: llvmpipe clears a new arena's every page (made
 * ahead for view distance 8 they held 132 MiB for 74 MiB of geometry, and cost the loading ~0.3 s of CPU).
 * Those a loading filled are kept while emptied; a smaller view distance lets the extra ones go. */
static void test_arena_reserve(void)
{
    Renderer *r = test_create();
    if (!r)
        return;
    RenderCamera cam = test_camera();
    RenderFrame frame = test_frame(0.016f);
    frame.upload_ms = 10000.0f;   /* every queued mesh goes up in one loading frame */
    const float backdrop[3] = { 0.0f, 0.0f, 0.0f };
    RenderStats stats;
    renderer_set_view_distance(r, 8);
    for (int i = 0; i < 3; i++)
        renderer_draw_loading(r, &cam, &frame, backdrop);
    renderer_get_stats(r, &stats);
    CHECK_EQ_INT(stats.arenas, 0);   /* no geometry yet: nothing made */

    /* 576 platforms of 320 vertices: one default arena, or 192 of 1024 vertices (test_render_small_arenas) */
    bool small_arenas = getenv("STRATA_ARENA_VERTICES") != NULL;
    enum { SIDE = 24 };
    for (int z = 0; z < SIDE; z++)
        for (int x = 0; x < SIDE; x++)
            renderer_set_chunk_mesh(r, test_chunk_at(x, z), test_platform_mesh(x, z));
    renderer_draw_loading(r, &cam, &frame, backdrop);
    renderer_draw_loading(r, &cam, &frame, backdrop);
    renderer_get_stats(r, &stats);
    CHECK_EQ_INT(stats.uploads_pending, 0);
    int filled = stats.arenas;
    if (small_arenas)
        CHECK(filled >= SIDE * SIDE / 3 && filled <= SIDE * SIDE / 3 + 1); /* three 320-vertex ranges an arena */
    else
        CHECK_EQ_INT(filled, 1);

    for (int z = 0; z < SIDE; z++)
        for (int x = 0; x < SIDE; x++)
            renderer_release_chunk(r, test_chunk_at(x, z));
    for (int i = 0; i < 4; i++)
        renderer_draw(r, &cam, &frame);   /* world frames: the emptied ones the loading filled are kept */
    renderer_get_stats(r, &stats);
    CHECK_EQ_INT(stats.arenas, filled);

    renderer_set_view_distance(r, 1);   /* 9 chunks keep at most 144k vertices */
    renderer_draw_loading(r, &cam, &frame, backdrop);
    for (int i = 0; i < 4; i++)
        renderer_draw(r, &cam, &frame);
    renderer_get_stats(r, &stats);
    if (small_arenas)
        CHECK(stats.arenas < filled && stats.arenas >= 9 * 16000 / 1024 - 1); /* RENDER_ARENA_RESERVE_PER_CHUNK */
    else
        CHECK_EQ_INT(stats.arenas, 1);   /* the first is never dropped */
    renderer_destroy(r);
}

/* The sky dome: the sun's circle over the day, and a dome frame that shows the sun where it should be and
 * keeps the fog colour at the horizon. */
static void test_sky_dome(void)
{
    float sun[3];
    renderer_sun_direction(0.5f, sun);
    CHECK(sun[1] > 0.9f);
    renderer_sun_direction(0.25f, sun);
    CHECK(sun[0] > 0.9f && fabsf(sun[1]) < 1e-3f);
    renderer_sun_direction(0.75f, sun);
    CHECK(sun[0] < -0.9f);
    renderer_sun_direction(0.0f, sun);
    CHECK(sun[1] < -0.9f);
    Renderer *r = test_create();
    if (!r)
        return;
    RenderFrame frame = test_frame(0.016f);
    frame.sky_detail = true;
    RenderCamera cam = test_camera();
    cam.position[1] = 300.0; /* above the clouds */
    renderer_sun_direction(0.5f, sun);
    cam.yaw_deg = 180.0f;    /* the sun leans south (+Z) */
    cam.pitch_deg = (float)(asin(sun[1]) * 180.0 / M_PI);
    renderer_draw(r, &cam, &frame);
    TestImage image;
    if (test_capture(r, "sky_sun.png", &image)) {
        const uint8_t *centre = test_pixel(&image, TEST_WIDTH / 2 + 3, TEST_HEIGHT / 2 + 3); /* off the crosshair */
        CHECK(centre[0] > 240 && centre[1] > 230 && centre[2] > 200); /* the sun's disc */
        stbi_image_free(image.pixels);
    }
    /* At midnight the dome takes its build with stars: some pixels of the sky are well above the night sky's
     * colour (looking south, up, away from the moon, which is high in the north). */
    frame.time_of_day = 0.0f;
    frame.sky_brightness = 0.0f;
    cam.pitch_deg = 45.0f;
    renderer_draw(r, &cam, &frame);
    if (test_capture(r, "sky_stars.png", &image)) {
        int stars = 0;
        for (int y = 0; y < TEST_HEIGHT; y++)
            for (int x = 0; x < TEST_WIDTH; x++)
                if (abs(x - TEST_WIDTH / 2) > 12 || abs(y - TEST_HEIGHT / 2) > 12) /* off the crosshair */
                    stars += test_pixel(&image, x, y)[2] > 120;
        CHECK(stars > 0 && stars < TEST_WIDTH * TEST_HEIGHT / 50);
        stbi_image_free(image.pixels);
    }
    /* Inside a solid block no chunk is drawn (no x-ray); inside water the fog closes in to the water colour. */
    RenderCamera below = test_camera();
    renderer_set_chunk_mesh(r, test_chunk_at(TEST_CHUNK_X, TEST_CHUNK_Z), test_platform_mesh(TEST_CHUNK_X, TEST_CHUNK_Z));
    renderer_flush_uploads(r, &below);
    RenderFrame inside = test_frame(0.016f);
    inside.eye_medium = RENDER_MEDIUM_SOLID;
    renderer_draw(r, &below, &inside);
    RenderStats stats;
    renderer_get_stats(r, &stats);
    CHECK_EQ_INT(stats.chunks_drawn, 0);
    inside.eye_medium = RENDER_MEDIUM_WATER;
    renderer_draw(r, &below, &inside);
    renderer_get_stats(r, &stats);
    CHECK_EQ_INT(stats.chunks_drawn, 1);
    if (test_capture(r, "underwater.png", &image)) {
        const uint8_t *top = test_pixel(&image, TEST_WIDTH / 2, 2);
        CHECK(top[2] > top[0] + 40 && top[2] < 140); /* dark water blue, not the sky */
        stbi_image_free(image.pixels);
    }
    renderer_release_chunk(r, test_chunk_at(TEST_CHUNK_X, TEST_CHUNK_Z));
    renderer_destroy(r);
}

/* A chunk the player edited: its new mesh is uploaded in the next draw even behind a full budget. */
static void test_edited_upload(void)
{
    Renderer *r = test_create();
    if (!r)
        return;
    RenderCamera cam = test_camera();
    RenderFrame frame = test_frame(0.016f);
    RenderStats stats;
    enum { SIDE = 6 };
    for (int z = 0; z < SIDE; z++)
        for (int x = 0; x < SIDE; x++)
            renderer_set_chunk_mesh(r, test_chunk_at(TEST_CHUNK_X + x, TEST_CHUNK_Z + z),
                                    test_platform_mesh(TEST_CHUNK_X + x, TEST_CHUNK_Z + z));
    renderer_flush_uploads(r, &cam);
    /* Everything remeshed at once (a sky light change), and one far chunk edited. */
    for (int z = 0; z < SIDE; z++)
        for (int x = 0; x < SIDE; x++)
            renderer_set_chunk_mesh(r, test_chunk_at(TEST_CHUNK_X + x, TEST_CHUNK_Z + z),
                                    test_platform_mesh(TEST_CHUNK_X + x, TEST_CHUNK_Z + z));
    renderer_mark_edited(r, TEST_CHUNK_X + SIDE - 1, TEST_CHUNK_Z + SIDE - 1);
    renderer_mark_edited(r, TEST_CHUNK_X + 50, TEST_CHUNK_Z); /* unknown to the renderer: ignored */
    frame.upload_ms = 1e-6f; /* the budget's one (the nearest), plus the edited one */
    renderer_draw(r, &cam, &frame);
    renderer_get_stats(r, &stats);
    CHECK_EQ_INT(stats.uploads_pending, SIDE * SIDE - 1 - 1);
    /* The mark outlives the upload for a while: the worker may deliver the chunk's mesh more than once. */
    renderer_set_chunk_mesh(r, test_chunk_at(TEST_CHUNK_X + SIDE - 1, TEST_CHUNK_Z + SIDE - 1),
                            test_platform_mesh(TEST_CHUNK_X + SIDE - 1, TEST_CHUNK_Z + SIDE - 1));
    int before = SIDE * SIDE - 1 - 1 + 1;
    renderer_get_stats(r, &stats);
    CHECK_EQ_INT(stats.uploads_pending, before);
    renderer_draw(r, &cam, &frame);
    renderer_get_stats(r, &stats);
    CHECK(stats.uploads_pending <= before - 1 - 1);
    renderer_destroy(r);
}


static bool test_copy_file(const char *from, const char *to)
{
    char *data = NULL;
    size_t size = 0;
    if (fileio_read_all(from, &data, &size) != ST_OK)
        return false;
    StResult rc = fileio_write_atomic(to, data, size);
    free(data);
    return rc == ST_OK;
}

static void test_errors(void)
{
    static const char *shaders[] = { "terrain.vert", "terrain.frag", "terrain_cutout.frag", "terrain_leaves.frag",
                                     "terrain_fade.glsl",
                                     "overlay.vert", "overlay.frag",
                                     "ui.vert", "ui.frag", "sky.vert", "sky.frag", "far.vert", "far.frag" };
    char dir[300], from[1024], to[1024];
    snprintf(dir, sizeof dir, "%s/shaders", test_tmp);
    CHECK_EQ_INT(fileio_make_dirs(dir), ST_OK);
    for (size_t i = 0; i < sizeof shaders / sizeof shaders[0]; i++) {
        snprintf(from, sizeof from, "%s/%s", STRATA_SHADER_DIR, shaders[i]);
        snprintf(to, sizeof to, "%s/%s", dir, shaders[i]);
        CHECK(test_copy_file(from, to));
    }
    /* A copy of the real shaders works. */
    RendererConfig config = test_config(STRATA_ASSET_DIR, dir);
    Renderer *r = NULL;
    CHECK_EQ_INT(renderer_create(&config, test_get_proc, &r), ST_OK);
    renderer_destroy(r);

    /* A syntax error: ST_ERR_GL naming the file, with the compiler's log. */
    static const char broken[] = "#version 330 core\nout vec4 o_color;\nvoid main() { o_color = vec4(1.0) }\n";
    snprintf(to, sizeof to, "%s/terrain_cutout.frag", dir);
    CHECK_EQ_INT(fileio_write_atomic(to, broken, sizeof broken - 1), ST_OK);
    r = NULL;
    CHECK_EQ_INT(renderer_create(&config, test_get_proc, &r), ST_ERR_GL);
    CHECK(r == NULL);
    CHECK_STR_CONTAINS(st_error_message(), "terrain_cutout.frag");
    CHECK_STR_CONTAINS(st_error_message(), "compile failed");
    CHECK_STR_CONTAINS(st_error_message(), "error");

    /* A missing shader: ST_ERR_IO naming the path. */
    unlink(to);
    CHECK_EQ_INT(renderer_create(&config, test_get_proc, &r), ST_ERR_IO);
    CHECK_STR_CONTAINS(st_error_message(), to);
    snprintf(from, sizeof from, "%s/terrain_cutout.frag", STRATA_SHADER_DIR);
    CHECK(test_copy_file(from, to));

    /* A broken terrain_fade.glsl: only the dissolving builds take it, and they are linked when first drawn, so
     * the renderer starts (a dissolve then logs the error and draws with the clear build). */
    static const char broken_fade[] = "float fade_keep(float share) { return share }\n";
    snprintf(to, sizeof to, "%s/terrain_fade.glsl", dir);
    CHECK_EQ_INT(fileio_write_atomic(to, broken_fade, sizeof broken_fade - 1), ST_OK);
    r = NULL;
    CHECK_EQ_INT(renderer_create(&config, test_get_proc, &r), ST_OK);
    renderer_destroy(r);
    /* A missing one is still missed at the start. */
    unlink(to);
    CHECK_EQ_INT(renderer_create(&config, test_get_proc, &r), ST_ERR_IO);
    CHECK_STR_CONTAINS(st_error_message(), to);

    /* A missing atlas: ST_ERR_IO naming textures/atlas.png under the asset folder. */
    config = test_config(test_tmp, STRATA_SHADER_DIR);
    CHECK_EQ_INT(renderer_create(&config, test_get_proc, &r), ST_ERR_IO);
    CHECK_STR_CONTAINS(st_error_message(), test_tmp);
    CHECK_STR_CONTAINS(st_error_message(), "textures/atlas.png");

    /* A screenshot into a missing folder: ST_ERR_IO naming the path. */
    r = test_create();
    if (r) {
        RenderCamera cam = test_camera();
        RenderFrame frame = test_frame(0.0f);
        renderer_draw(r, &cam, &frame);
        snprintf(to, sizeof to, "%s/no/such/dir/shot.png", test_tmp);
        CHECK_EQ_INT(renderer_screenshot(r, to), ST_ERR_IO);
        CHECK_STR_CONTAINS(st_error_message(), to);
        renderer_destroy(r);
    }

    /* A loader that finds nothing: ST_ERR_GL (last: it leaves glad's function pointers empty). */
    r = NULL;
    config = test_config(STRATA_ASSET_DIR, STRATA_SHADER_DIR);
    CHECK_EQ_INT(renderer_create(&config, test_get_nothing, &r), ST_ERR_GL);
    CHECK(r == NULL);
    CHECK_STR_CONTAINS(st_error_message(), "could not load OpenGL 3.3 core functions");
}

int main(void)
{
    log_set_level(LOG_WARN);
    RUN(test_sky_colors);
    RUN(test_biome_fog);

    int rc = render_fixture_start("test_render");
    if (rc != 0)
        return rc;

    RUN(test_platform_draw);
    RUN(test_subset_mask_and_culling);
    RUN(test_alpha_and_transparent);
    RUN(test_hud_and_outline);
    RUN(test_mesher_platform);
    RUN(test_upload_queue);
    RUN(test_read_pixels);
    RUN(test_edited_upload);
    RUN(test_loading_and_ui);
    RUN(test_arena_reserve);
    RUN(test_sky_dome);
    RUN(test_errors);

    render_fixture_end();
    return check_report();
}
