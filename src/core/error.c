/* error.c — the thread-local error message behind st_fail / st_error_message.
 * One fixed buffer per thread: no allocation on the failure path. */
#include "strata/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static _Thread_local char error_message[1024];

StResult st_fail(StResult code, const char *fmt, ...)
{
    /* Format into a scratch buffer first: callers may pass st_error_message() as an argument to add
     * context ("open world: %s"), which must not be overwritten while it is being read. */
    char formatted[sizeof error_message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(formatted, sizeof formatted, fmt, ap);
    va_end(ap);
    memcpy(error_message, formatted, sizeof error_message);
    return code;
}

StResult st_fail_context(StResult code, const char *fmt, ...)
{
    char context[sizeof error_message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(context, sizeof context, fmt, ap);
    va_end(ap);
    return st_fail(code, "%s: %s", context, error_message);
}

const char *st_error_message(void)
{
    return error_message;
}

const char *st_result_name(StResult code)
{
    switch (code) {
    case ST_OK: return "ST_OK";
    case ST_ERR_NOMEM: return "ST_ERR_NOMEM";
    case ST_ERR_IO: return "ST_ERR_IO";
    case ST_ERR_FORMAT: return "ST_ERR_FORMAT";
    case ST_ERR_ARG: return "ST_ERR_ARG";
    case ST_ERR_NOT_FOUND: return "ST_ERR_NOT_FOUND";
    case ST_ERR_EXISTS: return "ST_ERR_EXISTS";
    case ST_ERR_VERSION: return "ST_ERR_VERSION";
    case ST_ERR_GL: return "ST_ERR_GL";
    case ST_ERR_STATE: return "ST_ERR_STATE";
    }
    return "ST_ERR_UNKNOWN";
}
