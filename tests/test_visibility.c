/* test_visibility.c — occlusion culling (visibility.h): slice graphs and the walk.
 *
 * Graphs: hand-made volumes with known answers, and random volumes against a brute-force reference (a
 * union-find over the cells). The mesher's graphs: a meshed world's slices (air open, buried stone closed).
 * The walk, on a meshed world of stone under air: a cave sealed in the stone is culled, the same cave under
 * an open shaft is not; an unknown chunk counts as open; a frustum plane cuts what lies behind it. The
 * occluders: a pillar behind a wall is dropped, one rising above the wall's shadow is not; over random hills,
 * and over random walls and pillars, every box the horizon hides is hidden from every ray (brute force
 * against the columns). Draw runs: the
 * slice ranges of a subset-major mesh. A camera no chunk coordinate can hold (NaN, infinite, past 1e9 blocks)
 * judges nothing. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "world_fixture.h"
#include "strata/block.h"
#include "strata/light.h"
#include "strata/mesher.h"
#include "strata/rng.h"
#include "strata/visibility.h"

static BlockRegistry *blocks;

/* ---- graphs ---- */

static void set_opaque(uint16_t v[256], int x, int y, int z, bool opaque)
{
    if (opaque) v[x + 16 * z] |= (uint16_t)(1u << y);
    else v[x + 16 * z] &= (uint16_t)~(1u << y);
}

static int uf_find(int *p, int i)
{
    while (p[i] != i) i = p[i] = p[p[i]];
    return i;
}

/* The graph by brute force: union neighbouring open cells, then per component the faces it touches. */
static uint16_t reference_graph(const uint16_t v[256])
{
    static int parent[4096];
    unsigned faces[4096];
    for (int i = 0; i < 4096; i++) {
        parent[i] = i;
        faces[i] = 0;
    }
#define OPEN(x, y, z) (!((v[(x) + 16 * (z)] >> (y)) & 1u))
#define IDX(x, y, z) ((x) + 16 * (y) + 256 * (z))
    for (int z = 0; z < 16; z++)
        for (int y = 0; y < 16; y++)
            for (int x = 0; x < 16; x++) {
                if (!OPEN(x, y, z)) continue;
                if (x < 15 && OPEN(x + 1, y, z)) parent[uf_find(parent, IDX(x, y, z))] = uf_find(parent, IDX(x + 1, y, z));
                if (y < 15 && OPEN(x, y + 1, z)) parent[uf_find(parent, IDX(x, y, z))] = uf_find(parent, IDX(x, y + 1, z));
                if (z < 15 && OPEN(x, y, z + 1)) parent[uf_find(parent, IDX(x, y, z))] = uf_find(parent, IDX(x, y, z + 1));
            }
    for (int z = 0; z < 16; z++)
        for (int y = 0; y < 16; y++)
            for (int x = 0; x < 16; x++) {
                if (!OPEN(x, y, z)) continue;
                unsigned f = (x == 0) << VISIBILITY_FACE_NEG_X | (x == 15) << VISIBILITY_FACE_POS_X |
                             (y == 0) << VISIBILITY_FACE_NEG_Y | (y == 15) << VISIBILITY_FACE_POS_Y |
                             (z == 0) << VISIBILITY_FACE_NEG_Z | (z == 15) << VISIBILITY_FACE_POS_Z;
                faces[uf_find(parent, IDX(x, y, z))] |= f;
            }
    uint16_t g = 0;
    for (int i = 0; i < 4096; i++)
        for (int a = 0; a < 6; a++)
            for (int b = a + 1; b < 6; b++)
                if ((faces[i] >> a & 1u) && (faces[i] >> b & 1u)) g |= (uint16_t)(1u << visibility_pair_bit(a, b));
    return g;
#undef OPEN
#undef IDX
}

static void test_pair_bits(void)
{
    uint16_t seen = 0;
    for (int a = 0; a < 6; a++)
        for (int b = a + 1; b < 6; b++) {
            int bit = visibility_pair_bit(a, b);
            CHECK(bit >= 0 && bit < 15);
            CHECK_EQ_INT(visibility_pair_bit(b, a), bit);
            CHECK(!(seen >> bit & 1u));   /* each pair its own bit */
            seen |= (uint16_t)(1u << bit);
        }
    CHECK_EQ_INT(seen, VISIBILITY_ALL_OPEN);
    CHECK(!visibility_connects(VISIBILITY_ALL_OPEN, 2, 2));
}

