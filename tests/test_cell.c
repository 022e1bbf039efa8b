/* test_cell.c — cell value encoding at its bit boundaries, shaft fields, atomic helpers. */
#include "check.h"
#include "strata/cell.h"
#include "strata/chunk.h"

static const int CONTENTS[] = { 0, 1, 511, 512, 1022, 1023 };
static const int LIGHTS[] = { 0, 1, 7, 8, 14, 15 };
static const int DATAS[] = { 0, 1, (1 << 17) - 1, 1 << 17, CELL_DATA_MAX - 1, CELL_DATA_MAX };
#define N(a) (int)(sizeof(a) / sizeof(a)[0])

static void test_round_trips(void)
{
    int bad = 0;
    for (int c = 0; c < N(CONTENTS); c++)
        for (int l = 0; l < N(LIGHTS); l++)
            for (int d = 0; d < N(DATAS); d++) {
                int32_t v = cell_replace_light(cell_make(CONTENTS[c], DATAS[d]), LIGHTS[l]);
                if (cell_contents(v) != CONTENTS[c] || cell_light(v) != LIGHTS[l] || cell_data(v) != DATAS[d]) bad++;
                /* each replace touches only its own field */
                int32_t w = cell_replace_contents(v, 1023 - CONTENTS[c]);
                if (cell_contents(w) != 1023 - CONTENTS[c] || cell_light(w) != LIGHTS[l] || cell_data(w) != DATAS[d]) bad++;
                w = cell_replace_light(v, 15 - LIGHTS[l]);
                if (cell_contents(w) != CONTENTS[c] || cell_light(w) != 15 - LIGHTS[l] || cell_data(w) != DATAS[d]) bad++;
                w = cell_replace_data(v, CELL_DATA_MAX - DATAS[d]);
                if (cell_contents(w) != CONTENTS[c] || cell_light(w) != LIGHTS[l] || cell_data(w) != CELL_DATA_MAX - DATAS[d]) bad++;
            }
    CHECK_EQ_INT(bad, 0);
}

static void test_exact_bits(void)
{
    CHECK_EQ_INT(cell_make(1023, 0), 0x3FF);
    CHECK_EQ_INT((uint32_t)cell_make(0, CELL_DATA_MAX), 0xFFFFC000u);
    CHECK_EQ_INT(cell_replace_light(0, 15), 0x3C00);
    CHECK_EQ_INT(cell_make(1023, CELL_DATA_MAX) | 0x3C00, -1);
    /* all bits set: every field at its maximum; the data is read as unsigned, never negative */
    CHECK_EQ_INT(cell_contents(-1), 1023);
    CHECK_EQ_INT(cell_light(-1), 15);
    CHECK_EQ_INT(cell_data(-1), CELL_DATA_MAX);
    CHECK_EQ_INT(cell_data(INT32_MIN), 1 << 17);
    CHECK(cell_data(INT32_MIN) > 0);
    /* out-of-range inputs are masked to their field, not spilled into the neighbours */
    CHECK_EQ_INT(cell_make(1024, 0), 0);
    CHECK_EQ_INT(cell_make(1025, 0), 1);
    CHECK_EQ_INT(cell_data(cell_make(5, -1)), CELL_DATA_MAX);
    CHECK_EQ_INT(cell_contents(cell_make(5, -1)), 5);
    CHECK_EQ_INT(cell_light(cell_make(5, -1)), 0);
    CHECK_EQ_INT(cell_light(cell_replace_light(cell_make(7, 3), 16)), 0);
    CHECK_EQ_INT(cell_contents(cell_replace_light(cell_make(7, 3), 16)), 7);
    CHECK_EQ_INT(cell_data(cell_replace_data(cell_make(7, 3), CELL_DATA_MAX + 1)), 0);
    CHECK_EQ_INT(cell_data(cell_replace_data(cell_make(7, 3), -2)), CELL_DATA_MAX - 1);
}

static void test_atomic_helpers(void)
{
    int32_t cell = cell_make(1023, CELL_DATA_MAX);
    cell_store_light(&cell, 9);
    CHECK_EQ_INT(cell_light(cell_load(&cell)), 9);
    CHECK_EQ_INT(cell_contents(cell_load(&cell)), 1023);
    CHECK_EQ_INT(cell_data(cell_load(&cell)), CELL_DATA_MAX);
    cell_store_light(&cell, 9); /* unchanged: no write needed */
    CHECK_EQ_INT(cell_light(cell), 9);
    cell_store(&cell, cell_make(12, 77));
    CHECK_EQ_INT(cell_load(&cell), cell_make(12, 77));
}

static void test_shafts(void)
{
    int32_t s = 0;
    s = shaft_set_top_height(s, 255);
    s = shaft_set_temperature(s, 15);
    s = shaft_set_humidity(s, 15);
    s = shaft_set_bottom_height(s, 255);
    s = shaft_set_sunlight_height(s, 255);
    CHECK_EQ_INT(s, -1);
    CHECK_EQ_INT(shaft_sunlight_height(s), 255);
    s = shaft_set_temperature(s, 3);
    CHECK_EQ_INT(shaft_temperature(s), 3);
    CHECK_EQ_INT(shaft_humidity(s), 15);
    CHECK_EQ_INT(shaft_top_height(s), 255);
    s = shaft_set_sunlight_height(shaft_set_bottom_height(shaft_set_top_height(0, 70), 12), 200);
    CHECK_EQ_INT(shaft_top_height(s), 70);
    CHECK_EQ_INT(shaft_bottom_height(s), 12);
    CHECK_EQ_INT(shaft_sunlight_height(s), 200);
    CHECK_EQ_INT(shaft_temperature(s), 0);
    CHECK_EQ_INT(CHUNK_INDEX(15, 255, 15), CHUNK_CELLS - 1);
    CHECK_EQ_INT(CHUNK_INDEX(1, 0, 0), 256);
    CHECK_EQ_INT(CHUNK_INDEX(0, 0, 1), 4096);
    CHECK_EQ_INT(CHUNK_SHAFT_INDEX(15, 15), CHUNK_SHAFTS - 1);
}

int main(void)
{
    RUN(test_round_trips);
    RUN(test_exact_bits);
    RUN(test_atomic_helpers);
    RUN(test_shafts);
    return check_report();
}
