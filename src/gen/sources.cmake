# sources of src/gen (listed explicitly)
set(STRATA_GEN_SOURCES
  src/gen/generator.c
  src/gen/generator_queries.c
  src/gen/generator_context.c
  src/gen/generator_class.c
  src/gen/gen_feature.c
  src/gen/generator_shared_cache.c
  src/gen/gen_math.c
  src/gen/gen_worldgen.c
  src/gen/gen24.c
  src/gen/gen24_fields.c
  src/gen/gen24_fill.c
  src/gen/gen_surface.c
  src/gen/gen_caves.c
  src/gen/gen_minerals.c
  src/gen/gen_trees.c
  src/gen/gen_plants.c
  src/gen/gen_scatter.c
  src/gen/gen_flat.c
  src/gen/gen_heightmap.c
  src/gen/biome.c
  src/gen/spawn.c
  src/gen/spawn_coarse.c)
target_sources(strata_core PRIVATE ${STRATA_GEN_SOURCES})
# A world must have the same bits wherever it is generated (and a column's density is computed both in
# pass 1 and, for neighbours, in other chunks' passes): no fused multiply-adds in the generator.
set_source_files_properties(${STRATA_GEN_SOURCES} PROPERTIES COMPILE_OPTIONS "-ffp-contract=off")
