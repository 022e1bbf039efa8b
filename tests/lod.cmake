# lod: far terrain level choice against the thresholds and bias, seams between levels, the voxel boundary; a patch's columns
strata_add_test(test_far_terrain test_far_terrain.c lod)
strata_add_test(test_far_columns test_far_columns.c lod)
