# Renderer tests: a hidden 320x200 GL 3.3 core window (SDL offscreen, Mesa llvmpipe), the real shaders and
# atlas. Exit code 77 = skipped (no GL context could be made on this machine). LP_NUM_THREADS=0 keeps
# llvmpipe on the calling thread: its uninstrumented worker threads would trip ThreadSanitizer builds.
if(TARGET strata_render)
  strata_add_test(test_render test_render.c render)
  target_link_libraries(test_render PRIVATE strata_render SDL2::SDL2)
  set_tests_properties(test_render PROPERTIES
    ENVIRONMENT "SDL_VIDEODRIVER=offscreen;LP_NUM_THREADS=0"
    SKIP_RETURN_CODE 77)
  strata_add_test(test_render_leaves test_render_leaves.c render)
  target_link_libraries(test_render_leaves PRIVATE strata_render SDL2::SDL2)
  set_tests_properties(test_render_leaves PROPERTIES
    ENVIRONMENT "SDL_VIDEODRIVER=offscreen;LP_NUM_THREADS=0"
    SKIP_RETURN_CODE 77)
  strata_add_test(test_render_clouds test_render_clouds.c render)
  target_link_libraries(test_render_clouds PRIVATE strata_render SDL2::SDL2)
  set_tests_properties(test_render_clouds PROPERTIES
    ENVIRONMENT "SDL_VIDEODRIVER=offscreen;LP_NUM_THREADS=0"
    SKIP_RETURN_CODE 77)
  # The same pixels and counts with geometry spread over many small arenas (one multi-draw per arena and
  # pass, the transparent pass split where the arena changes).
  add_test(NAME test_render_small_arenas COMMAND test_render WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(test_render_small_arenas PROPERTIES LABELS render
    ENVIRONMENT "SDL_VIDEODRIVER=offscreen;LP_NUM_THREADS=0;STRATA_ARENA_VERTICES=1024"
    SKIP_RETURN_CODE 77)
endif()
