/* log.c — the one log sink. A line is formatted into a stack buffer and written with one fputs, so
 * lines from the main thread and the update worker never interleave mid-line. */
#include "strata/log.h"

#include <stdarg.h>

static LogLevel log_level = LOG_INFO;
static FILE *log_sink;

void log_set_level(LogLevel level) { log_level = level; }
void log_set_sink(FILE *sink) { log_sink = sink; }

void log_message(LogLevel level, const char *tag, const char *fmt, ...)
{
    if (level < log_level) return;
    static const char *const names[] = {"debug", "info", "warn", "error", ""};
    char line[1024];
    int n = snprintf(line, sizeof line, "[%s] %s%s", tag,
                     level >= LOG_WARN ? names[level] : "", level >= LOG_WARN ? ": " : "");
    if (n < 0) return;
    if ((size_t)n < sizeof line) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
        va_end(ap);
    }
    size_t len = 0;
    while (line[len]) len++;
    if (len + 1 < sizeof line) { line[len] = '\n'; line[len + 1] = 0; }
    fputs(line, log_sink ? log_sink : stderr);
}