static void test_graph_shapes(void)
{
    uint16_t v[256];
    memset(v, 0, sizeof v);
    CHECK_EQ_INT(visibility_graph_from_opaque(v), VISIBILITY_ALL_OPEN);   /* air */
    memset(v, 0xFF, sizeof v);
    CHECK_EQ_INT(visibility_graph_from_opaque(v), 0);                     /* stone */
    /* a sealed pocket in stone: touches no face */
    for (int y = 4; y < 9; y++) set_opaque(v, 6, y, 7, false);
    CHECK_EQ_INT(visibility_graph_from_opaque(v), 0);
    /* a vertical shaft through it: only bottom and top join */
    for (int y = 0; y < 16; y++) set_opaque(v, 6, y, 7, false);
    uint16_t g = visibility_graph_from_opaque(v);
    CHECK_EQ_INT(g, 1u << visibility_pair_bit(VISIBILITY_FACE_NEG_Y, VISIBILITY_FACE_POS_Y));
    /* a tunnel along x at y 3 from the shaft to the -x face: -x joins both too */
    for (int x = 0; x < 6; x++) set_opaque(v, x, 3, 7, false);
    g = visibility_graph_from_opaque(v);
    CHECK(visibility_connects(g, VISIBILITY_FACE_NEG_X, VISIBILITY_FACE_POS_Y));
    CHECK(visibility_connects(g, VISIBILITY_FACE_NEG_X, VISIBILITY_FACE_NEG_Y));
    CHECK(!visibility_connects(g, VISIBILITY_FACE_NEG_X, VISIBILITY_FACE_POS_X));
    CHECK(!visibility_connects(g, VISIBILITY_FACE_NEG_Z, VISIBILITY_FACE_POS_Z));
    /* air with a wall at x = 8: the two halves do not join -x to +x, but each joins the rest */
    memset(v, 0, sizeof v);
    for (int z = 0; z < 16; z++)
        for (int y = 0; y < 16; y++) set_opaque(v, 8, y, z, true);
    g = visibility_graph_from_opaque(v);
    CHECK(!visibility_connects(g, VISIBILITY_FACE_NEG_X, VISIBILITY_FACE_POS_X));
    CHECK(visibility_connects(g, VISIBILITY_FACE_NEG_X, VISIBILITY_FACE_POS_Z));
    CHECK(visibility_connects(g, VISIBILITY_FACE_POS_X, VISIBILITY_FACE_NEG_Y));
    CHECK(visibility_connects(g, VISIBILITY_FACE_NEG_Y, VISIBILITY_FACE_POS_Y));
    CHECK_EQ_INT(g, reference_graph(v));
}

static void test_graph_random(void)
{
    Rng rng;
    rng_init(&rng, 42);
    int mismatches = 0, kinds = 0;
    uint16_t seen_first = 0;
    for (int round = 0; round < 300; round++) {
        uint16_t v[256];
        uint32_t density = 30 + (uint32_t)(round % 45);   /* percent opaque: 30..74 */
        for (int c = 0; c < 256; c++) {
            v[c] = 0;
            for (int y = 0; y < 16; y++)
                if ((uint32_t)(rng_next_u64(&rng) % 100) < density) v[c] |= (uint16_t)(1u << y);
        }
        uint16_t g = visibility_graph_from_opaque(v), r = reference_graph(v);
        mismatches += g != r;
        if (round == 0) seen_first = g;
        kinds += g != seen_first;
    }
    CHECK_EQ_INT(mismatches, 0);
    CHECK(kinds > 0);   /* the volumes gave different graphs: the comparison says something */
}

/* A serpentine corridor (the fill's worst case: the component turns back on itself at every row) joining
 * -x at z 0 to +x or -x at z 15 depending on the row count, plus sealed pockets: against the reference. */
static void test_graph_maze(void)
{
    for (int rows = 1; rows <= 8; rows++) {
        uint16_t v[256];
        for (int c = 0; c < 256; c++) v[c] = 0xFFFF;
        /* corridor at y 5: rows z = 0, 2, 4, ... joined alternately at x 14 and x 1 */
        for (int r = 0; r < rows; r++) {
            int z = 2 * r;
            for (int x = 1; x < 15; x++) v[x + 16 * z] &= (uint16_t)~(1u << 5);
            if (r + 1 < rows) {
                int x = r % 2 == 0 ? 14 : 1;
                v[x + 16 * (z + 1)] &= (uint16_t)~(1u << 5);
            }
        }
        v[0] &= (uint16_t)~(1u << 5);                                        /* the entrance on -x */
        int last = 2 * (rows - 1), exit_x = rows % 2 ? 15 : 0;
        v[exit_x + 16 * last] &= (uint16_t)~(1u << 5);                       /* the exit on +x or -x */
        v[7 + 16 * 15] &= (uint16_t)~(3u << 9);                              /* a pocket on the +z face */
        uint16_t g = visibility_graph_from_opaque(v);
        CHECK_EQ_INT(g, reference_graph(v));
        CHECK(rows % 2 == 0 || visibility_connects(g, VISIBILITY_FACE_NEG_X, VISIBILITY_FACE_POS_X));
        CHECK(!visibility_connects(g, VISIBILITY_FACE_NEG_X, VISIBILITY_FACE_POS_Z));
    }
}

/* ---- meshed worlds ---- */

#define SURFACE 100
static int cave_open;   /* 0: cave sealed; 1: a shaft joins it to the surface */

/* Stone up to SURFACE, air above; a cave (x 34..45, y 36..43, z 4..11: inside chunk (2, 0)'s slice 2, off
 * its faces); optionally a shaft at x 40, z 8 from the cave to the surface. */
static int fill_cave(int x, int y, int z)
{
    if (y > SURFACE) return BLOCK_AIR;
    if (x >= 34 && x < 46 && z >= 4 && z < 12 && y >= 36 && y < 44) return BLOCK_AIR;
    if (cave_open && x == 40 && z == 8 && y >= 36) return BLOCK_AIR;
    return BLOCK_STONE;
}

typedef struct MeshSet {
    ChunkMesh *meshes[64];
    int count;
    int unknown_x, unknown_z;   /* answers NULL for this chunk (unknown_x = 99: none) */
} MeshSet;

static const VisibilityChunk *mesh_set_graph(void *user, int cx, int cz)
{
    const MeshSet *m = user;
    if (cx == m->unknown_x && cz == m->unknown_z) return NULL;
    for (int i = 0; i < m->count; i++)
        if (m->meshes[i]->coord_x == cx && m->meshes[i]->coord_z == cz) return &m->meshes[i]->visibility;
    return NULL;
}

