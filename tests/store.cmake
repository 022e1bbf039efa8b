# tests of src/store: codec, region files, serializer, world.json, crash safety, decoder fuzzing
strata_add_test(test_codec test_codec.c store)
target_link_libraries(test_codec PRIVATE ZLIB::ZLIB)
strata_add_test(test_region test_region.c store)
target_link_libraries(test_region PRIVATE ZLIB::ZLIB)
strata_add_test(test_region_cache test_region_cache.c store)
strata_add_test(test_world_file test_world_file.c store)
strata_add_test(test_serializer test_serializer.c store)
# Crash safety: test_crash SIGKILLs crash_writer at random points (250 kills) and checks every chunk after each.
add_executable(crash_writer ${CMAKE_SOURCE_DIR}/tests/crash_writer.c)
target_include_directories(crash_writer PRIVATE ${CMAKE_SOURCE_DIR}/tests)
target_link_libraries(crash_writer PRIVATE strata_core)
add_executable(test_crash ${CMAKE_SOURCE_DIR}/tests/test_crash.c)
target_include_directories(test_crash PRIVATE ${CMAKE_SOURCE_DIR}/tests)
target_link_libraries(test_crash PRIVATE strata_core)
add_dependencies(test_crash crash_writer)
add_test(NAME test_crash COMMAND test_crash $<TARGET_FILE:crash_writer> 250 WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(test_crash PROPERTIES LABELS store TIMEOUT 900)   # 250 kills: ~30 s, minutes under TSan
# The decoder under libFuzzer for 20 s (built with clang by the script; skipped when clang/libFuzzer is missing).
add_test(NAME fuzz_codec COMMAND sh ${CMAKE_SOURCE_DIR}/tests/run_fuzz_codec.sh ${CMAKE_SOURCE_DIR} ${CMAKE_BINARY_DIR}/fuzz_codec 20)
set_tests_properties(fuzz_codec PROPERTIES LABELS store SKIP_RETURN_CODE 77 TIMEOUT 180)
# strata-world info / verify on a real world folder (exit codes and the damage listing).
add_executable(test_world_tool ${CMAKE_SOURCE_DIR}/tests/test_world_tool.c)
target_include_directories(test_world_tool PRIVATE ${CMAKE_SOURCE_DIR}/tests)
target_link_libraries(test_world_tool PRIVATE strata_core)
add_dependencies(test_world_tool strata-world)
add_test(NAME test_world_tool COMMAND test_world_tool $<TARGET_FILE:strata-world> WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(test_world_tool PROPERTIES LABELS store)
# Power loss: every write that was never fsynced may be lost or torn (a recording layer wraps the I/O calls).
strata_add_test(test_power_loss test_power_loss.c store)
target_link_options(test_power_loss PRIVATE
  -Wl,--wrap=open,--wrap=pwrite,--wrap=write,--wrap=fsync,--wrap=fdatasync,--wrap=rename,--wrap=unlink)
