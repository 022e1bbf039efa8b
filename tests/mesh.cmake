# mesh: face counts on known volumes, subsets, winding, light/AO/tints, slice hashes
strata_add_test(test_mesher test_mesher.c mesh)