static void mesh_world(Terrain *t, MeshSet *set)
{
    LightContext *lctx = light_context_create();
    MesherContext *ctx = mesher_context_create();
    int n = terrain_chunk_count(t);
    for (int i = 0; i < n; i++) light_compute_sunlight(terrain_chunk_at(t, i), blocks, LIGHT_MAX);
    set->count = 0;
    set->unknown_x = 99;
    for (int i = 0; i < n && set->count < 64; i++) {
        TerrainChunk *c = terrain_chunk_at(t, i);
        mesher_build_pass(t, c, blocks, ctx, 1);
        mesher_build_pass(t, c, blocks, ctx, 2);
        set->meshes[set->count++] = mesher_pack(c);
        chunk_geometry_destroy(c->worker_geometry);
        c->worker_geometry = NULL;
    }
    mesher_context_destroy(ctx);
    light_context_destroy(lctx);
}

static void mesh_set_free(MeshSet *set)
{
    for (int i = 0; i < set->count; i++) chunk_mesh_destroy(set->meshes[i]);
    set->count = 0;
}

static const ChunkMesh *mesh_at(const MeshSet *set, int cx, int cz)
{
    for (int i = 0; i < set->count; i++)
        if (set->meshes[i]->coord_x == cx && set->meshes[i]->coord_z == cz) return set->meshes[i];
    return NULL;
}

/* Slices 2 (y 32..47) of chunk (2, 0) hold the cave's faces. Camera above the ground over chunk (0, 0). */
static uint16_t walk_cave_slices(MeshSet *set, VisibilityWalk *w, const float planes[6][4])
{
    VisibilityView view = {.camera = {8.5, SURFACE + 6.5, 8.5}, .radius_chunks = 3};
    if (planes) memcpy(view.planes, planes, sizeof view.planes);
    CHECK_EQ_INT(visibility_walk_run(w, &view, mesh_set_graph, set), 0);
    return visibility_walk_slices(w, 2, 0);
}

static void test_mesher_graphs(void)
{
    cave_open = 0;
    Terrain *t = world_make(3, fill_cave);
    MeshSet set;
    mesh_world(t, &set);
    const ChunkMesh *m = mesh_at(&set, 2, 0), *plain = mesh_at(&set, -2, 1);
    CHECK(m && plain);
    if (m && plain) {
        CHECK(m->visibility.known);
        CHECK_EQ_INT(plain->visibility.slice_graph[15], VISIBILITY_ALL_OPEN);   /* air */
        CHECK_EQ_INT(plain->visibility.slice_graph[3], 0);                      /* buried stone */
        CHECK_EQ_INT(m->visibility.slice_graph[2], 0);                          /* the sealed cave touches no face */
        int cave_vertices = 0;
        for (int k = 0; k < MESH_SUBSET_COUNT; k++) cave_vertices += m->slice_vertices[k][2];
        CHECK(cave_vertices > 0);                                    /* and shows faces (inside) */
        /* the slice counts add up to the subsets */
        for (int k = 0; k < MESH_SUBSET_COUNT; k++) {
            int sum = 0;
            for (int s = 0; s < CHUNK_SLICES; s++) sum += m->slice_vertices[k][s];
            CHECK_EQ_INT(sum, m->subsets[k].count);
        }
    }
    mesh_set_free(&set);
    terrain_destroy(t);
}

static void test_walk_caves(void)
{
    VisibilityWalk *w = visibility_walk_create();
    CHECK(w != NULL);
    if (!w) return;
    MeshSet set;

    cave_open = 0;
    Terrain *t = world_make(3, fill_cave);
    mesh_world(t, &set);
    uint16_t sealed = walk_cave_slices(&set, w, NULL);
    CHECK(!(sealed >> 2 & 1u));                            /* the sealed cave is culled */
    CHECK(sealed >> 6 & 1u);                               /* the surface slice is not */
    CHECK(visibility_walk_slices(w, 0, 0) >> 6 & 1u);      /* nor the camera's */
    CHECK(!(visibility_walk_slices(w, -1, 1) >> 1 & 1u));  /* deep stone elsewhere neither */
    /* an unknown chunk counts as open: the walk goes down through it to the cave beside it */
    set.unknown_x = 2;
    set.unknown_z = 0;
    uint16_t unknown = walk_cave_slices(&set, w, NULL);
    CHECK(unknown >> 2 & 1u);
    mesh_set_free(&set);
    terrain_destroy(t);

    cave_open = 1;
    t = world_make(3, fill_cave);
    mesh_world(t, &set);
    uint16_t open = walk_cave_slices(&set, w, NULL);
    CHECK(open >> 2 & 1u);                                 /* the open shaft shows the cave */
    CHECK(visibility_walk_slices(w, 2, 0) >> 5 & 1u);      /* and the shaft's slices on the way */
    /* a frustum plane x >= 0 (relative to the camera, at x 8.5): the cave's chunk (x 32..47) lies in front
     * and stays; chunks (-1, 0) and (-2, 1) lie wholly behind and are not reached */
    float planes[6][4] = {{1.0f, 0.0f, 0.0f, 0.0f}};
    uint16_t front = walk_cave_slices(&set, w, planes);
    CHECK(front >> 2 & 1u);
    CHECK_EQ_INT(visibility_walk_slices(w, -1, 0), 0);
    CHECK_EQ_INT(visibility_walk_slices(w, -2, 1), 0);
    planes[0][3] = -48.0f;   /* x >= 48 + camera: behind the cave too */
    walk_cave_slices(&set, w, planes);
    CHECK_EQ_INT(visibility_walk_slices(w, 2, 0), 0);
    /* outside the walked square: not judged */
    CHECK_EQ_INT(visibility_walk_slices(w, 9, 9), 0xFFFF);
    mesh_set_free(&set);
    terrain_destroy(t);

    /* a camera above the world judges nothing */
    VisibilityView high = {.camera = {0.0, 300.0, 0.0}, .radius_chunks = 2};
    visibility_walk_run(w, &high, NULL, NULL);
    CHECK_EQ_INT(visibility_walk_slices(w, 0, 0), 0xFFFF);
    visibility_walk_destroy(w);
}

