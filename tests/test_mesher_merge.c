/* test_mesher_merge.c — greedy merging shows exactly what the unmerged mesh shows.
 *
 * Each test volume is meshed twice, with merging off and on. Every axis-aligned quad of both meshes is
 * rasterized on a 1/16-block grid of its plane: at each sample point the covered (subset, facing, plane,
 * position) gets the interpolated colour (through the quad's own two triangles) and the texel it shows
 * (tile and texel within the tile, the tile repeating across a merged quad as the shader does). The two
 * sorted sample lists must match one to one (same coverage: no gap, no overlap) with equal colours and
 * texels (leaves' faces merge in the alpha-tested subset too); the quads that are not axis-aligned (crossed
 * plants) must be byte-identical, in order. The merged mesh must also have fewer quads where faces can
 * merge (a flat floor: one quad per slice; a sheet of leaves in full light: two quads, top and bottom). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "world_fixture.h"
#include "mesh_fixture.h"
#include "strata/block.h"
#include "strata/cell.h"
#include "strata/light.h"
#include "strata/mesher.h"
#include "strata/terrain.h"

static BlockRegistry *blocks;
static LightContext *lctx;
static MesherContext *plain, *merged;

typedef struct Sample {
    int32_t key[5];        /* subset, facing, plane (1/16 blocks), s, t (1/16 blocks) */
    int32_t texel[4];      /* tile u, tile v, texel u, texel v */
    float color[4];
} Sample;

typedef struct SampleList {
    Sample *data;
    int count, capacity;
} SampleList;

static void samples_push(SampleList *l, const Sample *s)
{
    if (l->count == l->capacity) {
        l->capacity = l->capacity ? l->capacity * 2 : 4096;
        l->data = realloc(l->data, (size_t)l->capacity * sizeof *l->data);
    }
    l->data[l->count++] = *s;
}

static float axis_of(const TerrainVertex *v, int a) { return a == 0 ? v->x : a == 1 ? v->y : v->z; }

/* Barycentric weights of p in triangle (a, b, c) in 2D; false if outside. */
static bool barycentric(const float a[2], const float b[2], const float c[2], const float p[2], float w[3])
{
    float d = (b[1] - c[1]) * (a[0] - c[0]) + (c[0] - b[0]) * (a[1] - c[1]);
    if (d == 0.0f) return false;
    w[0] = ((b[1] - c[1]) * (p[0] - c[0]) + (c[0] - b[0]) * (p[1] - c[1])) / d;
    w[1] = ((c[1] - a[1]) * (p[0] - c[0]) + (a[0] - c[0]) * (p[1] - c[1])) / d;
    w[2] = 1.0f - w[0] - w[1];
    const float eps = -1e-5f;
    return w[0] >= eps && w[1] >= eps && w[2] >= eps;
}

