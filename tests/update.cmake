# update + edit: the update worker's state machine, locations, exchange and persistence; ChangeCell and raycast
strata_add_test(test_update test_update.c update)
strata_add_test(test_edit test_edit.c edit)
strata_add_test(test_editor test_editor.c edit)
strata_add_test(test_update_storage test_update_storage.c update)
strata_add_test(test_golden_world test_golden_world.c update gen light mesh)
