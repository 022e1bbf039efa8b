/* gen_math.c — the out-of-line part of gen_math.h: vector normalisation, random directions and the
 * RangeProbability trapezoid.
 *
 * Design: plain float arithmetic only (sqrtf is correctly rounded everywhere; no sinf/powf), compiled with
 * -ffp-contract=off like every generator source, so results are the same bits on every machine. */
#include "gen_math.h"

GenVec3 gen_vec3_normalize(GenVec3 v)
{
    float l = sqrtf(v.x * v.x + v.y * v.y + v.z * v.z);
    if (l <= 0.0f)
        return gen_vec3(0.0f, 0.0f, 0.0f);
    return gen_vec3(v.x / l, v.y / l, v.z / l);
}

GenVec3 gen_rng_direction(Rng *rng)
{
    for (;;) {
        float x = rng_float_range(rng, -1.0f, 1.0f);
        float y = rng_float_range(rng, -1.0f, 1.0f);
        float z = rng_float_range(rng, -1.0f, 1.0f);
        float l2 = x * x + y * y + z * z;
        if (l2 > 1e-4f && l2 <= 1.0f) {
            float l = sqrtf(l2);
            return gen_vec3(x / l, y / l, z / l);
        }
    }
}

float gen_range_probability(float v, GenTrapezoid t)
{
    if (v < t.a) return 0.0f;
    if (v < t.b) return (v - t.a) / (t.b - t.a);
    if (v <= t.c) return 1.0f;
    if (v <= t.d) return t.d > t.c ? 1.0f - (v - t.c) / (t.d - t.c) : 1.0f;
    return 0.0f;
}
