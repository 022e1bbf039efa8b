/* game_sound.c — what the player hears each frame: footsteps by the surface walked on, a splash on entering
 * water, and the ambience (wind in the open above ground, a drone under rock), handed to the audio device.
 *
 * Design: the world is read only through world_session_block_at (chunks whose contents exist), so sound never races the
 * worker; the mixer itself lives in audio_mix.c (SDL-free, testable) and the device in audio.c. */
#include "view/game_sound.h"

#include <math.h>


/* Footsteps by the surface walked on, a splash on entering water, and the ambience: wind in the open above
 * ground, a drone under rock. */
void game_sound_frame(GameAudio *audio, const Player *p, const WorldSession *ws, float volume, bool paused,
                      double dt)
{
    const BlockRegistry *b = ws->blocks;
    if (!audio->device || ws->loading.active) return;
    double speed = hypot(p->velocity[0], p->velocity[2]);
    if (p->on_ground && !p->flying && !p->in_fluid && speed > 0.5) {
        audio->step_distance += speed * dt;
        if (audio->step_distance >= 2.0) {
            audio->step_distance = 0.0;
            int id = world_session_block_at(ws, (int)floor(p->position[0]), (int)floor(p->position[1] - 0.5),
                                  (int)floor(p->position[2]));
            if (block_is_defined(b, id)) game_audio_play(audio, audio_step_sound(audio_material_of(&b->defs[id])), 0.35f);
        }
    }
    if (p->in_fluid && !audio->was_in_fluid && fabs(p->velocity[1]) > 1.0) game_audio_play(audio, AUDIO_SPLASH, 0.7f);
    audio->was_in_fluid = p->in_fluid;
    double eye[3];
    player_eye(p, eye);
    int x = (int)floor(eye[0]), y = (int)floor(eye[1]), z = (int)floor(eye[2]);
    int roof = 0;
    for (int up = 1; up <= 24 && y + up < CHUNK_SIZE_Y; up++)
        roof += b->opaque_cube[world_session_block_at(ws, x, y + up, z)];
    bool cave = roof >= 2 && y < 62;
    float wind = cave ? 0.0f : (float)fmin(0.5, fmax(0.08, (eye[1] - 60.0) / 60.0));
    float quiet = paused ? 0.3f : 1.0f;
    game_audio_frame(audio, volume, wind * quiet, cave ? 0.45f * quiet : 0.0f);
}