/* strata-voxelize — a model (glTF/.glb, FBX, OBJ: anything Assimp reads) into a Strata voxel template.
 *
 *   strata-voxelize MODEL (--size N | --scale S) --out TEMPLATE.json [--palette blocks|a,b,c] [--fill solid|surface]
 *                   [--blocks blocks.json] [--atlas atlas.png]
 *
 * --size N: N cells on the model's longest side (1..256); --scale S: S cells per model unit (1 unit = 1 block
 * at 1). The template (assets/templates/README.md) holds the model's surface cells and, with --fill solid (the
 * default), the cells inside a closed mesh; its colours (vertex colours, PNG textures, material colours)
 * become the nearest block of the palette by the atlas tiles' mean colours (voxel_model.h). Cells outside the
 * model keep what is there. Deterministic: the same file and flags write the same bytes.
 * Exit codes: 0 written, 1 error (unreadable or empty model, unwritable output), 2 usage. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strata/block.h"
#include "strata/error.h"
#include "strata/voxel_model.h"
#include "strata/voxel_template.h"

static int usage(const char *msg)
{
    if (msg)
        fprintf(stderr, "strata-voxelize: %s\n", msg);
    fprintf(msg ? stderr : stdout,
            "usage: strata-voxelize MODEL (--size N | --scale S) --out TEMPLATE.json [--palette blocks|a,b,c]\n"
            "                       [--fill solid|surface] [--blocks blocks.json] [--atlas atlas.png]\n");
    return msg ? 2 : 0;
}

int main(int argc, char **argv)
{
    const char *model = NULL, *out = NULL, *blocks_path = STRATA_ASSET_DIR "/blocks.json";
    VoxelizeOptions opt = {0};
    bool have_size = false, have_scale = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)
            return usage(NULL);
        if (a[0] != '-') {
            if (model)
                return usage("one MODEL only");
            model = a;
            continue;
        }
        if (i + 1 >= argc)
            return usage("a flag is missing its value");
        const char *v = argv[++i];
        char end;
        if (strcmp(a, "--size") == 0) {
            if (sscanf(v, "%d%c", &opt.size, &end) != 1 || opt.size < 1 || opt.size > VOXEL_TEMPLATE_MAX_SIDE)
                return usage("--size wants an integer in 1..256");
            have_size = true;
        } else if (strcmp(a, "--scale") == 0) {
            if (sscanf(v, "%f%c", &opt.scale, &end) != 1 || !(opt.scale > 0) || opt.scale > 1e6f)
                return usage("--scale wants a number > 0 (cells per model unit)");
            have_scale = true;
        } else if (strcmp(a, "--out") == 0) {
            out = v;
        } else if (strcmp(a, "--palette") == 0) {
            opt.palette = v;
        } else if (strcmp(a, "--fill") == 0) {
            if (strcmp(v, "solid") != 0 && strcmp(v, "surface") != 0)
                return usage("--fill wants solid or surface");
            opt.fill = strcmp(v, "solid") == 0 ? VOXELIZE_SOLID : VOXELIZE_SURFACE;
        } else if (strcmp(a, "--blocks") == 0) {
            blocks_path = v;
        } else if (strcmp(a, "--atlas") == 0) {
            opt.atlas_path = v;
        } else {
            fprintf(stderr, "strata-voxelize: unknown flag %s\n", a);
            return usage("see the usage");
        }
    }
    if (!model || !out)
        return usage("MODEL and --out are required");
    if (have_size == have_scale)
        return usage("give one of --size N or --scale S");
    BlockRegistry *blocks = NULL;
    VoxelTemplate t = {0};
    StResult rc = block_registry_load(blocks_path, &blocks);
    if (rc == ST_OK)
        rc = voxel_model_voxelize(model, &opt, blocks, &t);
    if (rc == ST_OK)
        rc = voxel_template_save(&t, blocks, out);
    if (rc == ST_OK) {
        long filled = 0;
        for (long i = 0; i < (long)t.size[0] * t.size[1] * t.size[2]; i++)
            filled += t.voxels[i] != VOXEL_TEMPLATE_KEEP;
        printf("%s: %dx%dx%d cells, %ld filled\n", out, t.size[0], t.size[1], t.size[2], filled);
    } else {
        fprintf(stderr, "strata-voxelize: %s\n", st_error_message());
    }
    voxel_template_free(&t);
    block_registry_destroy(blocks);
    return rc == ST_OK ? 0 : 1;
}
