/* render_terrain_shader.c — the terrain shaders' builds (TerrainShader): linked at the renderer's start for
 * the clear build, the others the first time a pass draws with them.
 *
 * Design. Each terrain shader (terrain.frag opaque and blended, terrain_cutout.frag, terrain_leaves.frag) comes
 * in builds that differ by a define (render_internal.h: RENDER_CLEAR ...). renderer_create links the CLEAR
 * builds, so a broken shader stops the game at its start; a player standing still draws with those alone, so
 * the fogged and dissolving builds wait until a pass binds them (renderer_pass_use): llvmpipe spends ~3 ms of
 * the launch's main thread and keeps ~1 MB of compiled code for each, 10 of the 14. One that fails to link
 * then is logged once, and the clear build draws in its place. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "render_internal.h"
#include "strata/log.h"

/* Links build `build` (RENDER_CLEAR ...) of `shader`: the shader's defines and the build's own go into it, and
 * the FADE builds also get terrain_fade.glsl's text (which they call). */
StResult renderer_link_terrain(const Renderer *r, TerrainShader *shader, int build)
{
    static const char *const build_defines[RENDER_BUILDS] = { "#define CLEAR\n", "", "#define FADE 1\n",
                                                              "#define FADE 2\n" };
    TerrainProgram *p = &shader->program[build];
    const char *defines = shader->defines ? shader->defines : "";
    const char *more = build >= RENDER_FADE_FULL ? r->terrain_fade : "";
    size_t size = strlen(defines) + strlen(build_defines[build]) + strlen(more) + 1;
    char *lines = malloc(size);
    if (!lines)
        return st_fail(ST_ERR_NOMEM, "renderer: out of memory for a shader's defines");
    snprintf(lines, size, "%s%s%s", defines, build_defines[build], more);
    StResult rc = render_shader_load_variant(r->shader_dir, "terrain.vert", shader->frag_file, lines[0] ? lines : NULL,
                                             &p->program);
    free(lines);
    if (rc != ST_OK)
        return rc;
    p->u_view_proj = render_shader_uniform(p->program, "u_view_proj");
    p->u_fog_color = render_shader_uniform(p->program, "u_fog_color");
    p->u_tiles = render_shader_uniform(p->program, "u_tiles");
    p->u_slots = render_shader_uniform(p->program, "u_slots");
    glUseProgram(p->program);
    glUniform1i(p->u_tiles, 0);
    glUniform1i(p->u_slots, RENDER_SLOT_UNIT);
    glUseProgram(0);
    return ST_OK;
}

const TerrainProgram *renderer_terrain_program(Renderer *r, TerrainShader *shader, int build)
{
    TerrainProgram *p = &shader->program[build];
    if (!p->program && !p->failed) {
        if (renderer_link_terrain(r, shader, build) != ST_OK) {
            log_error(RENDER_TAG, "%s; the shader's clear build draws in its place", st_error_message());
            p->failed = true;
        } else {
            log_info(RENDER_TAG, "linked build %d of %s%s", build, shader->frag_file, shader->defines ? " (opaque)" : "");
        }
    }
    return p->failed ? &shader->program[RENDER_CLEAR] : p;
}
