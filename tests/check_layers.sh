#!/usr/bin/env bash
# The layering rule, checked on every #include (docs/ARCHITECTURE.md):
#   core <- world <- heightfield <- gen | light | mesh | store <- update | edit | lod <- render <- game
# A module may include public headers (include/strata/*.h) of its own module or of a lower layer, never of a
# higher layer or of a sibling in its own layer (edit may use update: the one documented exception). A
# quoted header that is not "strata/..." must be the module's own private header (same folder), never a path
# into another module. Public headers follow the same rule as the module that owns them. Tests and tools use
# public headers and test headers in tests/; tests (never tools, which link strata_core alone) also the headers
# in src/game/ that form the interface of the game's SDL-free logic library (strata_game_logic); never a path into src/.
# Every public header must be listed below: a new one without a layer fails the check.
set -u
cd "$(dirname "$0")/.."

declare -A OWNER=(
  [error]=core [log]=core [rng]=core [noise]=core [fileio]=core [config]=core [flags]=core [range_alloc]=core [level_buckets]=core [thread_priority]=core [thread_name]=core [huge_pages]=core
  [cell]=world [block]=world [chunk]=world [terrain]=world [world_settings]=world [chunk_storage]=world
  [brush]=world [chunk_sections]=world
  [heightfield]=heightfield [heightfield_io]=heightfield [heightfield_recipe]=heightfield [erosion]=heightfield
  [splat]=heightfield
  [generator]=gen [spawn]=gen [biome]=gen [flat_zone]=gen [wfc]=gen [voxel_template]=gen [voxel_model]=gen [station]=gen [scatter]=gen
  [light]=light
  [mesher]=mesh [visibility]=mesh
  [chunk_codec]=store [region]=store [serializer]=store [world_file]=store [region_cache]=store
  [update]=update [update_step]=update
  [edit]=edit [history]=edit [behaviour]=edit [terrain_tools]=edit [shapes]=edit
  [far_terrain]=lod
  [render]=render
)
declare -A RANK=(
  [core]=0 [world]=10 [heightfield]=15 [gen]=20 [light]=20 [mesh]=20 [store]=20
  [update]=30 [edit]=30 [lod]=30 [render]=40 [game]=50
)
# sibling includes allowed within one layer: "from>to"
ALLOWED_SIBLINGS=" edit>update "

fails=0
fail() { echo "$1"; fails=$((fails + 1)); }

check_public() {   # file, including module, header name
  local file=$1 mod=$2 hdr=$3 owner
  owner=${OWNER[$hdr]:-}
  if [ -z "$owner" ]; then
    fail "$file: includes strata/$hdr.h, which has no layer in tests/check_layers.sh (add it)"
    return
  fi
  [ "$owner" = "$mod" ] && return
  local r_from=${RANK[$mod]} r_to=${RANK[$owner]}
  if [ "$r_to" -gt "$r_from" ]; then
    fail "$file: $mod includes strata/$hdr.h of $owner, a higher layer"
  elif [ "$r_to" -eq "$r_from" ] && [[ "$ALLOWED_SIBLINGS" != *" $mod>$owner "* ]]; then
    fail "$file: $mod includes strata/$hdr.h of $owner, a sibling in its layer"
  fi
}

includes_of() { grep -oE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]+"' "$1" | sed -E 's/.*"([^"]+)"/\1/'; }

# src/<module>/...
while IFS= read -r file; do
  mod=$(echo "$file" | cut -d/ -f2)
  if [ -z "${RANK[$mod]:-}" ]; then fail "$file: module '$mod' has no layer in tests/check_layers.sh"; continue; fi
  dir=$(dirname "$file")
  for inc in $(includes_of "$file"); do
    case "$inc" in
      strata/*.h) check_public "$file" "$mod" "$(basename "$inc" .h)" ;;
      *../*) fail "$file: includes \"$inc\": a path into another module" ;;
      glad/*|KHR/*) ;;
      *) [ -f "$dir/$inc" ] || [ -f "src/$mod/$inc" ] || fail "$file: includes \"$inc\", not a header of module $mod" ;;
    esac
  done
done < <(find src -name '*.[ch]' | sort)

# include/strata/*.h
for file in include/strata/*.h; do
  hdr=$(basename "$file" .h)
  mod=${OWNER[$hdr]:-}
  if [ -z "$mod" ]; then fail "$file: a public header with no layer in tests/check_layers.sh (add it)"; continue; fi
  for inc in $(includes_of "$file"); do
    case "$inc" in
      strata/*.h) check_public "$file" "$mod" "$(basename "$inc" .h)" ;;
      *) fail "$file: a public header includes \"$inc\" (only strata/*.h and system headers)" ;;
    esac
  done
done

# tests/ and tools/
while IFS= read -r file; do
  dir=$(dirname "$file")
  for inc in $(includes_of "$file"); do
    case "$inc" in
      strata/*.h) [ -n "${OWNER[$(basename "$inc" .h)]:-}" ] || fail "$file: strata/$(basename "$inc") has no layer" ;;
      *src/*|*../*) fail "$file: includes \"$inc\": tests and tools use public headers or test headers" ;;
      *) if [ -f "$dir/$inc" ]; then :;
         elif { [ "$dir" = tests ] || [ "$dir" = tests/fuzz ]; } && [ -f "src/game/$inc" ]; then :;   # strata_game_logic's interface (tests only: tools link strata_core)
         else fail "$file: includes \"$inc\", neither a public header nor a header beside it"; fi ;;
    esac
  done
done < <(find tests tools -name '*.[ch]' | sort)

if [ "$fails" -gt 0 ]; then
  echo "0 passed, 1 failed ($fails include(s) break the layering)"
  exit 1
fi
echo "1 passed, 0 failed"
