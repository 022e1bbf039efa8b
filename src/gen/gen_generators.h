/* gen_generators.h — private to src/gen: the generators the registry (generator.c) can create, one create
 * function each, all of one signature.
 *
 * Adding a generator: write its create function (it validates `version`, allocates its private data, and
 * declares itself with generator_init and a static const GeneratorClass, generator.h), declare it here,
 * and add a row to the registry's table in generator.c. Generators include this header for their own
 * prototype only; they never see the registry's internals. */
#ifndef STRATA_GEN_GENERATORS_H
#define STRATA_GEN_GENERATORS_H

#include "strata/error.h"
#include "strata/generator.h"
#include "gen_config.h"

/* Builds the generator into `gen` (settings and blocks already set; `cfg` is only read during the call).
 * `version` 0 means the generator's current version; an unknown one is ST_ERR_VERSION. On failure `gen`
 * holds nothing to free. */
typedef StResult (*GenCreateFn)(Generator *gen, const WorldgenConfig *cfg, int version);

StResult gen24_create(Generator *gen, const WorldgenConfig *cfg, int version);    /* continent, island */
StResult gen_flat_create(Generator *gen, const WorldgenConfig *cfg, int version); /* flat */
StResult gen_layered_create(Generator *gen, const WorldgenConfig *cfg, int version); /* continent, generator layered */
StResult gen_heightmap_create(Generator *gen, const WorldgenConfig *cfg, int version); /* heightmap (gen24.c) */

#endif
