# sources of src/light (listed explicitly)
target_sources(strata_core PRIVATE src/light/sunlight.c src/light/propagate.c src/light/light_scratch.c)
