# src/heightfield: float heightmaps, noise recipes, erosion, formats, splatmaps (no GL, no SDL; below gen)
target_sources(strata_core PRIVATE
  src/heightfield/heightfield.c
  src/heightfield/heightfield_recipe.c
  src/heightfield/heightfield_recipe_json.c
  src/heightfield/erosion.c
  src/heightfield/heightfield_io.c
  src/heightfield/heightfield_io_exr.c
  src/heightfield/heightfield_io_spark.c
  src/heightfield/splat.c
  src/heightfield/splat_json.c)
# the erosion inner loops are written branch-free for the vectoriser (-fno-trapping-math lets it
# if-convert them; results are unchanged: no code here relies on FP traps)
set_source_files_properties(src/heightfield/erosion.c PROPERTIES COMPILE_OPTIONS "-O3;-fno-trapping-math")
# heightmap worlds sample the map while generating chunks: the same bits on every machine (as src/gen)
set_source_files_properties(src/heightfield/heightfield.c PROPERTIES COMPILE_OPTIONS "-ffp-contract=off")
