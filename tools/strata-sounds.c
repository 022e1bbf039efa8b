/* strata-sounds.c — makes the game's sound samples procedurally and writes them as WAV files.
 *
 * Design. Like the block atlas, the samples are generated, not recorded: each is noise or a few tones run
 * through simple filters (one-pole low/high pass, a resonant band) and shaped by an envelope, from a fixed
 * xorshift seed, so the output is byte-for-byte reproducible and ctest sounds_up_to_date compares it with
 * the committed WAV files in assets/sounds. Format: 16-bit signed mono PCM at AUDIO_RATE Hz. The names are the
 * game's (src/game/audio_mix.h): footsteps and digs per material (soft: dirt, grass, leaves; hard: stone;
 * sand: sand, gravel; wood; glass), a place click, a water splash, and two loops for the ambience (wind
 * above ground, a low cave drone below). Usage: strata-sounds [--out DIR] (default assets/sounds; made if missing) | --help. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strata/error.h"
#include "strata/fileio.h"

#define AUDIO_RATE 22050
#define MAX_SAMPLES (AUDIO_RATE * 4)

typedef struct Noise {
    uint32_t state;
} Noise;

static float noise_next(Noise *n)
{
    uint32_t x = n->state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    n->state = x;
    return (float)((double)x / 2147483648.0 - 1.0);
}

typedef struct Recipe {
    const char *name;
    float seconds;
    float lowpass;      /* one-pole low-pass coefficient 0..1 (1 = none) */
    float highpass;     /* one-pole high-pass coefficient 0..1 (0 = none) */
    float tone_hz;      /* a decaying tone added (0 = none) */
    float tone_mix;
    float attack, decay;/* envelope: attack seconds, then exponential decay time constant */
    float gain;
    int bursts;         /* > 1: several short bursts (gravel crunch) */
    bool loop;          /* a seamless loop: constant envelope, cross-faded ends */
    uint32_t seed;
} Recipe;

static const Recipe RECIPES[] = {
    {"step_soft", 0.16f, 0.18f, 0.02f, 0.0f, 0.0f, 0.004f, 0.035f, 0.55f, 1, false, 11},
    {"step_hard", 0.12f, 0.55f, 0.25f, 180.0f, 0.25f, 0.002f, 0.025f, 0.50f, 1, false, 12},
    {"step_sand", 0.20f, 0.45f, 0.10f, 0.0f, 0.0f, 0.006f, 0.050f, 0.45f, 3, false, 13},
    {"step_wood", 0.14f, 0.30f, 0.05f, 140.0f, 0.55f, 0.002f, 0.040f, 0.55f, 1, false, 14},
    {"dig_soft", 0.28f, 0.15f, 0.01f, 0.0f, 0.0f, 0.005f, 0.080f, 0.75f, 2, false, 21},
    {"dig_hard", 0.25f, 0.60f, 0.30f, 420.0f, 0.35f, 0.002f, 0.060f, 0.75f, 1, false, 22},
    {"dig_sand", 0.30f, 0.40f, 0.08f, 0.0f, 0.0f, 0.008f, 0.090f, 0.70f, 4, false, 23},
    {"dig_wood", 0.26f, 0.25f, 0.04f, 220.0f, 0.60f, 0.002f, 0.070f, 0.75f, 1, false, 24},
    {"dig_glass", 0.35f, 0.90f, 0.55f, 2400.0f, 0.45f, 0.001f, 0.090f, 0.60f, 3, false, 25},
    {"place", 0.10f, 0.35f, 0.10f, 300.0f, 0.50f, 0.001f, 0.025f, 0.70f, 1, false, 31},
    {"splash", 0.60f, 0.50f, 0.15f, 0.0f, 0.0f, 0.010f, 0.200f, 0.70f, 6, false, 41},
    {"wind", 3.00f, 0.03f, 0.004f, 0.0f, 0.0f, 0.0f, 0.0f, 0.60f, 1, true, 51},
    {"cave", 3.00f, 0.02f, 0.0f, 55.0f, 0.55f, 0.0f, 0.0f, 0.55f, 1, true, 52},
};

static void write_le16(FILE *f, uint16_t v) { fputc(v & 0xFF, f); fputc(v >> 8, f); }
static void write_le32(FILE *f, uint32_t v) { write_le16(f, (uint16_t)(v & 0xFFFF)); write_le16(f, (uint16_t)(v >> 16)); }

