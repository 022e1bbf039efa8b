/* script.c — parsing and validating script files.
 *
 * Design: the whole file is parsed up front into an array of ScriptCommand, so a typo on line 40 is
 * reported before a window opens, not after a minute of play. Each line is split into words on spaces and
 * tabs; a table gives each command its argument count and parser. Numbers must be finite and consume the
 * whole word. The screenshot path is the rest of the line (so it may contain spaces). */
#include "script.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "settings.h"
#include "user_settings.h"
#include "strata/error.h"
#include "strata/fileio.h"
#include "strata/generator.h"

#define SCRIPT_MAX_WORDS 10
#define SCRIPT_COORD_MAX 30000000.0

/* The commands the parser knows, indexed by ScriptOp: name, argument count (-1: the rest of the line as one
 * text argument; -2: words checked by the parser) and usage (in messages). script_run.c's SCRIPT_COMMANDS
 * gives each the handler that plays it. */
typedef struct ScriptSpec {
    const char *name;
    int argc;
    const char *usage;
} ScriptSpec;

static const ScriptSpec SCRIPT_SPECS[SCRIPT_OP_COUNT] = {
    [SCRIPT_WAIT_READY] = {"wait_ready", 0, "wait_ready"},
    [SCRIPT_WAIT] = {"wait", 1, "wait FRAMES"},
    [SCRIPT_TELEPORT] = {"teleport", 3, "teleport X Y Z"},
    [SCRIPT_LOOK] = {"look", 2, "look YAW PITCH"},
    [SCRIPT_MOVE] = {"move", 4, "move FORWARD RIGHT UP FRAMES"},
    [SCRIPT_JUMP] = {"jump", 0, "jump"},
    [SCRIPT_FLY] = {"fly", 1, "fly on|off"},
    [SCRIPT_DIG] = {"dig", 0, "dig"},
    [SCRIPT_PLACE] = {"place", 1, "place BLOCK"},
    [SCRIPT_SELECT] = {"select", 1, "select BLOCK"},
    [SCRIPT_SCREENSHOT] = {"screenshot", -1, "screenshot PATH"},
    [SCRIPT_TIME] = {"time", 1, "time T"},
    [SCRIPT_SAVE] = {"save", 0, "save"},
    [SCRIPT_QUIT] = {"quit", 0, "quit"},
    [SCRIPT_BRIGHTNESS] = {"brightness", 1, "brightness B"},
    [SCRIPT_SEASON] = {"season", 1, "season spring|summer|autumn|winter"},
    [SCRIPT_DIG_VISIBLE_WITHIN] = {"dig_visible_within", 1, "dig_visible_within FRAMES"},
    [SCRIPT_HUD] = {"hud", 1, "hud on|off"},
    [SCRIPT_MENU] = {"menu", 1, "menu open|close|picker|settings"},
    [SCRIPT_HOTBAR] = {"hotbar", 2, "hotbar SLOT BLOCK"},
    [SCRIPT_SELECT_SLOT] = {"select_slot", 1, "select_slot N"},
    [SCRIPT_PICK] = {"pick", 0, "pick"},
    [SCRIPT_SETTING] = {"setting", 2, "setting NAME VALUE"},
    [SCRIPT_BRUSH] = {"brush", -2, "brush SHAPE SIZE... BLOCK [hollow] [replace|air|solid]"},
    [SCRIPT_RAISE] = {"raise", -2, "raise R DELTA [falloff]"},
    [SCRIPT_FLATTEN] = {"flatten", -2, "flatten R HEIGHT [strength]"},
    [SCRIPT_SMOOTH] = {"smooth", -2, "smooth R [strength] [iterations]"},
    [SCRIPT_PAINT] = {"paint", -2, "paint R BLOCK [opacity] [falloff]"},
    [SCRIPT_UNDO] = {"undo", 0, "undo"},
    [SCRIPT_REDO] = {"redo", 0, "redo"},
    [SCRIPT_TICK] = {"tick", 1, "tick N"},
    [SCRIPT_BRUSH_VISIBLE_WITHIN] = {"brush_visible_within", -2,
                                     "brush_visible_within FRAMES SHAPE SIZE... BLOCK [hollow] [replace|air|solid]"},
    [SCRIPT_GOTO_STRUCTURE] = {"goto_structure", 1, "goto_structure settlement|dungeon"},
    [SCRIPT_STATION] = {"station", 1, "station TYPE"},
};

