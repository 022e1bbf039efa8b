/* test_script.c — script parsing: every command and its arguments, comments and blank lines, and errors
 * that name FILE:LINE and what was wrong; block names resolved against the real registry. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "script.h"
#include "strata/block.h"
#include "strata/error.h"
#include "strata/mesher.h"
#include "strata/shapes.h"

static void test_all_commands(void)
{
    const char *text =
        "# a comment line\n"
        "\n"
        "wait_ready\n"
        "   wait 12   # trailing comment\n"
        "teleport 10.5 80 -3.25\n"
        "look 90 -30\n"
        "move 1 -0.5 0 20\n"
        "jump\n"
        "fly on\n"
        "fly off\n"
        "dig\n"
        "place stone\n"
        "select planks\n"
        "screenshot out dir/a b.png\n"
        "time 0.5\n"
        "save\n"
        "quit\r\n"
        "brightness 0.25\n"
        "season autumn\n"
        "dig_visible_within 3\n"
        "hud off\n";
    Script s;
    CHECK_EQ_INT(script_parse_text("t.script", text, &s), ST_OK);
    CHECK_EQ_INT(s.count, 19);
    if (s.count != 19) { script_free(&s); return; }
    const ScriptCommand *c = s.commands;
    CHECK_EQ_INT(c[0].op, SCRIPT_WAIT_READY);
    CHECK_EQ_INT(c[0].line, 3);
    CHECK_EQ_INT(c[1].op, SCRIPT_WAIT);
    CHECK_EQ_INT(c[1].frames, 12);
    CHECK_EQ_INT(c[1].line, 4);
    CHECK_EQ_INT(c[2].op, SCRIPT_TELEPORT);
    CHECK_NEAR(c[2].args[0], 10.5, 1e-12);
    CHECK_NEAR(c[2].args[1], 80.0, 1e-12);
    CHECK_NEAR(c[2].args[2], -3.25, 1e-12);
    CHECK_EQ_INT(c[3].op, SCRIPT_LOOK);
    CHECK_NEAR(c[3].args[0], 90.0, 1e-12);
    CHECK_NEAR(c[3].args[1], -30.0, 1e-12);
    CHECK_EQ_INT(c[4].op, SCRIPT_MOVE);
    CHECK_NEAR(c[4].args[0], 1.0, 1e-12);
    CHECK_NEAR(c[4].args[1], -0.5, 1e-12);
    CHECK_NEAR(c[4].args[2], 0.0, 1e-12);
    CHECK_EQ_INT(c[4].frames, 20);
    CHECK_EQ_INT(c[5].op, SCRIPT_JUMP);
    CHECK_EQ_INT(c[6].op, SCRIPT_FLY);
    CHECK(c[6].on);
    CHECK_EQ_INT(c[7].op, SCRIPT_FLY);
    CHECK(!c[7].on);
    CHECK_EQ_INT(c[8].op, SCRIPT_DIG);
    CHECK_EQ_INT(c[9].op, SCRIPT_PLACE);
    CHECK(!strcmp(c[9].text, "stone"));
    CHECK_EQ_INT(c[9].block, -1);
    CHECK_EQ_INT(c[10].op, SCRIPT_SELECT);
    CHECK(!strcmp(c[10].text, "planks"));
    CHECK_EQ_INT(c[11].op, SCRIPT_SCREENSHOT);
    CHECK(!strcmp(c[11].text, "out dir/a b.png"));
    CHECK_EQ_INT(c[12].op, SCRIPT_TIME);
    CHECK_NEAR(c[12].args[0], 0.5, 1e-12);
    CHECK_EQ_INT(c[13].op, SCRIPT_SAVE);
    CHECK_EQ_INT(c[14].op, SCRIPT_QUIT);
    CHECK_EQ_INT(c[14].line, 17);
    CHECK_EQ_INT(c[15].op, SCRIPT_BRIGHTNESS);
    CHECK_NEAR(c[15].args[0], 0.25, 1e-12);
    CHECK_EQ_INT(c[16].op, SCRIPT_SEASON);
    CHECK_EQ_INT(c[16].season, MESHER_SEASON_AUTUMN);
    CHECK_EQ_INT(c[17].op, SCRIPT_DIG_VISIBLE_WITHIN);
    CHECK_EQ_INT(c[17].frames, 3);
    CHECK_EQ_INT(c[17].line, 20);
    CHECK(!strcmp(script_op_name(SCRIPT_DIG_VISIBLE_WITHIN), "dig_visible_within"));
    CHECK_EQ_INT(c[18].op, SCRIPT_HUD);
    CHECK(!c[18].on);
    CHECK(script_find_op(&s, SCRIPT_SAVE) == &c[13]);
    for (int op = 0; op < SCRIPT_OP_COUNT; op++) CHECK(strcmp(script_op_name((ScriptOp)op), "?") != 0);
    script_free(&s);
    CHECK(s.commands == NULL && s.count == 0);
}

/* The UI commands: menu, hotbar, select_slot, pick; hotbar names are resolved like place/select. */
static void test_ui_commands(void)
{
    Script s;
    CHECK_EQ_INT(script_parse_text("u.script", "menu open\nmenu close\nmenu picker\nmenu settings\nhotbar 3 glass\n"
                                               "select_slot 9\npick\nsetting fov 90\nsetting vsync off\n", &s), ST_OK);
    CHECK_EQ_INT(s.count, 9);
    if (s.count == 9) {
        CHECK_EQ_INT(s.commands[7].op, SCRIPT_SETTING);
        CHECK_NEAR(s.commands[7].args[0], 90, 0);
        CHECK_NEAR(s.commands[8].args[0], 0, 0);
    }
    if (s.count >= 7) {
        CHECK_EQ_INT(s.commands[0].op, SCRIPT_MENU);
        CHECK_EQ_INT(s.commands[0].menu, SCRIPT_MENU_OPEN);
        CHECK_EQ_INT(s.commands[1].menu, SCRIPT_MENU_CLOSE);
        CHECK_EQ_INT(s.commands[2].menu, SCRIPT_MENU_PICKER);
        CHECK_EQ_INT(s.commands[3].menu, SCRIPT_MENU_SETTINGS);
        CHECK_EQ_INT(s.commands[4].op, SCRIPT_HOTBAR);
        CHECK_EQ_INT(s.commands[4].slot, 3);
        CHECK(!strcmp(s.commands[4].text, "glass"));
        CHECK_EQ_INT(s.commands[5].op, SCRIPT_SELECT_SLOT);
        CHECK_EQ_INT(s.commands[5].slot, 9);
        CHECK_EQ_INT(s.commands[6].op, SCRIPT_PICK);
        CHECK(!strcmp(script_op_name(SCRIPT_SELECT_SLOT), "select_slot"));
    }
    script_free(&s);
}

