/* script_edit.c — parsing the editing commands of scripts: brush, raise, flatten, smooth, paint.
 *
 * Design: these take a variable number of words, so script.c tokenises and hands them here. Numbers are
 * checked against the same limits the tools enforce (radius and sizes 1..64: a larger stroke would change
 * up to ~1M cells in one frame and one undo entry), so a bad script fails before the window opens with
 * FILE:LINE. Block names are resolved later with the others (script_resolve_blocks). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "script.h"
#include "strata/shapes.h"
#include "strata/terrain_tools.h"

static StResult num(const char *path, int line, const char *cmd, const char *what, const char *word, double lo,
                    double hi, double *out)
{
    char *end = NULL;
    errno = 0;
    double v = word ? strtod(word, &end) : 0.0;
    if (!word || word[0] == 0 || *end != 0 || errno == ERANGE || !isfinite(v) || v < lo || v > hi)
        return st_fail(ST_ERR_ARG, "%s:%d: %s: expected %s (a number in %g..%g), got '%s'", path, line, cmd, what, lo,
                       hi, word ? word : "nothing");
    *out = v;
    return ST_OK;
}

static StResult radius(const char *path, int line, const char *cmd, const char *word, int *out)
{
    double v = 0;
    char *end = NULL;
    long r = word ? strtol(word, &end, 10) : 0;
    if (!word || *end != 0 || r < 1 || r > TERRAIN_TOOL_MAX_RADIUS)
        return st_fail(ST_ERR_ARG, "%s:%d: %s: expected a radius R in 1..%d, got '%s' (larger strokes are refused: "
                       "one would change up to a million cells in a single frame and undo entry)", path, line, cmd,
                       TERRAIN_TOOL_MAX_RADIUS, word ? word : "nothing");
    (void)v;
    *out = (int)r;
    return ST_OK;
}

static StResult block_word(const char *path, int line, const char *cmd, const char *word, ScriptCommand *c)
{
    if (!word) return st_fail(ST_ERR_ARG, "%s:%d: %s: expected a BLOCK name", path, line, cmd);
    if (strlen(word) >= BLOCK_NAME_MAX)
        return st_fail(ST_ERR_ARG, "%s:%d: %s: block name '%s' is longer than %d characters", path, line, cmd, word,
                       BLOCK_NAME_MAX - 1);
    snprintf(c->text, sizeof c->text, "%s", word);
    return ST_OK;
}

static StResult falloff(const char *path, int line, const char *cmd, const char *word, int *out)
{
    int f = terrain_tool_falloff_parse(word);
    if (f < 0) return st_fail(ST_ERR_ARG, "%s:%d: %s: expected a falloff none|linear|smooth, got '%s'", path, line, cmd, word);
    *out = f;
    return ST_OK;
}

static StResult too_many(const char *path, int line, const char *cmd, const char *word, const char *usage)
{
    return st_fail(ST_ERR_ARG, "%s:%d: %s: unexpected '%s' (%s)", path, line, cmd, word, usage);
}

static StResult parse_brush(const char *path, int line, ScriptCommand *c, char **w, int n)
{
    static const char *usage = "brush sphere|box|cylinder|cone|torus|plane|rock|tree SIZE... BLOCK [hollow] "
                               "[replace|air|solid] [axis=x|y|z] [yaw=DEG]";
    StResult rc;
    int kind = n >= 1 ? shape_kind_parse(w[1]) : -1;
    if (kind < 0)
        return st_fail(ST_ERR_ARG, "%s:%d: brush: expected a shape sphere|box|cylinder|cone|torus|plane|rock|tree, "
                       "got '%s'", path, line, n >= 1 ? w[1] : "nothing");
    c->shape = kind;
    c->size_count = shape_size_count((ShapeKind)kind);
    c->axis = 1;
    int i = 2;
    for (int s = 0; s < c->size_count; s++, i++) {
        char what[48];
        snprintf(what, sizeof what, "size %d of %d of a %s", s + 1, c->size_count, w[1]);
        if (i > n)
            return st_fail(ST_ERR_ARG, "%s:%d: brush %s: expected %d sizes then a BLOCK (see README)", path, line, w[1],
                           c->size_count);
        double hi = kind == SHAPE_TREE && s == 0 ? 6 : SHAPE_MAX_SIZE;
        if ((rc = num(path, line, "brush", what, w[i], 1, hi, &c->sizes[s])) != ST_OK) {
            if (hi == SHAPE_MAX_SIZE)
                return st_fail(ST_ERR_ARG, "%s (sizes stop at %d so one stroke stays under a million cells)",
                               st_error_message(), SHAPE_MAX_SIZE);
            return rc;
        }
    }
    if ((rc = block_word(path, line, "brush", i <= n ? w[i] : NULL, c)) != ST_OK) return rc;
    for (i++; i <= n; i++) {
        int mode = shape_mode_parse(w[i]);
        if (!strcmp(w[i], "hollow")) c->hollow = true;
        else if (mode >= 0) c->paint_mode = mode;
        else if (!strncmp(w[i], "axis=", 5) && strlen(w[i]) == 6 && w[i][5] >= 'x' && w[i][5] <= 'z')
            c->axis = w[i][5] - 'x';
        else if (!strncmp(w[i], "yaw=", 4)) {
            if ((rc = num(path, line, "brush", "yaw=DEG", w[i] + 4, -360, 360, &c->yaw_deg)) != ST_OK) return rc;
        } else return too_many(path, line, "brush", w[i], usage);
    }
    return ST_OK;
}

StResult script_parse_edit(const char *path, int line, ScriptCommand *c, char **w, int n)
{
    StResult rc;
    const char *cmd = w[0];
    switch (c->op) {
    case SCRIPT_BRUSH:
    case SCRIPT_BRUSH_VISIBLE_WITHIN:
        return parse_brush(path, line, c, w, n);
    case SCRIPT_RAISE:
        if (n < 2 || n > 3) return st_fail(ST_ERR_ARG, "%s:%d: raise: expected R DELTA [falloff], got %d words", path, line, n);
        if ((rc = radius(path, line, cmd, w[1], &c->radius)) != ST_OK) return rc;
        if ((rc = num(path, line, cmd, "DELTA (blocks, negative lowers)", w[2], -128, 128, &c->amount)) != ST_OK) return rc;
        c->falloff = TOOL_FALLOFF_SMOOTH;
        return n == 3 ? falloff(path, line, cmd, w[3], &c->falloff) : ST_OK;
    case SCRIPT_FLATTEN:
        if (n < 2 || n > 3) return st_fail(ST_ERR_ARG, "%s:%d: flatten: expected R HEIGHT [strength], got %d words", path, line, n);
        if ((rc = radius(path, line, cmd, w[1], &c->radius)) != ST_OK) return rc;
        if ((rc = num(path, line, cmd, "HEIGHT (y of the new surface)", w[2], 1, 254, &c->amount)) != ST_OK) return rc;
        c->strength = 1.0;
        return n == 3 ? num(path, line, cmd, "strength", w[3], 0.01, 1, &c->strength) : ST_OK;
    case SCRIPT_SMOOTH:
        if (n < 1 || n > 3) return st_fail(ST_ERR_ARG, "%s:%d: smooth: expected R [strength] [iterations], got %d words", path, line, n);
        if ((rc = radius(path, line, cmd, w[1], &c->radius)) != ST_OK) return rc;
        c->amount = 1.0;
        c->iterations = 2;
        if (n >= 2 && (rc = num(path, line, cmd, "strength", w[2], 0.01, 1, &c->amount)) != ST_OK) return rc;
        if (n >= 3) {
            double it = 0;
            if ((rc = num(path, line, cmd, "iterations", w[3], 1, 32, &it)) != ST_OK) return rc;
            c->iterations = (int)it;
        }
        return ST_OK;
    case SCRIPT_PAINT:
        if (n < 2 || n > 4) return st_fail(ST_ERR_ARG, "%s:%d: paint: expected R BLOCK [opacity] [falloff], got %d words", path, line, n);
        if ((rc = radius(path, line, cmd, w[1], &c->radius)) != ST_OK) return rc;
        if ((rc = block_word(path, line, cmd, w[2], c)) != ST_OK) return rc;
        c->amount = 1.0;
        c->falloff = TOOL_FALLOFF_NONE;
        if (n >= 3 && (rc = num(path, line, cmd, "opacity", w[3], 0, 1, &c->amount)) != ST_OK) return rc;
        return n == 4 ? falloff(path, line, cmd, w[4], &c->falloff) : ST_OK;
    default:
        return ST_OK;
    }
}
