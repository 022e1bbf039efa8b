/* fuzz_sparkterrain.c — libFuzzer target for the .sparkterrain v2 decoder (built by
 * tests/run_fuzz_sparkterrain.sh with clang -fsanitize=fuzzer,address,undefined; not part of the CMake
 * build). Properties: decoding never crashes or leaks; a failed decode leaves the output zeroed; a
 * successful decode re-encodes to exactly the input bytes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "strata/heightfield_io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    SparkTerrain t;
    if (spark_terrain_decode("fuzz", data, size, &t) != ST_OK) {
        if (t.heights.heights || t.splatmaps || t.layer_count) __builtin_trap();
        return 0;
    }
    uint8_t *again;
    size_t again_size;
    if (spark_terrain_encode(&t, &again, &again_size) != ST_OK) __builtin_trap();
    if (again_size != size || memcmp(again, data, size) != 0) __builtin_trap();
    free(again);
    spark_terrain_free(&t);
    return 0;
}
