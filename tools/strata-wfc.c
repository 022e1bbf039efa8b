/* strata-wfc — solves a WFC tileset on a grid and renders the layout for designers.
 *
 *   strata-wfc --tileset JSON --size X,Y,Z --seed S --out PNG [--json OUT] [--blocks blocks.json] [--scale N]
 *
 * The PNG shows the grid's layers side by side (layer 0 on the left), each tile drawn top-down from its
 * mesh template at walking height: rooms tan, corridors grey, stairs blue, linings dark, untouched rock
 * black; thin lines mark tile borders. --json writes every placed tile {"id", "rotation" (degrees), "x", "y",
 * "z", "sockets"} plus the tileset's adjacency table and boundary socket, for independent checkers.
 * Exit codes: 0 solved, 1 error (unsolvable tileset, unreadable file), 2 usage. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strata/block.h"
#include "strata/error.h"
#include "strata/fileio.h"
#include "strata/wfc.h"

#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>

static int usage(const char *msg)
{
    if (msg)
        fprintf(stderr, "strata-wfc: %s\n", msg);
    fprintf(stderr, "usage: strata-wfc --tileset JSON --size X,Y,Z --seed S --out PNG [--json OUT] "
                    "[--blocks blocks.json] [--scale N]\n");
    return 2;
}

static void put(unsigned char *rgb, int w, int x, int y, const unsigned char c[3])
{
    memcpy(rgb + ((size_t)y * w + x) * 3, c, 3);
}

static StResult write_png(const WfcTileset *ts, const WfcGrid *g, int scale, const char *path)
{
    const int tx = ts->tile_size[0], tz = ts->tile_size[2], gap = 2;
    int pw = g->size[0] * tx, ph = g->size[2] * tz;
    int w = (pw * g->size[1] + gap * (g->size[1] - 1)) * scale, h = ph * scale;
    unsigned char *rgb = calloc((size_t)w * h, 3);
    if (!rgb)
        return st_fail(ST_ERR_NOMEM, "out of memory");
    static const unsigned char rock[3] = {20, 20, 24}, lining[3] = {70, 70, 78}, room[3] = {214, 180, 120},
                               corr[3] = {170, 170, 170}, stair[3] = {90, 130, 220}, border[3] = {45, 30, 30},
                               gapc[3] = {255, 255, 255}, torch[3] = {255, 220, 60};
    for (int i = 0; i < w * h; i++)
        memcpy(rgb + (size_t)i * 3, gapc, 3);
    int walk = ts->tile_size[1] > 2 ? 2 : ts->tile_size[1] - 1;
    for (int y = 0; y < g->size[1]; y++)
        for (int cz = 0; cz < g->size[2]; cz++)
            for (int cx = 0; cx < g->size[0]; cx++) {
                const WfcVariant *v = &ts->variants[wfc_grid_at(g, cx, y, cz)];
                const WfcTile *t = &ts->tiles[v->tile];
                const unsigned char *open = wfc_tile_has_tag(t, "room")     ? room
                                            : wfc_tile_has_tag(t, "stairs") ? stair
                                                                            : corr;
                for (int lz = 0; lz < tz; lz++)
                    for (int lx = 0; lx < tx; lx++) {
                        const unsigned char *c = rock;
                        if (t->mesh_template.voxels) {
                            int b = voxel_template_get_rotated(&t->mesh_template, v->rotation, lx, walk, lz);
                            int below = voxel_template_get_rotated(&t->mesh_template, v->rotation, lx, 1, lz);
                            if (below == BLOCK_TORCH)
                                c = torch;
                            else if (b == BLOCK_AIR || below == BLOCK_AIR)
                                c = open;
                            else if (b != VOXEL_TEMPLATE_KEEP)
                                c = lining;
                        }
                        if (lx == 0 || lz == 0)
                            c = c == rock ? border : c;
                        int px = y * (pw + gap) + cx * tx + lx, pz = cz * tz + lz;
                        for (int sy = 0; sy < scale; sy++)
                            for (int sx = 0; sx < scale; sx++)
                                put(rgb, w, px * scale + sx, pz * scale + sy, c);
                    }
            }
    int ok = stbi_write_png(path, w, h, 3, rgb, w * 3);
    free(rgb);
    return ok ? ST_OK : st_fail(ST_ERR_IO, "%s: cannot write the PNG", path);
}

static cJSON *sockets_json(const WfcTileset *ts, const int *sockets)
{
    cJSON *o = cJSON_CreateObject();
    for (int d = 0; d < WFC_DIRS; d++)
        cJSON_AddStringToObject(o, WFC_DIR_NAMES[d], ts->socket_names[sockets[d]]);
    return o;
}

static StResult write_json(const WfcTileset *ts, const WfcGrid *g, unsigned long long seed, const char *path)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "tileset", ts->name);
    cJSON_AddNumberToObject(root, "seed", (double)seed);
    cJSON *size = cJSON_AddArrayToObject(root, "size");
    for (int i = 0; i < 3; i++)
        cJSON_AddItemToArray(size, cJSON_CreateNumber(g->size[i]));
    if (ts->boundary_socket >= 0)
        cJSON_AddStringToObject(root, "boundarySocket", ts->socket_names[ts->boundary_socket]);
    else
        cJSON_AddNullToObject(root, "boundarySocket");   /* the tileset names none: the boundary is free */
    cJSON *adj = cJSON_AddArrayToObject(root, "adjacency");
    for (int a = 0; a < ts->socket_count; a++)
        for (int b = a; b < ts->socket_count; b++)
            if (ts->pairs[a][b]) {
                cJSON *p = cJSON_CreateArray();
                cJSON_AddItemToArray(p, cJSON_CreateString(ts->socket_names[a]));
                cJSON_AddItemToArray(p, cJSON_CreateString(ts->socket_names[b]));
                cJSON_AddItemToArray(adj, p);
            }
    cJSON *vars = cJSON_AddArrayToObject(root, "variants");
    for (int v = 0; v < ts->variant_count; v++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "id", ts->tiles[ts->variants[v].tile].id);
        cJSON_AddNumberToObject(o, "rotation", 90 * ts->variants[v].rotation);
        cJSON_AddItemToObject(o, "sockets", sockets_json(ts, ts->variants[v].sockets));
        cJSON_AddItemToArray(vars, o);
    }
    cJSON *tiles = cJSON_AddArrayToObject(root, "tiles");
    for (int y = 0; y < g->size[1]; y++)
        for (int z = 0; z < g->size[2]; z++)
            for (int x = 0; x < g->size[0]; x++) {
                const WfcVariant *v = &ts->variants[wfc_grid_at(g, x, y, z)];
                cJSON *o = cJSON_CreateObject();
                cJSON_AddStringToObject(o, "id", ts->tiles[v->tile].id);
                cJSON_AddNumberToObject(o, "rotation", 90 * v->rotation);
                cJSON_AddNumberToObject(o, "x", x);
                cJSON_AddNumberToObject(o, "y", y);
                cJSON_AddNumberToObject(o, "z", z);
                cJSON_AddItemToObject(o, "sockets", sockets_json(ts, v->sockets));
                cJSON_AddItemToArray(tiles, o);
            }
    char *text = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    if (!text)
        return st_fail(ST_ERR_NOMEM, "out of memory");
    StResult rc = fileio_write_atomic(path, text, strlen(text));
    free(text);
    return rc;
}

