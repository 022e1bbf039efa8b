/* test_voxelize.c — models become voxels (voxel_model.h): a unit cube at size 16 fills 16^3 cells (+-5%), a
 * 1,000-triangle sphere fills about its volume and is the same twice (byte for byte once saved), colours map to
 * the nearest atlas block (a red-brown glTF to bricks, a grey OBJ to stone, vertex colours, a PNG texture at the
 * UVs), an open mesh keeps only its
 * shell, --fill surface hollows a cube, a fitted tile is exactly its box with air around, unreadable and empty
 * models fail with messages naming the file, and the cache: keyed by the file's bytes, written once, read
 * back to the same template, rebuilt to the same template when deleted. Models are written here. */
#include <math.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "strata/block.h"
#include "strata/fileio.h"
#include "strata/voxel_model.h"

static BlockRegistry *blocks;
static char dir[64];

static const char *tmp_path(const char *name)
{
    static char buf[4][128];
    static int k;
    k = (k + 1) & 3;
    snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
    return buf[k];
}

static void write_text(const char *path, const char *text)
{
    CHECK_EQ_INT(fileio_write_atomic(path, text, strlen(text)), ST_OK);
}

/* A box as OBJ faces, outward winding. */
static void obj_box(FILE *f, int *base, float x0, float y0, float z0, float x1, float y1, float z1)
{
    float v[8][3] = {{x0, y0, z0}, {x1, y0, z0}, {x1, y1, z0}, {x0, y1, z0},
                     {x0, y0, z1}, {x1, y0, z1}, {x1, y1, z1}, {x0, y1, z1}};
    static const int q[6][4] = {{0, 3, 2, 1}, {4, 5, 6, 7}, {0, 1, 5, 4}, {3, 7, 6, 2}, {0, 4, 7, 3}, {1, 2, 6, 5}};
    for (int i = 0; i < 8; i++)
        fprintf(f, "v %g %g %g\n", v[i][0], v[i][1], v[i][2]);
    for (int i = 0; i < 6; i++)
        fprintf(f, "f %d %d %d %d\n", *base + q[i][0], *base + q[i][1], *base + q[i][2], *base + q[i][3]);
    *base += 8;
}

static long count_filled(const VoxelTemplate *t, int block)
{
    long n = 0;
    for (long i = 0; i < (long)t->size[0] * t->size[1] * t->size[2]; i++)
        n += block < -1 ? t->voxels[i] != VOXEL_TEMPLATE_KEEP : t->voxels[i] == block;
    return n;
}

static void test_unit_cube(void)
{
    FILE *f = fopen(tmp_path("cube.obj"), "w");
    int base = 1;
    obj_box(f, &base, 0, 0, 0, 1, 1, 1);
    fclose(f);
    VoxelizeOptions opt = {.size = 16};
    VoxelTemplate t;
    CHECK_EQ_INT(voxel_model_voxelize(tmp_path("cube.obj"), &opt, blocks, &t), ST_OK);
    CHECK(t.size[0] == 16 && t.size[1] == 16 && t.size[2] == 16);
    long n = count_filled(&t, -2);
    fprintf(stderr, "unit cube at size 16: %ld of 4096 cells\n", n);
    CHECK(n >= (long)(4096 * 0.95) && n <= (long)(4096 * 1.05));
    voxel_template_free(&t);
    /* the surface fill keeps the shell: 16^3 - 14^3 */
    opt.fill = VOXELIZE_SURFACE;
    CHECK_EQ_INT(voxel_model_voxelize(tmp_path("cube.obj"), &opt, blocks, &t), ST_OK);
    CHECK_EQ_INT(count_filled(&t, -2), 4096 - 14 * 14 * 14);
    CHECK_EQ_INT(voxel_template_get(&t, 8, 8, 8), VOXEL_TEMPLATE_KEEP);
    voxel_template_free(&t);
    /* --scale: 3 cells per unit of a 2-unit cube */
    f = fopen(tmp_path("cube2.obj"), "w");
    base = 1;
    obj_box(f, &base, -1, 0, -1, 1, 2, 1);
    fclose(f);
    VoxelizeOptions sc = {.scale = 3};
    CHECK_EQ_INT(voxel_model_voxelize(tmp_path("cube2.obj"), &sc, blocks, &t), ST_OK);
    CHECK(t.size[0] == 6 && t.size[1] == 6 && t.size[2] == 6);
    CHECK_EQ_INT(count_filled(&t, -2), 216);
    voxel_template_free(&t);
}

