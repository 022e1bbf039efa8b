/* fuzz_worldgen.c — libFuzzer target for the worldgen.json parser (worldgen_parse, src/gen/gen_worldgen.c),
 * with block names resolved against the standard assets/blocks.json.
 *
 * The input is worldgen.json text. Properties checked (a failure traps): a config that parses has its
 * counts within their arrays and the sea level in 16..200. Memory errors and leaks are ASan's. */
#include "fuzz_common.h"
#include "gen_config.h"

static BlockRegistry *blocks;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    log_set_level(LOG_SILENT);
    if (!blocks && block_registry_load(STRATA_ASSET_DIR "/blocks.json", &blocks) != ST_OK) __builtin_trap();
    char *text = fuzz_text(data, size);
    WorldgenConfig *cfg = malloc(sizeof *cfg);
    if (!cfg) __builtin_trap();
    if (worldgen_parse("fuzz/worldgen.json", text, blocks, cfg) == ST_OK) {
        if (cfg->sea_level < 16 || cfg->sea_level > 200) __builtin_trap();
        if (cfg->ore_count < 0 || cfg->ore_count > GEN_MAX_VEINS) __builtin_trap();
        if (cfg->pocket_count < 0 || cfg->pocket_count > GEN_MAX_VEINS) __builtin_trap();
        if (cfg->tree_type_count < 0 || cfg->tree_type_count > GEN_MAX_TREE_TYPES) __builtin_trap();
        if (cfg->plants.flower_count < 0 || cfg->plants.flower_count > GEN_MAX_FLOWERS) __builtin_trap();
    }
    free(cfg);
    free(text);
    return 0;
}
