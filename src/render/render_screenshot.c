/* render_screenshot.c — the back buffer as a PNG, and boxes of it as RGBA for the game's frame probe.
 *
 * Design: read back RGB (alpha of the back buffer means nothing to a viewer) with pack alignment 1 so
 * odd widths have no row padding, and let stb_image_write flip rows (GL's origin is bottom-left).
 * stb's flip flag is process state, so it is set for the write and cleared again. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <stb_image_write.h>
#include "render_internal.h"

StResult renderer_screenshot(Renderer *renderer, const char *path)
{
    int width = renderer->width, height = renderer->height;
    if (width <= 0 || height <= 0)
        return st_fail(ST_ERR_STATE, "screenshot %s: the framebuffer is %dx%d", path, width, height);
    uint8_t *pixels = malloc((size_t)width * height * 3);
    if (!pixels)
        return st_fail(ST_ERR_NOMEM, "screenshot %s: out of memory for %dx%d pixels", path, width, height);
    while (glGetError() != GL_NO_ERROR) /* errors of earlier calls are not this read's */
        ;
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, pixels);
    GLenum error = glGetError();
    if (error != GL_NO_ERROR) {
        free(pixels);
        return st_fail(ST_ERR_GL, "screenshot %s: glReadPixels failed (GL error 0x%04x)", path, error);
    }
    errno = 0;
    stbi_flip_vertically_on_write(1);
    int ok = stbi_write_png(path, width, height, 3, pixels, width * 3);
    stbi_flip_vertically_on_write(0);
    int saved_errno = errno;
    free(pixels);
    if (!ok)
        return st_fail(ST_ERR_IO, "screenshot %s: cannot write the PNG: %s", path,
                       saved_errno ? strerror(saved_errno) : "write failed");
    return ST_OK;
}

StResult renderer_read_pixels(Renderer *renderer, int x, int y, int w, int h, uint8_t *rgba_out)
{
    int width = renderer->width, height = renderer->height;
    if (w <= 0 || h <= 0 || x < 0 || y < 0 || x > width - w || y > height - h)
        return st_fail(ST_ERR_ARG, "renderer_read_pixels: box %dx%d at %d,%d is outside the %dx%d framebuffer", w, h,
                       x, y, width, height);
    while (glGetError() != GL_NO_ERROR)
        ;
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    /* GL counts rows from the bottom: read the box's rows there, then flip them in place. */
    glReadPixels(x, height - y - h, w, h, GL_RGBA, GL_UNSIGNED_BYTE, rgba_out);
    GLenum error = glGetError();
    if (error != GL_NO_ERROR)
        return st_fail(ST_ERR_GL, "renderer_read_pixels: glReadPixels failed (GL error 0x%04x)", error);
    size_t row = (size_t)w * 4;
    for (int top = 0, bottom = h - 1; top < bottom; top++, bottom--) {
        uint8_t *a = rgba_out + (size_t)top * row, *b = rgba_out + (size_t)bottom * row;
        for (size_t i = 0; i < row; i++) {
            uint8_t t = a[i];
            a[i] = b[i];
            b[i] = t;
        }
    }
    return ST_OK;
}
