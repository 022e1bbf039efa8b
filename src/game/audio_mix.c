/* audio_mix.c — WAV loading, voices and mixing (see audio_mix.h).
 *
 * Design: integer samples mixed in float, master volume times voice gain, clipped once at the end. One-shot
 * voices free themselves at the sample's end; loop voices wrap and glide their gain towards the target by a
 * small step per sample so ambience fades instead of clicking. No allocation while mixing. */
#include "audio_mix.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strata/fileio.h"

static const char *const SOUND_NAMES[AUDIO_SOUND_COUNT] = {
    "step_soft", "step_hard", "step_sand", "step_wood", "dig_soft", "dig_hard", "dig_sand", "dig_wood", "dig_glass",
    "place", "splash", "wind", "cave",
};

const char *audio_sound_name(AudioSound sound)
{
    return (sound >= 0 && sound < AUDIO_SOUND_COUNT) ? SOUND_NAMES[sound] : "?";
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && !strcmp(s + n - m, suffix);
}

AudioMaterial audio_material_of(const BlockDef *def)
{
    const char *n = def->name;
    if (ends_with(n, "_trunk") || !strcmp(n, "planks") || !strcmp(n, "pumpkin") || !strcmp(n, "jack_o_lantern"))
        return AUDIO_MATERIAL_WOOD;
    if (!strcmp(n, "sand") || !strcmp(n, "gravel")) return AUDIO_MATERIAL_SAND;
    if (!strcmp(n, "glass") || !strcmp(n, "ice")) return AUDIO_MATERIAL_GLASS;
    if (ends_with(n, "stone") || ends_with(n, "_ore") || !strcmp(n, "granite") || !strcmp(n, "basalt") ||
        !strcmp(n, "bedrock") || !strcmp(n, "bricks") || !strcmp(n, "magma"))
        return AUDIO_MATERIAL_HARD;
    return AUDIO_MATERIAL_SOFT;
}

AudioSound audio_step_sound(AudioMaterial m)
{
    static const AudioSound s[] = {AUDIO_STEP_SOFT, AUDIO_STEP_HARD, AUDIO_STEP_SAND, AUDIO_STEP_WOOD, AUDIO_STEP_HARD};
    return s[m];
}

AudioSound audio_dig_sound(AudioMaterial m)
{
    static const AudioSound s[] = {AUDIO_DIG_SOFT, AUDIO_DIG_HARD, AUDIO_DIG_SAND, AUDIO_DIG_WOOD, AUDIO_DIG_GLASS};
    return s[m];
}

static uint32_t le32(const unsigned char *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }
static uint16_t le16(const unsigned char *p) { return (uint16_t)(p[0] | p[1] << 8); }

StResult audio_wav_load(const char *path, AudioSample *out)
{
    memset(out, 0, sizeof *out);
    char *data = NULL;
    size_t size = 0;
    StResult rc = fileio_read_all(path, &data, &size);
    if (rc != ST_OK) return rc;
    const unsigned char *p = (const unsigned char *)data;
    if (size < 44 || memcmp(p, "RIFF", 4) || memcmp(p + 8, "WAVE", 4)) {
        free(data);
        return st_fail(ST_ERR_FORMAT, "%s: not a WAV file", path);
    }
    size_t at = 12;
    bool format_ok = false;
    while (at + 8 <= size) {
        uint32_t len = le32(p + at + 4);
        if (at + 8 + len > size) break;
        if (!memcmp(p + at, "fmt ", 4) && len >= 16)
            format_ok = le16(p + at + 8) == 1 && le16(p + at + 10) == 1 && le32(p + at + 12) == AUDIO_RATE &&
                        le16(p + at + 22) == 16;
        if (!memcmp(p + at, "data", 4)) {
            if (!format_ok) break;
            out->count = (int)(len / 2);
            out->pcm = malloc((size_t)out->count * sizeof *out->pcm);
            if (!out->pcm) {
                free(data);
                return st_fail(ST_ERR_NOMEM, "%s: out of memory", path);
            }
            for (int i = 0; i < out->count; i++) out->pcm[i] = (int16_t)le16(p + at + 8 + (size_t)i * 2);
            free(data);
            return ST_OK;
        }
        at += 8 + len + (len & 1);
    }
    free(data);
    return st_fail(ST_ERR_FORMAT, "%s: expected 16-bit mono PCM at %d Hz", path, AUDIO_RATE);
}