const char *script_op_name(ScriptOp op)
{
    return (op >= 0 && op < SCRIPT_OP_COUNT) ? SCRIPT_SPECS[op].name : "?";
}

const char *script_op_usage(ScriptOp op)
{
    return (op >= 0 && op < SCRIPT_OP_COUNT) ? SCRIPT_SPECS[op].usage : "?";
}

typedef struct LineCtx {
    const char *path;
    int line;
} LineCtx;

static StResult parse_number(const LineCtx *lc, const char *cmd, const char *what, const char *word,
                             double min, double max, double *out)
{
    char *end = NULL;
    errno = 0;
    double v = strtod(word, &end);
    if (word[0] == 0 || *end != 0 || errno == ERANGE || !isfinite(v) || v < min || v > max)
        return st_fail(ST_ERR_ARG, "%s:%d: %s: expected %s (a number in %g..%g), got '%s'", lc->path, lc->line, cmd,
                       what, min, max, word);
    *out = v;
    return ST_OK;
}

static StResult parse_frames(const LineCtx *lc, const char *cmd, const char *word, long min, long *out)
{
    char *end = NULL;
    errno = 0;
    long v = strtol(word, &end, 10);
    if (word[0] == 0 || *end != 0 || errno == ERANGE || v < min || v > SCRIPT_MAX_FRAMES)
        return st_fail(ST_ERR_ARG, "%s:%d: %s: expected a frame count (an integer in %ld..%ld), got '%s'", lc->path,
                       lc->line, cmd, min, SCRIPT_MAX_FRAMES, word);
    *out = v;
    return ST_OK;
}

/* goto_structure and station (structures; resolved against the manifest later). */
static StResult parse_structure_args(const LineCtx *lc, ScriptCommand *c, char **w)
{
    if (c->op == SCRIPT_GOTO_STRUCTURE) {
        if (!strcmp(w[1], "settlement")) c->structure = GEN_STRUCTURE_SETTLEMENT;
        else if (!strcmp(w[1], "dungeon")) c->structure = GEN_STRUCTURE_DUNGEON;
        else
            return st_fail(ST_ERR_ARG, "%s:%d: goto_structure: expected settlement or dungeon, got '%s'", lc->path,
                           lc->line, w[1]);
        return ST_OK;
    }
    if (strlen(w[1]) >= STATION_TYPE_MAX)
        return st_fail(ST_ERR_ARG, "%s:%d: station: type '%s' is longer than %d characters", lc->path, lc->line, w[1],
                       STATION_TYPE_MAX - 1);
    snprintf(c->text, sizeof c->text, "%s", w[1]);
    c->station = -1;
    return ST_OK;
}