static int write_wav(const char *path, const int16_t *pcm, int count)
{
    FILE *f = fopen(path, "wb");
    if (!f) return 0;
    uint32_t data = (uint32_t)count * 2;
    fwrite("RIFF", 1, 4, f);
    write_le32(f, 36 + data);
    fwrite("WAVEfmt ", 1, 8, f);
    write_le32(f, 16);
    write_le16(f, 1);               /* PCM */
    write_le16(f, 1);               /* mono */
    write_le32(f, AUDIO_RATE);
    write_le32(f, AUDIO_RATE * 2);
    write_le16(f, 2);
    write_le16(f, 16);
    fwrite("data", 1, 4, f);
    write_le32(f, data);
    for (int i = 0; i < count; i++) write_le16(f, (uint16_t)pcm[i]);
    return fclose(f) == 0;
}

static int make(const Recipe *r, const char *dir)
{
    static float buf[MAX_SAMPLES];
    static int16_t pcm[MAX_SAMPLES];
    int n = (int)(r->seconds * AUDIO_RATE);
    Noise noise = {r->seed * 2654435761u + 1};
    float low = 0.0f, high_prev_in = 0.0f, high = 0.0f;
    for (int i = 0; i < n; i++) {
        float t = (float)i / AUDIO_RATE;
        float x = noise_next(&noise);
        low += r->lowpass * (x - low);
        float y = low;
        if (r->highpass > 0.0f) {
            high = (1.0f - r->highpass) * (high + y - high_prev_in);
            high_prev_in = y;
            y = high;
        }
        if (r->tone_hz > 0.0f) {
            float wobble = r->loop ? 1.0f + 0.1f * sinf(6.2831853f * t / r->seconds * 2.0f) : 1.0f - 0.3f * t / r->seconds;
            y = y * (1.0f - r->tone_mix) + r->tone_mix * sinf(6.2831853f * r->tone_hz * wobble * t);
        }
        float env;
        if (r->loop) {
            env = 1.0f;
        } else {
            /* `bursts` evenly spaced hits, each with the attack and decay. */
            float period = r->seconds / (float)r->bursts;
            float local = fmodf(t, period);
            float k = 1.0f - 0.25f * floorf(t / period);
            env = k * (local < r->attack ? local / r->attack : expf(-(local - r->attack) / r->decay));
        }
        buf[i] = y * env;
    }
    if (r->loop) { /* cross-fade the last 0.25 s into the start so the loop has no click */
        int fade = AUDIO_RATE / 4;
        for (int i = 0; i < fade; i++) {
            float w = (float)i / fade;
            buf[i] = buf[i] * w + buf[n - fade + i] * (1.0f - w);
        }
        n -= fade;
    }
    float peak = 1e-6f;
    for (int i = 0; i < n; i++) peak = fmaxf(peak, fabsf(buf[i]));
    for (int i = 0; i < n; i++) pcm[i] = (int16_t)lrintf(buf[i] / peak * r->gain * 32000.0f);
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.wav", dir, r->name);
    if (!write_wav(path, pcm, n)) {
        fprintf(stderr, "strata-sounds: cannot write %s\n", path);
        return 0;
    }
    return 1;
}

#define SOUNDS_USAGE "usage: strata-sounds [--out DIR]   (default assets/sounds; DIR and its parents are made)\n"

int main(int argc, char **argv)
{
    const char *dir = "assets/sounds";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--out") && i + 1 < argc) dir = argv[++i];
        else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(SOUNDS_USAGE, stdout);
            return 0;
        } else {
            fprintf(stderr, "strata-sounds: %s: %s\n" SOUNDS_USAGE, argv[i],
                    strcmp(argv[i], "--out") ? "unknown flag" : "expected a folder after it");
            return 2;
        }
    }
    if (fileio_make_dirs(dir) != ST_OK) {
        fprintf(stderr, "strata-sounds: --out %s: %s\n", dir, st_error_message());
        return 1;
    }
    for (size_t i = 0; i < sizeof RECIPES / sizeof RECIPES[0]; i++)
        if (!make(&RECIPES[i], dir)) return 1;
    return 0;
}
