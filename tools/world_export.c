/* world_export.c — strata-world export-template DIR X0,Y0,Z0 X1,Y1,Z1 OUT.json.
 *
 * Design: opens the world read-only through the serializer the game uses (so stored chunks read exactly
 * as the game reads them) and rebuilds the world's generator at its stored version for chunks never
 * stored, so the box is what a player would see in that world. Each chunk the box touches is loaded or
 * generated once (all four passes), its part of the box copied into the template, and the template
 * written by voxel_template_save (air is written as air, never as "keep"). Sides are capped at
 * VOXEL_TEMPLATE_MAX_SIDE. */
#include "world_export.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strata/block.h"
#include "strata/chunk.h"
#include "strata/chunk_storage.h"
#include "strata/error.h"
#include "strata/generator.h"
#include "strata/serializer.h"
#include "strata/voxel_template.h"
#include "strata/world_file.h"

static bool parse_corner(const char *text, int v[3])
{
    char tail;
    return sscanf(text, "%d,%d,%d%c", &v[0], &v[1], &v[2], &tail) == 3;
}

int world_export_template(const char *dir, const char *assets, int argc, char **argv)
{
    int a[3], b[3];
    if (argc != 3 || !parse_corner(argv[0], a) || !parse_corner(argv[1], b)) {
        fprintf(stderr, "strata-world: export-template: expected DIR X0,Y0,Z0 X1,Y1,Z1 OUT.json\n");
        return 2;
    }
    int lo[3], size[3];
    for (int k = 0; k < 3; k++) {
        lo[k] = a[k] < b[k] ? a[k] : b[k];
        size[k] = abs(a[k] - b[k]) + 1;
        if (size[k] > VOXEL_TEMPLATE_MAX_SIDE) {
            fprintf(stderr, "strata-world: export-template: the box is %d blocks along %c (at most %d)\n", size[k],
                    "xyz"[k], VOXEL_TEMPLATE_MAX_SIDE);
            return 2;
        }
    }
    if (lo[1] < 0 || lo[1] + size[1] > CHUNK_SIZE_Y) {
        fprintf(stderr, "strata-world: export-template: y must lie in 0..%d\n", CHUNK_SIZE_Y - 1);
        return 2;
    }
    char path[1200];
    snprintf(path, sizeof path, "%s/blocks.json", assets);
    BlockRegistry *blocks = NULL;
    Serializer *ser = NULL;
    Generator *gen = NULL;
    GenContext *ctx = NULL;
    TerrainChunk *chunk = NULL;
    VoxelTemplate t;
    memset(&t, 0, sizeof t);
    WorldMeta meta;
    int status = 1;
    StResult rc = block_registry_load(path, &blocks);
    if (rc == ST_OK) rc = serializer_open(dir, false, &meta, blocks, &ser);
    if (rc == ST_OK) {
        snprintf(path, sizeof path, "%s/worldgen.json", assets);
        rc = generator_create_version(&meta.settings, blocks, path, meta.generator_version, &gen);
    }
    if (rc != ST_OK) {
        fprintf(stderr, "strata-world: export-template: %s\n", st_error_message());
        status = rc == ST_ERR_NOT_FOUND || rc == ST_ERR_ARG ? 2 : 1;
        goto done;
    }
    ctx = gen_context_create();
    chunk = calloc(1, sizeof *chunk);
    t.voxels = malloc((size_t)size[0] * size[1] * size[2] * sizeof *t.voxels);
    if (!ctx || !chunk || !t.voxels) {
        fprintf(stderr, "strata-world: export-template: out of memory\n");
        goto done;
    }
    memcpy(t.size, size, sizeof t.size);
    const char *base = strrchr(argv[2], '/');
    snprintf(t.name, sizeof t.name, "%s", base ? base + 1 : argv[2]);
    char *dot = strrchr(t.name, '.');
    if (dot) *dot = 0;
    const ChunkStorage *storage = serializer_chunk_storage(ser);
    int stored = 0, generated = 0;
    for (int cz = chunk_coord_of(lo[2]); cz <= chunk_coord_of(lo[2] + size[2] - 1); cz++)
        for (int cx = chunk_coord_of(lo[0]); cx <= chunk_coord_of(lo[0] + size[0] - 1); cx++) {
            chunk_reset(chunk, cx, cz);
            rc = storage->load(storage->user, chunk);
            if (rc == ST_OK) {
                stored++;
            } else if (rc == ST_ERR_NOT_FOUND) {
                chunk_reset(chunk, cx, cz);
                generator_generate_chunk(gen, chunk, ctx);
                generated++;
            } else {
                fprintf(stderr, "strata-world: export-template: chunk %d,%d: %s\n", cx, cz, st_error_message());
                goto done;
            }
            for (int z = 0; z < size[2]; z++)
                for (int x = 0; x < size[0]; x++) {
                    int wx = lo[0] + x, wz = lo[2] + z;
                    if (chunk_coord_of(wx) != cx || chunk_coord_of(wz) != cz) continue;
                    for (int y = 0; y < size[1]; y++)
                        t.voxels[(y * size[2] + z) * size[0] + x] = (int16_t)cell_contents(
                            chunk_get_cell(chunk, chunk_local_of(wx), lo[1] + y, chunk_local_of(wz)));
                }
        }
    if ((rc = voxel_template_save(&t, blocks, argv[2])) != ST_OK) {
        fprintf(stderr, "strata-world: export-template: %s\n", st_error_message());
        goto done;
    }
    printf("exported %dx%dx%d blocks at %d,%d,%d to %s (%d stored chunks, %d generated)\n", size[0], size[1],
           size[2], lo[0], lo[1], lo[2], argv[2], stored, generated);
    status = 0;
done:
    voxel_template_free(&t);
    chunk_destroy(chunk);
    gen_context_destroy(ctx);
    generator_destroy(gen);
    serializer_close(ser);
    block_registry_destroy(blocks);
    return status;
}
