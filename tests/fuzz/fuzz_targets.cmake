# libFuzzer targets (a clang build configured with -DSTRATA_FUZZ=ON, as scripts/fuzz.sh does): strata_core is
# compiled with -fsanitize=fuzzer-no-link,address,undefined by the top-level CMakeLists, each target links
# -fsanitize=fuzzer. `fuzz_all` builds them all.
set(STRATA_FUZZ_TARGETS codec region world_file script blocks worldgen)
add_custom_target(fuzz_all)
foreach(t ${STRATA_FUZZ_TARGETS})
  if(t STREQUAL "codec")
    add_executable(fuzz_${t} ${CMAKE_SOURCE_DIR}/tests/fuzz_codec.c)
  else()
    add_executable(fuzz_${t} ${CMAKE_SOURCE_DIR}/tests/fuzz/fuzz_${t}.c)
  endif()
  target_include_directories(fuzz_${t} PRIVATE ${CMAKE_SOURCE_DIR}/tests/fuzz)
  target_link_libraries(fuzz_${t} PRIVATE strata_core)
  target_link_options(fuzz_${t} PRIVATE -fsanitize=fuzzer)
  add_dependencies(fuzz_all fuzz_${t})
endforeach()
# The script parser lives in src/game (SDL-free: strata_game_logic's interface headers).
target_link_libraries(fuzz_script PRIVATE strata_game_logic)