static void test_empty_and_no_final_newline(void)
{
    Script s;
    CHECK_EQ_INT(script_parse_text("e.script", "", &s), ST_OK);
    CHECK_EQ_INT(s.count, 0);
    script_free(&s);
    CHECK_EQ_INT(script_parse_text("e.script", "# only\n\n   \n", &s), ST_OK);
    CHECK_EQ_INT(s.count, 0);
    CHECK(script_find_op(&s, SCRIPT_QUIT) == NULL);
    script_free(&s);
    CHECK_EQ_INT(script_parse_text("e.script", "wait 1\nquit", &s), ST_OK);
    CHECK_EQ_INT(s.count, 2);
    script_free(&s);
    /* '#' inside a word is not a comment (paths may hold one). */
    CHECK_EQ_INT(script_parse_text("e.script", "screenshot shot#1.png\n", &s), ST_OK);
    CHECK_EQ_INT(s.count, 1);
    if (s.count == 1) CHECK(!strcmp(s.commands[0].text, "shot#1.png"));
    script_free(&s);
}

/* Parses text expecting an error whose message contains each needle. */
static void expect_error(const char *text, const char *n1, const char *n2)
{
    Script s;
    StResult rc = script_parse_text("bad.script", text, &s);
    CHECK_EQ_INT(rc, ST_ERR_ARG);
    CHECK_STR_CONTAINS(st_error_message(), n1);
    if (n2) CHECK_STR_CONTAINS(st_error_message(), n2);
    CHECK(s.commands == NULL && s.count == 0);
}

