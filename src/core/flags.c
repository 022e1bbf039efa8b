/* flags.c — the table-driven command-line parser shared by the game and the tools.
 *
 * Design: a program's flags are data (flags.h); one loop here walks argv, finds each flag by its name
 * (up to '=' when the value is attached), fetches the value from "=..." or the next argument, converts it
 * by kind and range, and calls the program back with the converted value. Messages always name the flag,
 * what was expected and what was given, so a program can print them above its usage and exit 2. --help
 * and --version only record that they were seen: a bad flag later on the line still wins. */
#include "strata/flags.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static const FlagSpec *flags_find(const FlagSpec *specs, int count, const char *name, size_t len)
{
    for (int i = 0; i < count; i++)
        if (strlen(specs[i].name) == len && strncmp(specs[i].name, name, len) == 0) return &specs[i];
    return NULL;
}

static bool flags_takes_value(FlagKind kind)
{
    return kind == FLAG_INT || kind == FLAG_NUMBER || kind == FLAG_TEXT || kind == FLAG_VALUE;
}

static StResult flags_convert_int(const FlagSpec *f, const char *text, long *out)
{
    char *end = NULL;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (text[0] == 0 || *end != 0 || errno == ERANGE || (double)v < f->min || (f->max < FLAG_NO_MAX && (double)v > f->max)) {
        if (f->max >= FLAG_NO_MAX)
            return st_fail(ST_ERR_ARG, "%s: expected an integer >= %.15g, got '%s'", f->name, f->min, text);
        return st_fail(ST_ERR_ARG, "%s: expected an integer in %.15g..%.15g, got '%s'", f->name, f->min, f->max, text);
    }
    *out = v;
    return ST_OK;
}

static StResult flags_convert_number(const FlagSpec *f, const char *text, double *out)
{
    char *end = NULL;
    errno = 0;
    double v = strtod(text, &end);
    if (text[0] == 0 || *end != 0 || errno == ERANGE || !isfinite(v) || !(v >= f->min && v <= f->max))
        return st_fail(ST_ERR_ARG, "%s: expected a number in %.15g..%.15g, got '%s'", f->name, f->min, f->max, text);
    *out = v;
    return ST_OK;
}

StResult flags_convert(const FlagSpec *f, const char *text, FlagValue *value)
{
    memset(value, 0, sizeof *value);
    value->text = text;
    switch (f->kind) {
    case FLAG_INT: return flags_convert_int(f, text, &value->integer);
    case FLAG_NUMBER: return flags_convert_number(f, text, &value->number);
    case FLAG_TEXT:
        if (!text || text[0] == 0)
            return st_fail(ST_ERR_ARG, "%s: expected a %s, got an empty value", f->name, f->value_name ? f->value_name : "value");
        return ST_OK;
    default: return ST_OK;
    }
}

FlagsStatus flags_parse(const FlagSpec *specs, int count, int argc, char *const argv[], FlagApplyFn apply, void *user)
{
    FlagsStatus early = FLAGS_OK;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strncmp(arg, "--", 2) != 0 || arg[2] == 0) {
            st_fail(ST_ERR_ARG, "unexpected argument '%s' (flags start with --)", arg);
            return FLAGS_ERROR;
        }
        const char *eq = strchr(arg, '=');
        size_t name_len = eq ? (size_t)(eq - arg) : strlen(arg);
        const FlagSpec *f = flags_find(specs, count, arg, name_len);
        if (!f) {
            st_fail(ST_ERR_ARG, "unknown flag '%.*s'", (int)name_len, arg);
            return FLAGS_ERROR;
        }
        const char *text = NULL;
        if (flags_takes_value(f->kind)) {
            if (eq) text = eq + 1;
            else if (i + 1 < argc) text = argv[++i];
            else {
                st_fail(ST_ERR_ARG, "%s: missing value (expected %s %s)", f->name, f->name,
                        f->value_name ? f->value_name : "VALUE");
                return FLAGS_ERROR;
            }
        } else if (eq) {
            st_fail(ST_ERR_ARG, "%s takes no value, got '%s'", f->name, eq + 1);
            return FLAGS_ERROR;
        }
        if (f->kind == FLAG_HELP) { if (early == FLAGS_OK) early = FLAGS_HELP; continue; }
        if (f->kind == FLAG_VERSION) { if (early == FLAGS_OK) early = FLAGS_VERSION; continue; }
        FlagValue value;
        if (flags_convert(f, text, &value) != ST_OK) return FLAGS_ERROR;
        if (apply && apply(user, f, &value) != ST_OK) return FLAGS_ERROR;
    }
    return early;
}

void flags_print_table(FILE *out, const FlagSpec *specs, int count, int left_width)
{
    for (int i = 0; i < count; i++) {
        char left[64];
        if (specs[i].value_name) snprintf(left, sizeof left, "%s %s", specs[i].name, specs[i].value_name);
        else snprintf(left, sizeof left, "%s", specs[i].name);
        fprintf(out, "  %-*s  %s\n", left_width, left, specs[i].help);
    }
}
