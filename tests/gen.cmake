# Tests of src/gen (the generator). bench_gen is a timing program, not a test (timings are never asserted).
add_executable(bench_gen ${CMAKE_SOURCE_DIR}/tests/bench_gen.c)
target_link_libraries(bench_gen PRIVATE strata_core)
strata_add_test(test_gen test_gen.c gen)
strata_add_test(test_gen_order test_gen_order.c gen)
strata_add_test(test_biome test_biome.c gen)
strata_add_test(test_gen_climate test_gen_climate.c gen)
# strata-map: usage errors, and a rectangle's pixels independent of the rectangle around them
add_executable(test_gen_map ${CMAKE_SOURCE_DIR}/tests/test_gen_map.c)
target_include_directories(test_gen_map PRIVATE ${CMAKE_SOURCE_DIR}/tests)
target_link_libraries(test_gen_map PRIVATE strata_core PkgConfig::STB)
add_test(NAME test_gen_map COMMAND test_gen_map $<TARGET_FILE:strata-map> WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(test_gen_map PROPERTIES LABELS "gen;tools")
# worlds built from a heightmap (terrain mode heightmap)
strata_add_test(test_heightmap_world test_heightmap_world.c gen heightfield)
target_link_libraries(test_heightmap_world PRIVATE PkgConfig::STB)
strata_add_test(test_flat_zone test_flat_zone.c gen)
strata_add_test(test_wfc test_wfc.c gen)
# the independent adjacency checker (python3, shares no code with the solver) over 1,000 seeds
add_test(NAME wfc_adjacency_independent COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/check_wfc_adjacency.py
         $<TARGET_FILE:strata-wfc> ${CMAKE_SOURCE_DIR}/assets/tilesets/dungeon.json 1000)
set_tests_properties(wfc_adjacency_independent PROPERTIES LABELS "gen;tools")
# the same checker on seed 001's example as written (adjacency object, no boundarySocket)
add_test(NAME wfc_adjacency_seed001 COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/check_wfc_adjacency.py
         $<TARGET_FILE:strata-wfc> ${CMAKE_SOURCE_DIR}/examples/seeds/001_wfc_tileset.json 200)
set_tests_properties(wfc_adjacency_seed001 PROPERTIES LABELS "gen;tools")
# strata-voxelize: --help, usage errors (exit 2), a bad model (exit 1), a written template the loader reads
add_test(NAME strata_voxelize_cli COMMAND sh ${CMAKE_SOURCE_DIR}/tests/test_voxelize_cli.sh $<TARGET_FILE:strata-voxelize>
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(strata_voxelize_cli PROPERTIES LABELS "gen;tools")
strata_add_test(test_structures test_structures.c gen)
# the first view: the spawn search on the README's five seeds (view >= 48, not in a thicket or a gorge)
strata_add_test(test_spawn test_spawn.c gen)
target_link_libraries(test_structures PRIVATE pthread)
strata_add_test(test_layered test_layered.c gen)
# scatter rules: config errors, spacing (brute force), order independence, gen24 version 4 chunks
strata_add_test(test_scatter test_scatter.c gen)
# models become voxels (voxel_model.h): cube, sphere, colours, open meshes, tiles, errors, the cache
strata_add_test(test_voxelize test_voxelize.c gen)
target_link_libraries(test_voxelize PRIVATE PkgConfig::PNG)
# every examples/seeds file loads as written and works (tileset, scatter, stations, chunk_config.yaml)
strata_add_test(test_seeds test_seeds.c gen)
