/* fuzz_worldgen.c — libFuzzer target for the worldgen.json parser (src/gen/gen_worldgen.c), with block names
 * resolved against the standard assets/blocks.json.
 *
 * Every input goes through generator_check_worldgen (the parser and its validation, in memory: fast enough
 * for millions of runs). One input in 256 (chosen by a hash of its bytes, so a run is reproducible) also goes
 * the whole public way, written to a scratch file and given to generator_create, which builds the generator
 * (tree brushes, structures: ~100x slower). Properties checked (a failure traps): the check and the creation
 * agree (one succeeds exactly when the other does), except that creation also holds the file against the
 * other assets it reads: a scatter rule of assets/scatter.json naming a tree type the file lacks fails
 * creation only, with an error naming scatter.json (the fuzzer found such a file); a created generator answers
 * a height query with a finite value and a temperature in 0..15; a failure leaves no generator. Memory errors
 * and leaks are ASan's. */
#include <math.h>
#include <string.h>
#include <stdbool.h>

#include "fuzz_common.h"
#include "strata/generator.h"

static BlockRegistry *blocks;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[128];
    if (!path[0]) snprintf(path, sizeof path, "%s/worldgen.json", fuzz_scratch_dir());
    if (!blocks && block_registry_load(STRATA_ASSET_DIR "/blocks.json", &blocks) != ST_OK) __builtin_trap();
    char *text = fuzz_text(data, size);
    bool parsed = generator_check_worldgen(path, text, blocks) == ST_OK;
    free(text);
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < size; i++) h = (h ^ data[i]) * 16777619u;
    if ((h & 255) != 0) return 0;

    fuzz_write_file(path, data, size);
    WorldSettings settings;
    world_settings_default(&settings);
    settings.seed = 1;
    Generator *gen = NULL;
    if (generator_create(&settings, blocks, path, &gen) == ST_OK) {
        if (!gen || !parsed) __builtin_trap();
        float height = gen->calculate_height(gen, 10.5f, -3.5f);
        int t = gen->calculate_temperature(gen, 10.5f, -3.5f);
        if (!isfinite(height) || t < 0 || t > 15) __builtin_trap();
        generator_destroy(gen);
    } else if (gen || (parsed && !strstr(st_error_message(), "scatter.json"))) {
        __builtin_trap();
    }
    return 0;
}
