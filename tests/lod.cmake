# lod: far terrain level choice against the thresholds and bias, seams between levels, the voxel boundary
strata_add_test(test_far_terrain test_far_terrain.c lod)