/* A UV sphere of exactly 1,000 triangles: 2 caps of 25 plus 19 rings of 50 (slices 25, stacks 21). */
static void write_sphere(const char *path)
{
    FILE *f = fopen(path, "w");
    const int slices = 25, stacks = 21;
    fprintf(f, "v 0 1 0\n");
    for (int i = 1; i < stacks; i++)
        for (int j = 0; j < slices; j++) {
            double th = M_PI * i / stacks, ph = 2 * M_PI * j / slices;
            fprintf(f, "v %.6f %.6f %.6f\n", sin(th) * cos(ph), cos(th), sin(th) * sin(ph));
        }
    fprintf(f, "v 0 -1 0\n");
    int bottom = 2 + (stacks - 1) * slices;
    for (int j = 0; j < slices; j++)
        fprintf(f, "f 1 %d %d\n", 2 + (j + 1) % slices, 2 + j);
    for (int i = 0; i < stacks - 2; i++)
        for (int j = 0; j < slices; j++) {
            int a = 2 + i * slices + j, b = 2 + i * slices + (j + 1) % slices;
            fprintf(f, "f %d %d %d\nf %d %d %d\n", a, b, b + slices, a, b + slices, a + slices);
        }
    for (int j = 0; j < slices; j++)
        fprintf(f, "f %d %d %d\n", bottom, 2 + (stacks - 2) * slices + j, 2 + (stacks - 2) * slices + (j + 1) % slices);
    fclose(f);
}

static void test_sphere_deterministic(void)
{
    write_sphere(tmp_path("sphere.obj"));
    VoxelizeOptions opt = {.size = 64};
    VoxelTemplate a, b;
    CHECK_EQ_INT(voxel_model_voxelize(tmp_path("sphere.obj"), &opt, blocks, &a), ST_OK);
    CHECK_EQ_INT(voxel_model_voxelize(tmp_path("sphere.obj"), &opt, blocks, &b), ST_OK);
    CHECK(a.size[0] == 64 && a.size[1] == 64 && a.size[2] == 64);
    long n = count_filled(&a, -2);
    fprintf(stderr, "1,000-triangle sphere at size 64: %ld cells (a ball of radius 32: %.0f)\n", n,
            4.0 / 3.0 * M_PI * 32 * 32 * 32);
    /* the cells whose centres lie inside (the polyhedron is a little under the ball's 4/3 pi r^3, r = 32 cells)
     * plus the shell cells its faces reach into, at most one cell per cell of area (4 pi r^2) */
    CHECK(n > (long)(0.95 * 4.0 / 3.0 * M_PI * 32 * 32 * 32));
    CHECK(n < (long)(4.0 / 3.0 * M_PI * 32 * 32 * 32 + 4.0 * M_PI * 32 * 32));
    CHECK(memcmp(a.voxels, b.voxels, sizeof *a.voxels * 64 * 64 * 64) == 0);
    CHECK_EQ_INT(voxel_template_get(&a, 32, 32, 32), voxel_template_get(&a, 32, 40, 32));   /* solid inside */
    CHECK_EQ_INT(voxel_template_get(&a, 0, 0, 0), VOXEL_TEMPLATE_KEEP);
    CHECK_EQ_INT(voxel_template_save(&a, blocks, tmp_path("s1.json")), ST_OK);
    CHECK_EQ_INT(voxel_template_save(&b, blocks, tmp_path("s2.json")), ST_OK);
    char *ta, *tb;
    size_t na, nb;
    CHECK_EQ_INT(fileio_read_all(tmp_path("s1.json"), &ta, &na), ST_OK);
    CHECK_EQ_INT(fileio_read_all(tmp_path("s2.json"), &tb, &nb), ST_OK);
    CHECK(na == nb && memcmp(ta, tb, na) == 0);
    free(ta);
    free(tb);
    voxel_template_free(&a);
    voxel_template_free(&b);
}

