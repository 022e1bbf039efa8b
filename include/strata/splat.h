/* splat.h — auto-splat rules (seed 001: sand below a height, rock above a slope, snow high, grass by
 * default) and RGBA splatmap export.
 *
 * Layers are named (up to 16); map k holds layers 4k..4k+3 in R, G, B, A. The default layer set is
 * grass, rock, dirt, sand, snow (so map 0 is R grass, G rock, B dirt, A sand; map 1 R snow). Weights at a
 * sample: start with the default layer at 1, then each rule in order paints its layer with coverage c
 * (the product of its height and slope conditions, each a smooth step `blend` wide): every weight is
 * multiplied by (1 - c) and the rule's layer gains c, so weights always sum to 1. Rule heights are
 * fractions of the map's min..max when `relative` (the default rules), else absolute heights.
 * JSON (assets/recipes/splat_default.json): {"layers": [...], "default": "grass", "relative": true,
 * "rules": [{"layer": "sand", "max_height": 0.3, "height_blend": 0.03}, {"layer": "rock", "min_slope": 0.9,
 * "slope_blend": 0.2}, ...]}.
 * Ownership: SplatRules is a plain value. Thread safety: reentrant. */
#ifndef STRATA_SPLAT_H
#define STRATA_SPLAT_H

#include <stdbool.h>
#include <stdint.h>
#include "strata/error.h"
#include "strata/heightfield.h"

#define SPLAT_MAX_LAYERS 16
#define SPLAT_MAX_RULES 32

typedef struct SplatRule {
    int layer;
    float min_height, max_height;   /* -inf/+inf when unset */
    float min_slope, max_slope;     /* rise over run */
    float height_blend, slope_blend;
    float strength;                 /* 0..1 coverage multiplier, default 1 */
} SplatRule;

typedef struct SplatRules {
    int layer_count;
    char layer_names[SPLAT_MAX_LAYERS][32];
    int default_layer;
    bool relative;
    int rule_count;
    SplatRule rules[SPLAT_MAX_RULES];
} SplatRules;

/* Seed 001's rules over grass, rock, dirt, sand, snow. */
void splat_rules_default(SplatRules *rules);
/* Parses / loads rules JSON; errors name the file and field. */
StResult splat_rules_parse(const char *path, const char *json, SplatRules *out);
StResult splat_rules_load(const char *path, SplatRules *out);
/* Layer index by name, -1 if absent. */
int splat_rules_layer(const SplatRules *rules, const char *name);

/* Weights (layer_count floats, summing to 1) for a height and slope; with relative rules `height` is
 * already a 0..1 fraction. */
void splat_weights(const SplatRules *rules, float height, float slope, float *weights);
/* Splatmaps for a whole heightfield: *map_count = ceil(layers / 4) maps of width x height RGBA bytes
 * (malloc'd, one block, caller frees); each pixel's bytes sum to 255 over all maps. */
StResult splat_compute(const Heightfield *hf, const SplatRules *rules, uint8_t **maps, int *map_count);

#endif
