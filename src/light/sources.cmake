# sources of src/light (listed explicitly)
target_sources(strata_core PRIVATE src/light/light_sunlight.c src/light/light_propagate.c src/light/light_scratch.c)