/* Parses the arguments of one command (words[0] is the command). */
static StResult parse_args(const LineCtx *lc, ScriptCommand *c, char **w, const char *rest)
{
    const char *name = SCRIPT_SPECS[c->op].name;
    StResult rc = ST_OK;
    switch (c->op) {
    case SCRIPT_WAIT:
        return parse_frames(lc, name, w[1], 0, &c->frames);
    case SCRIPT_TELEPORT:
        if ((rc = parse_number(lc, name, "X", w[1], -SCRIPT_COORD_MAX, SCRIPT_COORD_MAX, &c->args[0])) != ST_OK) return rc;
        if ((rc = parse_number(lc, name, "Y", w[2], -64.0, 512.0, &c->args[1])) != ST_OK) return rc;
        return parse_number(lc, name, "Z", w[3], -SCRIPT_COORD_MAX, SCRIPT_COORD_MAX, &c->args[2]);
    case SCRIPT_LOOK:
        if ((rc = parse_number(lc, name, "YAW", w[1], -36000.0, 36000.0, &c->args[0])) != ST_OK) return rc;
        return parse_number(lc, name, "PITCH", w[2], -90.0, 90.0, &c->args[1]);
    case SCRIPT_MOVE:
        if ((rc = parse_number(lc, name, "FORWARD", w[1], -1.0, 1.0, &c->args[0])) != ST_OK) return rc;
        if ((rc = parse_number(lc, name, "RIGHT", w[2], -1.0, 1.0, &c->args[1])) != ST_OK) return rc;
        if ((rc = parse_number(lc, name, "UP", w[3], -1.0, 1.0, &c->args[2])) != ST_OK) return rc;
        return parse_frames(lc, name, w[4], 1, &c->frames);
    case SCRIPT_FLY:
    case SCRIPT_HUD:
        if (!strcmp(w[1], "on")) c->on = true;
        else if (!strcmp(w[1], "off")) c->on = false;
        else return st_fail(ST_ERR_ARG, "%s:%d: %s: expected on or off, got '%s'", lc->path, lc->line, name, w[1]);
        return ST_OK;
    case SCRIPT_PLACE:
    case SCRIPT_SELECT:
        if (strlen(w[1]) >= BLOCK_NAME_MAX)
            return st_fail(ST_ERR_ARG, "%s:%d: %s: block name '%s' is longer than %d characters", lc->path, lc->line,
                           name, w[1], BLOCK_NAME_MAX - 1);
        snprintf(c->text, sizeof c->text, "%s", w[1]);
        return ST_OK;
    case SCRIPT_SCREENSHOT: {
        size_t len = strlen(rest);
        if (len == 0) return st_fail(ST_ERR_ARG, "%s:%d: screenshot: expected a PATH", lc->path, lc->line);
        if (len >= sizeof c->text)
            return st_fail(ST_ERR_ARG, "%s:%d: screenshot: path longer than %d characters", lc->path, lc->line,
                           SCRIPT_TEXT_MAX - 1);
        memcpy(c->text, rest, len + 1);
        return ST_OK;
    }
    case SCRIPT_TIME:
        return parse_number(lc, name, "T (time of day)", w[1], 0.0, 1.0, &c->args[0]);
    case SCRIPT_BRIGHTNESS:
        return parse_number(lc, name, "B (brightness)", w[1], 0.0, 1.0, &c->args[0]);
    case SCRIPT_SEASON:
        c->season = settings_season_parse(w[1]);
        if (c->season < 0)
            return st_fail(ST_ERR_ARG, "%s:%d: season: expected %s, got '%s'", lc->path, lc->line,
                           settings_season_choices(), w[1]);
        return ST_OK;
    case SCRIPT_DIG_VISIBLE_WITHIN:
        return parse_frames(lc, name, w[1], 1, &c->frames);
    case SCRIPT_MENU: {
        static const char *const menus[] = {"close", "open", "picker", "settings"};
        for (int i = 0; i < 4; i++)
            if (!strcmp(w[1], menus[i])) { c->menu = i; return ST_OK; }
        return st_fail(ST_ERR_ARG, "%s:%d: menu: expected open, close, picker or settings, got '%s'", lc->path,
                       lc->line, w[1]);
    }
    case SCRIPT_SETTING: {
        int id = user_setting_find(w[1]);
        if (id < 0) return st_fail(ST_ERR_ARG, "%s:%d: setting: unknown setting '%s'", lc->path, lc->line, w[1]);
        c->slot = id;
        const UserSettingSpec *spec = user_setting_spec((UserSettingId)id);
        if (spec->kind == USER_SETTING_BOOL && (!strcmp(w[2], "on") || !strcmp(w[2], "off"))) {
            c->args[0] = !strcmp(w[2], "on");
            return ST_OK;
        }
        return parse_number(lc, name, w[1], w[2], spec->min, spec->max, &c->args[0]);
    }
    case SCRIPT_HOTBAR:
    case SCRIPT_SELECT_SLOT: {
        double slot;
        if ((rc = parse_number(lc, name, "SLOT", w[1], 1.0, 9.0, &slot)) != ST_OK) return rc;
        if (slot != floor(slot))
            return st_fail(ST_ERR_ARG, "%s:%d: %s: expected SLOT (an integer in 1..9), got '%s'", lc->path, lc->line,
                           name, w[1]);
        c->slot = (int)slot;
        if (c->op == SCRIPT_SELECT_SLOT) return ST_OK;
        if (strlen(w[2]) >= BLOCK_NAME_MAX)
            return st_fail(ST_ERR_ARG, "%s:%d: %s: block name '%s' is longer than %d characters", lc->path, lc->line,
                           name, w[2], BLOCK_NAME_MAX - 1);
        snprintf(c->text, sizeof c->text, "%s", w[2]);
        return ST_OK;
    }
    case SCRIPT_TICK:
        return parse_frames(lc, name, w[1], 0, &c->ticks);
    case SCRIPT_GOTO_STRUCTURE:
    case SCRIPT_STATION:
        return parse_structure_args(lc, c, w);
    case SCRIPT_BRUSH:
    case SCRIPT_RAISE:
    case SCRIPT_FLATTEN:
    case SCRIPT_SMOOTH:
    case SCRIPT_PAINT: {
        int n = 0;
        while (w[n + 1]) n++;
        return script_parse_edit(lc->path, lc->line, c, w, n);
    }
    case SCRIPT_BRUSH_VISIBLE_WITHIN: {
        /* FRAMES, then the words of a brush command (w + 1: FRAMES stands where "brush" would). */
        if (!w[1]) return st_fail(ST_ERR_ARG, "%s:%d: %s: expected FRAMES then a brush", lc->path, lc->line, name);
        StResult rc = parse_frames(lc, name, w[1], 1, &c->frames);
        if (rc != ST_OK) return rc;
        int n = 0;
        while (w[n + 2]) n++;
        return script_parse_edit(lc->path, lc->line, c, w + 1, n);
    }
    default:
        return ST_OK;
    }
}

