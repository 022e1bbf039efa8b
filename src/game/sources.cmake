# sources of src/game (game only; listed explicitly)
target_sources(strata PRIVATE src/game/main.c)
