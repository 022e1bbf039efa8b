/* test_wfc.c — WFC: the shipped dungeon tileset solves every grid from 4x1x4 to 16x4x16 for many seeds
 * (adjacency and boundary rechecked here from the variants), results are deterministic, weights are
 * respected statistically, rotations turn the horizontal sockets, bad tilesets fail with a message, and
 * unsolvable ones fail cleanly (no grid). The independent checker is tests/check_wfc_adjacency.py. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "strata/block.h"
#include "strata/wfc.h"

static const char *DUNGEON = "assets/tilesets/dungeon.json";

static bool grid_valid(const WfcTileset *ts, const WfcGrid *g)
{
    for (int y = 0; y < g->size[1]; y++)
        for (int z = 0; z < g->size[2]; z++)
            for (int x = 0; x < g->size[0]; x++) {
                int v = wfc_grid_at(g, x, y, z);
                int n[WFC_DIRS][3] = {{x + 1, y, z}, {x - 1, y, z}, {x, y + 1, z},
                                      {x, y - 1, z}, {x, y, z + 1}, {x, y, z - 1}};
                for (int d = 0; d < WFC_DIRS; d++) {
                    int nx = n[d][0], ny = n[d][1], nz = n[d][2];
                    if (nx < 0 || ny < 0 || nz < 0 || nx >= g->size[0] || ny >= g->size[1] || nz >= g->size[2]) {
                        if (ts->boundary_socket >= 0 && !ts->pairs[ts->variants[v].sockets[d]][ts->boundary_socket])
                            return false;
                    } else if (!wfc_variants_compatible(ts, v, d, wfc_grid_at(g, nx, ny, nz))) {
                        return false;
                    }
                }
            }
    return true;
}

static void test_dungeon_all_sizes(void)
{
    WfcTileset *ts;
    CHECK(wfc_tileset_load(DUNGEON, &ts) == ST_OK);
    BlockRegistry *blocks;
    CHECK(block_registry_load("assets/blocks.json", &blocks) == ST_OK);
    CHECK(wfc_tileset_load_templates(ts, blocks) == ST_OK);
    int failures = 0, invalid = 0, solved = 0;
    for (int seed = 0; seed < 600; seed++) {
        int sx = 4 + seed % 13, sy = 1 + (seed / 13) % 4, sz = 4 + (seed * 7) % 13;
        if (seed < 4) { /* the corners of the range */
            sx = sz = seed & 1 ? 16 : 4;
            sy = seed & 2 ? 4 : 1;
        }
        WfcGrid g = {0};
        if (wfc_solve(ts, sx, sy, sz, (uint64_t)seed * 7919u, NULL, 0, &g) != ST_OK) {
            failures++;
            continue;
        }
        solved++;
        invalid += !grid_valid(ts, &g);
        wfc_grid_free(&g);
    }
    CHECK_EQ_INT(failures, 0);
    CHECK_EQ_INT(invalid, 0);
    CHECK_EQ_INT(solved, 600);
    /* with a constraint (a dungeon's entrance: a dead end on the top layer) */
    for (int seed = 0; seed < 100; seed++) {
        WfcConstraint c = {seed % 8, 2, (seed / 8) % 8, "dead_end"};
        WfcGrid g = {0};
        CHECK(wfc_solve(ts, 8, 3, 8, (uint64_t)seed, &c, 1, &g) == ST_OK);
        CHECK(grid_valid(ts, &g));
        CHECK(g.tiles && wfc_tile_has_tag(&ts->tiles[ts->variants[wfc_grid_at(&g, c.x, c.y, c.z)].tile], "dead_end"));
        wfc_grid_free(&g);
    }
    block_registry_destroy(blocks);
    wfc_tileset_destroy(ts);
}

static void test_deterministic(void)
{
    WfcTileset *ts;
    CHECK(wfc_tileset_load(DUNGEON, &ts) == ST_OK);
    for (int seed = 0; seed < 20; seed++) {
        WfcGrid a = {0}, b = {0}, c = {0};
        CHECK(wfc_solve(ts, 12, 3, 12, (uint64_t)seed, NULL, 0, &a) == ST_OK);
        CHECK(wfc_solve(ts, 12, 3, 12, (uint64_t)seed, NULL, 0, &b) == ST_OK);
        CHECK(wfc_solve(ts, 12, 3, 12, (uint64_t)seed + 1, NULL, 0, &c) == ST_OK);
        CHECK(memcmp(a.tiles, b.tiles, sizeof(int16_t) * 432) == 0);
        CHECK(memcmp(a.tiles, c.tiles, sizeof(int16_t) * 432) != 0);
        wfc_grid_free(&a);
        wfc_grid_free(&b);
        wfc_grid_free(&c);
    }
    wfc_tileset_destroy(ts);
}

#define SOCK(a) "{\"+x\":\"" a "\",\"-x\":\"" a "\",\"+y\":\"" a "\",\"-y\":\"" a "\",\"+z\":\"" a "\",\"-z\":\"" a "\"}"