/* ---- occluders ---- */

static int wall_top, pillar_top;

/* Ground (stone to y 60), a stone wall across the view at x -30..-28 up to wall_top, and a pillar of
 * leaves at x 20..23, z 6..9 from y 61 to pillar_top. */
static int fill_wall(int x, int y, int z)
{
    if (y <= 60) return BLOCK_STONE;
    if (x >= -30 && x <= -28 && y <= wall_top) return BLOCK_STONE;
    if (x >= 20 && x <= 23 && z >= 6 && z <= 9 && y <= pillar_top) return BLOCK_OAK_LEAVES;
    return BLOCK_AIR;
}

/* A camera at (-40.5, 62, 8.5) looking along +x: 70 degrees vertical field of view, 16:9. */
static void wall_view(VisibilityView *view)
{
    memset(view, 0, sizeof *view);
    view->camera[0] = -40.5;
    view->camera[1] = 62.0;
    view->camera[2] = 8.5;
    view->radius_chunks = 5;
    view->occlusion = true;
    float f = 1.0f / tanf(35.0f * 3.14159265f / 180.0f), aspect = 16.0f / 9.0f, near = 0.05f, far = 400.0f;
    float p[16] = {0}, r[16] = {0}, m[16];
    p[0] = f / aspect;
    p[5] = f;
    p[10] = (far + near) / (near - far);
    p[11] = -1.0f;
    p[14] = 2.0f * far * near / (near - far);
    r[2] = -1.0f;   /* world x -> camera -z (forward) */
    r[5] = 1.0f;    /* world y -> camera y */
    r[8] = 1.0f;    /* world z -> camera x (right) */
    r[15] = 1.0f;
    for (int c = 0; c < 4; c++)
        for (int row = 0; row < 4; row++) {
            float sum = 0.0f;
            for (int k = 0; k < 4; k++) sum += p[k * 4 + row] * r[c * 4 + k];
            m[c * 4 + row] = sum;
        }
    visibility_planes_from_matrix(m, view->planes);
}

static void test_occluders(void)
{
    VisibilityWalk *w = visibility_walk_create();
    CHECK(w != NULL);
    if (!w) return;
    MeshSet set;
    VisibilityView view;
    wall_view(&view);

    /* a pillar lower than the wall's shadow: its slices are reached by the walk (air joins them) but hidden */
    wall_top = 66;
    pillar_top = 70;
    Terrain *t = world_make(3, fill_wall);
    mesh_world(t, &set);
    const ChunkMesh *m = mesh_at(&set, 1, 0);
    CHECK(m != NULL);
    if (m) {
        /* the ground: its top rows (the run is cut at 32 rows) */
        CHECK(m->visibility.occluder_top[0] == 60 && m->visibility.occluder_bottom[0] == 60 - 32 + 1);
        /* leaves 64..70, their far leaves (half resolution, 2-cell blocks) to 71 */
        CHECK(m->visibility.slice_low[4] == 0 && m->visibility.slice_high[4] == 8);
    }
    view.occlusion = false;
    visibility_walk_run(w, &view, mesh_set_graph, &set);
    CHECK(visibility_walk_slices(w, 1, 0) >> 4 & 1u);
    view.occlusion = true;
    visibility_walk_run(w, &view, mesh_set_graph, &set);
    CHECK(!(visibility_walk_slices(w, 1, 0) >> 4 & 1u));
    CHECK(visibility_walk_occluded(w) > 0);
    CHECK(visibility_walk_slices(w, -2, 0) >> 3 & 1u);   /* the wall itself shows */
    mesh_set_free(&set);
    terrain_destroy(t);

    /* a pillar that rises above the wall's shadow (y 91 there): its top slice stays */
    pillar_top = 100;
    t = world_make(3, fill_wall);
    mesh_world(t, &set);
    visibility_walk_run(w, &view, mesh_set_graph, &set);
    CHECK(visibility_walk_slices(w, 1, 0) >> 6 & 1u);
    CHECK(visibility_walk_slices(w, 1, 0) >> 5 & 1u);
    mesh_set_free(&set);
    terrain_destroy(t);

    /* no wall: nothing in front of the pillar, nothing dropped */
    wall_top = 60;
    pillar_top = 70;
    t = world_make(3, fill_wall);
    mesh_world(t, &set);
    visibility_walk_run(w, &view, mesh_set_graph, &set);
    CHECK(visibility_walk_slices(w, 1, 0) >> 4 & 1u);
    mesh_set_free(&set);
    terrain_destroy(t);
    visibility_walk_destroy(w);
}

/* Two worlds of fill_wall with the pillar behind the wall: walled (the wall hides the pillar's slice 4) and
 * open (no wall). */
