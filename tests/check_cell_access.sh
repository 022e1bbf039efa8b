#!/usr/bin/env bash
# Cells only through chunk.h: no file indexes a TerrainChunk's cells (`->cells[` / `.cells[`) except
# include/strata/chunk.h (the accessors and views), src/gen and src/world/brush.c (routed separately).
# Everyone else uses chunk_get_cell / chunk_set_cell (or the _shared ones) or a CellView, whose column
# and cell pointers (`column[y]`, `cell_view_at(v, i)`) may be indexed freely.
# Two arrays named `cells` are not chunks and are allowed where they live: the mesher's slab copy
# (`slab->cells[` in src/mesh) and the golden hashes (`golden[k].cells[` in tests/test_golden_world.c).
# They are cut out of the line before it is checked again, so a chunk indexed on the same line still fails.
set -u
cd "$(dirname "$0")/.."
pattern='(->|\.)[[:space:]]*cells[[:space:]]*\['
hits=$(grep -rnE "$pattern" src tools tests include --include='*.c' --include='*.h' |
  grep -vE '^(include/strata/chunk\.h|src/gen/[^:]*|src/world/brush\.c):' |
  sed -E '/^src\/mesh\//s/slab->cells[[:space:]]*\[//g; /^tests\/test_golden_world\.c:/s/golden\[k\]\.cells\[//g' |
  grep -E "$pattern")
if [ -n "$hits" ]; then
  echo "A chunk's cells indexed outside include/strata/chunk.h (use chunk_get_cell / chunk_set_cell or a CellView):"
  echo "$hits"
  echo "0 passed, 1 failed"; exit 1
fi
echo "1 passed, 0 failed"
