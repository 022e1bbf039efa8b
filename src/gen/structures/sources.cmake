# sources of src/gen/structures (listed explicitly): flat zones, voxel templates, WFC, sites
set(STRATA_STRUCTURES_SOURCES
  src/gen/structures/flat_zone.c
  src/gen/structures/voxel_template.c
  src/gen/structures/station.c
  src/gen/structures/wfc_tileset.c
  src/gen/structures/wfc.c
  src/gen/structures/gen_structures.c
  src/gen/structures/scatter_config.c
  src/gen/structures/scatter.c
  src/gen/structures/voxel_palette.c
  src/gen/structures/voxel_model_import.c
  src/gen/structures/voxel_model_voxelize.c
  src/gen/structures/voxel_model_cache.c)
target_sources(strata_core PRIVATE ${STRATA_STRUCTURES_SOURCES})
# models become voxels (voxel_model.h): Assimp's C API, only voxel_model_import.c includes it
# and opens it on the first import (dlopen: no process loads it unless it imports a model), so only the headers
# and the soname of their major version come from here
target_include_directories(strata_core PRIVATE ${ASSIMP_INCLUDE_DIRS})
string(REGEX MATCH "^[0-9]+" STRATA_ASSIMP_MAJOR "${ASSIMP_VERSION}")
set_property(SOURCE src/gen/structures/voxel_model_import.c APPEND PROPERTY COMPILE_DEFINITIONS
             "STRATA_ASSIMP_LIBRARY=\"libassimp.so.${STRATA_ASSIMP_MAJOR}\"")
target_link_libraries(strata_core PUBLIC ${CMAKE_DL_LIBS})
set_source_files_properties(${STRATA_STRUCTURES_SOURCES} PROPERTIES COMPILE_OPTIONS "-ffp-contract=off")
# structures are part of src/gen: they include gen's private headers (gen_feature.h) by name
set_property(SOURCE ${STRATA_STRUCTURES_SOURCES} APPEND PROPERTY INCLUDE_DIRECTORIES ${CMAKE_SOURCE_DIR}/src/gen)
