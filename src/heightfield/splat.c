/* splat.c — auto-splat weights and RGBA splatmaps.
 *
 * Design: rules paint over each other in order (weights *= 1 - c; layer += c), so weights sum to 1 by
 * construction; quantisation to bytes rounds each weight and gives the rounding remainder to the
 * heaviest layer, so every pixel's bytes over all maps sum to exactly 255. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strata/splat.h"

void splat_rules_default(SplatRules *r)
{
    memset(r, 0, sizeof *r);
    const char *names[] = {"grass", "rock", "dirt", "sand", "snow"};
    r->layer_count = 5;
    for (int i = 0; i < 5; i++) snprintf(r->layer_names[i], sizeof r->layer_names[i], "%s", names[i]);
    r->default_layer = 0;
    r->relative = true;
    r->rule_count = 4;
    SplatRule any = {.min_height = -INFINITY, .max_height = INFINITY, .min_slope = -INFINITY, .max_slope = INFINITY, .strength = 1.0f};
    r->rules[0] = any;   /* dirt on moderate slopes */
    r->rules[0].layer = 2;
    r->rules[0].min_slope = 0.45f;
    r->rules[0].slope_blend = 0.15f;
    r->rules[1] = any;   /* sand below a height */
    r->rules[1].layer = 3;
    r->rules[1].max_height = 0.25f;
    r->rules[1].height_blend = 0.04f;
    r->rules[2] = any;   /* snow high */
    r->rules[2].layer = 4;
    r->rules[2].min_height = 0.78f;
    r->rules[2].height_blend = 0.05f;
    r->rules[3] = any;   /* rock above a slope, over everything */
    r->rules[3].layer = 1;
    r->rules[3].min_slope = 0.9f;
    r->rules[3].slope_blend = 0.25f;
}

int splat_rules_layer(const SplatRules *rules, const char *name)
{
    for (int i = 0; i < rules->layer_count; i++)
        if (!strcmp(rules->layer_names[i], name)) return i;
    return -1;
}

/* 0 below lo - blend/2, 1 above lo + blend/2, smooth in between (a hard step when blend is 0). */
static float rise(float v, float lo, float blend)
{
    if (isinf(lo)) return 1.0f;
    if (blend <= 0.0f) return v >= lo ? 1.0f : 0.0f;
    float t = (v - (lo - 0.5f * blend)) / blend;
    t = t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
    return t * t * (3.0f - 2.0f * t);
}

void splat_weights(const SplatRules *rules, float height, float slope, float *weights)
{
    for (int i = 0; i < rules->layer_count; i++) weights[i] = 0.0f;
    weights[rules->default_layer] = 1.0f;
    for (int k = 0; k < rules->rule_count; k++) {
        const SplatRule *r = &rules->rules[k];
        float c = r->strength;
        c *= rise(height, r->min_height, r->height_blend);
        c *= isinf(r->max_height) ? 1.0f : 1.0f - rise(height, r->max_height, r->height_blend);
        c *= rise(slope, r->min_slope, r->slope_blend);
        c *= isinf(r->max_slope) ? 1.0f : 1.0f - rise(slope, r->max_slope, r->slope_blend);
        if (c <= 0.0f) continue;
        for (int i = 0; i < rules->layer_count; i++) weights[i] *= 1.0f - c;
        weights[r->layer] += c;
    }
}

StResult splat_compute(const Heightfield *hf, const SplatRules *rules, uint8_t **maps, int *map_count)
{
    if (rules->layer_count < 1 || rules->layer_count > SPLAT_MAX_LAYERS)
        return st_fail(ST_ERR_ARG, "splat rules: %d layers (1..%d)", rules->layer_count, SPLAT_MAX_LAYERS);
    int count = (rules->layer_count + 3) / 4;
    size_t cells = (size_t)hf->width * (size_t)hf->height;
    uint8_t *out = calloc((size_t)count * cells * 4, 1);
    if (!out) return st_fail(ST_ERR_NOMEM, "splatmaps %dx%d: out of memory", hf->width, hf->height);
    HeightfieldStats s = heightfield_stats(hf);
    float range = s.max > s.min ? s.max - s.min : 1.0f;
    float w[SPLAT_MAX_LAYERS];
    for (int y = 0; y < hf->height; y++)
        for (int x = 0; x < hf->width; x++) {
            size_t i = (size_t)y * (size_t)hf->width + (size_t)x;
            float h = hf->heights[i];
            if (rules->relative) h = (h - s.min) / range;
            splat_weights(rules, h, heightfield_slope(hf, x, y), w);
            int total = 0, heaviest = 0;
            uint8_t q[SPLAT_MAX_LAYERS];
            for (int l = 0; l < rules->layer_count; l++) {
                q[l] = (uint8_t)lrintf(w[l] * 255.0f);
                total += q[l];
                if (w[l] > w[heaviest]) heaviest = l;
            }
            q[heaviest] = (uint8_t)(q[heaviest] + (255 - total));
            for (int l = 0; l < rules->layer_count; l++) out[((size_t)(l / 4) * cells + i) * 4 + (size_t)(l % 4)] = q[l];
        }
    *maps = out;
    *map_count = count;
    return ST_OK;
}
