/* generator_class.c — generator_init (generator.h): a generator declares itself by handing its static const
 * GeneratorClass to it. Design: apart from the registry (generator.c), so that the registry calls each
 * generator's create function and the generators call only this, not back into the registry (no file loop). */
#include "strata/generator.h"

void generator_init(Generator *g, const GeneratorClass *cls, int version, void *impl)
{
    g->name = cls->name;
    g->version = version;
    g->impl = impl;
    g->ocean_level = cls->ocean_level;
    g->find_coarse_spawn_position = cls->find_coarse_spawn_position;
    g->calculate_ocean_shore_distance = cls->calculate_ocean_shore_distance;
    g->calculate_height = cls->calculate_height;
    g->calculate_temperature = cls->calculate_temperature;
    g->calculate_humidity = cls->calculate_humidity;
    g->calculate_mountain_range_factor = cls->calculate_mountain_range_factor;
    g->surface_block = cls->surface_block;
    g->tree_cover = cls->tree_cover;
    for (int i = 0; i < 4; i++)
        g->pass[i] = cls->pass[i];
    g->destroy = cls->destroy;
}
