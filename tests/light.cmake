# light: sunlight, shafts and propagation on known volumes and against a brute-force reference
strata_add_test(test_light test_light.c light)
strata_add_test(test_dungeon_light test_dungeon_light.c light gen)
