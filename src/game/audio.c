/* audio.c — the SDL side of sound: the device, its callback, and the lock around the mixer.
 *
 * Design: the callback renders straight from the mixer (audio_mix.c), which never allocates; every change
 * from the main thread (a new voice, gains, volume) is made under SDL_LockAudioDevice. The device asks for
 * 16-bit mono at AUDIO_RATE and lets SDL convert to whatever the hardware wants. */
#include "audio.h"

#include <stdio.h>
#include <string.h>

#include "strata/log.h"

#define AUDIO_TAG "audio"

static void game_audio_callback(void *user, Uint8 *stream, int len)
{
    AudioMixer *mixer = user;
    audio_mixer_render(mixer, (int16_t *)stream, len / (int)sizeof(int16_t));
}

void game_audio_start(GameAudio *audio, const char *asset_dir, bool mute)
{
    memset(audio, 0, sizeof *audio);
    if (mute) {
        log_info(AUDIO_TAG, "sound off (--mute)");
        return;
    }
    char dir[1100];
    snprintf(dir, sizeof dir, "%s/sounds", asset_dir);
    if (audio_mixer_init(&audio->mixer, dir) != ST_OK) {
        log_warn(AUDIO_TAG, "%s; the game runs silent", st_error_message());
        return;
    }
    audio->mixer_ready = true;
    if (SDL_InitSubSystem(SDL_INIT_AUDIO) != 0) {
        log_info(AUDIO_TAG, "no audio (%s): the game runs silent", SDL_GetError());
        return;
    }
    SDL_AudioSpec want, have;
    memset(&want, 0, sizeof want);
    want.freq = AUDIO_RATE;
    want.format = AUDIO_S16SYS;
    want.channels = 1;
    want.samples = 512;
    want.callback = game_audio_callback;
    want.userdata = &audio->mixer;
    audio->device = SDL_OpenAudioDevice(NULL, 0, &want, &have, 0);
    if (!audio->device) {
        log_info(AUDIO_TAG, "no audio device (%s): the game runs silent", SDL_GetError());
        SDL_QuitSubSystem(SDL_INIT_AUDIO);
        return;
    }
    SDL_PauseAudioDevice(audio->device, 0);
    log_info(AUDIO_TAG, "sound on %s", SDL_GetCurrentAudioDriver());
}

void game_audio_stop(GameAudio *audio)
{
    if (audio->device) {
        SDL_CloseAudioDevice(audio->device);
        SDL_QuitSubSystem(SDL_INIT_AUDIO);
    }
    if (audio->mixer_ready) audio_mixer_free(&audio->mixer);
    memset(audio, 0, sizeof *audio);
}

void game_audio_play(GameAudio *audio, AudioSound sound, float gain)
{
    if (!audio->device) return;
    SDL_LockAudioDevice(audio->device);
    audio_mixer_play(&audio->mixer, sound, gain);
    SDL_UnlockAudioDevice(audio->device);
}

void game_audio_frame(GameAudio *audio, float volume, float wind, float cave)
{
    if (!audio->device) return;
    SDL_LockAudioDevice(audio->device);
    audio->mixer.volume = volume;
    audio_mixer_set_loop(&audio->mixer, AUDIO_WIND, wind);
    audio_mixer_set_loop(&audio->mixer, AUDIO_CAVE, cave);
    SDL_UnlockAudioDevice(audio->device);
}
