/* frustum.c — view frustum planes and the chunk box test.
 *
 * Design: rendering is camera-relative (the view matrix has no translation), so planes are extracted
 * from proj * rotation and boxes are given relative to the camera: float precision holds at any distance
 * from the world origin. The test is the usual "positive vertex" one (cglm's glm_aabb_frustum): a box is
 * rejected only when it lies wholly outside one plane, which is conservative and cheap. */
#include "render_internal.h"

void render_frustum_init(RenderFrustum *frustum, mat4 view_proj)
{
    glm_frustum_planes(view_proj, frustum->planes);
}

bool render_frustum_test_box(const RenderFrustum *frustum, const float box_min[3], const float box_max[3])
{
    for (int i = 0; i < 6; i++) {
        const float *p = frustum->planes[i];
        float d = p[0] * (p[0] > 0.0f ? box_max[0] : box_min[0])
                + p[1] * (p[1] > 0.0f ? box_max[1] : box_min[1])
                + p[2] * (p[2] > 0.0f ? box_max[2] : box_min[2]);
        if (d < -p[3])
            return false;
    }
    return true;
}