static StResult push_command(Script *s, const ScriptCommand *c)
{
    if (s->count == s->capacity) {
        int cap = s->capacity ? s->capacity * 2 : 16;
        ScriptCommand *n = realloc(s->commands, (size_t)cap * sizeof *n);
        if (!n) return st_fail(ST_ERR_NOMEM, "%s: out of memory reading the script", s->path);
        s->commands = n;
        s->capacity = cap;
    }
    s->commands[s->count++] = *c;
    return ST_OK;
}

/* Parses one line (modified in place). Adds a command unless the line is blank or a comment. */
static StResult parse_line(Script *s, const LineCtx *lc, char *line)
{
    /* Strip the comment: '#' at the start or after whitespace. */
    for (char *p = line; *p; p++)
        if (*p == '#' && (p == line || isspace((unsigned char)p[-1]))) { *p = 0; break; }
    /* Trim trailing whitespace (and a CR from CRLF files). */
    size_t len = strlen(line);
    while (len > 0 && isspace((unsigned char)line[len - 1])) line[--len] = 0;
    char *p = line;
    while (isspace((unsigned char)*p)) p++;
    if (*p == 0) return ST_OK;

    /* The command word. */
    char *cmd = p;
    while (*p && !isspace((unsigned char)*p)) p++;
    if (*p) *p++ = 0;
    while (isspace((unsigned char)*p)) p++;
    char *rest = p; /* the rest of the line, trimmed, before tokenising */

    int op = -1;
    for (int i = 0; i < SCRIPT_OP_COUNT; i++)
        if (!strcmp(cmd, SCRIPT_SPECS[i].name)) { op = i; break; }
    if (op < 0) return st_fail(ST_ERR_ARG, "%s:%d: unknown command '%s'", lc->path, lc->line, cmd);

    ScriptCommand c;
    memset(&c, 0, sizeof c);
    c.op = (ScriptOp)op;
    c.line = lc->line;
    c.block = -1;

    char *words[SCRIPT_MAX_WORDS + 2] = {cmd};
    int n = 1;
    char *q = rest;
    if (SCRIPT_SPECS[op].argc != -1) {
        while (*q) {
            if (n > SCRIPT_MAX_WORDS) break;
            words[n++] = q;
            while (*q && !isspace((unsigned char)*q)) q++;
            if (*q) *q++ = 0;
            while (isspace((unsigned char)*q)) q++;
        }
        if (n > SCRIPT_MAX_WORDS && *q)
            return st_fail(ST_ERR_ARG, "%s:%d: %s: too many arguments (%s)", lc->path, lc->line, cmd,
                           SCRIPT_SPECS[op].usage);
        if (SCRIPT_SPECS[op].argc >= 0 && n - 1 != SCRIPT_SPECS[op].argc) {
            if (SCRIPT_SPECS[op].argc == 0)
                return st_fail(ST_ERR_ARG, "%s:%d: %s takes no arguments (got %d)", lc->path, lc->line, cmd, n - 1);
            return st_fail(ST_ERR_ARG, "%s:%d: %s: expected %d argument%s (%s), got %d", lc->path, lc->line, cmd,
                           SCRIPT_SPECS[op].argc, SCRIPT_SPECS[op].argc == 1 ? "" : "s", SCRIPT_SPECS[op].usage, n - 1);
        }
    }
    StResult rc = parse_args(lc, &c, words, rest);
    if (rc != ST_OK) return rc;
    return push_command(s, &c);
}

