/* rng.c — deterministic hashing and the splitmix64 random stream.
 *
 * Design: everything is integer arithmetic on uint64_t (wrap-around is defined), so a world seed gives
 * the same bits on every compiler and CPU. rng_mix64 is the splitmix64 finalizer (Stafford variant 13),
 * a bijection with full avalanche. Coordinates enter hashes as their 32-bit two's complement patterns,
 * packed into 64 bits and XORed into an already mixed seed, so for one seed distinct (a, b) can never
 * collide. Text hashes are FNV-1a 64 (order-sensitive, unlike Survivalcraft's summed char*(1+29i)) with
 * a final mix so that similar strings give unrelated bits. The Rng stream is splitmix64: the state
 * advances by the golden-ratio increment and each output is mix64 of the state; rng_init mixes the seed
 * first so that seeds a fixed increment apart do not give shifted copies of one stream.
 * Floats come from the top 24 bits, exactly representable, so rng_float is in [0, 1) with no rounding. */
#include "strata/rng.h"

#define RNG_GOLDEN 0x9E3779B97F4A7C15ull
#define RNG_FNV_OFFSET 0xCBF29CE484222325ull
#define RNG_FNV_PRIME 0x00000100000001B3ull
/* Distinct constants per hash arity so rng_hash2(s, a, b) and rng_hash3(s, a, b, 0) are unrelated. */
#define RNG_TAG_HASH2 0xD6E8FEB86659FD93ull
#define RNG_TAG_HASH3 0xA0761D6478BD642Full
#define RNG_TAG_DERIVE 0xE7037ED1A0B428DBull
#define RNG_TAG_INIT 0x8EBC6AF09C88C6E3ull

uint64_t rng_mix64(uint64_t x) { return rng_mix64_inline(x); }

static inline uint64_t pack2(int32_t a, int32_t b)
{
    return (uint64_t)(uint32_t)a | ((uint64_t)(uint32_t)b << 32);
}

uint64_t rng_hash2(uint64_t seed, int32_t a, int32_t b)
{
    return rng_mix64(rng_mix64(seed ^ RNG_TAG_HASH2) ^ pack2(a, b));
}

uint64_t rng_hash3_seed(uint64_t seed) { return rng_mix64(seed ^ RNG_TAG_HASH3); }

uint64_t rng_hash3(uint64_t seed, int32_t a, int32_t b, int32_t c)
{
    uint64_t h = rng_mix64(rng_hash3_seed(seed) ^ pack2(a, b));
    return rng_mix64(h + RNG_GOLDEN * (uint64_t)(uint32_t)c);
}

uint64_t rng_hash_string(const char *text)
{
    uint64_t h = RNG_FNV_OFFSET;
    if (text) {
        for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
            h ^= *p;
            h *= RNG_FNV_PRIME;
        }
    }
    return rng_mix64(h);
}

uint64_t rng_derive(uint64_t seed, const char *purpose)
{
    return rng_mix64(rng_mix64(seed ^ RNG_TAG_DERIVE) + rng_hash_string(purpose));
}

void rng_init(Rng *rng, uint64_t seed)
{
    rng->state = rng_mix64(seed ^ RNG_TAG_INIT);
}

uint64_t rng_next_u64(Rng *rng)
{
    rng->state += RNG_GOLDEN;
    return rng_mix64(rng->state);
}

float rng_float(Rng *rng)
{
    return (float)(rng_next_u64(rng) >> 40) * (1.0f / 16777216.0f);
}

float rng_float_range(Rng *rng, float lo, float hi)
{
    float v = lo + (hi - lo) * rng_float(rng);
    /* lo + (hi-lo)*f can round up to hi; keep the interval half-open. */
    return (v < hi || !(hi > lo)) ? v : lo;
}

int rng_int_range(Rng *rng, int lo, int hi)
{
    if (hi <= lo) return lo;
    uint64_t span = (uint64_t)((int64_t)hi - (int64_t)lo) + 1;
    /* Lemire's multiply-shift: the 64-bit draw times the span, top 64 bits. Bias <= span / 2^64. */
    uint64_t pick = (uint64_t)(((unsigned __int128)rng_next_u64(rng) * span) >> 64);
    return (int)((int64_t)lo + (int64_t)pick);
}

int rng_bool(Rng *rng, float p)
{
    return rng_float(rng) < p;
}
