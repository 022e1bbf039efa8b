/* camera.c — yaw/pitch to vectors. Design: angles stay the source of truth (the script, the HUD and
 * world.json speak degrees); vectors are derived on demand, in float because they only steer. */
#include "camera.h"

#include <math.h>

#define DEG2RAD 0.017453292519943295

void camera_look_direction(float yaw_deg, float pitch_deg, float dir[3])
{
    double yaw = yaw_deg * DEG2RAD, pitch = pitch_deg * DEG2RAD;
    double cp = cos(pitch);
    dir[0] = (float)(sin(yaw) * cp);
    dir[1] = (float)sin(pitch);
    dir[2] = (float)(-cos(yaw) * cp);
}

void camera_walk_axes(float yaw_deg, float forward[3], float right[3])
{
    double yaw = yaw_deg * DEG2RAD;
    forward[0] = (float)sin(yaw);
    forward[1] = 0.0f;
    forward[2] = (float)-cos(yaw);
    right[0] = (float)cos(yaw);
    right[1] = 0.0f;
    right[2] = (float)sin(yaw);
}

float camera_wrap_yaw(float yaw_deg)
{
    double y = fmod((double)yaw_deg, 360.0);
    if (y < 0) y += 360.0;
    if (y >= 360.0) y = 0.0;
    return (float)y;
}

float camera_clamp_pitch(float pitch_deg)
{
    if (pitch_deg < -CAMERA_PITCH_LIMIT) return -CAMERA_PITCH_LIMIT;
    if (pitch_deg > CAMERA_PITCH_LIMIT) return CAMERA_PITCH_LIMIT;
    return pitch_deg;
}

const char *camera_compass(float yaw_deg)
{
    static const char *const names[8] = {"N", "NE", "E", "SE", "S", "SW", "W", "NW"};
    int i = (int)floor(camera_wrap_yaw(yaw_deg) / 45.0f + 0.5f) & 7;
    return names[i];
}
