/* thread_name.c — see thread_name.h. */
#define _GNU_SOURCE
#include "strata/thread_name.h"

#include <stdio.h>
#include <string.h>

#if defined(__linux__)
#include <sys/prctl.h>
#endif

void thread_name_self(const char *name, int index)
{
#if defined(__linux__)
    char full[16];
    if (index >= 0) snprintf(full, sizeof full, "%s-%d", name, index);
    else snprintf(full, sizeof full, "%s", name);
    (void)prctl(PR_SET_NAME, full, 0, 0, 0);
#else
    (void)name;
    (void)index;
#endif
}

void thread_name_get(char out[16])
{
    out[0] = 0;
#if defined(__linux__)
    char name[17] = {0};   /* the kernel writes up to 16 bytes, its terminator included */
    if (prctl(PR_GET_NAME, name, 0, 0, 0) == 0) {
        memcpy(out, name, 15);
        out[15] = 0;
    }
#endif
}
