/* test_mesher_faces.c — the mesher's cube faces against a brute-force face list, on random chunks and on
 * generated ones: every visible face present once, no hidden face drawn.
 *
 * The reference reads the world cell by cell (terrain_get_cell_value, no slab, no masks) and applies the
 * culling rules of mesher_faces.c: a cube's face shows unless the cell it looks into is an opaque cube, the
 * same transparent cube, or (for leaves) any leaves, or (for a leaf's top or bottom) air with leaves beyond it;
 * below the world is bedrock, above it air. The chunk is meshed with merging and the half-resolution copy off,
 * so each face is one quad; every quad is turned back into its cell and face and ticked off. Worlds hold
 * cubes only (generated chunks with their other blocks made air), so every quad is a cube's face. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "world_fixture.h"
#include "mesh_fixture.h"
#include "strata/block.h"
#include "strata/cell.h"
#include "strata/generator.h"
#include "strata/light.h"
#include "strata/mesher.h"
#include "strata/terrain.h"
#include "strata/world_settings.h"

static BlockRegistry *blocks;
static LightContext *lctx;
static MesherContext *mctx;

static const int FACE_STEP[6][3] = {{0, 0, 1}, {1, 0, 0}, {0, 0, -1}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}};

static int world_block(const Terrain *t, int x, int y, int z)
{
    if (y < 0) return BLOCK_BEDROCK;
    if (y >= CHUNK_SIZE_Y) return BLOCK_AIR;
    if (!terrain_get_chunk_at_cell(t, x, z)) return BLOCK_AIR;   /* a missing chunk reads as air */
    return cell_contents(terrain_get_cell_value(t, x, y, z));
}

static bool is_leaves(int id)
{
    return blocks->layer[id] == BLOCK_LAYER_ALPHA_TESTED && blocks->shape[id] == BLOCK_SHAPE_CUBE;
}

/* Whether face f of the cube at world (x, y, z) shows (the rules of mesher_faces.c, cell by cell). */
static bool reference_face_shows(const Terrain *t, int x, int y, int z, int f)
{
    int id = world_block(t, x, y, z);
    int nx = x + FACE_STEP[f][0], ny = y + FACE_STEP[f][1], nz = z + FACE_STEP[f][2];
    int n = world_block(t, nx, ny, nz);
    if (blocks->opaque_cube[n]) return false;
    if (blocks->layer[id] == BLOCK_LAYER_TRANSPARENT && n == id) return false;
    if (is_leaves(id) && is_leaves(n)) return false;
    if (is_leaves(id) && f >= BLOCK_FACE_POS_Y && n == BLOCK_AIR &&
        is_leaves(world_block(t, x, y + 2 * FACE_STEP[f][1], z)))
        return false;
    return true;
}

/* Faces of chunk (cx, cz) as the mesher draws them, against the reference: returns the number of faces wrong
 * (missing, drawn twice, or drawn hidden) and sets *faces to the reference's count. */
static int compare_chunk(Terrain *t, int cx, int cz, int *faces)
{
    enum { CELLS = 16 * 256 * 16 };
    uint8_t *want = calloc(CELLS, 1), *seen = calloc(CELLS, 1);   /* bit f per cell */
    const TerrainChunk *c = terrain_get_chunk(t, cx, cz);
    *faces = 0;
    for (int z = 0; z < 16; z++)
        for (int x = 0; x < 16; x++)
            for (int y = 0; y < 256; y++) {
                int id = world_block(t, c->origin_x + x, y, c->origin_z + z);
                if (id == BLOCK_AIR || blocks->shape[id] != BLOCK_SHAPE_CUBE) continue;
                for (int f = 0; f < 6; f++)
                    if (reference_face_shows(t, c->origin_x + x, y, c->origin_z + z, f)) {
                        want[(y * 16 + z) * 16 + x] |= (uint8_t)(1u << f);
                        ++*faces;
                    }
            }
    ChunkMesh *m = mesh_fixture_build(t, cx, cz, blocks, mctx);
    int wrong = 0;
    for (int s = 0; s < MESH_SUBSET_COUNT; s++) {
        const VertexList *l = &m->subsets[s];
        for (int q = 0; q < l->count / 4; q++) {
            const TerrainVertex *v = &l->data[q * 4];
            float lo[3] = {v[0].x, v[0].y, v[0].z}, hi[3] = {v[0].x, v[0].y, v[0].z};
            for (int k = 1; k < 4; k++) {
                const float p[3] = {v[k].x, v[k].y, v[k].z};
                for (int a = 0; a < 3; a++) {
                    lo[a] = p[a] < lo[a] ? p[a] : lo[a];
                    hi[a] = p[a] > hi[a] ? p[a] : hi[a];
                }
            }
            float e1[3] = {v[1].x - v[0].x, v[1].y - v[0].y, v[1].z - v[0].z};
            float e2[3] = {v[2].x - v[0].x, v[2].y - v[0].y, v[2].z - v[0].z};
            float nrm[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]};
            int f = -1;
            for (int k = 0; k < 6; k++)
                if (nrm[0] * FACE_STEP[k][0] + nrm[1] * FACE_STEP[k][1] + nrm[2] * FACE_STEP[k][2] > 0.5f) f = k;
            int axis = f < 0 ? 0 : FACE_STEP[f][0] ? 0 : FACE_STEP[f][1] ? 1 : 2;
            bool unit = f >= 0;
            for (int a = 0; a < 3 && unit; a++)
                unit = a == axis ? lo[a] == hi[a] && lo[a] == floorf(lo[a]) : hi[a] - lo[a] == 1.0f && lo[a] == floorf(lo[a]);
            if (!unit) {   /* not one cube face: the worlds here hold none */
                wrong++;
                continue;
            }
            int cell[3] = {(int)lo[0], (int)lo[1], (int)lo[2]};
            if (FACE_STEP[f][axis] > 0) cell[axis]--;   /* a face on the cell's high side */
            if (cell[0] < 0 || cell[0] > 15 || cell[1] < 0 || cell[1] > 255 || cell[2] < 0 || cell[2] > 15) {
                wrong++;
                continue;
            }
            int i = (cell[1] * 16 + cell[2]) * 16 + cell[0];
            if (!(want[i] >> f & 1u) || (seen[i] >> f & 1u)) wrong++;   /* hidden, or twice */
            seen[i] |= (uint8_t)(1u << f);
        }
    }
    for (int i = 0; i < CELLS; i++) wrong += __builtin_popcount((unsigned)(want[i] & ~seen[i]));   /* missing */
    chunk_mesh_destroy(m);
    free(want);
    free(seen);
    return wrong;
}

