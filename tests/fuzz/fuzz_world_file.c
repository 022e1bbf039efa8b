/* fuzz_world_file.c — libFuzzer target for the world.json parser (world_meta_parse, src/store/world_file.c).
 *
 * The input is world.json text. Properties checked (a failure traps): a parse that succeeds gives values in
 * the ranges world.json promises (finite player position, pitch -180..180, time of day 0..1, known format
 * version); a failed parse leaves the output untouched. Memory errors and leaks are AddressSanitizer's. */
#include <math.h>

#include "fuzz_common.h"
#include "strata/world_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    log_set_level(LOG_SILENT);
    char *text = fuzz_text(data, size);
    WorldMeta meta, untouched;
    memset(&meta, 0x5A, sizeof meta);
    memcpy(&untouched, &meta, sizeof meta);
    StResult rc = world_meta_parse("fuzz/world.json", text, &meta);
    if (rc != ST_OK) {
        if (memcmp(&meta, &untouched, sizeof meta) != 0) __builtin_trap();
    } else {
        if (meta.format_version < 1 || meta.format_version > WORLD_FORMAT_VERSION) __builtin_trap();
        for (int i = 0; i < 3; i++)
            if (!isfinite(meta.player_position[i])) __builtin_trap();
        if (!(meta.time_of_day >= 0.0f && meta.time_of_day <= 1.0f)) __builtin_trap();
        if (!(meta.player_pitch >= -180.0f && meta.player_pitch <= 180.0f)) __builtin_trap();
        if (!isfinite(meta.game_time) || meta.game_time < 0) __builtin_trap();
        if (!memchr(meta.generator_name, 0, sizeof meta.generator_name)) __builtin_trap();
    }
    free(text);
    return 0;
}
