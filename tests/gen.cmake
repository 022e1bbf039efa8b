# Tests of src/gen (the generator). bench_gen is a timing program, not a test (timings are never asserted).
add_executable(bench_gen ${CMAKE_SOURCE_DIR}/tests/bench_gen.c)
target_link_libraries(bench_gen PRIVATE strata_core)
strata_add_test(test_gen test_gen.c gen)
strata_add_test(test_gen_order test_gen_order.c gen)
# strata-map: usage errors, and a rectangle's pixels independent of the rectangle around them
add_executable(test_gen_map ${CMAKE_SOURCE_DIR}/tests/test_gen_map.c)
target_include_directories(test_gen_map PRIVATE ${CMAKE_SOURCE_DIR}/tests)
target_link_libraries(test_gen_map PRIVATE strata_core PkgConfig::STB)
add_test(NAME test_gen_map COMMAND test_gen_map $<TARGET_FILE:strata-map> WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(test_gen_map PROPERTIES LABELS "gen;tools")
