/* test_cli.c — the game's command line: every flag, defaults, and bad values with their messages and the
 * exit code main() turns them into (2), --help/--version (0). */
#include <stdarg.h>
#include <stdint.h>

#include "check.h"
#include "cli.h"
#include "script.h"
#include "strata/error.h"
#include "strata/generator.h"
#include "strata/mesher.h"

/* Parses a NULL-terminated list of arguments (program name added). */
static CliStatus parse(CliOptions *o, ...)
{
    char *argv[32] = {"strata"};
    int argc = 1;
    va_list ap;
    va_start(ap, o);
    for (char *a; (a = va_arg(ap, char *)) != NULL && argc < 31;) argv[argc++] = a;
    va_end(ap);
    return cli_parse(argc, argv, o);
}

static void test_defaults(void)
{
    CliOptions o;
    CHECK_EQ_INT(parse(&o, NULL), CLI_RUN);
    CHECK_EQ_INT(o.view_distance, 8);
    CHECK_EQ_INT(o.width, 1280);
    CHECK_EQ_INT(o.height, 720);
    CHECK(!o.seed_given);
    CHECK(!o.flat && !o.fly && !o.new_world);
    CHECK_EQ_INT(o.frames, 0);
    CHECK(o.screenshot_path == NULL && o.script_path == NULL && o.asset_dir == NULL && o.world_dir == NULL);
    CHECK_EQ_INT(o.autosave_seconds, CLI_AUTOSAVE_DEFAULT);
    CHECK_NEAR(o.brightness, 0.5, 0);
    CHECK_EQ_INT(o.season, MESHER_SEASON_SUMMER);
}

static void test_every_flag(void)
{
    CliOptions o;
    CliStatus s = parse(&o, "--seed", "42", "--view-distance", "3", "--flat", "--width", "320", "--height", "200",
                        "--frames", "5", "--screenshot", "out.png", "--script", "a.script", "--fly", "--assets",
                        "/tmp/assets", "--world", "w1", "--new", "--autosave", "30", "--brightness", "0.75",
                        "--season", "winter", NULL);
    CHECK_EQ_INT(s, CLI_RUN);
    CHECK(o.seed_given);
    CHECK_EQ_INT(o.seed, 42);
    CHECK_EQ_INT(o.view_distance, 3);
    CHECK(o.flat);
    CHECK_EQ_INT(o.width, 320);
    CHECK_EQ_INT(o.height, 200);
    CHECK_EQ_INT(o.frames, 5);
    CHECK(o.screenshot_path && !strcmp(o.screenshot_path, "out.png"));
    CHECK(o.script_path && !strcmp(o.script_path, "a.script"));
    CHECK(o.fly);
    CHECK(o.asset_dir && !strcmp(o.asset_dir, "/tmp/assets"));
    CHECK(o.world_dir && !strcmp(o.world_dir, "w1"));
    CHECK(o.new_world);
    CHECK_EQ_INT(o.autosave_seconds, 30);
    CHECK_NEAR(o.brightness, 0.75, 1e-6);
    CHECK_EQ_INT(o.season, MESHER_SEASON_WINTER);
    CHECK_EQ_INT(cli_exit_code(s), 0);
}

static void test_equals_form_and_bounds(void)
{
    CliOptions o;
    CHECK_EQ_INT(parse(&o, "--view-distance=2", NULL), CLI_RUN);
    CHECK_EQ_INT(o.view_distance, 2);
    CHECK_EQ_INT(parse(&o, "--view-distance=32", "--width=32", "--height=16384", NULL), CLI_RUN);
    CHECK_EQ_INT(o.view_distance, 32);
    CHECK_EQ_INT(o.width, 32);
    CHECK_EQ_INT(o.height, 16384);
    CHECK_EQ_INT(parse(&o, "--seed=-7", NULL), CLI_RUN);
    uint64_t want;
    CHECK_EQ_INT(world_seed_parse("-7", &want), ST_OK);
    CHECK(o.seed == want);
    CHECK_EQ_INT(parse(&o, "--brightness=0", "--season=spring", NULL), CLI_RUN);
    CHECK_NEAR(o.brightness, 0.0, 0);
    CHECK_EQ_INT(o.season, MESHER_SEASON_SPRING);
    CHECK_EQ_INT(parse(&o, "--brightness", "1", "--season", "autumn", NULL), CLI_RUN);
    CHECK_NEAR(o.brightness, 1.0, 0);
    CHECK_EQ_INT(o.season, MESHER_SEASON_AUTUMN);
    CHECK_EQ_INT(parse(&o, "--season", "summer", NULL), CLI_RUN);
    CHECK_EQ_INT(o.season, MESHER_SEASON_SUMMER);
}

