/* hud_fill.h — the F3 overlay's facts for this frame (position, chunks, draw counts, the hotbar's block,
 * time and light, the target and the targeted station's examine line, memory, the tool and the history),
 * gathered from the game's parts into a HudInfo that hud.c composes into lines. Memory is sampled once a
 * second (and the world files' counters checked then, game_ui.h). Threads: main thread. */
#ifndef STRATA_GAME_HUD_FILL_H
#define STRATA_GAME_HUD_FILL_H

#include "hud.h"
#include "player.h"
#include "session/world_session.h"
#include "tools/game_tools.h"
#include "ui/game_ui.h"
#include "strata/render.h"

void hud_fill_info(HudInfo *hud, GameUi *ui, const WorldSession *ws, const Player *player, const GameTools *tools,
                   Renderer *renderer, float fps);

#endif
