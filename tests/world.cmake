# world: cell encoding, block registry, Terrain hash (listed explicitly)
strata_add_test(test_cell test_cell.c world)
strata_add_test(test_chunk_sections test_chunk_sections.c world)
strata_add_test(test_block test_block.c world)
target_link_libraries(test_block PRIVATE PkgConfig::STB)
strata_add_test(test_terrain test_terrain.c world)
strata_add_test(test_world_settings test_world_settings.c world)
# The committed atlas is exactly what strata-atlas paints from the committed blocks.json.
add_test(NAME atlas_up_to_date
         COMMAND sh -c "\"$1\" --out \"$2\" >/dev/null && cmp \"$2\" assets/textures/atlas.png" sh
                 $<TARGET_FILE:strata-atlas> ${CMAKE_BINARY_DIR}/atlas_check.png
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(atlas_up_to_date PROPERTIES LABELS world)
strata_add_test(test_brush test_brush.c world)
# The committed UI font (assets/fonts) is what tools/strata-font bakes from fonts-dejavu-core (skipped
# without the font file).
add_test(NAME font_up_to_date
         COMMAND sh -c "[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf ] || exit 77; \"$1\" --out-png \"$2.png\" --out-json \"$2.json\" && cmp \"$2.png\" assets/fonts/ui_font.png && cmp \"$2.json\" assets/fonts/ui_font.json" sh
                 $<TARGET_FILE:strata-font> ${CMAKE_BINARY_DIR}/font_check
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(font_up_to_date PROPERTIES LABELS world SKIP_RETURN_CODE 77)
# The committed sound samples are what tools/strata-sounds makes (into a folder it makes, parents too).
add_test(NAME sounds_up_to_date
         COMMAND sh -c "rm -rf \"$2\" && \"$1\" --out \"$2/made\" && for f in \"$2\"/made/*.wav; do cmp \"$f\" assets/sounds/$(basename \"$f\") || exit 1; done" sh
                 $<TARGET_FILE:strata-sounds> ${CMAKE_BINARY_DIR}/sounds_check
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(sounds_up_to_date PROPERTIES LABELS world)
# Every tool: --help exits 0, an unknown flag 2.
add_test(NAME tools_help
         COMMAND sh ${CMAKE_SOURCE_DIR}/tests/check_tools_help.sh $<TARGET_FILE:strata-atlas> $<TARGET_FILE:strata-map>
                 $<TARGET_FILE:strata-world> $<TARGET_FILE:strata-bench> $<TARGET_FILE:strata-heightmap>
                 $<TARGET_FILE:strata-wfc> $<TARGET_FILE:strata-font> $<TARGET_FILE:strata-sounds>
         WORKING_DIRECTORY ${CMAKE_BINARY_DIR})
set_tests_properties(tools_help PROPERTIES LABELS world)