static void test_errors(void)
{
    /* The exact form the interface check greps for. */
    expect_error("wait_ready\nfly_to_the_moon\nquit\n", "bad.script:2: unknown command 'fly_to_the_moon'", NULL);
    expect_error("# c\n\nwait\n", "bad.script:3:", "wait: expected 1 argument");
    expect_error("wait -1\n", "bad.script:1:", "frame count");
    expect_error("wait 1.5\n", "bad.script:1:", "'1.5'");
    expect_error("wait 10 20\n", "bad.script:1:", "expected 1 argument");
    expect_error("teleport 1 2\n", "bad.script:1:", "teleport X Y Z");
    expect_error("teleport 1 nan 3\n", "bad.script:1:", "Y");
    expect_error("teleport 1 2 inf\n", "bad.script:1:", "Z");
    expect_error("teleport 1 999 3\n", "bad.script:1:", "'999'");
    expect_error("look 0 -91\n", "bad.script:1:", "PITCH");
    expect_error("look x 0\n", "bad.script:1:", "YAW");
    expect_error("move 2 0 0 10\n", "bad.script:1:", "FORWARD");
    expect_error("move 1 0 0 0\n", "bad.script:1:", "frame count");
    expect_error("move 1 0 0\n", "bad.script:1:", "expected 4 arguments");
    expect_error("jump 3\n", "bad.script:1:", "jump takes no arguments");
    expect_error("fly maybe\n", "bad.script:1:", "expected on or off");
    expect_error("menu sideways\n", "bad.script:1:", "menu: expected open, close, picker or settings");
    expect_error("hotbar 0 dirt\n", "bad.script:1:", "SLOT");
    expect_error("hotbar 2.5 dirt\n", "bad.script:1:", "an integer in 1..9");
    expect_error("hotbar 3\n", "bad.script:1:", "hotbar SLOT BLOCK");
    expect_error("select_slot 10\n", "bad.script:1:", "SLOT");
    expect_error("pick 1\n", "bad.script:1:", "pick takes no arguments");
    expect_error("setting colour 3\n", "bad.script:1:", "unknown setting 'colour'");
    expect_error("setting fov 200\n", "bad.script:1:", "fov");
    expect_error("dig now\n", "bad.script:1:", "dig takes no arguments");
    expect_error("place\n", "bad.script:1:", "place BLOCK");
    expect_error("select a b\n", "bad.script:1:", "expected 1 argument");
    expect_error("screenshot\n", "bad.script:1:", "screenshot: expected a PATH");
    expect_error("time 1.5\n", "bad.script:1:", "T (time of day)");
    expect_error("time\n", "bad.script:1:", "time T");
    expect_error("quit now\n", "bad.script:1:", "quit takes no arguments");
    expect_error("save 1\n", "bad.script:1:", "save takes no arguments");
    expect_error("WAIT 1\n", "bad.script:1:", "unknown command 'WAIT'");
    expect_error("place aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n", "bad.script:1:", "longer than");
    expect_error("wait 1\nbrightness 2\n", "bad.script:2:",
                 "brightness: expected B (brightness) (a number in 0..1), got '2'");
    expect_error("brightness\n", "bad.script:1:", "brightness B");
    expect_error("brightness -0.5\n", "bad.script:1:", "'-0.5'");
    expect_error("\n\nseason monsoon\n", "bad.script:3:",
                 "season: expected spring|summer|autumn|winter, got 'monsoon'");
    expect_error("season\n", "bad.script:1:", "season spring|summer|autumn|winter");
    expect_error("season summer winter\n", "bad.script:1:", "expected 1 argument");
    expect_error("hud maybe\n", "bad.script:1:", "hud: expected on or off, got 'maybe'");
    expect_error("dig_visible_within\n", "bad.script:1:", "dig_visible_within FRAMES");
    expect_error("dig_visible_within 0\n", "bad.script:1:", "frame count");
    expect_error("dig_visible_within 2.5\n", "bad.script:1:", "'2.5'");
}

static void test_load_file(void)
{
    char path[] = "/tmp/strata_test_script_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd < 0) return;
    const char *text = "wait_ready\nlook 0 -30\nwait 2\nscreenshot a.png\ndig\nwait 5\nquit\n";
    CHECK_EQ_INT(write(fd, text, strlen(text)), (long long)strlen(text));
    close(fd);
    Script s;
    CHECK_EQ_INT(script_load(path, &s), ST_OK);
    CHECK_EQ_INT(s.count, 7);
    CHECK(!strcmp(s.path, path));
    script_free(&s);
    unlink(path);

    CHECK(script_load("/nonexistent/strata/x.script", &s) != ST_OK);
    CHECK_STR_CONTAINS(st_error_message(), "/nonexistent/strata/x.script");
}

static void test_resolve_blocks(void)
{
    BlockRegistry *reg = NULL;
    StResult rc = block_registry_load("assets/blocks.json", &reg);
    CHECK_EQ_INT(rc, ST_OK);
    if (rc != ST_OK) { fprintf(stderr, "%s\n", st_error_message()); return; }
    Script s;
    CHECK_EQ_INT(script_parse_text("r.script", "select stone\nwait 1\nplace glass\n", &s), ST_OK);
    CHECK_EQ_INT(script_resolve_blocks(&s, reg), ST_OK);
    CHECK_EQ_INT(s.commands[0].block, BLOCK_STONE);
    CHECK_EQ_INT(s.commands[2].block, BLOCK_GLASS);
    script_free(&s);

    CHECK_EQ_INT(script_parse_text("r.script", "wait 1\n\nplace unobtainium\n", &s), ST_OK);
    CHECK_EQ_INT(script_resolve_blocks(&s, reg), ST_ERR_ARG);
    CHECK_STR_CONTAINS(st_error_message(), "r.script:3: place: unknown block 'unobtainium'");
    script_free(&s);

    CHECK_EQ_INT(script_parse_text("r.script", "select air\n", &s), ST_OK);
    CHECK_EQ_INT(script_resolve_blocks(&s, reg), ST_ERR_ARG);
    CHECK_STR_CONTAINS(st_error_message(), "r.script:1:");
    script_free(&s);
    block_registry_destroy(reg);
}

