/* shader.c — GLSL programs from files: read, compile, link.
 *
 * Design: a shader error is a content error the modder must fix, so the message names the file and
 * carries the driver's info log verbatim (trimmed to fit the error buffer). Programs are built once at
 * renderer_create; there is no hot reload. A variant of a program (render_shader_load_variant) gets lines
 * of #define after the fragment shader's #version line, and a #line so the log's line numbers stay the
 * file's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "render_internal.h"
#include "strata/fileio.h"

static void shader_join_path(char *out, size_t size, const char *dir, const char *file)
{
    size_t n = strlen(dir);
    snprintf(out, size, "%s%s%s", dir, (n > 0 && dir[n - 1] != '/') ? "/" : "", file);
}

/* Copies the info log into out, trimmed of trailing newlines. */
static void shader_copy_log(char *out, size_t size, const char *log)
{
    snprintf(out, size, "%s", log[0] ? log : "(empty info log)");
    size_t n = strlen(out);
    while (n > 0 && (out[n - 1] == '\n' || out[n - 1] == '\r' || out[n - 1] == ' '))
        out[--n] = '\0';
}

/* Compiles one stage; `defines` (NULL: none) goes after the source's first line, its #version. */
static StResult shader_compile(const char *dir, const char *file, GLenum type, const char *defines, GLuint *out)
{
    char path[1024];
    shader_join_path(path, sizeof path, dir, file);
    char *source = NULL;
    size_t size = 0;
    StResult rc = fileio_read_all(path, &source, &size);
    if (rc != ST_OK) {
        char reason[512];
        snprintf(reason, sizeof reason, "%s", st_error_message());
        return st_fail(rc, "shader %s: cannot read it: %s", path, reason);
    }
    GLuint shader = glCreateShader(type);
    const char *newline = memchr(source, '\n', size);
    size_t first = newline && defines ? (size_t)(newline - source) + 1 : size;
    const GLchar *texts[4] = { source, defines, "#line 2\n", source + first };
    GLint lengths[4] = { (GLint)first, -1, -1, (GLint)(size - first) };
    glShaderSource(shader, defines ? 4 : 1, texts, lengths);
    glCompileShader(shader);
    free(source);

    GLint ok = GL_FALSE;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[2048] = "";
        glGetShaderInfoLog(shader, (GLsizei)sizeof log, NULL, log);
        glDeleteShader(shader);
        char trimmed[1536];
        shader_copy_log(trimmed, sizeof trimmed, log);
        return st_fail(ST_ERR_GL, "shader %s: compile failed:\n%s", path, trimmed);
    }
    *out = shader;
    return ST_OK;
}

StResult render_shader_load(const char *shader_dir, const char *vert_file, const char *frag_file, GLuint *program)
{
    return render_shader_load_variant(shader_dir, vert_file, frag_file, NULL, program);
}

StResult render_shader_load_variant(const char *shader_dir, const char *vert_file, const char *frag_file,
                                    const char *defines, GLuint *program)
{
    GLuint vert = 0, frag = 0;
    StResult rc = shader_compile(shader_dir, vert_file, GL_VERTEX_SHADER, NULL, &vert);
    if (rc != ST_OK)
        return rc;
    rc = shader_compile(shader_dir, frag_file, GL_FRAGMENT_SHADER, defines, &frag);
    if (rc != ST_OK) {
        glDeleteShader(vert);
        return rc;
    }
    GLuint prog = glCreateProgram();
    glAttachShader(prog, vert);
    glAttachShader(prog, frag);
    glLinkProgram(prog);
    glDetachShader(prog, vert);
    glDetachShader(prog, frag);
    glDeleteShader(vert);
    glDeleteShader(frag);

    GLint ok = GL_FALSE;
    glGetProgramiv(prog, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[2048] = "";
        glGetProgramInfoLog(prog, (GLsizei)sizeof log, NULL, log);
        glDeleteProgram(prog);
        char trimmed[1536];
        shader_copy_log(trimmed, sizeof trimmed, log);
        return st_fail(ST_ERR_GL, "shader program %s/{%s, %s}: link failed:\n%s", shader_dir, vert_file,
                       frag_file, trimmed);
    }
    *program = prog;
    return ST_OK;
}

GLint render_shader_uniform(GLuint program, const char *name)
{
    return glGetUniformLocation(program, name);
}
