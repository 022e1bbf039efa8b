# sources of src/update (listed explicitly)
target_sources(strata_core PRIVATE src/update/steps.c src/update/worker.c src/update/updater.c
               src/update/exchange.c src/update/pool.c src/update/schedule.c)
