# sources of src/gen/layered (listed explicitly): seed 002's layered generator (world type "layered")
set(STRATA_LAYERED_SOURCES
  src/gen/layered/generator_layered.c
  src/gen/layered/generator_layered_config.c
  src/gen/layered/layered_features.c)
target_sources(strata_core PRIVATE ${STRATA_LAYERED_SOURCES})
set_source_files_properties(${STRATA_LAYERED_SOURCES} PROPERTIES COMPILE_OPTIONS "-ffp-contract=off")
# part of src/gen: includes gen's private headers (gen_generators.h) by name
set_property(SOURCE ${STRATA_LAYERED_SOURCES} APPEND PROPERTY INCLUDE_DIRECTORIES ${CMAKE_SOURCE_DIR}/src/gen)
