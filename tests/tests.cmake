# Tests: one program per module plus integration and end-to-end tests. Each area keeps its own list.
# strata_add_test(NAME SOURCE [LABELS...]) builds tests/SOURCE against strata_core and registers it.
function(strata_add_test name source)
  add_executable(${name} ${CMAKE_SOURCE_DIR}/tests/${source})
  target_include_directories(${name} PRIVATE ${CMAKE_SOURCE_DIR}/tests)
  target_link_libraries(${name} PRIVATE strata_core)
  add_test(NAME ${name} COMMAND ${name} WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  if(ARGN)
    set_tests_properties(${name} PROPERTIES LABELS "${ARGN}")
  endif()
endfunction()
foreach(area repo core world gen light mesh update store edit heightfield render game tools)
  include(${CMAKE_SOURCE_DIR}/tests/${area}.cmake OPTIONAL)
endforeach()
