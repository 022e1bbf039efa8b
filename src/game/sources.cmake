# sources of src/game (game only; listed explicitly)
# strata_game_logic: the SDL- and GL-free parts (command line, script parsing, player physics, camera math,
# HUD text, time of day, look settings, frame probe) in a static library that both the game and the unit tests link.
add_library(strata_game_logic STATIC
  src/game/cli.c
  src/game/script.c
  src/game/script_edit.c
  src/game/player.c
  src/game/camera.c
  src/game/hud.c
  src/game/daytime.c
  src/game/settings.c
  src/game/frame_probe.c
  src/game/hotbar.c
  src/game/user_settings.c
  src/game/audio_mix.c
  src/game/particles.c
  src/game/biome_fog.c)
target_include_directories(strata_game_logic PUBLIC ${CMAKE_SOURCE_DIR}/src/game)
target_link_libraries(strata_game_logic PUBLIC strata_core m)

# The game itself (absent in a fuzz build, which only needs strata_game_logic).
if(TARGET strata)
  target_sources(strata PRIVATE
    src/game/main.c
    src/game/app.c
    src/game/input.c
    src/game/app_frame.c
    src/game/ui/hud_fill.c
    src/game/bench/game_bench.c
    src/game/view/game_sound.c
    src/game/tools/game_tools.c
    src/game/session/game_structures.c
    src/game/tools/interact.c
    src/game/script_run.c
    src/game/session/world_session.c
    src/game/ui/loading.c
    src/game/ui/screens.c
    src/game/ui/game_ui.c
    src/game/view/game_view.c
    src/game/bench/crosshair_probe.c
    src/game/session/world_session_play.c
    src/game/session/world_session_loading.c
    src/game/session/world_session_spawn.c
    src/game/audio.c)
  target_link_libraries(strata PRIVATE strata_game_logic)
endif()
