# sources of src/mesh (listed explicitly)
target_sources(strata_core PRIVATE src/mesh/mesher.c src/mesh/mesher_faces.c src/mesh/mesher_shapes.c
               src/mesh/mesher_light.c src/mesh/mesher_blocklight.c src/mesh/mesher_pack.c
               src/mesh/mesher_merge.c src/mesh/mesher_lod.c src/mesh/visibility_graph.c src/mesh/visibility_walk.c
               src/mesh/visibility_occlusion.c)