/* A glTF (JSON + base64 buffer) of one quad-faced box with a base colour and a vertex-coloured second box. */
static void write_gltf(const char *path, const float rgb[3])
{
    /* 8 corners of the box 0..2, 12 triangles as uint16 */
    static const float v[8][3] = {{0, 0, 0}, {2, 0, 0}, {2, 2, 0}, {0, 2, 0}, {0, 0, 2}, {2, 0, 2}, {2, 2, 2}, {0, 2, 2}};
    static const uint16_t idx[36] = {0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4,
                                     3, 7, 6, 3, 6, 2, 0, 4, 7, 0, 7, 3, 1, 2, 6, 1, 6, 5};
    unsigned char bin[96 + 72];
    memcpy(bin, v, 96);
    memcpy(bin + 96, idx, 72);
    static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char enc[256];
    int k = 0;
    for (int i = 0; i < (int)sizeof bin; i += 3) {
        unsigned n = (unsigned)bin[i] << 16 | (unsigned)(i + 1 < (int)sizeof bin ? bin[i + 1] : 0) << 8 |
                     (unsigned)(i + 2 < (int)sizeof bin ? bin[i + 2] : 0);
        enc[k++] = b64[n >> 18 & 63];
        enc[k++] = b64[n >> 12 & 63];
        enc[k++] = i + 1 < (int)sizeof bin ? b64[n >> 6 & 63] : '=';
        enc[k++] = i + 2 < (int)sizeof bin ? b64[n & 63] : '=';
    }
    enc[k] = 0;
    FILE *f = fopen(path, "w");
    fprintf(f, "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],\"nodes\":[{\"mesh\":0}],"
               "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0},\"indices\":1,\"material\":0}]}],"
               "\"materials\":[{\"pbrMetallicRoughness\":{\"baseColorFactor\":[%g,%g,%g,1]}}],"
               "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":8,\"type\":\"VEC3\",\"min\":[0,0,0],"
               "\"max\":[2,2,2]},{\"bufferView\":1,\"componentType\":5123,\"count\":36,\"type\":\"SCALAR\"}],"
               "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":0,\"byteLength\":96},{\"buffer\":0,\"byteOffset\":96,"
               "\"byteLength\":72}],\"buffers\":[{\"byteLength\":168,\"uri\":\"data:application/octet-stream;base64,%s\"}]}",
            (double)rgb[0], (double)rgb[1], (double)rgb[2], enc);
    fclose(f);
}