int main(int argc, char **argv)
{
    const char *tileset = NULL, *out = NULL, *json = NULL, *blocks_path = STRATA_ASSET_DIR "/blocks.json";
    int size[3] = {0, 0, 0}, scale = 3;
    unsigned long long seed = 0;
    bool have_size = false, have_seed = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(NULL);
            return 0;
        }
        if (i + 1 >= argc)
            return usage("a flag is missing its value");
        const char *v = argv[++i];
        char end;
        if (strcmp(a, "--tileset") == 0) {
            tileset = v;
        } else if (strcmp(a, "--out") == 0) {
            out = v;
        } else if (strcmp(a, "--json") == 0) {
            json = v;
        } else if (strcmp(a, "--blocks") == 0) {
            blocks_path = v;
        } else if (strcmp(a, "--size") == 0) {
            if (sscanf(v, "%d,%d,%d%c", &size[0], &size[1], &size[2], &end) != 3)
                return usage("--size wants X,Y,Z");
            for (int k = 0; k < 3; k++)
                if (size[k] < 1 || size[k] > WFC_MAX_SIDE)
                    return usage("--size: each side in 1..64");
            have_size = true;
        } else if (strcmp(a, "--seed") == 0) {
            if (sscanf(v, "%llu%c", &seed, &end) != 1)
                return usage("--seed wants a non-negative integer");
            have_seed = true;
        } else if (strcmp(a, "--scale") == 0) {
            if (sscanf(v, "%d%c", &scale, &end) != 1 || scale < 1 || scale > 16)
                return usage("--scale wants 1..16");
        } else {
            fprintf(stderr, "strata-wfc: unknown flag %s\n", a);
            return usage(NULL);
        }
    }
    if (!tileset || !have_size || !have_seed || (!out && !json))
        return usage("--tileset, --size, --seed and --out (or --json) are required");
    WfcTileset *ts = NULL;
    BlockRegistry *blocks = NULL;
    WfcGrid grid = {0};
    StResult rc = wfc_tileset_load(tileset, &ts);
    if (rc == ST_OK && out)
        rc = block_registry_load(blocks_path, &blocks);
    if (rc == ST_OK && out)
        rc = wfc_tileset_load_templates(ts, blocks);
    if (rc == ST_OK)
        rc = wfc_solve(ts, size[0], size[1], size[2], seed, NULL, 0, &grid);
    if (rc == ST_OK && out)
        rc = write_png(ts, &grid, scale, out);
    if (rc == ST_OK && json)
        rc = write_json(ts, &grid, seed, json);
    if (rc == ST_OK)
        printf("solved %dx%dx%d (%d restarts, %d backtracks)\n", size[0], size[1], size[2], grid.restarts,
               grid.backtracks);
    else
        fprintf(stderr, "strata-wfc: %s\n", st_error_message());
    wfc_grid_free(&grid);
    wfc_tileset_destroy(ts);
    block_registry_destroy(blocks);
    return rc == ST_OK ? 0 : 1;
}
