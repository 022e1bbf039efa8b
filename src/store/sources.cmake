# sources of src/store (listed explicitly)
target_sources(strata_core PRIVATE
  src/store/chunk_codec.c
  src/store/region.c
  src/store/region_cache.c
  src/store/region_scan.c
  src/store/serializer.c
  src/store/world_file.c)