static void rasterize_quad(SampleList *out, int subset, const TerrainVertex *v)
{
    float a[3] = {v[1].x - v[0].x, v[1].y - v[0].y, v[1].z - v[0].z};
    float b[3] = {v[2].x - v[0].x, v[2].y - v[0].y, v[2].z - v[0].z};
    float n[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
    int axis = -1, zeros = 0;
    for (int i = 0; i < 3; i++) {
        if (n[i] == 0.0f) zeros++;
        else axis = i;
    }
    if (zeros != 2) return;   /* not axis-aligned: plants, compared vertex for vertex */
    int sa = (axis + 1) % 3, ta = (axis + 2) % 3;
    float p2[4][2], lo[2] = {1e9f, 1e9f}, hi[2] = {-1e9f, -1e9f};
    for (int k = 0; k < 4; k++) {
        p2[k][0] = axis_of(&v[k], sa);
        p2[k][1] = axis_of(&v[k], ta);
        for (int i = 0; i < 2; i++) {
            lo[i] = fminf(lo[i], p2[k][i]);
            hi[i] = fmaxf(hi[i], p2[k][i]);
        }
    }
    int tile_u = v[0].tx / MESHER_UV_TILE_STRIDE, tile_v = v[0].ty / MESHER_UV_TILE_STRIDE;
    static const int tri[2][3] = {{0, 1, 2}, {0, 2, 3}};
    for (int si = (int)floorf(lo[0] * 16); si < (int)ceilf(hi[0] * 16); si++)
        for (int ti = (int)floorf(lo[1] * 16); ti < (int)ceilf(hi[1] * 16); ti++) {
            float p[2] = {((float)si + 0.5f) / 16.0f, ((float)ti + 0.5f) / 16.0f};
            for (int tr = 0; tr < 2; tr++) {
                const int *i3 = tri[tr];
                float w[3];
                if (!barycentric(p2[i3[0]], p2[i3[1]], p2[i3[2]], p, w)) continue;
                Sample s = {{subset, axis * 2 + (n[axis] > 0), (int)lrintf(axis_of(&v[0], axis) * 16), si, ti}, {0}, {0}};
                float lu = 0, lv = 0;
                for (int k = 0; k < 3; k++) {
                    const TerrainVertex *q = &v[i3[k]];
                    lu += w[k] * (float)(q->tx - tile_u * MESHER_UV_TILE_STRIDE);
                    lv += w[k] * (float)(q->ty - tile_v * MESHER_UV_TILE_STRIDE);
                    for (int c = 0; c < 4; c++) s.color[c] += w[k] * q->color[c];
                }
                s.texel[0] = tile_u;
                s.texel[1] = tile_v;
                s.texel[2] = (int)floorf(lu) & 15;
                s.texel[3] = (int)floorf(lv) & 15;
                samples_push(out, &s);
                break;   /* each point once per quad (the shared diagonal) */
            }
        }
}

static int sample_compare(const void *pa, const void *pb)
{
    const Sample *a = pa, *b = pb;
    for (int i = 0; i < 5; i++)
        if (a->key[i] != b->key[i]) return a->key[i] < b->key[i] ? -1 : 1;
    return 0;
}

static void rasterize_mesh(const ChunkMesh *m, SampleList *out)
{
    out->count = 0;
    for (int s = 0; s < MESH_SUBSET_COUNT; s++) {
        for (int q = 0; q < m->subsets[s].count / 4; q++) rasterize_quad(out, s, &m->subsets[s].data[q * 4]);
    }
    qsort(out->data, (size_t)out->count, sizeof *out->data, sample_compare);
}

static void world_light(Terrain *t) { mesh_fixture_light(t, blocks, lctx); }

static ChunkMesh *mesh_with(Terrain *t, int cx, int cz, MesherContext *ctx) { return mesh_fixture_build(t, cx, cz, blocks, ctx); }

static void world_destroy(Terrain *t) { mesh_fixture_destroy(t); }

static bool quad_axis_aligned(const TerrainVertex *v)
{
    float a[3] = {v[1].x - v[0].x, v[1].y - v[0].y, v[1].z - v[0].z};
    float b[3] = {v[2].x - v[0].x, v[2].y - v[0].y, v[2].z - v[0].z};
    float n[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
    return (n[0] == 0.0f) + (n[1] == 0.0f) + (n[2] == 0.0f) == 2;
}

/* The quads of a list that are not axis-aligned, in order (caller frees data). */
static VertexList diagonal_quads(const VertexList *l)
{
    VertexList out = {malloc((size_t)(l->count + 4) * sizeof(TerrainVertex)), 0, l->count + 4};
    for (int q = 0; q + 4 <= l->count; q += 4)
        if (!quad_axis_aligned(&l->data[q])) {
            memcpy(&out.data[out.count], &l->data[q], 4 * sizeof(TerrainVertex));
            out.count += 4;
        }
    return out;
}

/* Compares the merged and unmerged meshes of chunk (cx, cz); returns (unmerged quads, merged quads). */
static void compare_chunk(Terrain *t, int cx, int cz, int *quads_plain, int *quads_merged)
{
    ChunkMesh *a = mesh_with(t, cx, cz, plain);
    ChunkMesh *b = mesh_with(t, cx, cz, merged);
    CHECK(a && b);
    if (!a || !b) return;
    SampleList sa = {0}, sb = {0};
    rasterize_mesh(a, &sa);
    rasterize_mesh(b, &sb);
    CHECK_EQ_INT(sb.count, sa.count);
    int key_diff = 0, texel_diff = 0, color_diff = 0;
    for (int i = 0; i < sa.count && i < sb.count; i++) {
        if (sample_compare(&sa.data[i], &sb.data[i])) key_diff++;
        else if (memcmp(sa.data[i].texel, sb.data[i].texel, sizeof sa.data[i].texel)) texel_diff++;
        else
            for (int c = 0; c < 4; c++)
                if (fabsf(sa.data[i].color[c] - sb.data[i].color[c]) > 0.01f) {
                    color_diff++;
                    break;
                }
    }
    CHECK_EQ_INT(key_diff, 0);
    CHECK_EQ_INT(texel_diff, 0);
    CHECK_EQ_INT(color_diff, 0);
    /* quads that are not axis-aligned (plants): untouched, in order */
    VertexList da = diagonal_quads(&a->subsets[MESH_SUBSET_ALPHA_TESTED]);
    VertexList db = diagonal_quads(&b->subsets[MESH_SUBSET_ALPHA_TESTED]);
    CHECK_EQ_INT(db.count, da.count);
    CHECK(da.count == db.count && (da.count == 0 || !memcmp(da.data, db.data, (size_t)da.count * sizeof *da.data)));
    free(da.data);
    free(db.data);
    CHECK_EQ_INT(b->min_y, a->min_y);
    CHECK_EQ_INT(b->max_y, a->max_y);
    *quads_plain += chunk_mesh_vertex_count(a) / 4;
    *quads_merged += chunk_mesh_vertex_count(b) / 4;
    free(sa.data);
    free(sb.data);
    chunk_mesh_destroy(a);
    chunk_mesh_destroy(b);
}

/* ---- volumes ---- */

static int fill_floor(int x, int y, int z) { (void)x; (void)z; return y <= 64 ? BLOCK_STONE : BLOCK_AIR; }

static int hills_height(int x, int z)
{
    return 62 + (int)lrintf(6.0f * sinf((float)x * 0.3f) + 4.0f * cosf((float)z * 0.23f));
}

/* Hills of grass over dirt and stone with ores, a sea at 60 over sand, a cave, snow layers on the hills. */
static int fill_hills(int x, int y, int z)
{
    int h = hills_height(x, z);
    int dx = x - 5, dy = y - 52, dz = z - 6;
    if (dx * dx + dy * dy + dz * dz < 20) return BLOCK_AIR;
    if (y < h - 3) return (x * 7 + y * 3 + z * 5) % 17 == 0 ? BLOCK_COAL_ORE : (x + z) % 9 == 0 ? BLOCK_GRANITE : BLOCK_STONE;
    if (y < h) return BLOCK_DIRT;
    if (y == h) return h >= 60 ? BLOCK_GRASS : BLOCK_SAND;
    if (y <= 60) return BLOCK_WATER;
    if (y == h + 1 && h >= 66 && x % 3 != 0) return BLOCK_SNOW_LAYER;
    return BLOCK_AIR;
}

/* Stairs and a checkerboard: faces that must not merge across different tiles and shading. */
static int fill_steps(int x, int y, int z)
{
    int h = 60 + ((x & 15) / 3);
    if (y > h) return BLOCK_AIR;
    return ((x + z) & 1) ? BLOCK_STONE : BLOCK_GRANITE;
}

static void test_flat_floor(void)
{
    Terrain *t = world_make(2, fill_floor);
    world_light(t);
    int qa = 0, qb = 0;
    compare_chunk(t, 0, 0, &qa, &qb);
    CHECK_EQ_INT(qa, 256);   /* the floor's top faces, one per column */
    CHECK_EQ_INT(qb, 1);     /* uniform full light: one quad */
    world_destroy(t);
}

/* A floating 16 x 16 sheet of leaves in full sunlight over a stone floor far below. */
static int fill_leaf_sheet(int x, int y, int z)
{
    (void)x;
    (void)z;
    return y == 100 ? BLOCK_OAK_LEAVES : y <= 20 ? BLOCK_STONE : BLOCK_AIR;
}

static void test_leaf_sheet(void)
{
    Terrain *t = world_make(2, fill_leaf_sheet);
    world_light(t);
    int qa = 0, qb = 0;
    compare_chunk(t, 0, 0, &qa, &qb);
    ChunkMesh *a = mesh_with(t, 0, 0, plain), *b = mesh_with(t, 0, 0, merged);
    CHECK(a && b);
    if (a && b) {
        /* unmerged: 256 tops and 256 bottoms (the sheet's edges face leaves of the next chunks) */
        CHECK_EQ_INT(a->subsets[MESH_SUBSET_ALPHA_TESTED].count / 4, 512);
        CHECK_EQ_INT(b->subsets[MESH_SUBSET_ALPHA_TESTED].count / 4, 2);
    }
    chunk_mesh_destroy(a);
    chunk_mesh_destroy(b);
    world_destroy(t);
}

static void test_hills(void)
{
    Terrain *t = world_make(2, fill_hills);
    /* a tree on a hill, a torch in the cave, glass and ice by the sea */
    int th = hills_height(8, 8);
    for (int y = th + 1; y <= th + 5; y++) terrain_set_cell_value(t, 8, y, 8, cell_make(BLOCK_OAK_TRUNK, 0));
    for (int x = 6; x <= 10; x++)
        for (int z = 6; z <= 10; z++)
            for (int y = th + 4; y <= th + 6; y++)
                if (x != 8 || z != 8 || y > th + 5) terrain_set_cell_value(t, x, y, z, cell_make(BLOCK_OAK_LEAVES, 0));
    terrain_set_cell_value(t, 5, 50, 6, cell_make(BLOCK_TORCH, 0));
    terrain_set_cell_value(t, 12, 61, 3, cell_make(BLOCK_GLASS, 0));
    terrain_set_cell_value(t, 13, 60, 3, cell_make(BLOCK_ICE, 0));
    world_light(t);
    int qa = 0, qb = 0;
    for (int cz = -1; cz <= 1; cz++)
        for (int cx = -1; cx <= 1; cx++) compare_chunk(t, cx, cz, &qa, &qb);
    printf("hills: %d quads unmerged, %d merged\n", qa, qb);
    CHECK(qb < qa);   /* gradients of light and AO in both axes keep many faces apart */
    world_destroy(t);
}

static void test_steps(void)
{
    Terrain *t = world_make(2, fill_steps);
    world_light(t);
    int qa = 0, qb = 0;
    compare_chunk(t, 0, 0, &qa, &qb);
    compare_chunk(t, 1, 1, &qa, &qb);
    CHECK(qb <= qa);
    world_destroy(t);
}

int main(void)
{
    if (block_registry_load("assets/blocks.json", &blocks) != ST_OK) {
        fprintf(stderr, "cannot load assets/blocks.json: %s\n", st_error_message());
        return 1;
    }
    lctx = light_context_create();
    plain = mesher_context_create();
    merged = mesher_context_create();
    mesher_context_set_merge(plain, false);
    mesher_context_set_lod(plain, false);    /* merging's exactness at full resolution; the half-resolution */
    mesher_context_set_lod(merged, false);   /* copy's merged area: test_mesher_lod.c */
    RUN(test_flat_floor);
    RUN(test_leaf_sheet);
    RUN(test_hills);
    RUN(test_steps);
    mesher_context_destroy(plain);
    mesher_context_destroy(merged);
    light_context_destroy(lctx);
    block_registry_destroy(blocks);
    return check_report();
}