static void make_walled_and_open(Terrain **t1, MeshSet *walled, Terrain **t2, MeshSet *open)
{
    wall_top = 66;
    pillar_top = 70;
    *t1 = world_make(3, fill_wall);
    mesh_world(*t1, walled);
    wall_top = 60;
    *t2 = world_make(3, fill_wall);
    mesh_world(*t2, open);
}

/* The horizon tests' scene: a walk, wall_view's view, and the walled and open worlds (make_walled_and_open). */
typedef struct WallScene {
    VisibilityWalk *w;
    VisibilityView view;
    Terrain *t1, *t2;
    MeshSet walled, open;
} WallScene;

static bool wall_scene_open(WallScene *sc)
{
    sc->w = visibility_walk_create();
    CHECK(sc->w != NULL);
    if (!sc->w) return false;
    wall_view(&sc->view);
    make_walled_and_open(&sc->t1, &sc->walled, &sc->t2, &sc->open);
    return true;
}

static void wall_scene_close(WallScene *sc)
{
    mesh_set_free(&sc->walled);
    mesh_set_free(&sc->open);
    terrain_destroy(sc->t1);
    terrain_destroy(sc->t2);
    visibility_walk_destroy(sc->w);
}

/* The horizon depends on where the camera is and on the chunks' occluders, not on where it looks: with an
 * occluders_epoch the walk keeps it while the epoch and the camera position stay (a player standing and looking
 * around), and builds it again when either changes. */
static void test_horizon_reuse(void)
{
    WallScene sc;
    if (!wall_scene_open(&sc)) return;
    VisibilityWalk *w = sc.w;
    VisibilityView view = sc.view;
    view.occluders_epoch = 7;
    visibility_walk_run(w, &view, mesh_set_graph, &sc.walled);
    CHECK(!(visibility_walk_slices(w, 1, 0) >> 4 & 1u));          /* the pillar's slice behind the wall */
    /* same epoch, same place: the walled horizon stands even over the open world (the caller's promise) */
    visibility_walk_run(w, &view, mesh_set_graph, &sc.open);
    CHECK(!(visibility_walk_slices(w, 1, 0) >> 4 & 1u));
    /* a new epoch: built again, nothing in front of the pillar */
    view.occluders_epoch = 8;
    visibility_walk_run(w, &view, mesh_set_graph, &sc.open);
    CHECK(visibility_walk_slices(w, 1, 0) >> 4 & 1u);
    /* back to the walled world under the same epoch, but the camera moved a little: built again */
    view.camera[2] += 0.25;
    visibility_walk_run(w, &view, mesh_set_graph, &sc.walled);
    CHECK(!(visibility_walk_slices(w, 1, 0) >> 4 & 1u));
    uint16_t kept = visibility_walk_slices(w, 1, 0);
    /* epoch 0 never reuses; and a reused horizon answers as a fresh one does */
    view.occluders_epoch = 0;
    visibility_walk_run(w, &view, mesh_set_graph, &sc.walled);
    CHECK_EQ_INT(visibility_walk_slices(w, 1, 0), kept);
    view.occluders_epoch = 9;
    visibility_walk_run(w, &view, mesh_set_graph, &sc.walled);
    visibility_walk_run(w, &view, mesh_set_graph, &sc.walled);
    CHECK_EQ_INT(visibility_walk_slices(w, 1, 0), kept);
    wall_scene_close(&sc);
}

/* horizon_rest: a moving camera whose horizon hid (almost) nothing goes without one for that many runs,
 * drawing every reached slice, then builds one again; a horizon that hides keeps being built. */
static void test_horizon_rest(void)
{
    WallScene sc;
    if (!wall_scene_open(&sc)) return;
    VisibilityWalk *w = sc.w;
    VisibilityView view = sc.view;
    view.occluders_epoch = 3;
    view.horizon_rest = 2;
    /* high over the open world, looking all round: no ground hides other ground, the horizon did not pay */
    VisibilityView high = view;
    high.camera[1] = 120.0;
    memset(high.planes, 0, sizeof high.planes);
    visibility_walk_run(w, &high, mesh_set_graph, &sc.open);
    CHECK(visibility_walk_reached(w) > 0);
    CHECK(visibility_walk_occluded(w) * 16 < visibility_walk_reached(w));
    for (int run = 0; run < 2; run++) {   /* two moved runs without a horizon: the pillar behind the wall shows */
        view.camera[2] += 0.25;
        visibility_walk_run(w, &view, mesh_set_graph, &sc.walled);
        CHECK(visibility_walk_slices(w, 1, 0) >> 4 & 1u);
        CHECK_EQ_INT(visibility_walk_occluded(w), 0);
    }
    view.camera[2] += 0.25;   /* the third builds one: hidden again */
    visibility_walk_run(w, &view, mesh_set_graph, &sc.walled);
    CHECK(!(visibility_walk_slices(w, 1, 0) >> 4 & 1u));
    int hidden = visibility_walk_occluded(w);
    CHECK(hidden > 0);
    if (hidden * 16 >= visibility_walk_reached(w)) {   /* it paid: the next moved run builds one too */
        view.camera[2] += 0.25;
        visibility_walk_run(w, &view, mesh_set_graph, &sc.walled);
        CHECK(!(visibility_walk_slices(w, 1, 0) >> 4 & 1u));
    }
    /* a camera that stays keeps its horizon whatever the rest */
    visibility_walk_run(w, &view, mesh_set_graph, &sc.walled);
    CHECK(!(visibility_walk_slices(w, 1, 0) >> 4 & 1u));
    wall_scene_close(&sc);
}

