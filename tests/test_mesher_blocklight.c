/* test_mesher_blocklight.c — the warm block-light tint (mesher_blocklight.c): a torch in a dark stone box
 * under a sunlit stone surface. The box's walls near the torch are drawn warm (red above blue), the sunlit
 * surface neutral (red == green == blue: stone is not tinted); with the torch taken out (relit, the chunk
 * rebuilt over its kept slice geometry, as the game does) the box is dark and neutral again: no slice keeps
 * stale warmth; the same world meshed with no emitter anywhere gives the same surface colours. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "world_fixture.h"
#include "mesh_fixture.h"
#include "strata/block.h"
#include "strata/cell.h"
#include "strata/light.h"
#include "strata/mesher.h"
#include "strata/terrain.h"

#define SURFACE_Y 100   /* stone up to 99, air above: the sunlit surface */
#define BOX_Y0    40    /* air 40..45 at x, z 3..12 of chunk 0,0 */
#define BOX_Y1    45

static BlockRegistry *blocks;
static LightContext *lctx;
static MesherContext *mctx;

static int fill_box(int x, int y, int z)
{
    if (y >= SURFACE_Y) return BLOCK_AIR;
    if (y >= BOX_Y0 && y <= BOX_Y1 && x >= 3 && x <= 12 && z >= 3 && z <= 12) return BLOCK_AIR;
    return BLOCK_STONE;
}

static void relight(Terrain *t)
{
    for (int i = 0; i < terrain_chunk_count(t); i++) light_compute_sunlight(terrain_chunk_at(t, i), blocks, LIGHT_MAX);
    light_propagate(t, terrain_get_chunk(t, 0, 0), blocks, lctx);
}

typedef struct ColourStats {
    int vertices, warm, neutral, lit;
} ColourStats;

/* Vertices of chunk 0,0's near subsets (not the half-resolution part) with y in [y0, y1]. */
static ColourStats colours(const ChunkMesh *m, float y0, float y1)
{
    ColourStats s = {0, 0, 0, 0};
    for (int k = 0; k < MESH_SUBSET_COUNT; k++) {
        const VertexList *l = &m->subsets[k];
        for (int sl = 0, first = 0; sl < CHUNK_SLICES; first += m->slice_vertices[k][sl], sl++) {
            for (int i = first + m->lod_vertices[k][sl]; i < first + m->slice_vertices[k][sl]; i++) {
                const TerrainVertex *v = &l->data[i];   /* the slice's own faces, after its half-resolution copy */
                if (v->y < y0 || v->y > y1) continue;
                s.vertices++;
                bool lit = v->color[0] > 40;   /* warm: red over green over blue, blue at most 3/4 of red */
                s.warm += lit && v->color[0] > v->color[1] && v->color[1] > v->color[2] && 4 * v->color[2] <= 3 * v->color[0];
                s.neutral += v->color[0] == v->color[1] && v->color[1] == v->color[2];
                s.lit += v->color[0] > 40;
            }
        }
    }
    return s;
}

int main(void)
{
    if (block_registry_load(STRATA_ASSET_DIR "/blocks.json", &blocks) != ST_OK) return 1;
    lctx = light_context_create();
    mctx = mesher_context_create();
    CHECK(blocks->emission[BLOCK_TORCH] >= 10);
    Terrain *t = world_make(1, fill_box);
    terrain_set_cell_value(t, 8, BOX_Y0, 8, cell_make(BLOCK_TORCH, 0));
    relight(t);
    CHECK_EQ_INT(cell_light(chunk_get_cell(terrain_get_chunk(t, 0, 0), 8, BOX_Y0 + 1, 8)), blocks->emission[BLOCK_TORCH] - 1);
    TerrainChunk *c = terrain_get_chunk(t, 0, 0);
    CHECK(c->worker_emitter_slices != 0);
    CHECK(c->worker_warm_emitter_slices == c->worker_emitter_slices);   /* a torch: warm */
    ChunkMesh *m = mesh_fixture_build(t, 0, 0, blocks, mctx);
    ColourStats box = colours(m, BOX_Y0, BOX_Y1 + 1), top = colours(m, SURFACE_Y, SURFACE_Y);
    fprintf(stderr, "torch: box %d vertices, %d lit, %d warm, %d neutral; surface %d vertices, %d neutral, %d lit\n",
            box.vertices, box.lit, box.warm, box.neutral, top.vertices, top.neutral, top.lit);
    CHECK(box.lit > 100);
    CHECK(box.warm >= box.lit * 9 / 10);   /* torch-lit: warm (the torch's own quads are not stone) */
    CHECK(top.vertices >= 4);   /* merged: the chunk's top in a few quads */
    CHECK_EQ_INT(top.neutral, top.vertices);   /* sunlit: neutral */
    CHECK_EQ_INT(top.lit, top.vertices);
    chunk_mesh_destroy(m);

    /* the torch taken out: relit, rebuilt over the kept geometry (unchanged slice hashes are skipped) */
    terrain_set_cell_value(t, 8, BOX_Y0, 8, cell_make(BLOCK_AIR, 0));
    relight(t);
    CHECK_EQ_INT((int)c->worker_emitter_slices, 0);
    CHECK_EQ_INT((int)c->worker_warm_emitter_slices, 0);
    mesher_build_pass(t, c, blocks, mctx, 1);
    mesher_build_pass(t, c, blocks, mctx, 2);
    m = mesher_pack(c);
    box = colours(m, BOX_Y0, BOX_Y1 + 1);
    fprintf(stderr, "no torch: box %d vertices, %d warm, %d neutral\n", box.vertices, box.warm, box.neutral);
    CHECK(box.vertices > 20);
    CHECK_EQ_INT(box.warm, 0);
    CHECK_EQ_INT(box.neutral, box.vertices);
    chunk_mesh_destroy(m);

    /* and back: the torch placed again gives the same warm box as the first build from scratch */
    terrain_set_cell_value(t, 8, BOX_Y0, 8, cell_make(BLOCK_TORCH, 0));
    relight(t);
    mesher_build_pass(t, c, blocks, mctx, 1);
    mesher_build_pass(t, c, blocks, mctx, 2);
    m = mesher_pack(c);
    ColourStats again = colours(m, BOX_Y0, BOX_Y1 + 1);
    CHECK(again.lit > 100);
    CHECK(again.warm >= again.lit * 9 / 10);
    chunk_mesh_destroy(m);

    mesh_fixture_destroy(t);
    mesher_context_destroy(mctx);
    light_context_destroy(lctx);
    block_registry_destroy(blocks);
    return check_report();
}