StResult script_parse_text(const char *path, const char *text, Script *out)
{
    memset(out, 0, sizeof *out);
    snprintf(out->path, sizeof out->path, "%s", path);
    LineCtx lc = {path, 0};
    const char *p = text;
    char *line = NULL;
    size_t line_cap = 0;
    StResult rc = ST_OK;
    while (*p) {
        lc.line++;
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        if (len + 1 > line_cap) {
            char *n = realloc(line, len + 1);
            if (!n) { rc = st_fail(ST_ERR_NOMEM, "%s:%d: out of memory", path, lc.line); break; }
            line = n;
            line_cap = len + 1;
        }
        memcpy(line, p, len);
        line[len] = 0;
        if ((rc = parse_line(out, &lc, line)) != ST_OK) break;
        p = nl ? nl + 1 : p + len;
    }
    free(line);
    if (rc != ST_OK) script_free(out);
    return rc;
}

StResult script_load(const char *path, Script *out)
{
    memset(out, 0, sizeof *out);
    char *text = NULL;
    size_t size = 0;
    StResult rc = fileio_read_all(path, &text, &size);
    if (rc != ST_OK) return st_fail_context(rc, "script %s", path);
    if (strlen(text) != size) {
        free(text);
        return st_fail(ST_ERR_FORMAT, "script %s: contains a NUL byte (expected a text file)", path);
    }
    rc = script_parse_text(path, text, out);
    free(text);
    return rc;
}

StResult script_resolve_blocks(Script *script, const BlockRegistry *blocks)
{
    for (int i = 0; i < script->count; i++) {
        ScriptCommand *c = &script->commands[i];
        bool brush = c->op == SCRIPT_BRUSH || c->op == SCRIPT_BRUSH_VISIBLE_WITHIN;
        if (c->op != SCRIPT_PLACE && c->op != SCRIPT_SELECT && !brush && c->op != SCRIPT_PAINT &&
            c->op != SCRIPT_HOTBAR)
            continue;
        int id = block_registry_find(blocks, c->text);
        if (id < 0)
            return st_fail(ST_ERR_ARG, "%s:%d: %s: unknown block '%s'", script->path, c->line,
                           SCRIPT_SPECS[c->op].name, c->text);
        if (id == BLOCK_AIR && !brush)
            return st_fail(ST_ERR_ARG, "%s:%d: %s: cannot %s air (use dig)", script->path, c->line,
                           SCRIPT_SPECS[c->op].name,
                           SCRIPT_SPECS[c->op].name);
        c->block = id;
    }
    return ST_OK;
}

StResult script_resolve_stations(Script *script, const StationManifest *stations)
{
    for (int i = 0; i < script->count; i++) {
        ScriptCommand *c = &script->commands[i];
        if (c->op != SCRIPT_STATION) continue;
        c->station = station_manifest_find(stations, c->text);
        if (c->station < 0) {
            char known[STATION_MANIFEST_MAX * (STATION_TYPE_MAX + 2)] = "";
            for (int k = 0; k < stations->count; k++) {
                if (k) strcat(known, ", ");
                strcat(known, stations->defs[k].type);
            }
            return st_fail(ST_ERR_ARG, "%s:%d: station: unknown station type '%s' (known: %s)", script->path, c->line,
                           c->text, known);
        }
    }
    return ST_OK;
}

const ScriptCommand *script_find_op(const Script *script, ScriptOp op)
{
    for (int i = 0; i < script->count; i++)
        if (script->commands[i].op == op) return &script->commands[i];
    return NULL;
}

void script_free(Script *script)
{
    if (!script) return;
    free(script->commands);
    script->commands = NULL;
    script->count = script->capacity = 0;
}