StResult audio_mixer_init(AudioMixer *mixer, const char *sound_dir)
{
    memset(mixer, 0, sizeof *mixer);
    mixer->volume = 1.0f;
    for (int v = 0; v < AUDIO_VOICES; v++) mixer->voices[v].sound = -1;
    for (int s = 0; s < AUDIO_SOUND_COUNT; s++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s.wav", sound_dir, SOUND_NAMES[s]);
        StResult rc = audio_wav_load(path, &mixer->samples[s]);
        if (rc != ST_OK) {
            audio_mixer_free(mixer);
            return rc;
        }
    }
    return ST_OK;
}

void audio_mixer_free(AudioMixer *mixer)
{
    for (int s = 0; s < AUDIO_SOUND_COUNT; s++) free(mixer->samples[s].pcm);
    memset(mixer, 0, sizeof *mixer);
}

void audio_mixer_play(AudioMixer *mixer, AudioSound sound, float gain)
{
    int pick = -1, oldest = -1;
    for (int v = 0; v < AUDIO_VOICES; v++) {
        AudioVoice *voice = &mixer->voices[v];
        if (voice->sound < 0) { pick = v; break; }
        if (!voice->loop && (oldest < 0 || voice->position > mixer->voices[oldest].position)) oldest = v;
    }
    if (pick < 0) pick = oldest;
    if (pick < 0) return;
    AudioVoice *voice = &mixer->voices[pick];
    voice->sound = sound;
    voice->position = 0;
    voice->gain = voice->target_gain = gain;
    voice->loop = false;
}

void audio_mixer_set_loop(AudioMixer *mixer, AudioSound sound, float gain)
{
    int free_voice = -1;
    for (int v = 0; v < AUDIO_VOICES; v++) {
        AudioVoice *voice = &mixer->voices[v];
        if (voice->loop && voice->sound == (int)sound) {
            voice->target_gain = gain;
            return;
        }
        if (voice->sound < 0 && free_voice < 0) free_voice = v;
    }
    if (free_voice < 0 || gain <= 0.0f) return;
    AudioVoice *voice = &mixer->voices[free_voice];
    voice->sound = sound;
    voice->position = 0;
    voice->gain = 0.0f;
    voice->target_gain = gain;
    voice->loop = true;
}

void audio_mixer_render(AudioMixer *mixer, int16_t *out, int frames)
{
    static const float GLIDE = 1.0f / (AUDIO_RATE * 0.5f); /* a loop's gain moves at most this per sample */
    for (int i = 0; i < frames; i++) {
        float sum = 0.0f;
        for (int v = 0; v < AUDIO_VOICES; v++) {
            AudioVoice *voice = &mixer->voices[v];
            if (voice->sound < 0) continue;
            const AudioSample *s = &mixer->samples[voice->sound];
            if (voice->position >= s->count) {
                if (!voice->loop || s->count == 0) { voice->sound = -1; continue; }
                voice->position = 0;
            }
            if (voice->loop && voice->gain != voice->target_gain) {
                float d = voice->target_gain - voice->gain;
                voice->gain += d > GLIDE ? GLIDE : d < -GLIDE ? -GLIDE : d;
            }
            sum += (float)s->pcm[voice->position++] * voice->gain;
        }
        sum *= mixer->volume;
        out[i] = (int16_t)(sum > 32767.0f ? 32767 : sum < -32768.0f ? -32768 : (int)sum);
    }
}