/* ---- random chunks: stone, dirt, glass, ice and leaves in blobs and noise, across slice and chunk borders ---- */

static uint32_t fill_seed;

static uint32_t hash3(int x, int y, int z)
{
    uint32_t h = (uint32_t)x * 0x8da6b343u ^ (uint32_t)y * 0xd8163841u ^ (uint32_t)z * 0xcb1ab31fu ^ fill_seed;
    h ^= h >> 15;
    h *= 0x2c1b3c6du;
    h ^= h >> 12;
    return h;
}

static int fill_random(int x, int y, int z)
{
    static const int palette[] = {BLOCK_STONE, BLOCK_DIRT, BLOCK_GLASS, BLOCK_ICE, BLOCK_OAK_LEAVES,
                                  BLOCK_SPRUCE_LEAVES, BLOCK_OAK_LEAVES, BLOCK_BIRCH_LEAVES};
    if (y < 40) return BLOCK_STONE;
    if (y > 110) return BLOCK_AIR;
    uint32_t h = hash3(x >> 2, y >> 2, z >> 2), c = hash3(x, y, z);
    /* 4^3 blobs of one block, half of their cells kept; near y 79/80 (a slice border) denser */
    int density = (y >= 76 && y <= 84) ? 200 : 120;
    if ((h & 255) > (uint32_t)density || (c & 3) == 0) return BLOCK_AIR;
    return palette[(h >> 8) % (sizeof palette / sizeof palette[0])];
}

static void test_random_chunks(void)
{
    for (int round = 0; round < 3; round++) {
        fill_seed = 0x9e3779b9u * (uint32_t)(round + 1);
        Terrain *t = world_make(1, fill_random);
        mesh_fixture_light(t, blocks, lctx);
        int faces = 0, wrong = compare_chunk(t, 0, 0, &faces);
        CHECK(faces > 1000);
        CHECK_EQ_INT(wrong, 0);
        mesh_fixture_destroy(t);
    }
}

/* ---- generated chunks, their non-cube blocks (water, plants, snow, torches) made air ---- */

static void test_generated_chunks(void)
{
    static const uint64_t seeds[] = {1, 2, 42};
    for (size_t k = 0; k < sizeof seeds / sizeof seeds[0]; k++) {
        WorldSettings s;
        world_settings_default(&s);
        s.seed = seeds[k];
        Generator *g = NULL;
        CHECK_EQ_INT(generator_create_version(&s, blocks, "assets/worldgen.json", 0, &g), ST_OK);
        if (!g) return;
        GenContext *gctx = gen_context_create();
        Terrain *t = terrain_create();
        for (int cz = -1; cz <= 1; cz++)
            for (int cx = -1; cx <= 1; cx++) {
                TerrainChunk *c = terrain_allocate_chunk(t, cx, cz);
                for (int p = 1; p <= 4; p++) generator_run_pass(g, p, c, gctx);
            }
        for (int i = 0; i < terrain_chunk_count(t); i++) {
            TerrainChunk *c = terrain_chunk_at(t, i);
            for (int z = 0; z < 16; z++)
                for (int x = 0; x < 16; x++)
                    for (int y = 0; y < 256; y++) {
                        int id = cell_contents(chunk_get_cell(c, x, y, z));
                        if (id != BLOCK_AIR && (blocks->shape[id] != BLOCK_SHAPE_CUBE || !blocks->defs[id].defined))
                            chunk_set_cell(c, x, y, z, cell_make(BLOCK_AIR, 0));
                    }
        }
        mesh_fixture_light(t, blocks, lctx);
        int faces = 0, wrong = compare_chunk(t, 0, 0, &faces);
        CHECK(faces > 200);
        CHECK_EQ_INT(wrong, 0);
        mesh_fixture_destroy(t);
        gen_context_destroy(gctx);
        generator_destroy(g);
    }
}

int main(void)
{
    if (block_registry_load("assets/blocks.json", &blocks) != ST_OK) {
        fprintf(stderr, "cannot load assets/blocks.json: %s\n", st_error_message());
        return 1;
    }
    lctx = light_context_create();
    mctx = mesher_context_create();
    mesher_context_set_merge(mctx, false);
    mesher_context_set_lod(mctx, false);
    RUN(test_random_chunks);
    RUN(test_generated_chunks);
    mesher_context_destroy(mctx);
    light_context_destroy(lctx);
    block_registry_destroy(blocks);
    return check_report();
}
