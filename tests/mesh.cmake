# mesh: face counts on known volumes, subsets, winding, light/AO/tints, slice hashes
strata_add_test(test_mesher test_mesher.c mesh)
# mesh: every visible cube face once and no hidden one, against a brute-force face list (random, generated chunks)
strata_add_test(test_mesher_faces test_mesher_faces.c mesh)
# mesh: greedy merging covers exactly the unmerged faces with equal light and texels
strata_add_test(test_mesher_merge test_mesher_merge.c mesh)
# mesh: far leaves at half resolution: a canopy's outside, sparse leaves, rock and chunk borders, alpha parts
strata_add_test(test_mesher_lod test_mesher_lod.c mesh)
# mesh: occlusion culling: slice graphs (against a brute-force reference), sealed and open caves, draw runs
strata_add_test(test_visibility test_visibility.c mesh)
# mesh: the warm block-light tint: a torch in a dark box drawn warm, a sunlit surface neutral, no stale warmth
strata_add_test(test_mesher_blocklight test_mesher_blocklight.c mesh light)
