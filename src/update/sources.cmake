# sources of src/update (listed explicitly)
target_sources(strata_core PRIVATE src/update/update_step.c src/update/worker.c src/update/update.c
               src/update/update_exchange.c src/update/update_copies.c src/update/update_save.c src/update/pool.c
               src/update/schedule.c src/update/update_pack.c)
