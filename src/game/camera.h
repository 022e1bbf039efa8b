/* camera.h — camera math: yaw/pitch to directions, and the eye of the player.
 *
 * Conventions (shared with render.h): yaw 0 looks toward -Z (north), 90 toward +X (east); pitch -90 looks
 * straight down, +90 straight up. Right-handed, +Y up. Pure functions; any thread. */
#ifndef STRATA_GAME_CAMERA_H
#define STRATA_GAME_CAMERA_H

#define CAMERA_FOV_Y_DEG 75.0f
#define CAMERA_PITCH_LIMIT 90.0f

/* Unit view direction. */
void camera_look_direction(float yaw_deg, float pitch_deg, float dir[3]);
/* Horizontal unit vectors for walking: forward (the yaw direction) and right. */
void camera_walk_axes(float yaw_deg, float forward[3], float right[3]);
/* Yaw wrapped into [0, 360). */
float camera_wrap_yaw(float yaw_deg);
/* Pitch clamped to -90..90. */
float camera_clamp_pitch(float pitch_deg);
/* Compass name of a yaw ("N", "NE", "E", ...). */
const char *camera_compass(float yaw_deg);

#endif
