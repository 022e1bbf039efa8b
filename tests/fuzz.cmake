# The parsers under libFuzzer for a few seconds each (scripts/fuzz.sh builds them with clang into
# build/fuzz-build the first time, which takes a few minutes; skipped when clang/libFuzzer is missing).
# Long runs: scripts/fuzz.sh TARGET SECONDS.
foreach(t region world_file script blocks worldgen)
  add_test(NAME fuzz_${t} COMMAND sh ${CMAKE_SOURCE_DIR}/scripts/fuzz.sh ${t} 6)
  set_tests_properties(fuzz_${t} PROPERTIES LABELS fuzz SKIP_RETURN_CODE 77 TIMEOUT 1200
                       ENVIRONMENT "STRATA_FUZZ_BUILD=${CMAKE_BINARY_DIR}/fuzz-build")
endforeach()
