/* error.h — result codes and the thread-local error message.
 *
 * Every fallible function returns a StResult. On failure it calls st_fail(), which records a
 * human-readable reason in a thread-local buffer that st_error_message() returns until the next
 * st_fail() on the same thread. Only main() turns an error into an exit code.
 * Thread safety: all functions may be called from any thread (the message is per thread). */
#ifndef STRATA_ERROR_H
#define STRATA_ERROR_H

typedef enum StResult {
    ST_OK = 0,
    ST_ERR_NOMEM,     /* allocation failed */
    ST_ERR_IO,        /* a file or OS call failed */
    ST_ERR_FORMAT,    /* malformed data: a file, a blob, a JSON field */
    ST_ERR_ARG,       /* bad argument: a flag, a value out of range */
    ST_ERR_NOT_FOUND, /* a named thing does not exist */
    ST_ERR_EXISTS,    /* refusing to overwrite something that exists */
    ST_ERR_VERSION,   /* data from a newer or unknown format version */
    ST_ERR_GL,        /* the graphics context could not be made or used */
    ST_ERR_STATE      /* the call is not valid in the current state */
} StResult;

/* Records a printf-style reason for the calling thread and returns `code` (so `return st_fail(...)`). */
StResult st_fail(StResult code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Adds context in front of the calling thread's current reason: "open world x: <previous reason>". */
StResult st_fail_context(StResult code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The calling thread's last reason ("" if none). Valid until the next st_fail on this thread. */
const char *st_error_message(void);

/* A short constant name for a result code ("ST_ERR_IO"). */
const char *st_result_name(StResult code);

#endif
