/* fuzz_worldgen.c — libFuzzer target for the worldgen.json parser, through the public generator_create
 * (src/gen: the file is parsed, validated and the generator built from it), with block names resolved
 * against the standard assets/blocks.json.
 *
 * The input is worldgen.json text, written to a scratch file (generator_create reads files only). Properties
 * checked (a failure traps): a generator that is created answers a height query with a finite value and a
 * temperature in 0..15, and a failure leaves no generator. Memory errors and leaks are ASan's. */
#include <math.h>

#include "fuzz_common.h"
#include "strata/generator.h"

static BlockRegistry *blocks;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[128];
    if (!path[0]) snprintf(path, sizeof path, "%s/worldgen.json", fuzz_scratch_dir());
    if (!blocks && block_registry_load(STRATA_ASSET_DIR "/blocks.json", &blocks) != ST_OK) __builtin_trap();
    fuzz_write_file(path, data, size);
    WorldSettings settings;
    world_settings_default(&settings);
    settings.seed = 1;
    Generator *gen = NULL;
    if (generator_create(&settings, blocks, path, &gen) == ST_OK) {
        if (!gen) __builtin_trap();
        float h = gen->calculate_height(gen, 10.5f, -3.5f);
        int t = gen->calculate_temperature(gen, 10.5f, -3.5f);
        if (!isfinite(h) || t < 0 || t > 15) __builtin_trap();
        generator_destroy(gen);
    } else if (gen) {
        __builtin_trap();
    }
    return 0;
}