/* visibility_walk_hides: boxes beyond the walked square (the far terrain's) behind the last run's occluders. */
static void test_hides_far_boxes(void)
{
    WallScene sc;
    if (!wall_scene_open(&sc)) return;
    VisibilityWalk *w = sc.w;
    VisibilityView view = sc.view;
    const double behind_lo[3] = {300.0, 40.0, -20.0}, behind_hi[3] = {340.0, 64.0, 20.0};   /* low, past the wall */
    const double high_lo[3] = {300.0, 250.0, -20.0}, high_hi[3] = {340.0, 260.0, 20.0};     /* over its shadow */
    const double back_lo[3] = {-440.0, 40.0, -20.0}, back_hi[3] = {-400.0, 64.0, 20.0};     /* no wall that way */
    visibility_walk_run(w, &view, mesh_set_graph, &sc.walled);
    CHECK(visibility_walk_hides(w, &view, behind_lo, behind_hi));
    CHECK(!visibility_walk_hides(w, &view, high_lo, high_hi));
    CHECK(!visibility_walk_hides(w, &view, back_lo, back_hi));
    VisibilityView moved = view;   /* another camera: this horizon says nothing */
    moved.camera[1] += 1.0;
    CHECK(!visibility_walk_hides(w, &moved, behind_lo, behind_hi));
    visibility_walk_run(w, &view, mesh_set_graph, &sc.open);   /* no wall: the low box shows */
    CHECK(!visibility_walk_hides(w, &view, behind_lo, behind_hi));
    view.occlusion = false;   /* no horizon at all */
    visibility_walk_run(w, &view, mesh_set_graph, &sc.walled);
    CHECK(!visibility_walk_hides(w, &view, behind_lo, behind_hi));
    wall_scene_close(&sc);
}

/* ---- the horizon against rays ---- */

#define FIELD_CHUNKS 11                       /* chunks -5..5 on each axis */
#define FIELD_BLOCKS (FIELD_CHUNKS * 16)
#define FIELD_ORIGIN (-5 * 16)                /* the field's lowest block coordinate */

static VisibilityChunk field_chunks[FIELD_CHUNKS * FIELD_CHUNKS];
static int field_bottom[FIELD_BLOCKS * FIELD_BLOCKS], field_top[FIELD_BLOCKS * FIELD_BLOCKS];   /* top < bottom: none */

static const VisibilityChunk *field_graph(void *user, int coord_x, int coord_z)
{
    (void)user;
    int i = coord_x + 5, k = coord_z + 5;
    if (i < 0 || k < 0 || i >= FIELD_CHUNKS || k >= FIELD_CHUNKS) return NULL;
    return &field_chunks[i + FIELD_CHUNKS * k];
}

/* Rolling hills of occluder columns (runs of 32 rows, as the mesher's), a few columns missing; or, with
 * `walls`, open ground (no occluders) with scattered walls and pillars, whose shadows have edges everywhere. */
static void field_make(Rng *rng, bool walls)
{
    float phase[4];
    for (int i = 0; i < 4; i++) phase[i] = rng_float_range(rng, 0.0f, 6.2831853f);
    for (int z = 0; z < FIELD_BLOCKS; z++)
        for (int x = 0; x < FIELD_BLOCKS; x++) {
            double h = 72.0 + 14.0 * sin(x * 0.07 + phase[0]) * cos(z * 0.05 + phase[1]) +
                       8.0 * sin(x * 0.19 + z * 0.13 + phase[2]) + 4.0 * cos(z * 0.31 + phase[3]) +
                       rng_float_range(rng, -1.5f, 1.5f);
            int i = x + FIELD_BLOCKS * z;
            field_top[i] = (int)h;
            field_bottom[i] = rng_float(rng) < 0.03f || walls ? 255 : field_top[i] - 31;
        }
    for (int k = 0; walls && k < 120; k++) {
        int x = (int)rng_float_range(rng, 0.0f, FIELD_BLOCKS - 24.0f);
        int z = (int)rng_float_range(rng, 0.0f, FIELD_BLOCKS - 24.0f);
        /* every other one a single column (a pillar): its shadow's edges are the test's sharpest */
        int along = k % 2 ? 1 : (int)rng_float_range(rng, 1.0f, 20.0f);
        int across = k % 2 ? 1 : (int)rng_float_range(rng, 1.0f, 3.0f);
        int top = (int)rng_float_range(rng, 66.0f, 100.0f);
        bool x_wise = rng_float(rng) < 0.5f;
        for (int a = 0; a < along; a++)
            for (int c = 0; c < across; c++) {
                int i = x_wise ? (x + a) + FIELD_BLOCKS * (z + c) : (x + c) + FIELD_BLOCKS * (z + a);
                field_top[i] = top;
                field_bottom[i] = top - 31;
            }
    }
    for (int k = 0; k < FIELD_CHUNKS * FIELD_CHUNKS; k++) {
        VisibilityChunk *c = &field_chunks[k];
        visibility_chunk_init(c);
        c->known = true;
        for (int g = 0; g < 256; g++) {
            int x = (k % FIELD_CHUNKS) * 16 + g % 16, z = (k / FIELD_CHUNKS) * 16 + g / 16, i = x + FIELD_BLOCKS * z;
            bool none = field_top[i] < field_bottom[i];
            c->occluder_bottom[g] = (uint8_t)(none ? 1 : field_bottom[i]);
            c->occluder_top[g] = (uint8_t)(none ? 0 : field_top[i]);
        }
    }
}