static void test_colours(void)
{
    /* glTF base colour: the bricks' atlas mean is about (166, 108, 93) */
    write_gltf(tmp_path("brick.gltf"), (const float[3]){166 / 255.0f, 108 / 255.0f, 93 / 255.0f});
    VoxelizeOptions opt = {.size = 8};
    VoxelTemplate t;
    CHECK_EQ_INT(voxel_model_voxelize(tmp_path("brick.gltf"), &opt, blocks, &t), ST_OK);
    CHECK_EQ_INT(count_filled(&t, BLOCK_BRICKS), 512);
    CHECK_STR_CONTAINS(t.name, "brick");
    voxel_template_free(&t);
    /* an OBJ with a material of the stone tile's grey; --palette limits the choice */
    write_text(tmp_path("grey.mtl"), "newmtl grey\nKd 0.49 0.49 0.49\n");
    FILE *f = fopen(tmp_path("grey.obj"), "w");
    fprintf(f, "mtllib grey.mtl\nusemtl grey\n");
    int base = 1;
    obj_box(f, &base, 0, 0, 0, 1, 1, 1);
    fclose(f);
    CHECK_EQ_INT(voxel_model_voxelize(tmp_path("grey.obj"), &opt, blocks, &t), ST_OK);
    CHECK_EQ_INT(count_filled(&t, BLOCK_STONE), 512);
    voxel_template_free(&t);
    opt.palette = "planks,snow";
    CHECK_EQ_INT(voxel_model_voxelize(tmp_path("grey.obj"), &opt, blocks, &t), ST_OK);
    CHECK_EQ_INT(count_filled(&t, BLOCK_PLANKS), 512);   /* grey is nearer planks than snow */
    voxel_template_free(&t);
    opt.palette = "planks,nonsense";
    CHECK_EQ_INT(voxel_model_voxelize(tmp_path("grey.obj"), &opt, blocks, &t), ST_ERR_ARG);
    CHECK_STR_CONTAINS(st_error_message(), "nonsense");
    /* vertex colours win over the material (OBJ's "v x y z r g b") */
    f = fopen(tmp_path("green.obj"), "w");
    fprintf(f, "v 0 0 0 0.29 0.51 0.23\nv 1 0 0 0.29 0.51 0.23\nv 1 1 0 0.29 0.51 0.23\nv 0 1 0 0.29 0.51 0.23\n"
               "v 0 0 1 0.29 0.51 0.23\nv 1 0 1 0.29 0.51 0.23\nv 1 1 1 0.29 0.51 0.23\nv 0 1 1 0.29 0.51 0.23\n"
               "f 1 4 3 2\nf 5 6 7 8\nf 1 2 6 5\nf 4 8 7 3\nf 1 5 8 4\nf 2 3 7 6\n");
    fclose(f);
    opt.palette = NULL;
    CHECK_EQ_INT(voxel_model_voxelize(tmp_path("green.obj"), &opt, blocks, &t), ST_OK);
    CHECK_EQ_INT(count_filled(&t, BLOCK_CACTUS), 512);   /* the cactus tile's green */
    voxel_template_free(&t);
}

/* A PNG texture (map_Kd beside the OBJ) gives the colour: left half the cactus tile's green, right half the
 * planks' brown; UVs map the cube's faces onto one half or the other. */
static void test_texture(void)
{
    uint8_t px[4 * 4 * 3];
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 4; x++) {
            uint8_t *p = px + 3 * (y * 4 + x);
            const uint8_t green[3] = {74, 130, 59}, brown[3] = {152, 119, 74};
            memcpy(p, x < 2 ? green : brown, 3);
        }
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    img.width = img.height = 4;
    img.format = PNG_FORMAT_RGB;
    CHECK(png_image_write_to_file(&img, tmp_path("tex.png"), 0, px, 0, NULL) != 0);
    write_text(tmp_path("tex.mtl"), "newmtl t\nKd 1 1 1\nmap_Kd tex.png\n");
    for (int half = 0; half < 2; half++) {
        FILE *f = fopen(tmp_path("tex.obj"), "w");
        float u = half ? 0.875f : 0.125f;
        fprintf(f, "mtllib tex.mtl\nusemtl t\nvt %g 0.5\n", (double)u);
        fprintf(f, "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n"
                   "f 1/1 4/1 3/1 2/1\nf 5/1 6/1 7/1 8/1\nf 1/1 2/1 6/1 5/1\nf 4/1 8/1 7/1 3/1\nf 1/1 5/1 8/1 4/1\n"
                   "f 2/1 3/1 7/1 6/1\n");
        fclose(f);
        VoxelizeOptions opt = {.size = 4};
        VoxelTemplate t;
        CHECK_EQ_INT(voxel_model_voxelize(tmp_path("tex.obj"), &opt, blocks, &t), ST_OK);
        CHECK_EQ_INT(count_filled(&t, half ? BLOCK_PLANKS : BLOCK_CACTUS), 64);
        voxel_template_free(&t);
    }
}

