/* rng.h — deterministic hashing and random numbers, identical on every machine.
 *
 * Everything seeded in Strata derives from the 64-bit world seed through these functions, so a world is
 * a pure function of its seed. No global state: Rng is a small value type (splitmix64/xoshiro-style).
 * Thread safety: pure functions; an Rng value belongs to whoever holds it. */
#ifndef STRATA_RNG_H
#define STRATA_RNG_H

#include <stdint.h>

typedef struct Rng { uint64_t state; } Rng;

/* Strong 64-bit mix (splitmix64 finalizer). */
uint64_t rng_mix64(uint64_t x);
/* Hash of a seed and integer coordinates/tags, for per-chunk and per-feature seeding. */
uint64_t rng_hash2(uint64_t seed, int32_t a, int32_t b);
uint64_t rng_hash3(uint64_t seed, int32_t a, int32_t b, int32_t c);
/* rng_hash3 in steps, for many cells and tags under one seed (the scatter's candidate grids): with
 * s = rng_hash3_seed(seed) and h = rng_hash3_cell(s, a, b), rng_hash3_tag(h, c) == rng_hash3(seed, a, b, c). */
uint64_t rng_hash3_seed(uint64_t seed);
static inline uint64_t rng_mix64_inline(uint64_t x)
{
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}
static inline uint64_t rng_hash3_cell(uint64_t seeded, int32_t a, int32_t b)
{
    return rng_mix64_inline(seeded ^ ((uint64_t)(uint32_t)a | ((uint64_t)(uint32_t)b << 32)));
}
static inline uint64_t rng_hash3_tag(uint64_t cell, int32_t c)
{
    return rng_mix64_inline(cell + 0x9E3779B97F4A7C15ull * (uint64_t)(uint32_t)c);
}
/* A 64-bit hash of a text (FNV-1a then mixed); used for text seeds and noise-term tags. */
uint64_t rng_hash_string(const char *text);
/* Sub-seed for a named purpose: rng_derive(world_seed, "temperature"). */
uint64_t rng_derive(uint64_t seed, const char *purpose);

void rng_init(Rng *rng, uint64_t seed);
uint64_t rng_next_u64(Rng *rng);
/* Uniform in [0, 1). */
float rng_float(Rng *rng);
/* Uniform in [lo, hi) (floats) / [lo, hi] (ints). */
float rng_float_range(Rng *rng, float lo, float hi);
int rng_int_range(Rng *rng, int lo, int hi);
/* true with probability p. */
int rng_bool(Rng *rng, float p);

#endif
