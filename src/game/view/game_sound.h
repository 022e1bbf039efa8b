/* game_sound.h — what the player hears each frame: footsteps by the surface walked on, a splash on entering
 * water, and the ambience (wind in the open above ground, a drone under rock), handed to the audio device
 * (audio.h). Silent while the world loads; quieter behind the pause menu. Threads: main thread. */
#ifndef STRATA_GAME_SOUND_H
#define STRATA_GAME_SOUND_H

#include <stdbool.h>

#include "audio.h"
#include "player.h"
#include "session/world_session.h"

void game_sound_frame(GameAudio *audio, const Player *player, const WorldSession *ws, float volume, bool paused,
                      double dt);

#endif
