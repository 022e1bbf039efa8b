/* generator_queries.c — what tools and the game ask a generator besides chunks (generator.h): the structures,
 * flat zones and scatter points near a place, and the frozen-column rule.
 *
 * Design: each query is a pure function of the generator and the area; generators without structures or
 * scatter (flat, layered) answer none. The gen24 data they read is gen24's own (gen24_internal.h); this file
 * only holds the public entry points, so generator.h's code is in generator*.c. */
#include "gen24_internal.h"
#include "gen_feature.h"
#include "gen_generators.h"
#include "structures/gen_structures.h"
#include "strata/scatter.h"
#include <math.h>
#include <string.h>

static const Gen24 *gen24_of(const Generator *g)
{
    return g && g->name && strcmp(g->name, "gen24") == 0 ? g->impl : NULL;
}

int generator_list_structures(const Generator *g, int x, int z, int radius, GeneratorStructure *out, int max)
{
    const Gen24 *gi = gen24_of(g);
    if (!gi || !gi->structures || max <= 0)
        return 0;
    return gen_structures_list(gi->structures, x, z, radius, out, max);
}

int generator_list_flat_zones(const Generator *g, int x, int z, int radius, FlatZone *out, int max)
{
    const Gen24 *gi = gen24_of(g);
    if (!gi || !gi->structures)
        return 0;
    int n = 0;
    int r0x = (int)floor((double)(x - radius) / GEN_SITE_REGION), r1x = (int)floor((double)(x + radius) / GEN_SITE_REGION);
    int r0z = (int)floor((double)(z - radius) / GEN_SITE_REGION), r1z = (int)floor((double)(z + radius) / GEN_SITE_REGION);
    for (int rz = r0z; rz <= r1z; rz++)
        for (int rx = r0x; rx <= r1x; rx++) {
            GenSite scratch;
            const GenSite *site = gen_structures_site(gi->structures, rx, rz, &scratch);
            for (int i = 0; i < site->zone_count && n < max; i++)
                out[n++] = site->zones[i];
        }
    return n;
}

int generator_list_scatter(const Generator *g, int x0, int z0, int x1, int z1, GeneratorScatterPoint *out, int max)
{
    const Gen24 *gi = gen24_of(g);
    if (!gi) return 0;
    GenContext *ctx = gen_context_create();
    if (!ctx) return -1;
    int n = gen24_scatter_list(gi, ctx, x0, z0, x1, z1, out, max);
    gen_context_destroy(ctx);
    return n;
}

int generator_list_scatter_in(const Generator *g, GenContext *ctx, int x0, int z0, int x1, int z1,
                              GeneratorScatterPoint *out, int max)
{
    const Gen24 *gi = gen24_of(g);
    return gi ? gen24_scatter_list(gi, ctx, x0, z0, x1, z1, out, max) : 0;
}

bool generator_is_column_frozen(int temperature, int ground_y)
{
    return gen_is_column_frozen(temperature, ground_y);
}
