/* log.h — the one log sink, tagged by module: `[store] Region 3,-1.dat: chunk 5,7 CRC mismatch`.
 *
 * Messages go to stderr (or a sink set with log_set_sink). The sink and level are the only process
 * globals besides the thread-local error message; set them before starting threads.
 * Thread safety: log_* may be called from any thread; each line is written with one fputs. */
#ifndef STRATA_LOG_H
#define STRATA_LOG_H

#include <stdio.h>

typedef enum LogLevel { LOG_DEBUG = 0, LOG_INFO, LOG_WARN, LOG_ERROR, LOG_SILENT } LogLevel;

/* Lines below `level` are dropped. Default LOG_INFO. Call before threads start. */
void log_set_level(LogLevel level);
/* Lines go to `sink` (NULL = stderr). Call before threads start. */
void log_set_sink(FILE *sink);

void log_message(LogLevel level, const char *tag, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#define log_debug(tag, ...) log_message(LOG_DEBUG, tag, __VA_ARGS__)
#define log_info(tag, ...)  log_message(LOG_INFO, tag, __VA_ARGS__)
#define log_warn(tag, ...)  log_message(LOG_WARN, tag, __VA_ARGS__)
#define log_error(tag, ...) log_message(LOG_ERROR, tag, __VA_ARGS__)

#endif
