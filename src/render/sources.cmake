# sources of src/render (game only; listed explicitly). The renderer is a static library so the game and
# tests/test_render.c link the same code; it is the only code that calls OpenGL.
add_library(strata_render STATIC
  src/render/render.c
  src/render/render_batch.c
  src/render/render_terrain_shader.c
  src/render/shader.c
  src/render/render_atlas.c
  src/render/chunk_buffers.c
  src/render/frustum.c
  src/render/render_sky.c
  src/render/overlay.c
  src/render/render_ui.c
  src/render/edit_overlay.c
  src/render/render_screenshot.c
  src/render/far_render.c
  src/render/chunk_arena.c)
target_link_libraries(strata_render PUBLIC strata_core glad PkgConfig::CGLM PkgConfig::STB m)
target_link_libraries(strata PRIVATE strata_render)
