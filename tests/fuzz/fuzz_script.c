/* fuzz_script.c — libFuzzer target for the script parser (script_parse_text and script_resolve_blocks,
 * src/game/script.c; SDL-free).
 *
 * The input is script text. Properties checked (a failure traps): every parsed command has a known op, a
 * positive line number, frame counts within 0..SCRIPT_MAX_FRAMES, and NUL-terminated text; resolving block
 * names against the standard registry either fails or gives defined ids. Memory errors are ASan's. */
#include "fuzz_common.h"
#include "script.h"

static BlockRegistry *blocks;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    log_set_level(LOG_SILENT);
    if (!blocks && block_registry_load(STRATA_ASSET_DIR "/blocks.json", &blocks) != ST_OK) __builtin_trap();
    char *text = fuzz_text(data, size);
    Script script;
    memset(&script, 0, sizeof script);
    if (script_parse_text("fuzz.script", text, &script) == ST_OK) {
        for (int i = 0; i < script.count; i++) {
            const ScriptCommand *c = &script.commands[i];
            if ((unsigned)c->op >= SCRIPT_OP_COUNT || c->line < 1) __builtin_trap();
            if (c->frames < 0 || c->frames > SCRIPT_MAX_FRAMES) __builtin_trap();
            if (!memchr(c->text, 0, sizeof c->text)) __builtin_trap();
        }
        if (script_resolve_blocks(&script, blocks) == ST_OK) {
            for (int i = 0; i < script.count; i++) {
                const ScriptCommand *c = &script.commands[i];
                if ((c->op == SCRIPT_PLACE || c->op == SCRIPT_SELECT) && !block_is_defined(blocks, c->block))
                    __builtin_trap();
            }
        }
        script_free(&script);
    }
    free(text);
    return 0;
}
