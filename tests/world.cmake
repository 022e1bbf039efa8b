# world: cell encoding, block registry, Terrain hash (listed explicitly)
strata_add_test(test_cell test_cell.c world)
strata_add_test(test_chunk_sections test_chunk_sections.c world)
strata_add_test(test_block test_block.c world)
strata_add_test(test_terrain test_terrain.c world)
strata_add_test(test_world_settings test_world_settings.c world)
# The committed atlas is exactly what strata-atlas paints from the committed blocks.json.
add_test(NAME atlas_up_to_date
         COMMAND sh -c "\"$1\" --out \"$2\" >/dev/null && cmp \"$2\" assets/textures/atlas.png" sh
                 $<TARGET_FILE:strata-atlas> ${CMAKE_BINARY_DIR}/atlas_check.png
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(atlas_up_to_date PROPERTIES LABELS world)
strata_add_test(test_brush test_brush.c world)
