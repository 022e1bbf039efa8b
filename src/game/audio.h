/* audio.h — the game's sound: an SDL audio device fed by the mixer (audio_mix.h), and what makes sounds
 * (digs, places, footsteps by surface, splashes, wind above ground and a drone in caves).
 *
 * No device (or --mute) is not an error: the game runs silent and says so once. Threads: main thread; the
 * SDL callback runs on SDL's audio thread and touches the mixer only under SDL's audio lock. */
#ifndef STRATA_GAME_AUDIO_H
#define STRATA_GAME_AUDIO_H

#include <stdbool.h>
#include <SDL.h>
#include "audio_mix.h"

typedef struct GameAudio {
    AudioMixer mixer;
    SDL_AudioDeviceID device;     /* 0: silent */
    bool mixer_ready;
    double step_distance;         /* blocks walked since the last footstep */
    bool was_in_fluid;
} GameAudio;

/* Opens the device and loads asset_dir/sounds; logs and stays silent on any failure, or when muted. */
void game_audio_start(GameAudio *audio, const char *asset_dir, bool mute);
void game_audio_stop(GameAudio *audio);
void game_audio_play(GameAudio *audio, AudioSound sound, float gain);
/* Once a frame: master volume, and the ambience loops' gains. */
void game_audio_frame(GameAudio *audio, float volume, float wind, float cave);

#endif
