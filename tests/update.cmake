# update + edit: the update worker's state machine, locations, exchange and persistence; ChangeCell and raycast
strata_add_test(test_update test_update.c update)
strata_add_test(test_edit test_edit.c edit)
strata_add_test(test_editor test_editor.c edit)
strata_add_test(test_update_storage test_update_storage.c update)
strata_add_test(test_golden_world test_golden_world.c update gen light mesh)
# the same pins with the job pool at 2, 4 and 8 threads
foreach(threads 2 4 8)
  add_test(NAME test_golden_world_t${threads} COMMAND test_golden_world --threads ${threads}
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(test_golden_world_t${threads} PROPERTIES LABELS "update;gen;light;mesh")
endforeach()
# update + mesh: each chunk builds only the geometry copies it is drawn with (a viewer location), the same
# drawn vertices as with both; a move sends chunks whose copies grew back; the same meshes at 1, 2, 4 threads
strata_add_test(test_mesh_copies test_mesh_copies.c update mesh)
# update: settled chunks packed by the job pool's pack jobs: the same sections and world at 1, 2 and 4 threads,
# all packed at ready; an edit's steps before a loading world's with a pool
strata_add_test(test_update_pack test_update_pack.c update)
