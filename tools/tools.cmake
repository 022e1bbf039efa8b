# tools (listed explicitly)
add_executable(strata-atlas tools/strata-atlas.c)
target_link_libraries(strata-atlas PRIVATE strata_core PkgConfig::STB)
# strata-map: top-down PNG of a world rectangle (src/gen's generator, no window)
add_executable(strata-map tools/strata-map.c)
target_link_libraries(strata-map PRIVATE strata_core PkgConfig::STB)
# strata-world: inspect (info) and check (verify) a world folder
add_executable(strata-world tools/strata-world.c)
target_link_libraries(strata-world PRIVATE strata_core)
# strata-bench: the engine's figures (table or --json), no window
add_executable(strata-bench tools/strata-bench.c)
target_link_libraries(strata-bench PRIVATE strata_core)