static void test_open_and_fit(void)
{
    /* an open box (no +z side): the rows through its inside do not balance, only the shell stays */
    FILE *f = fopen(tmp_path("open.obj"), "w");
    fprintf(f, "v 0 0 0\nv 4 0 0\nv 4 4 0\nv 0 4 0\nv 0 0 4\nv 4 0 4\nv 4 4 4\nv 0 4 4\n"
               "f 1 4 3 2\nf 1 2 6 5\nf 4 8 7 3\nf 1 5 8 4\nf 2 3 7 6\n");
    fclose(f);
    VoxelizeOptions opt = {.size = 8};
    VoxelTemplate t;
    CHECK_EQ_INT(voxel_model_voxelize(tmp_path("open.obj"), &opt, blocks, &t), ST_OK);
    CHECK_EQ_INT(voxel_template_get(&t, 4, 4, 4), VOXEL_TEMPLATE_KEEP);
    CHECK(voxel_template_get(&t, 4, 4, 0) != VOXEL_TEMPLATE_KEEP);   /* the -z wall, on the grid's plane z = 0 */
    CHECK_EQ_INT(voxel_template_get(&t, 4, 4, 7), VOXEL_TEMPLATE_KEEP); /* no +z side */
    CHECK(voxel_template_get(&t, 4, 7, 4) != VOXEL_TEMPLATE_KEEP);      /* the top */
    CHECK_EQ_INT(count_filled(&t, -2), 8 * 8 * 8 - 6 * 7 * 6);
    voxel_template_free(&t);
    /* fitted to a 6 x 5 x 6 tile: exactly that box, the model centred in x and z, air around it */
    f = fopen(tmp_path("post.obj"), "w");
    int base = 1;
    obj_box(f, &base, 0, 0, 0, 1, 5, 1);
    fclose(f);
    VoxelizeOptions fit = {.fit = {6, 5, 6}};
    CHECK_EQ_INT(voxel_model_voxelize(tmp_path("post.obj"), &fit, blocks, &t), ST_OK);
    CHECK(t.size[0] == 6 && t.size[1] == 5 && t.size[2] == 6);
    CHECK_EQ_INT(count_filled(&t, BLOCK_AIR), 6 * 5 * 6 - 5);
    CHECK(voxel_template_get(&t, 2, 0, 2) != BLOCK_AIR && voxel_template_get(&t, 2, 4, 2) != BLOCK_AIR);
    voxel_template_free(&t);
}

static void test_errors(void)
{
    VoxelizeOptions opt = {.size = 16};
    VoxelTemplate t;
    CHECK_EQ_INT(voxel_model_voxelize(tmp_path("missing.glb"), &opt, blocks, &t), ST_ERR_IO);
    CHECK_STR_CONTAINS(st_error_message(), "missing.glb");
    write_text(tmp_path("junk.glb"), "this is not a model at all\n");
    CHECK_EQ_INT(voxel_model_voxelize(tmp_path("junk.glb"), &opt, blocks, &t), ST_ERR_IO);
    CHECK_STR_CONTAINS(st_error_message(), "junk.glb");
    write_text(tmp_path("empty.obj"), "# nothing\nv 0 0 0\nv 1 0 0\n");
    StResult rc = voxel_model_voxelize(tmp_path("empty.obj"), &opt, blocks, &t);
    CHECK(rc == ST_ERR_FORMAT || rc == ST_ERR_IO);
    CHECK_STR_CONTAINS(st_error_message(), "empty.obj");
    CHECK(t.voxels == NULL);
    write_sphere(tmp_path("big.obj"));
    VoxelizeOptions huge = {.scale = 1000};
    CHECK_EQ_INT(voxel_model_voxelize(tmp_path("big.obj"), &huge, blocks, &t), ST_ERR_ARG);
    CHECK_STR_CONTAINS(st_error_message(), "at most 256");
    CHECK(!voxel_model_is_model("a/b.json") && voxel_model_is_model("bank.glb") && voxel_model_is_model("t.FBX"));
}

