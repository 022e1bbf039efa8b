# sources of src/core (listed explicitly)
target_sources(strata_core PRIVATE src/core/error.c src/core/log.c)