static void test_weights(void)
{
    const char *text = "{\"tileset\":\"w\",\"tileSize\":[1,1,1],\"boundarySocket\":\"a\",\"tiles\":["
                       "{\"id\":\"one\",\"weight\":1,\"sockets\":" SOCK("a") "},"
                       "{\"id\":\"two\",\"weight\":2,\"sockets\":" SOCK("a") "},"
                       "{\"id\":\"four\",\"weight\":4,\"sockets\":" SOCK("a") "}],"
                       "\"adjacency\":[[\"a\",\"a\"]]}";
    WfcTileset *ts;
    CHECK(wfc_tileset_parse("weights.json", text, &ts) == ST_OK);
    long counts[3] = {0};
    for (int seed = 0; seed < 20; seed++) {
        WfcGrid g = {0};
        CHECK(wfc_solve(ts, 20, 2, 20, (uint64_t)seed, NULL, 0, &g) == ST_OK);
        for (int i = 0; i < 800; i++)
            counts[ts->variants[g.tiles[i]].tile]++;
        wfc_grid_free(&g);
    }
    double total = (double)(counts[0] + counts[1] + counts[2]);
    CHECK_NEAR(counts[0] / total, 1.0 / 7.0, 0.02);
    CHECK_NEAR(counts[1] / total, 2.0 / 7.0, 0.02);
    CHECK_NEAR(counts[2] / total, 4.0 / 7.0, 0.02);
    wfc_tileset_destroy(ts);
}

static void test_rotations(void)
{
    WfcTileset *ts;
    CHECK(wfc_tileset_load(DUNGEON, &ts) == ST_OK);
    int door = wfc_tileset_find_socket(ts, "door"), wall = wfc_tileset_find_socket(ts, "wall");
    int corners = 0;
    for (int v = 0; v < ts->variant_count; v++) {
        const WfcVariant *var = &ts->variants[v];
        if (strcmp(ts->tiles[var->tile].id, "corner") != 0)
            continue;
        corners++;
        /* corner: doors -x and +z; a quarter turn (+x towards +z) moves -x to -z and +z to -x */
        static const int expect[4][WFC_DIRS] = {
            {0, 1, 0, 0, 1, 0}, {0, 1, 0, 0, 0, 1}, {1, 0, 0, 0, 0, 1}, {1, 0, 0, 0, 1, 0}};
        for (int d = 0; d < WFC_DIRS; d++)
            CHECK_EQ_INT(var->sockets[d], expect[var->rotation][d] ? door : wall);
    }
    CHECK_EQ_INT(corners, 4);
    wfc_tileset_destroy(ts);
}

static void test_failures(void)
{
    WfcTileset *ts;
    /* every face a door, but the boundary is a wall: cannot tile anything */
    const char *open = "{\"tileset\":\"o\",\"tileSize\":[1,1,1],\"boundarySocket\":\"wall\",\"tiles\":[{\"id\":\"x\",\"sockets\":" SOCK("door")
                       "}],\"adjacency\":[[\"door\",\"door\"]]}";
    CHECK(wfc_tileset_parse("open.json", open, &ts) == ST_OK);
    WfcGrid g = {0};
    CHECK(wfc_solve(ts, 4, 1, 4, 1, NULL, 0, &g) == ST_ERR_STATE);
    CHECK(g.tiles == NULL);
    CHECK_STR_CONTAINS(st_error_message(), "cannot tile");
    wfc_tileset_destroy(ts);
    /* parity: "p" pairs only with "q", and every tile shows p on +x and -x: no two tiles side by side */
    const char *parity = "{\"tileset\":\"p\",\"tileSize\":[1,1,1],\"boundarySocket\":\"b\",\"tiles\":["
                         "{\"id\":\"a\",\"sockets\":{\"+x\":\"p\",\"-x\":\"p\",\"+y\":\"b\",\"-y\":\"b\",\"+z\":\"b\",\"-z\":\"b\"}}],"
                         "\"adjacency\":[[\"p\",\"q\"],[\"b\",\"b\"],[\"p\",\"b\"]]}";
    CHECK(wfc_tileset_parse("parity.json", parity, &ts) == ST_OK);
    CHECK(wfc_solve(ts, 1, 1, 1, 1, NULL, 0, &g) == ST_OK);
    wfc_grid_free(&g);
    CHECK(wfc_solve(ts, 3, 1, 1, 1, NULL, 0, &g) == ST_ERR_STATE);
    CHECK(g.tiles == NULL);
    CHECK(wfc_solve(ts, 0, 1, 1, 1, NULL, 0, &g) == ST_ERR_ARG);
    wfc_tileset_destroy(ts);
    /* malformed tilesets name the field */
    CHECK(wfc_tileset_parse("bad.json", "{\"tileset\":\"b\",\"tileSize\":[1,1],\"tiles\":[],\"adjacency\":[]}", &ts) ==
          ST_ERR_FORMAT);
    CHECK_STR_CONTAINS(st_error_message(), "tileSize");
    CHECK(wfc_tileset_parse("bad.json", "{\"tileset\":\"b\",\"tileSize\":[1,1,1],\"tiles\":[{\"id\":\"x\",\"sockets\":"
                                        "{\"+x\":\"a\"}}],\"adjacency\":[]}", &ts) == ST_ERR_FORMAT);
    CHECK_STR_CONTAINS(st_error_message(), "-x");
    CHECK(ts == NULL);
}

