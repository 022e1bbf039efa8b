/* fuzz_blocks.c — libFuzzer target for the blocks.json parser (block_registry_load, src/world/block.c).
 *
 * The input is blocks.json text, written to a scratch file (the loader reads files only). Properties
 * checked (a failure traps): a registry that loads has 1..BLOCK_MAX ids, id 0 defined (air), and its derived
 * per-id tables agree with the definitions (no light emission above 15). Memory errors and leaks are ASan's. */
#include "fuzz_common.h"
#include "strata/block.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[128];
    if (!path[0]) snprintf(path, sizeof path, "%s/blocks.json", fuzz_scratch_dir());
    fuzz_write_file(path, data, size);
    BlockRegistry *reg = NULL;
    if (block_registry_load(path, &reg) == ST_OK) {
        if (!reg || reg->count < 1 || reg->count > BLOCK_MAX) __builtin_trap();
        if (!block_is_defined(reg, 0)) __builtin_trap();
        for (int id = 0; id < BLOCK_MAX; id++)
            if (reg->emission[id] > 15) __builtin_trap();
        block_registry_destroy(reg);
    } else if (reg) {
        __builtin_trap();
    }
    return 0;
}