/* Whether the segment from a to b passes through some column's occluder rows (a box of positive length
 * along it), by slab tests against every column under the segment. */
static bool field_blocks(const double a[3], const double b[3])
{
    int x0 = (int)floor(fmin(a[0], b[0])), x1 = (int)floor(fmax(a[0], b[0]));
    int z0 = (int)floor(fmin(a[2], b[2])), z1 = (int)floor(fmax(a[2], b[2]));
    for (int z = z0; z <= z1; z++)
        for (int x = x0; x <= x1; x++) {
            int fx = x - FIELD_ORIGIN, fz = z - FIELD_ORIGIN;
            if (fx < 0 || fz < 0 || fx >= FIELD_BLOCKS || fz >= FIELD_BLOCKS) continue;
            int i = fx + FIELD_BLOCKS * fz;
            if (field_top[i] < field_bottom[i]) continue;
            double lo[3] = {x, field_bottom[i], z}, hi[3] = {x + 1.0, field_top[i] + 1.0, z + 1.0};
            double t0 = 0.0, t1 = 1.0;
            for (int d = 0; d < 3 && t0 < t1; d++) {
                double dir = b[d] - a[d];
                if (fabs(dir) < 1e-12) {
                    if (a[d] < lo[d] || a[d] > hi[d]) t1 = -1.0;
                    continue;
                }
                double ta = (lo[d] - a[d]) / dir, tb = (hi[d] - a[d]) / dir;
                t0 = fmax(t0, fmin(ta, tb));
                t1 = fmin(t1, fmax(ta, tb));
            }
            if (t1 - t0 > 1e-9) return true;
        }
    return false;
}

/* Every box the horizon hides is hidden: rays from the camera to its corners and to points inside it all
 * pass through an occluder column first (brute force over random hills, cameras and boxes). */
static void test_horizon_against_rays(void)
{
    VisibilityWalk *w = visibility_walk_create();
    CHECK(w != NULL);
    if (!w) return;
    Rng rng, points;   /* the points their own stream: the boxes are the same whatever the horizon hides */
    rng_init(&rng, 20261201);
    rng_init(&points, 20261202);
    int hidden = 0, shown = 0, wrong = 0;
    for (int scene = 0; scene < 6; scene++) {
        field_make(&rng, scene % 2 == 1);
        VisibilityView view = {.radius_chunks = 5, .occlusion = true};
        view.camera[0] = rng_float_range(&rng, 0.2f, 15.8f);
        view.camera[2] = rng_float_range(&rng, 0.2f, 15.8f);
        view.camera[1] = rng_float_range(&rng, 60.0f, 95.0f);
        visibility_walk_run(w, &view, field_graph, NULL);
        for (int b = 0; b < 1000; b++) {
            double lo[3], hi[3];
            if (scene % 2 == 0) {   /* hills: just over the ground (canopies), where the bounds are tightest */
                lo[0] = rng_float_range(&rng, -70.0f, 70.0f);
                lo[2] = rng_float_range(&rng, -70.0f, 70.0f);
                hi[0] = lo[0] + rng_float_range(&rng, 0.5f, 6.0f);
                hi[2] = lo[2] + rng_float_range(&rng, 0.5f, 6.0f);
                int i = ((int)floor(lo[0]) - FIELD_ORIGIN) + FIELD_BLOCKS * ((int)floor(lo[2]) - FIELD_ORIGIN);
                lo[1] = field_top[i] + rng_float_range(&rng, -2.0f, 10.0f);
                hi[1] = lo[1] + rng_float_range(&rng, 0.5f, 8.0f);
            } else {   /* walls: behind a wall column, about the edge of its shadow */
                int i;
                do i = (int)rng_float_range(&rng, 0.0f, FIELD_BLOCKS * FIELD_BLOCKS - 1.0f);
                while (field_top[i] < field_bottom[i]);
                double wx = FIELD_ORIGIN + i % FIELD_BLOCKS + 0.5 - view.camera[0];
                double wz = FIELD_ORIGIN + i / FIELD_BLOCKS + 0.5 - view.camera[2];
                double d = hypot(wx, wz), at = d + rng_float_range(&rng, 1.5f, 40.0f), size = rng_float_range(&rng, 0.3f, 3.0f);
                double shadow = view.camera[1] + (field_top[i] + 1.0 - view.camera[1]) * at / d;
                lo[0] = view.camera[0] + wx * at / d - size * 0.5;
                lo[2] = view.camera[2] + wz * at / d - size * 0.5;
                lo[1] = shadow + rng_float_range(&rng, -4.0f, 1.0f);
                for (int k = 0; k < 3; k++) hi[k] = lo[k] + size;
            }
            if (!visibility_walk_hides(w, &view, lo, hi)) {
                shown++;
                continue;
            }
            hidden++;
            for (int p = 0; p < 24; p++) {
                double point[3];
                for (int d = 0; d < 3; d++)
                    point[d] = p < 8 ? (p >> d & 1 ? hi[d] : lo[d]) : lo[d] + (hi[d] - lo[d]) * rng_float(&points);
                if (!field_blocks(view.camera, point)) {
                    wrong++;
                    break;
                }
            }
        }
    }
    CHECK_EQ_INT(wrong, 0);
    CHECK(hidden > 200);   /* the hills hide a good share, so the check means something */
    CHECK(shown > 200);
    visibility_walk_destroy(w);
}

/* ---- cameras no chunk coordinate can hold ---- */

