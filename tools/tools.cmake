# tools (listed explicitly)
add_executable(strata-atlas tools/strata-atlas.c)
target_link_libraries(strata-atlas PRIVATE strata_core)
