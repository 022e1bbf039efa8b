# sources of src/world (listed explicitly)
target_sources(strata_core PRIVATE src/world/chunk.c src/world/chunk_scratch.c src/world/chunk_sections.c)
target_sources(strata_core PRIVATE src/world/block.c src/world/block_tiles.c src/world/terrain.c src/world/world_settings.c)
target_sources(strata_core PRIVATE src/world/brush.c src/world/brush_paint.c)
