# Repository-wide checks: headers compile alone; OpenGL confined to src/render/; chunk cells only through chunk.h.
add_test(NAME headers_compile_alone COMMAND ${CMAKE_SOURCE_DIR}/tests/check_headers.sh)
set_tests_properties(headers_compile_alone PROPERTIES ENVIRONMENT "CC=${CMAKE_C_COMPILER}")
add_test(NAME gl_confined_to_render COMMAND ${CMAKE_SOURCE_DIR}/tests/check_gl_confined.sh)
add_test(NAME layers_point_down COMMAND ${CMAKE_SOURCE_DIR}/tests/check_layers.sh)
set_tests_properties(layers_point_down PROPERTIES LABELS repo)
add_test(NAME cell_access_through_chunk_h COMMAND ${CMAKE_SOURCE_DIR}/tests/check_cell_access.sh)
set_tests_properties(cell_access_through_chunk_h PROPERTIES LABELS repo)
# A header is named after its code (X.h in X.c or X_*.c); no call loops between .c files.
add_test(NAME headers_named_after_code COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/check_header_sources.py)
set_tests_properties(headers_named_after_code PROPERTIES LABELS repo)
add_test(NAME no_loops_between_files COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/check_file_loops.py)
set_tests_properties(no_loops_between_files PROPERTIES LABELS repo)
add_test(NAME check_scripts_catch_what_they_check COMMAND sh -c
  "python3 ${CMAKE_SOURCE_DIR}/tests/check_header_sources.py --self-test && python3 ${CMAKE_SOURCE_DIR}/tests/check_file_loops.py --self-test")
set_tests_properties(check_scripts_catch_what_they_check PROPERTIES LABELS repo)
