# sources of src/edit (listed explicitly)
target_sources(strata_core PRIVATE src/edit/edit.c src/edit/edit_raycast.c src/edit/history.c src/edit/behaviour.c
    src/edit/terrain_tools.c src/edit/shapes.c src/edit/edit_brush.c)
