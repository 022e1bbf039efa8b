/* main.c — parse the command line and the script, create the App, run the loop, destroy.
 * Exit codes: 0 ok (also --help/--version), 1 a start-up or runtime error, 2 a bad flag, value or script.
 * Everything that can be checked without a window is checked before one opens. */
#include <stdio.h>

#include "app.h"
#include "cli.h"
#include "script.h"
#include "strata/error.h"
#include "strata/huge_pages.h"

int main(int argc, char **argv)
{
    CliOptions opts;
    CliStatus status = cli_parse(argc, argv, &opts);
    if (status == CLI_HELP) cli_print_usage(stdout, "strata");
    if (status == CLI_VERSION) cli_print_version(stdout);
    if (status == CLI_ERROR) {
        /* A short hint, then the one-line error last, where the eye lands. */
        cli_print_usage_hint(stderr, "strata");
        fprintf(stderr, "strata: %s\n", st_error_message());
    }
    if (status != CLI_RUN) return cli_exit_code(status);
    process_prefer_huge_pages(argv); /* may start this binary again, once (huge_pages.h) */

    Script script = {0};
    if (opts.script_path && script_load(opts.script_path, &script) != ST_OK) {
        fprintf(stderr, "strata: %s\n", st_error_message());
        return 2;
    }
    App *app = NULL;
    StResult rc = app_create(&opts, &script, &app);
    if (rc != ST_OK) {
        fprintf(stderr, "strata: %s\n", st_error_message());
        app_destroy(app);
        script_free(&script);
        return rc == ST_ERR_ARG ? 2 : 1;
    }
    int code = app_run(app);
    app_destroy(app);
    return code;
}
