/* flags.h — table-driven command lines: a FlagSpec table, one parser, one usage printer.
 *
 * Each program describes its flags in a table (name, kind, range, value name, help, id). flags_parse walks
 * argv accepting "--flag value" and "--flag=value", checks each value against its kind and range, and hands
 * it to the program's apply callback. Every failure is an st_fail(ST_ERR_ARG) message naming the flag, what
 * was expected and what was given ("--width: expected an integer in 32..16384, got 'abc'"). flags_parse
 * never prints and never exits; the program prints the usage and turns the status into its exit code.
 * Ownership: tables are the caller's (usually static const); FlagValue.text points into argv.
 * Threads: any (st_fail's message is per thread). */
#ifndef STRATA_FLAGS_H
#define STRATA_FLAGS_H

#include <stdio.h>
#include "strata/error.h"

typedef enum FlagKind {
    FLAG_SWITCH,    /* no value */
    FLAG_INT,       /* an integer in min..max (the whole text) */
    FLAG_NUMBER,    /* a finite number in min..max (the whole text) */
    FLAG_TEXT,      /* non-empty text ("--screenshot: expected a PATH, got an empty value") */
    FLAG_VALUE,     /* any text, empty included: the apply callback judges it */
    FLAG_HELP,      /* --help: flags_parse returns FLAGS_HELP (after checking the rest of the line) */
    FLAG_VERSION    /* --version: FLAGS_VERSION, likewise */
} FlagKind;

/* An integer flag's max at or above this has no upper bound ("expected an integer >= 1"). */
#define FLAG_NO_MAX 9.2e18

typedef struct FlagSpec {
    const char *name;        /* "--width" */
    FlagKind kind;
    double min, max;         /* FLAG_INT and FLAG_NUMBER */
    const char *value_name;  /* "W" in the usage, NULL for switches */
    const char *help;        /* one line; "\n" + padding continues it */
    int id;                  /* the program's own identifier for the flag */
} FlagSpec;

typedef struct FlagValue {
    const char *text;   /* the value as given (NULL for a switch) */
    long integer;       /* FLAG_INT */
    double number;      /* FLAG_NUMBER */
} FlagValue;

/* Called once per flag, in command-line order. A failure should st_fail naming the flag. */
typedef StResult (*FlagApplyFn)(void *user, const FlagSpec *flag, const FlagValue *value);

typedef enum FlagsStatus { FLAGS_OK = 0, FLAGS_HELP, FLAGS_VERSION, FLAGS_ERROR } FlagsStatus;

/* Parses argv[1..argc-1] against specs[0..count-1]. FLAGS_ERROR: the reason is in st_error_message(). A bad
 * flag anywhere wins over --help/--version (the command line is wrong). */
FlagsStatus flags_parse(const FlagSpec *specs, int count, int argc, char *const argv[], FlagApplyFn apply, void *user);

/* Checks and converts one value as flags_parse would (no callback). */
StResult flags_convert(const FlagSpec *flag, const char *text, FlagValue *value);

/* One line per flag: "  --name VALUE" padded to `left_width`, two spaces, the help. */
void flags_print_table(FILE *out, const FlagSpec *specs, int count, int left_width);

#endif
