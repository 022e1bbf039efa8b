# sources of src/core (listed explicitly)
target_sources(strata_core PRIVATE src/core/error.c src/core/log.c)
target_sources(strata_core PRIVATE src/core/fileio.c src/core/config.c src/core/rng.c src/core/flags.c src/core/range_alloc.c src/core/level_buckets.c
                               src/core/thread_priority.c src/core/thread_name.c
                               src/core/huge_pages.c)
set(STRATA_NOISE_SOURCES src/core/noise_table.c src/core/noise_simplex.c src/core/noise_perlin.c
                         src/core/noise_worley.c src/core/noise_fractal.c)
target_sources(strata_core PRIVATE ${STRATA_NOISE_SOURCES})
# Noise must give the same bits on every CPU: GCC fuses a*b+c into FMA where the target has it
# (aarch64 always, x86 with -march=native), which changes the rounding. Keep every multiply-add separate.
set_source_files_properties(${STRATA_NOISE_SOURCES} PROPERTIES COMPILE_OPTIONS "-ffp-contract=off")