static void test_text_seed(void)
{
    CliOptions o, o2;
    CHECK_EQ_INT(parse(&o, "--seed", "hello world", NULL), CLI_RUN);
    uint64_t want;
    CHECK_EQ_INT(world_seed_parse("hello world", &want), ST_OK);
    CHECK(o.seed == want);
    CHECK(!strcmp(o.seed_text, "hello world"));
    CHECK_EQ_INT(parse(&o2, "--seed", "hello worle", NULL), CLI_RUN);
    CHECK(o.seed != o2.seed);
}

static void expect_error(CliStatus s, const char *needle)
{
    CHECK_EQ_INT(s, CLI_ERROR);
    CHECK_EQ_INT(cli_exit_code(s), 2);
    CHECK_STR_CONTAINS(st_error_message(), needle);
}

static void test_heightmap_flags(void)
{
    CliOptions o;
    CHECK_EQ_INT(parse(&o, "--heightmap", "maps/alps.png", "--height-range", "20,180", "--map-scale", "4", NULL), CLI_RUN);
    CHECK(o.world_settings_given);
    CHECK_EQ_INT(o.world_settings.mode, TERRAIN_MODE_HEIGHTMAP);
    CHECK(strcmp(o.world_settings.heightmap, "maps/alps.png") == 0);
    CHECK_NEAR(o.world_settings.height_min, 20.0, 1e-6);
    CHECK_NEAR(o.world_settings.height_max, 180.0, 1e-6);
    CHECK_NEAR(o.world_settings.map_scale, 4.0, 1e-6);
    CHECK_EQ_INT(parse(&o, "--heightmap", "a.r16", "--map-size", "1025x513", NULL), CLI_RUN);
    CHECK_EQ_INT(o.world_settings.map_width, 1025);
    CHECK_EQ_INT(o.world_settings.map_height, 513);
    expect_error(parse(&o, "--height-range", "20,180", NULL), "go with --heightmap");
    expect_error(parse(&o, "--heightmap", "a.png", "--height-range", "180,20", NULL), "MIN below MAX");
    expect_error(parse(&o, "--heightmap", "a.png", "--height-range", "0,300", NULL), "--height-range");
    expect_error(parse(&o, "--heightmap", "a.png", "--map-size", "10by10", NULL), "--map-size");
    expect_error(parse(&o, "--heightmap", "a.png", "--map-scale", "0", NULL), "--map-scale");
    expect_error(parse(&o, "--heightmap", "a.png", "--flat", NULL), "--flat");
}

static void test_bad_values(void)
{
    CliOptions o;
    expect_error(parse(&o, "--view-distance", "99", NULL), "--view-distance");
    CHECK_STR_CONTAINS(st_error_message(), "2..32");
    CHECK_STR_CONTAINS(st_error_message(), "'99'");
    expect_error(parse(&o, "--view-distance", "1", NULL), "2..32");
    expect_error(parse(&o, "--view-distance", "8x", NULL), "'8x'");
    expect_error(parse(&o, "--view-distance", "", NULL), "--view-distance");
    expect_error(parse(&o, "--width", "abc", NULL), "--width");
    expect_error(parse(&o, "--height", "0", NULL), "--height");
    expect_error(parse(&o, "--frames", "0", NULL), "--frames");
    expect_error(parse(&o, "--frames", "-3", NULL), ">= 1");
    expect_error(parse(&o, "--seed", "", NULL), "--seed");
    expect_error(parse(&o, "--autosave", "-1", NULL), "--autosave");
    expect_error(parse(&o, "--screenshot", "", NULL), "--screenshot");
    expect_error(parse(&o, "--width", "99999999999999999999999", NULL), "--width");
    expect_error(parse(&o, "--brightness", "1.5", NULL), "--brightness: expected a number in 0..1, got '1.5'");
    expect_error(parse(&o, "--brightness", "-0.1", NULL), "'-0.1'");
    expect_error(parse(&o, "--brightness", "nan", NULL), "'nan'");
    expect_error(parse(&o, "--brightness", "0.5x", NULL), "'0.5x'");
    expect_error(parse(&o, "--brightness", "", NULL), "--brightness");
    expect_error(parse(&o, "--brightness", NULL), "--brightness: missing value");
    expect_error(parse(&o, "--season", "monsoon", NULL),
                 "--season: expected spring|summer|autumn|winter, got 'monsoon'");
    expect_error(parse(&o, "--season", "Winter", NULL), "'Winter'");
    expect_error(parse(&o, "--season", "", NULL), "--season");
}