static void test_cache(void)
{
    write_sphere(tmp_path("c.obj"));
    VoxelizeOptions opt = {.size = 20};
    char cache[96], file[256], file2[256];
    snprintf(cache, sizeof cache, "%s/models", dir);
    VoxelTemplate a, b, c;
    CHECK_EQ_INT(voxel_model_load_cached(tmp_path("c.obj"), &opt, cache, blocks, &a, file, sizeof file), ST_OK);
    CHECK(access(file, R_OK) == 0);
    CHECK_STR_CONTAINS(file, "/models/");
    /* the cache file, not the model, answers the second time: a changed cache file shows */
    CHECK_EQ_INT(voxel_model_load_cached(tmp_path("c.obj"), &opt, cache, blocks, &b, file2, sizeof file2), ST_OK);
    CHECK(strcmp(file, file2) == 0);
    CHECK(memcmp(a.voxels, b.voxels, sizeof *a.voxels * 20 * 20 * 20) == 0);
    voxel_template_free(&b);
    /* rebuilt after deleting it: the same template */
    CHECK_EQ_INT(unlink(file), 0);
    CHECK_EQ_INT(voxel_model_load_cached(tmp_path("c.obj"), &opt, cache, blocks, &c, NULL, 0), ST_OK);
    CHECK(memcmp(a.voxels, c.voxels, sizeof *a.voxels * 20 * 20 * 20) == 0);
    voxel_template_free(&c);
    /* the key follows the bytes and the options */
    uint64_t k1, k2, k3;
    CHECK_EQ_INT(voxel_model_cache_key(tmp_path("c.obj"), &opt, &k1), ST_OK);
    opt.size = 21;
    CHECK_EQ_INT(voxel_model_cache_key(tmp_path("c.obj"), &opt, &k2), ST_OK);
    FILE *f = fopen(tmp_path("c.obj"), "a");
    fprintf(f, "# one more line\n");
    fclose(f);
    opt.size = 20;
    CHECK_EQ_INT(voxel_model_cache_key(tmp_path("c.obj"), &opt, &k3), ST_OK);
    CHECK(k1 != k2 && k1 != k3);
    voxel_template_free(&a);
}

static uint64_t key_of(const char *name)
{
    VoxelizeOptions opt = {.size = 8};
    uint64_t k = 0;
    CHECK_EQ_INT(voxel_model_cache_key(tmp_path(name), &opt, &k), ST_OK);
    return k;
}

/* The key follows the files a model names beside it: an OBJ's .mtl and its map_Kd, a glTF's buffers and
 * images (escaped URIs decoded, data: URIs skipped), a .glb's external ones. */
static void test_cache_companions(void)
{
    write_text(tmp_path("m.obj"), "mtllib m.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl a\nf 1 2 3\n");
    write_text(tmp_path("m.mtl"), "newmtl a\nKd 1 0 0\n  map_Kd -s 1 1 1 skin.png \r\n");
    uint64_t no_tex = key_of("m.obj");
    write_text(tmp_path("skin.png"), "one");
    uint64_t tex1 = key_of("m.obj");
    write_text(tmp_path("skin.png"), "two");
    uint64_t tex2 = key_of("m.obj");
    write_text(tmp_path("m.mtl"), "newmtl a\nKd 0 1 0\n  map_Kd -s 1 1 1 skin.png \r\n");
    uint64_t mtl2 = key_of("m.obj");
    CHECK(no_tex != tex1 && tex1 != tex2 && tex2 != mtl2 && no_tex != mtl2);
    CHECK_EQ_INT(key_of("m.obj"), mtl2);   /* nothing changed: the same key */

    write_text(tmp_path("g.gltf"), "{\"asset\": {\"version\": \"2.0\"}, \"buffers\": [{\"uri\": \"g%20data.bin\", "
                                   "\"byteLength\": 4}, {\"uri\": \"data:application/octet-stream;base64,AAAA\"}],"
                                   " \"images\": [{\"uri\": \"g.png\"}]}");
    write_text(tmp_path("g data.bin"), "abcd");
    write_text(tmp_path("g.png"), "png1");
    uint64_t g1 = key_of("g.gltf");
    write_text(tmp_path("g data.bin"), "abce");
    uint64_t g2 = key_of("g.gltf");
    write_text(tmp_path("g.png"), "png2");
    uint64_t g3 = key_of("g.gltf");
    CHECK(g1 != g2 && g2 != g3 && g1 != g3);

    /* a .glb: 12-byte header, then the JSON chunk (length, "JSON", text padded to 4) naming an external image */
    const char json[] = "{\"images\": [{\"uri\": \"g.png\"}]} ";   /* 32 bytes */
    FILE *f = fopen(tmp_path("e.glb"), "wb");
    uint32_t head[5] = {0x46546c67u, 2, 20 + 32, 32, 0x4e4f534au};
    fwrite(head, 4, 5, f);
    fwrite(json, 1, 32, f);
    fclose(f);
    uint64_t e1 = key_of("e.glb");
    write_text(tmp_path("g.png"), "png3");
    CHECK(key_of("e.glb") != e1);
}