static void test_edit_commands(void)
{
    Script s;
    const char *text = "brush sphere 5 stone\nbrush box 3 4 5 glass hollow air\nbrush cylinder 4 9 planks axis=x yaw=30\n"
                       "brush tree 3 8 oak_trunk\nraise 8 -3 linear\nflatten 10 64\nsmooth 6 0.5 3\n"
                       "paint 7 sand 0.4 smooth\nundo\nredo\ntick 40\n";
    CHECK_EQ_INT(script_parse_text("e.script", text, &s), ST_OK);
    CHECK_EQ_INT(s.count, 11);
    if (s.count == 11) {
        const ScriptCommand *c = s.commands;
        CHECK_EQ_INT(c[0].op, SCRIPT_BRUSH);
        CHECK_EQ_INT(c[0].size_count, 1);
        CHECK_NEAR(c[0].sizes[0], 5, 0);
        CHECK_EQ_INT(c[1].hollow, 1);
        CHECK_EQ_INT(c[1].paint_mode, 1);
        CHECK_NEAR(c[1].sizes[2], 5, 0);
        CHECK_EQ_INT(c[2].axis, 0);
        CHECK_NEAR(c[2].yaw_deg, 30, 0);
        CHECK_EQ_INT(c[4].radius, 8);
        CHECK_NEAR(c[4].amount, -3, 0);
        CHECK_EQ_INT(c[4].falloff, 1);
        CHECK_NEAR(c[5].amount, 64, 0);
        CHECK_EQ_INT(c[6].iterations, 3);
        CHECK_NEAR(c[7].amount, 0.4, 1e-9);
        CHECK_EQ_INT(c[8].op, SCRIPT_UNDO);
        CHECK_EQ_INT(c[10].ticks, 40);
    }
    script_free(&s);
    expect_error("brush sphere 65 stone\n", "bad.script:1", "64");
    expect_error("brush cube 5 stone\n", "bad.script:1", "sphere|box");
    expect_error("brush box 3 4 stone\n", "bad.script:1", "size 3");
    expect_error("raise 0 3\n", "bad.script:1", "1..64");
    expect_error("raise 100 3\n", "bad.script:1", "million");
    expect_error("flatten 5\n", "bad.script:1", "flatten");
    expect_error("paint 5 sand 2\n", "bad.script:1", "opacity");
    expect_error("smooth 5 1 1 1\n", "bad.script:1", "smooth");
    expect_error("brush sphere 4 stone sideways\n", "bad.script:1", "sideways");
    expect_error("tick\n", "bad.script:1", "tick");

    /* brush_visible_within FRAMES, then a brush */
    CHECK_EQ_INT(script_parse_text("v.script", "brush_visible_within 5 sphere 8 stone\n"
                                   "brush_visible_within 3 box 2 3 4 air hollow solid\n", &s), ST_OK);
    CHECK_EQ_INT(s.count, 2);
    if (s.count == 2) {
        CHECK_EQ_INT(s.commands[0].op, SCRIPT_BRUSH_VISIBLE_WITHIN);
        CHECK_EQ_INT(s.commands[0].frames, 5);
        CHECK_EQ_INT(s.commands[0].shape, SHAPE_SPHERE);
        CHECK_NEAR(s.commands[0].sizes[0], 8, 0);
        CHECK_STR_CONTAINS(s.commands[0].text, "stone");
        CHECK_EQ_INT(s.commands[1].shape, SHAPE_BOX);
        CHECK_NEAR(s.commands[1].sizes[2], 4, 0);
        CHECK_EQ_INT(s.commands[1].hollow, 1);
        CHECK_EQ_INT(s.commands[1].paint_mode, 2);
    }
    script_free(&s);
    expect_error("brush_visible_within\n", "bad.script:1", "FRAMES");
    expect_error("brush_visible_within 0 sphere 8 stone\n", "bad.script:1", "brush_visible_within");
    expect_error("brush_visible_within 5 sphere 99 stone\n", "bad.script:1", "64");
    expect_error("brush_visible_within 5 cube 8 stone\n", "bad.script:1", "sphere|box");
}

int main(void)
{
    RUN(test_all_commands);
    RUN(test_ui_commands);
    RUN(test_empty_and_no_final_newline);
    RUN(test_errors);
    RUN(test_load_file);
    RUN(test_resolve_blocks);
    RUN(test_edit_commands);
    return check_report();
}
