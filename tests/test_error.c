/* test_error.c — the thread-local error message: codes, formatting, and context added on top of the
 * current reason (which reads the buffer it rewrites). */
#include "check.h"
#include "strata/error.h"

static void test_fail_sets_message(void)
{
    CHECK_EQ_INT(st_fail(ST_ERR_IO, "open %s: %s", "a.txt", "No such file"), ST_ERR_IO);
    CHECK(strcmp(st_error_message(), "open a.txt: No such file") == 0);
    CHECK(strcmp(st_result_name(ST_ERR_FORMAT), "ST_ERR_FORMAT") == 0);
}

static void test_context_keeps_reason(void)
{
    st_fail(ST_ERR_FORMAT, "blocks.json: field 'layer': expected a name");
    CHECK_EQ_INT(st_fail_context(ST_ERR_FORMAT, "loading %s", "assets"), ST_ERR_FORMAT);
    CHECK(strcmp(st_error_message(), "loading assets: blocks.json: field 'layer': expected a name") == 0);
    /* the message passed as its own argument is read before it is rewritten */
    st_fail(ST_ERR_IO, "disk full");
    st_fail(ST_ERR_IO, "save world: %s", st_error_message());
    CHECK(strcmp(st_error_message(), "save world: disk full") == 0);
}

int main(void)
{
    RUN(test_fail_sets_message);
    RUN(test_context_keeps_reason);
    return check_report();
}