/* The cache folder: beside a written world, else the user's cache; a bad cache file is replaced by the same bytes. */
static void test_cache_dir_and_bad_file(void)
{
    char out[256], want[256];
    const char *home = getenv("HOME"), *xdg = getenv("XDG_CACHE_HOME");
    char saved_home[256] = "", saved_xdg[256] = "";
    snprintf(saved_home, sizeof saved_home, "%s", home ? home : "");
    snprintf(saved_xdg, sizeof saved_xdg, "%s", xdg ? xdg : "");
    setenv("XDG_CACHE_HOME", "/x/cache", 1);
    setenv("HOME", "/h", 1);
    voxel_model_cache_dir("/w/one", true, out, sizeof out);
    CHECK(!strcmp(out, "/w/one/models"));
    voxel_model_cache_dir("/w/one", false, out, sizeof out);   /* a read-only world is not written into */
    CHECK(!strcmp(out, "/x/cache/strata/models"));
    setenv("XDG_CACHE_HOME", "relative", 1);                   /* ignored, as the XDG rule says */
    voxel_model_cache_dir(NULL, false, out, sizeof out);
    CHECK(!strcmp(out, "/h/.cache/strata/models"));
    unsetenv("XDG_CACHE_HOME");
    unsetenv("HOME");
    voxel_model_cache_dir(NULL, true, out, sizeof out);
    CHECK(!strcmp(out, ""));
    if (saved_home[0]) setenv("HOME", saved_home, 1);
    if (saved_xdg[0]) setenv("XDG_CACHE_HOME", saved_xdg, 1);

    write_sphere(tmp_path("b.obj"));
    VoxelizeOptions opt = {.size = 12};
    char cache[96], file[256];
    snprintf(cache, sizeof cache, "%s/bad-cache", dir);
    VoxelTemplate t;
    CHECK_EQ_INT(voxel_model_load_cached(tmp_path("b.obj"), &opt, cache, blocks, &t, file, sizeof file), ST_OK);
    voxel_template_free(&t);
    char *orig = NULL, *again = NULL;
    size_t n = 0, m = 0;
    CHECK_EQ_INT(fileio_read_all(file, &orig, &n), ST_OK);
    static const char *const BAD[3] = {"{\"size\": [12, 12", "not json at all", "{\"size\": [1, 1, 1]}"};
    for (int i = 0; i < 3 && orig; i++) {
        snprintf(want, sizeof want, "%s", BAD[i]);
        write_text(file, want);
        CHECK_EQ_INT(voxel_model_load_cached(tmp_path("b.obj"), &opt, cache, blocks, &t, NULL, 0), ST_OK);
        CHECK(t.voxels != NULL && t.size[0] == 12);
        voxel_template_free(&t);
        CHECK_EQ_INT(fileio_read_all(file, &again, &m), ST_OK);
        CHECK(again && m == n && memcmp(again, orig, n) == 0);
        free(again);
        again = NULL;
    }
    free(orig);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/strata_voxelize_XXXXXX");
    if (!mkdtemp(dir))
        return 1;
    CHECK_EQ_INT(block_registry_load("assets/blocks.json", &blocks), ST_OK);
    RUN(test_unit_cube);
    RUN(test_sphere_deterministic);
    RUN(test_colours);
    RUN(test_texture);
    RUN(test_open_and_fit);
    RUN(test_errors);
    RUN(test_cache);
    RUN(test_cache_companions);
    RUN(test_cache_dir_and_bad_file);
    block_registry_destroy(blocks);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return check_report();
}