/* The seed's adjacency object (socket -> list) pairs exactly what the list of pairs does, either side listing
 * enough; a tileset with no boundarySocket leaves the boundary free. */
static void test_adjacency_forms(void)
{
    const char *tiles = "\"tiles\":[{\"id\":\"d\",\"sockets\":{\"+x\":\"door\",\"-x\":\"door\",\"+y\":\"wall\","
                        "\"-y\":\"wall\",\"+z\":\"wall\",\"-z\":\"wall\"},\"rotatable\":true},"
                        "{\"id\":\"w\",\"sockets\":" SOCK("wall") "}],";
    char a[1024], b[1024];
    snprintf(a, sizeof a, "{\"tileset\":\"a\",\"tileSize\":[1,1,1],%s\"adjacency\":{\"door\":[\"door\"],"
             "\"wall\":[\"wall\", \"edge\"],\"edge\":[]}}", tiles);
    snprintf(b, sizeof b, "{\"tileset\":\"b\",\"tileSize\":[1,1,1],%s\"adjacency\":[[\"door\",\"door\"],"
             "[\"edge\",\"wall\"],[\"wall\",\"wall\"]]}", tiles);
    WfcTileset *ta, *tb;
    CHECK(wfc_tileset_parse("a.json", a, &ta) == ST_OK);
    CHECK(wfc_tileset_parse("b.json", b, &tb) == ST_OK);
    CHECK_EQ_INT(ta->socket_count, tb->socket_count);
    CHECK_EQ_INT(ta->boundary_socket, -1);
    int door = wfc_tileset_find_socket(ta, "door"), wall = wfc_tileset_find_socket(ta, "wall"),
        edge = wfc_tileset_find_socket(ta, "edge");
    CHECK(ta->pairs[edge][wall] && ta->pairs[wall][edge]);   /* "edge" lists nothing, "wall" lists it */
    CHECK(!ta->pairs[door][wall] && !ta->pairs[edge][edge]);
    for (int i = 0; i < ta->socket_count; i++)
        for (int j = 0; j < ta->socket_count; j++)
            CHECK_EQ_INT(ta->pairs[i][j], tb->pairs[wfc_tileset_find_socket(tb, ta->socket_names[i])]
                                                  [wfc_tileset_find_socket(tb, ta->socket_names[j])]);
    /* no boundarySocket: doors may face the edge, so a row of 4 can be all doors */
    wfc_tileset_destroy(tb);
    WfcGrid g = {0};
    bool door_on_edge = false;
    for (int seed = 0; seed < 20 && !door_on_edge; seed++) {
        CHECK(wfc_solve(ta, 4, 1, 4, (uint64_t)seed, NULL, 0, &g) == ST_OK);
        CHECK(grid_valid(ta, &g));
        for (int z = 0; z < 4; z++)
            door_on_edge = door_on_edge || ta->variants[wfc_grid_at(&g, 0, 0, z)].sockets[WFC_NX] == door ||
                           ta->variants[wfc_grid_at(&g, z, 0, 0)].sockets[WFC_NZ] == door;
        wfc_grid_free(&g);
    }
    CHECK(door_on_edge);
    /* a list entry that is not a socket name is named by its path */
    CHECK(wfc_tileset_parse("bad.json", "{\"tileset\":\"b\",\"tileSize\":[1,1,1],\"tiles\":[{\"id\":\"w\",\"sockets\":"
                                        SOCK("wall") "}],\"adjacency\":{\"wall\":[3]}}", &tb) == ST_ERR_FORMAT);
    CHECK_STR_CONTAINS(st_error_message(), "adjacency.wall");
    CHECK(wfc_tileset_parse("bad.json", "{\"tileset\":\"b\",\"tileSize\":[1,1,1],\"tiles\":[{\"id\":\"w\",\"sockets\":"
                                        SOCK("wall") "}],\"adjacency\":{\"wall\":\"wall\"}}", &tb) == ST_ERR_FORMAT);
    CHECK_STR_CONTAINS(st_error_message(), "list of socket names");
    wfc_tileset_destroy(ta);
}

int main(void)
{
    RUN(test_dungeon_all_sizes);
    RUN(test_deterministic);
    RUN(test_adjacency_forms);
    RUN(test_weights);
    RUN(test_rotations);
    RUN(test_failures);
    return check_report();
}