/* Every chunk: open slices over a solid occluder run 0..64 in every column (so the horizon has work). */
static const VisibilityChunk *solid_ground(void *user, int coord_x, int coord_z)
{
    static VisibilityChunk ground;
    (void)user;
    (void)coord_x;
    (void)coord_z;
    visibility_chunk_init(&ground);
    ground.known = true;
    memset(ground.occluder_bottom, 0, sizeof ground.occluder_bottom);
    memset(ground.occluder_top, 64, sizeof ground.occluder_top);
    return &ground;
}

/* A camera that is not finite, or farther out than an int chunk coordinate reaches, judges nothing (every
 * slice visible). Before, (int)floor(x / 16) of such a camera was undefined (INT_MIN on x86): the walk's chunk
 * coordinates overflowed and the horizon took a distance band of INT_MIN and wrote outside its array. */
static void test_camera_out_of_range(void)
{
    VisibilityWalk *w = visibility_walk_create();
    const double far_out[] = {NAN, INFINITY, -INFINITY, 1.0e12, -5.0e11};
    for (int i = 0; i < 5; i++)
        for (int axis = 0; axis < 2; axis++) {
            VisibilityView view = {.camera = {8.5, 100.0, 8.5}, .radius_chunks = 4, .occlusion = true};
            view.camera[axis * 2] = far_out[i];
            CHECK_EQ_INT(visibility_walk_run(w, &view, solid_ground, NULL), 0);
            CHECK_EQ_INT(visibility_walk_slices(w, 0, 0), 0xFFFF);
            CHECK_EQ_INT(visibility_walk_reached(w), 0);
        }
    /* far out but within range: walked and judged as anywhere else */
    VisibilityView view = {.camera = {2.0e8 + 8.5, 100.0, -3.0e7 + 8.5}, .radius_chunks = 4, .occlusion = true};
    CHECK_EQ_INT(visibility_walk_run(w, &view, solid_ground, NULL), 0);
    CHECK(visibility_walk_reached(w) > 0);
    visibility_walk_destroy(w);
}

static void test_draw_runs(void)
{
    /* 2 subsets at 0 and 100; subset 0 has slices 1, 2, 5; subset 1 has slices 1, 5 */
    int first[2] = {0, 100}, count[2] = {40, 20};
    int sv[2][16] = {{0}};
    sv[0][1] = 8;
    sv[0][2] = 12;
    sv[0][5] = 20;
    sv[1][1] = 4;
    sv[1][5] = 16;
    int rf[32], rc[32];
    int runs = visibility_draw_runs(2, first, count, (const int (*)[16])sv, 3u, 0xFFFF, rf, rc);
    CHECK_EQ_INT(runs, 2);   /* the two subsets are not contiguous */
    CHECK(rf[0] == 0 && rc[0] == 40 && rf[1] == 100 && rc[1] == 20);
    /* slices 1 and 5 only: slice 2 splits subset 0 */
    runs = visibility_draw_runs(2, first, count, (const int (*)[16])sv, 3u, (1u << 1) | (1u << 5), rf, rc);
    CHECK_EQ_INT(runs, 3);
    CHECK(rf[0] == 0 && rc[0] == 8 && rf[1] == 20 && rc[1] == 20 && rf[2] == 100 && rc[2] == 20);
    /* slice 2 alone, subset 0 only */
    runs = visibility_draw_runs(2, first, count, (const int (*)[16])sv, 1u, 1u << 2, rf, rc);
    CHECK(runs == 1 && rf[0] == 8 && rc[0] == 12);
    /* contiguous subsets join across the boundary */
    int first2[2] = {0, 40};
    runs = visibility_draw_runs(2, first2, count, (const int (*)[16])sv, 3u, (1u << 5), rf, rc);
    CHECK_EQ_INT(runs, 2);
    CHECK(rf[0] == 20 && rc[0] == 20 && rf[1] == 44 && rc[1] == 16);
    /* ... and with slice 1 of subset 1 empty, into one run */
    sv[1][1] = 0;
    int count2[2] = {40, 16};
    runs = visibility_draw_runs(2, first2, count2, (const int (*)[16])sv, 3u, (1u << 5), rf, rc);
    CHECK(runs == 1 && rf[0] == 20 && rc[0] == 36);
    /* a mesh made without slice counts: each subset whole, whenever any slice is drawn */
    int none[2][16] = {{0}};
    runs = visibility_draw_runs(2, first, count, (const int (*)[16])none, 3u, 1u << 9, rf, rc);
    CHECK(runs == 2 && rf[0] == 0 && rc[0] == 40 && rf[1] == 100 && rc[1] == 20);
    CHECK_EQ_INT(visibility_draw_runs(2, first, count, (const int (*)[16])none, 3u, 0, rf, rc), 0);
}

int main(void)
{
    if (block_registry_load("assets/blocks.json", &blocks) != ST_OK) {
        fprintf(stderr, "cannot load assets/blocks.json: %s\n", st_error_message());
        return 1;
    }
    RUN(test_pair_bits);
    RUN(test_graph_shapes);
    RUN(test_graph_random);
    RUN(test_graph_maze);
    RUN(test_mesher_graphs);
    RUN(test_walk_caves);
    RUN(test_occluders);
    RUN(test_horizon_reuse);
    RUN(test_horizon_rest);
    RUN(test_hides_far_boxes);
    RUN(test_horizon_against_rays);
    RUN(test_camera_out_of_range);
    RUN(test_draw_runs);
    block_registry_destroy(blocks);
    return check_report();
}
