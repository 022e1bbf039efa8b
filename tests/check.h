/* check.h — the tiny test header: CHECK macros that count failures, and a main() helper.
 * Usage: static void test_x(void) { CHECK(1 + 1 == 2); CHECK_EQ_INT(a, b); }
 *        int main(void) { RUN(test_x); return check_report(); }
 * check_report prints "N passed, N failed" and returns non-zero if any check failed. */
#ifndef STRATA_CHECK_H
#define STRATA_CHECK_H

#include <stdio.h>
#include <string.h>

static int check_passed_, check_failed_;

#define CHECK(cond) do { if (cond) check_passed_++; else { check_failed_++; \
    fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); } } while (0)
#define CHECK_EQ_INT(a, b) do { long long a_ = (long long)(a), b_ = (long long)(b); \
    if (a_ == b_) check_passed_++; else { check_failed_++; \
    fprintf(stderr, "%s:%d: CHECK_EQ_INT failed: %s == %lld, %s == %lld\n", __FILE__, __LINE__, #a, a_, #b, b_); } } while (0)
#define CHECK_NEAR(a, b, eps) do { double a_ = (double)(a), b_ = (double)(b); \
    if (a_ - b_ <= (eps) && b_ - a_ <= (eps)) check_passed_++; else { check_failed_++; \
    fprintf(stderr, "%s:%d: CHECK_NEAR failed: %s == %g, %s == %g\n", __FILE__, __LINE__, #a, a_, #b, b_); } } while (0)
#define CHECK_STR_CONTAINS(s, sub) do { const char *s_ = (s); \
    if (s_ && strstr(s_, (sub))) check_passed_++; else { check_failed_++; \
    fprintf(stderr, "%s:%d: CHECK_STR_CONTAINS failed: \"%s\" lacks \"%s\"\n", __FILE__, __LINE__, s_ ? s_ : "(null)", (sub)); } } while (0)
#define RUN(fn) do { fprintf(stderr, "-- %s\n", #fn); fn(); } while (0)

static inline int check_report(void)
{
    printf("%d passed, %d failed\n", check_passed_, check_failed_);
    return check_failed_ ? 1 : 0;
}

#endif
