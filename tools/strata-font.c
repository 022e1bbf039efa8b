/* strata-font.c — bakes the UI font atlas from a TrueType font with stb_truetype.
 *
 * Design. The game draws text from a committed bitmap (assets/fonts/ui_font.png, one coverage channel) and
 * its glyph table (assets/fonts/ui_font.json), like the block atlas: the game needs no font library and no
 * font file at run time, and ctest font_up_to_date checks that the committed files are what this tool makes
 * from the Debian package's font (fonts-dejavu-core: DejaVuSans-Bold.ttf). Printable ASCII (32..126) is
 * packed at FONT_PIXEL_HEIGHT with FONT_PADDING pixels between glyphs, so the renderer can mipmap the
 * texture and draw text small without bleeding. Glyph table: for each character 7 numbers, x0 y0 x1 y1 (its
 * box in the bitmap), xoff yoff (the box's offset from the pen on the baseline) and xadvance, in pixels.
 * Usage: strata-font [--font TTF] [--out-png PATH] [--out-json PATH]; --help; exit 1 when the font
 * is missing, 2 on a bad flag. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stb/stb_image_write.h>
#include <stb/stb_truetype.h>

#define FONT_DEFAULT_TTF "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
#define FONT_PIXEL_HEIGHT 32.0f
#define FONT_FIRST 32
#define FONT_COUNT 95
#define FONT_WIDTH 512
#define FONT_HEIGHT 128
#define FONT_PADDING 2

static unsigned char *read_file(const char *path, long *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    *size = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *data = *size > 0 ? malloc((size_t)*size) : NULL;
    if (data && fread(data, 1, (size_t)*size, f) != (size_t)*size) {
        free(data);
        data = NULL;
    }
    fclose(f);
    return data;
}

#define FONT_USAGE "usage: strata-font [--font TTF] [--out-png PATH] [--out-json PATH]\n" \
                   "  defaults: " FONT_DEFAULT_TTF ", assets/fonts/ui_font.png, assets/fonts/ui_font.json\n"

int main(int argc, char **argv)
{
    const char *ttf = FONT_DEFAULT_TTF, *out_png = "assets/fonts/ui_font.png", *out_json = "assets/fonts/ui_font.json";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--font") && i + 1 < argc) ttf = argv[++i];
        else if (!strcmp(argv[i], "--out-png") && i + 1 < argc) out_png = argv[++i];
        else if (!strcmp(argv[i], "--out-json") && i + 1 < argc) out_json = argv[++i];
        else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(FONT_USAGE, stdout);
            return 0;
        } else {
            fprintf(stderr, "strata-font: %s: %s\n" FONT_USAGE, argv[i],
                    !strcmp(argv[i], "--font") || !strcmp(argv[i], "--out-png") || !strcmp(argv[i], "--out-json")
                        ? "expected a value after it" : "unknown flag");
            return 2;
        }
    }
    long size = 0;
    unsigned char *font = read_file(ttf, &size);
    if (!font) {
        fprintf(stderr, "strata-font: cannot read %s (install fonts-dejavu-core)\n", ttf);
        return 1;
    }
    unsigned char *bitmap = calloc(FONT_WIDTH * FONT_HEIGHT, 1);
    stbtt_packedchar chars[FONT_COUNT];
    stbtt_pack_context pack;
    int ok = bitmap && stbtt_PackBegin(&pack, bitmap, FONT_WIDTH, FONT_HEIGHT, 0, FONT_PADDING, NULL);
    if (ok) {
        ok = stbtt_PackFontRange(&pack, font, 0, FONT_PIXEL_HEIGHT, FONT_FIRST, FONT_COUNT, chars);
        stbtt_PackEnd(&pack);
    }
    stbtt_fontinfo info;
    int ascent = 0, descent = 0, line_gap = 0;
    if (ok && stbtt_InitFont(&info, font, stbtt_GetFontOffsetForIndex(font, 0))) {
        stbtt_GetFontVMetrics(&info, &ascent, &descent, &line_gap);
    } else {
        ok = 0;
    }
    if (!ok) {
        fprintf(stderr, "strata-font: %s: could not pack %d glyphs into %dx%d\n", ttf, FONT_COUNT, FONT_WIDTH,
                FONT_HEIGHT);
        free(bitmap);
        free(font);
        return 1;
    }
    float scale = stbtt_ScaleForPixelHeight(&info, FONT_PIXEL_HEIGHT);
    if (!stbi_write_png(out_png, FONT_WIDTH, FONT_HEIGHT, 1, bitmap, FONT_WIDTH)) {
        fprintf(stderr, "strata-font: cannot write %s\n", out_png);
        return 1;
    }
    FILE *f = fopen(out_json, "wb");
    if (!f) {
        fprintf(stderr, "strata-font: cannot write %s\n", out_json);
        return 1;
    }
    fprintf(f, "{\n  \"source\": \"DejaVu Sans Bold (fonts-dejavu-core), baked by tools/strata-font.c\",\n");
    fprintf(f, "  \"pixel_height\": %.0f,\n  \"ascent\": %.2f,\n  \"descent\": %.2f,\n  \"line_gap\": %.2f,\n",
            FONT_PIXEL_HEIGHT, ascent * scale, descent * scale, line_gap * scale);
    fprintf(f, "  \"width\": %d,\n  \"height\": %d,\n  \"first\": %d,\n  \"count\": %d,\n", FONT_WIDTH, FONT_HEIGHT,
            FONT_FIRST, FONT_COUNT);
    fprintf(f, "  \"glyphs\": [\n");
    for (int i = 0; i < FONT_COUNT; i++) {
        const stbtt_packedchar *c = &chars[i];
        fprintf(f, "    %d, %d, %d, %d, %.2f, %.2f, %.2f%s\n", c->x0, c->y0, c->x1, c->y1, c->xoff, c->yoff, c->xadvance,
                i + 1 < FONT_COUNT ? "," : "");
    }
    fprintf(f, "  ]\n}\n");
    fclose(f);
    free(bitmap);
    free(font);
    return 0;
}
