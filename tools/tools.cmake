# tools (listed explicitly)
add_executable(strata-atlas tools/strata-atlas.c)
target_link_libraries(strata-atlas PRIVATE strata_core PkgConfig::STB)
# strata-map: top-down PNG of a world rectangle (src/gen's generator, no window)
add_executable(strata-map tools/strata-map.c)
target_link_libraries(strata-map PRIVATE strata_core PkgConfig::STB)
# strata-world: inspect (info) and check (verify) a world folder
add_executable(strata-world tools/strata-world.c tools/world_export.c)
target_link_libraries(strata-world PRIVATE strata_core)
# strata-bench: the engine's figures (table or --json), no window
add_executable(strata-bench tools/strata-bench.c tools/bench_heightfield.c tools/bench_memory.c tools/bench_edit.c
               tools/bench_structures.c tools/bench_game.c tools/bench_flight.c
               tools/bench_render.c tools/bench_world.c)
target_link_libraries(strata-bench PRIVATE strata_core PkgConfig::CGLM)
if(TARGET strata)
  add_dependencies(strata-bench strata) # game_ready_ms_* runs the game beside strata-bench
endif()
# strata-heightmap: heightmap toolkit (generate, erode, convert, export, info, preview, splat)
add_executable(strata-heightmap tools/strata-heightmap.c)
target_link_libraries(strata-heightmap PRIVATE strata_core PkgConfig::STB)
# strata-wfc: solves a WFC tileset on a grid, renders the layout (PNG) and lists the tiles (JSON)
add_executable(strata-wfc tools/strata-wfc.c)
target_link_libraries(strata-wfc PRIVATE strata_core PkgConfig::STB)
# strata-font: bakes assets/fonts/ui_font.png + .json from DejaVu Sans Bold (fonts-dejavu-core)
add_executable(strata-font tools/strata-font.c)
target_link_libraries(strata-font PRIVATE PkgConfig::STB m)
# strata-sounds: makes assets/sounds/*.wav procedurally (noise bursts and tones, filtered and enveloped)
add_executable(strata-sounds tools/strata-sounds.c)
target_link_libraries(strata-sounds PRIVATE m)
