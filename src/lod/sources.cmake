# src/lod: far terrain (quadtree of heightmap patches, its worker and cache; no GL, no SDL)
target_sources(strata_core PRIVATE src/lod/far_terrain_patch.c src/lod/far_terrain_lattice.c src/lod/far_terrain_columns.c
                                   src/lod/far_terrain.c)