static void test_bad_flags(void)
{
    CliOptions o;
    expect_error(parse(&o, "--no-such-flag", NULL), "unknown flag '--no-such-flag'");
    expect_error(parse(&o, "--no-such=3", NULL), "unknown flag '--no-such'");
    expect_error(parse(&o, "stray", NULL), "unexpected argument 'stray'");
    expect_error(parse(&o, "-v", NULL), "'-v'");
    expect_error(parse(&o, "--seed", NULL), "--seed: missing value");
    expect_error(parse(&o, "--flat=yes", NULL), "--flat takes no value");
    /* --no-save --world opens a world read-only (the game refuses a folder with no world in it). */
    CHECK_EQ_INT(parse(&o, "--no-save", "--world", "w", NULL), CLI_RUN);
    CHECK(o.no_save && o.world_dir && !strcmp(o.world_dir, "w"));
    /* A numeric seed past 64 bits is an error, not text; new flags parse with their ranges. */
    expect_error(parse(&o, "--seed", "18446744073709551616", NULL), "does not fit a 64-bit seed");
    expect_error(parse(&o, "--seed", "-9223372036854775809", NULL), "does not fit a 64-bit seed");
    CHECK_EQ_INT(parse(&o, "--seed", "18446744073709551615", NULL), CLI_RUN);
    expect_error(parse(&o, "--fov", "20", NULL), "--fov");
    expect_error(parse(&o, "--fullscreen", "--windowed", NULL), "exclude each other");
    CHECK_EQ_INT(parse(&o, "--fov", "90", "--mute", "--gui-scale", "2", "--volume", "0.5", NULL), CLI_RUN);
    CHECK(o.fov == 90 && o.mute && o.gui_scale == 2 && o.volume == 0.5f && !o.view_distance_given);
    expect_error(parse(&o, "--no-save", "--new", NULL), "--no-save cannot be combined with --new");
    expect_error(parse(&o, "--autosave", "10", "--no-save", NULL), "--no-save cannot be combined with --autosave");
    /* An error after --help still wins: the command line is wrong. */
    expect_error(parse(&o, "--help", "--bogus", NULL), "--bogus");
}

static void test_help_version(void)
{
    CliOptions o;
    CliStatus s = parse(&o, "--help", NULL);
    CHECK_EQ_INT(s, CLI_HELP);
    CHECK_EQ_INT(cli_exit_code(s), 0);
    s = parse(&o, "--version", NULL);
    CHECK_EQ_INT(s, CLI_VERSION);
    CHECK_EQ_INT(cli_exit_code(s), 0);
    /* --help with an otherwise invalid combination still just prints help. */
    CHECK_EQ_INT(parse(&o, "--new", "--no-save", "--help", NULL), CLI_HELP);
    /* Without --world the seed's default world is used: --new and --autosave apply to it. */
    CHECK_EQ_INT(parse(&o, "--new", "--autosave", "5", NULL), CLI_RUN);
    CHECK(o.new_world && !o.no_save && o.world_dir == NULL);
    CHECK_EQ_INT(parse(&o, "--no-save", NULL), CLI_RUN);
    CHECK(o.no_save);

    char buf[16384] = {0};
    FILE *f = fmemopen(buf, sizeof buf - 1, "w");
    CHECK(f != NULL);
    if (!f) return;
    cli_print_usage(f, "strata");
    fclose(f);
    const char *flags[] = {"--seed", "--view-distance", "--flat", "--width", "--height", "--frames", "--screenshot",
                           "--script", "--fly", "--assets", "--world", "--new", "--no-save", "--autosave", "--help", "--version",
                           "--brightness B", "--season NAME", "wait_ready", "screenshot PATH", "brightness B",
                           "season spring|summer|autumn|winter", "dig_visible_within FRAMES", "B brightness",
                           "N season"};
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++) CHECK_STR_CONTAINS(buf, flags[i]);
    /* Every script command, as the parser's table gives its usage (the help once listed only the first 23:
     * no brush, undo, goto_structure or station). Each usage starts with the command's own name. */
    const char *commands = strstr(buf, "Script commands");
    CHECK(commands != NULL);
    for (int op = 0; commands && op < SCRIPT_OP_COUNT; op++) {
        const char *usage = script_op_usage((ScriptOp)op), *name = script_op_name((ScriptOp)op);
        CHECK(!strncmp(usage, name, strlen(name)) && (usage[strlen(name)] == ' ' || !usage[strlen(name)]));
        CHECK_STR_CONTAINS(commands, usage);
    }
    CHECK_STR_CONTAINS(commands, "goto_structure settlement|dungeon");
    CHECK_STR_CONTAINS(commands, "station TYPE");
}

int main(void)
{
    RUN(test_defaults);
    RUN(test_every_flag);
    RUN(test_equals_form_and_bounds);
    RUN(test_text_seed);
    RUN(test_heightmap_flags);
    RUN(test_bad_values);
    RUN(test_bad_flags);
    RUN(test_help_version);
    return check_report();
}
