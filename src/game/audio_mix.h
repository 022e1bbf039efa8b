/* audio_mix.h — the game's sound mixer: samples, voices, and mixing into a buffer.
 *
 * Pure (no SDL): the SDL audio callback (audio.c) calls audio_mixer_render, and so does a test, which renders
 * a scripted dig into a buffer with no device at all. Samples are the WAV files of assets/sounds (16-bit mono
 * at AUDIO_RATE, made by tools/strata-sounds). A voice plays a sample once (or loops it) at a gain; loops
 * (ambience) keep their voice and change gain smoothly. Output: 16-bit mono at AUDIO_RATE, clipped.
 * Threads: the caller serialises calls (audio.c holds SDL's audio lock around changes). */
#ifndef STRATA_GAME_AUDIO_MIX_H
#define STRATA_GAME_AUDIO_MIX_H

#include <stdbool.h>
#include <stdint.h>
#include "strata/block.h"
#include "strata/error.h"

#define AUDIO_RATE 22050
#define AUDIO_VOICES 16

typedef enum AudioSound {
    AUDIO_STEP_SOFT = 0, AUDIO_STEP_HARD, AUDIO_STEP_SAND, AUDIO_STEP_WOOD,
    AUDIO_DIG_SOFT, AUDIO_DIG_HARD, AUDIO_DIG_SAND, AUDIO_DIG_WOOD, AUDIO_DIG_GLASS,
    AUDIO_PLACE, AUDIO_SPLASH, AUDIO_WIND, AUDIO_CAVE,
    AUDIO_SOUND_COUNT
} AudioSound;

/* What a block sounds like when walked on or dug. */
typedef enum AudioMaterial { AUDIO_MATERIAL_SOFT = 0, AUDIO_MATERIAL_HARD, AUDIO_MATERIAL_SAND, AUDIO_MATERIAL_WOOD,
                             AUDIO_MATERIAL_GLASS } AudioMaterial;

typedef struct AudioSample {
    int16_t *pcm;
    int count;
} AudioSample;

typedef struct AudioVoice {
    int sound;                    /* -1: free */
    int position;                 /* next sample frame */
    float gain, target_gain;      /* loops glide to target_gain */
    bool loop;
} AudioVoice;

typedef struct AudioMixer {
    AudioSample samples[AUDIO_SOUND_COUNT];
    AudioVoice voices[AUDIO_VOICES];
    float volume;                 /* master, 0..1 */
} AudioMixer;

/* The file name (without .wav) of a sound: "dig_hard". */
const char *audio_sound_name(AudioSound sound);
/* By the block's name: trunks and planks wood, sand and gravel sand, glass and ice glass, stones and ores hard,
 * the rest (dirt, grass, leaves, plants, snow) soft. */
AudioMaterial audio_material_of(const BlockDef *def);
AudioSound audio_step_sound(AudioMaterial material);
AudioSound audio_dig_sound(AudioMaterial material);

/* Loads every sample from sound_dir; a missing or malformed file is ST_ERR_IO/ST_ERR_FORMAT naming it. */
StResult audio_mixer_init(AudioMixer *mixer, const char *sound_dir);
void audio_mixer_free(AudioMixer *mixer);
/* Reads one 16-bit mono AUDIO_RATE WAV. */
StResult audio_wav_load(const char *path, AudioSample *out);
/* Starts a one-shot voice (the oldest one-shot is replaced when all are busy). */
void audio_mixer_play(AudioMixer *mixer, AudioSound sound, float gain);
/* A looping voice for `sound` gliding to `gain` (started when missing; 0 keeps it silent). */
void audio_mixer_set_loop(AudioMixer *mixer, AudioSound sound, float gain);
/* Mixes `frames` samples into out (overwrites), advancing the voices. */
void audio_mixer_render(AudioMixer *mixer, int16_t *out, int frames);

#endif
