/* strata-heightmap — the heightmap toolkit on the command line (src/heightfield, no window).
 *
 *   generate --recipe JSON|PRESET --size WxH --seed S --out FILE [--bits 8|16] [--normalize]
 *   erode thermal|hydraulic IN OUT [--seed S] [--talus-angle D --iterations N --transport-rate R]
 *         [--num-droplets N --inertia F --sediment-capacity F --min-slope F --erosion-rate F
 *          --deposition-rate F --evaporation-rate F --max-lifetime N --erosion-radius N --gravity F]
 *   convert IN OUT [--map-size WxH] [--height-range MIN,MAX] [--flip] [--normalize] [--bits 8|16]
 *   export IN --format raw|r16|png|exr|sparkterrain [--out FILE] (+ convert's options)
 *   info FILE [--json] [--map-size WxH]
 *   preview IN OUT.png          shaded relief (hillshade over a height tint)
 *   splat IN OUT_PREFIX [--rules JSON]   RGBA weight maps OUT_PREFIX_0.png, _1.png, ...
 * Formats come from the extension (.raw .r16 .png .exr .sparkterrain). Exit codes: 0 done, 2 usage
 * error, 1 unreadable input or failed output. Every output is written atomically: a failure leaves no
 * partial file. Long erosion runs draw a progress bar when stderr is a terminal.
 *
 * Design: one option table shared by all commands (each command says which options it accepts), then a
 * small function per command over the heightfield module. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <stb_image_write.h>

#include "strata/erosion.h"
#include "strata/fileio.h"
#include "strata/heightfield.h"
#include "strata/heightfield_io.h"
#include "strata/heightfield_recipe.h"
#include "strata/rng.h"
#include "strata/splat.h"

#define EXIT_USAGE 2
#define EXIT_INPUT 1

typedef struct Options {
    const char *positional[4];
    int positional_count;
    const char *recipe, *out, *format, *rules;
    int width, height;          /* --size or --map-size */
    bool have_size;
    uint64_t seed;
    bool have_range;
    float range_min, range_max;
    bool flip, normalize, json;
    int bits;
    ThermalErosionParams thermal;
    HydraulicErosionParams hydraulic;
    bool thermal_flag, hydraulic_flag;   /* an option of that kind was given */
} Options;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: strata-heightmap COMMAND ...\n"
            "  generate --recipe JSON|PRESET --size WxH --seed S --out FILE [--bits 8|16] [--normalize]\n"
            "           presets: default, stations (seed 004), layered (seed 002)\n"
            "  erode thermal|hydraulic IN OUT [--seed S] [--talus-angle DEG] [--iterations N] [--transport-rate R]\n"
            "        [--num-droplets N] [--inertia F] [--sediment-capacity F] [--min-slope F] [--erosion-rate F]\n"
            "        [--deposition-rate F] [--evaporation-rate F] [--max-lifetime N] [--erosion-radius N] [--gravity F]\n"
            "  convert IN OUT [--map-size WxH] [--height-range MIN,MAX] [--flip] [--normalize] [--bits 8|16]\n"
            "  export IN --format raw|r16|png|exr|sparkterrain [--out FILE] [convert options]\n"
            "  info FILE [--json] [--map-size WxH]\n"
            "  preview IN OUT.png\n"
            "  splat IN OUT_PREFIX [--rules JSON]\n"
            "formats by extension: .raw .r16 .png .exr .sparkterrain; raw inputs need --map-size WxH\n");
}

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "strata-heightmap: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n");
    usage(stderr);
    return EXIT_USAGE;
}

static bool parse_size(const char *v, int *w, int *h)
{
    char *end;
    long a = strtol(v, &end, 10);
    if (end == v || (*end != 'x' && *end != 'X')) return false;
    const char *b_text = end + 1;
    long b = strtol(b_text, &end, 10);
    if (end == b_text || *end || a < 1 || b < 1 || a > HEIGHTFIELD_MAX_SIDE || b > HEIGHTFIELD_MAX_SIDE) return false;
    *w = (int)a;
    *h = (int)b;
    return true;
}

static bool parse_float(const char *v, float *out)
{
    char *end;
    errno = 0;
    double d = strtod(v, &end);
    if (end == v || *end || errno || !isfinite(d)) return false;
    *out = (float)d;
    return true;
}

static bool parse_int(const char *v, int *out)
{
    char *end;
    errno = 0;
    long n = strtol(v, &end, 10);
    if (end == v || *end || errno || n < -2147483647L || n > 2147483647L) return false;
    *out = (int)n;
    return true;
}

/* Integers are used as they are; any other text is hashed (like world seeds). */
static uint64_t parse_seed(const char *v)
{
    char *end;
    errno = 0;
    unsigned long long n = strtoull(v, &end, 10);
    if (end != v && !*end && !errno && v[0] != '-') return (uint64_t)n;
    return rng_hash_string(v);
}

typedef struct ErosionFlag {
    const char *name;
    bool thermal, is_int;
    size_t offset;
} ErosionFlag;

#define TF(n, f, i) {n, true, i, offsetof(ThermalErosionParams, f)}
#define HF(n, f, i) {n, false, i, offsetof(HydraulicErosionParams, f)}
static const ErosionFlag EROSION_FLAGS[] = {
    TF("--talus-angle", talus_angle, false), TF("--iterations", iterations, true), TF("--transport-rate", transport_rate, false),
    HF("--num-droplets", num_droplets, true), HF("--inertia", inertia, false), HF("--sediment-capacity", sediment_capacity, false),
    HF("--min-slope", min_slope, false), HF("--erosion-rate", erosion_rate, false), HF("--deposition-rate", deposition_rate, false),
    HF("--evaporation-rate", evaporation_rate, false), HF("--max-lifetime", max_lifetime, true),
    HF("--erosion-radius", erosion_radius, true), HF("--gravity", gravity, false),
};

/* Parses argv[first..]; `allowed` lists the value options and flags this command takes. */
static int parse_options(int argc, char **argv, int first, const char *allowed, Options *o)
{
    for (int i = first; i < argc; i++) {
        const char *a = argv[i];
        if (strncmp(a, "--", 2) != 0) {
            if (o->positional_count >= 4) return usage_error("too many arguments ('%s')", a);
            o->positional[o->positional_count++] = a;
            continue;
        }
        char key[48];
        snprintf(key, sizeof key, "%s ", a);
        bool erosion = false;
        for (size_t k = 0; k < sizeof EROSION_FLAGS / sizeof EROSION_FLAGS[0]; k++)
            if (!strcmp(a, EROSION_FLAGS[k].name)) erosion = true;
        if (!strstr(allowed, key) && !(erosion && strstr(allowed, "--EROSION ")))
            return usage_error("unknown option '%s' for this command", a);
        if (!strcmp(a, "--flip")) { o->flip = true; continue; }
        if (!strcmp(a, "--normalize")) { o->normalize = true; continue; }
        if (!strcmp(a, "--json")) { o->json = true; continue; }
        if (i + 1 >= argc) return usage_error("option '%s' needs a value", a);
        const char *v = argv[++i];
        if (!strcmp(a, "--recipe")) o->recipe = v;
        else if (!strcmp(a, "--out")) o->out = v;
        else if (!strcmp(a, "--format")) o->format = v;
        else if (!strcmp(a, "--rules")) o->rules = v;
        else if (!strcmp(a, "--seed")) o->seed = parse_seed(v);
        else if (!strcmp(a, "--size") || !strcmp(a, "--map-size")) {
            if (!parse_size(v, &o->width, &o->height)) return usage_error("expected WxH (e.g. 1025x1025), got '%s'", v);
            o->have_size = true;
        } else if (!strcmp(a, "--height-range")) {
            char buf[64];
            snprintf(buf, sizeof buf, "%s", v);
            char *comma = strchr(buf, ',');
            if (!comma) return usage_error("--height-range expects MIN,MAX, got '%s'", v);
            *comma = '\0';
            if (!parse_float(buf, &o->range_min) || !parse_float(comma + 1, &o->range_max))
                return usage_error("--height-range expects MIN,MAX, got '%s'", v);
            o->have_range = true;
        } else if (!strcmp(a, "--bits")) {
            if (!parse_int(v, &o->bits) || (o->bits != 8 && o->bits != 16)) return usage_error("--bits expects 8 or 16, got '%s'", v);
        } else {
            for (size_t k = 0; k < sizeof EROSION_FLAGS / sizeof EROSION_FLAGS[0]; k++) {
                const ErosionFlag *f = &EROSION_FLAGS[k];
                if (strcmp(a, f->name)) continue;
                char *base = f->thermal ? (char *)&o->thermal : (char *)&o->hydraulic;
                bool ok = f->is_int ? parse_int(v, (int *)(base + f->offset)) : parse_float(v, (float *)(base + f->offset));
                if (!ok) return usage_error(f->is_int ? "expected an integer, got '%s'" : "expected a number, got '%s'", v);
                if (f->thermal) o->thermal_flag = true;
                else o->hydraulic_flag = true;
            }
        }
    }
    return 0;
}

static HeightImportOptions import_options(const Options *o)
{
    HeightImportOptions io = {0};
    if (o->have_size) {
        io.width = o->width;
        io.height = o->height;
    }
    io.bits = o->bits;
    io.remap = o->have_range;
    io.range_min = o->range_min;
    io.range_max = o->range_max;
    io.flip = o->flip;
    return io;
}

static int load_input(const char *path, const Options *o, Heightfield *hf)
{
    HeightImportOptions io = import_options(o);
    StResult rc = heightfield_import(path, &io, hf);
    if (rc != ST_OK) {
        fprintf(stderr, "strata-heightmap: cannot read %s\n", st_error_message());
        return rc == ST_ERR_ARG ? EXIT_USAGE : EXIT_INPUT;
    }
    return 0;
}

static int save_output(const char *path, const Heightfield *hf, const Options *o)
{
    HeightExportOptions eo = {.bits = o->bits, .normalize = o->normalize};
    StResult rc = heightfield_export(path, hf, &eo);
    if (rc != ST_OK) {
        fprintf(stderr, "strata-heightmap: cannot write %s\n", st_error_message());
        return rc == ST_ERR_ARG ? EXIT_USAGE : 1;
    }
    return 0;
}

static bool check_output_format(const char *path)
{
    return heightfield_format_from_path(path) != HEIGHT_FORMAT_UNKNOWN;
}

/* ---- progress bar ---- */

typedef struct Progress {
    const char *label;
    int last;
} Progress;

static void progress_draw(void *user, double fraction)
{
    Progress *p = user;
    int pct = (int)(fraction * 100.0 + 0.5);
    if (pct == p->last) return;
    p->last = pct;
    int filled = pct * 30 / 100;
    char bar[31];
    for (int i = 0; i < 30; i++) bar[i] = i < filled ? '#' : '.';
    bar[30] = '\0';
    fprintf(stderr, "\r%s [%s] %3d%%", p->label, bar, pct);
    if (pct >= 100) fprintf(stderr, "\n");
    fflush(stderr);
}

/* ---- commands ---- */

static int cmd_generate(const Options *o)
{
    if (!o->recipe || !o->have_size || !o->out || o->positional_count)
        return usage_error("%s", "generate needs --recipe, --size WxH and --out FILE (and --seed S)");
    if (!check_output_format(o->out)) return usage_error("%s: unknown output format", o->out);
    HeightRecipe recipe;
    StResult rc;
    bool file = strchr(o->recipe, '/') || strstr(o->recipe, ".json");
    if (file) rc = height_recipe_load(o->recipe, &recipe);
    else rc = height_recipe_preset(o->recipe, STRATA_ASSET_DIR, &recipe);
    if (rc != ST_OK) {
        fprintf(stderr, "strata-heightmap: recipe: %s\n", st_error_message());
        return rc == ST_ERR_NOT_FOUND && !file ? EXIT_USAGE : EXIT_INPUT;
    }
    Heightfield hf;
    if ((rc = height_recipe_generate(&recipe, o->seed, o->width, o->height, &hf)) != ST_OK) {
        fprintf(stderr, "strata-heightmap: generate: %s\n", st_error_message());
        return 1;
    }
    int code = save_output(o->out, &hf, o);
    heightfield_free(&hf);
    return code;
}

static int cmd_erode(Options *o)
{
    if (o->positional_count != 3) return usage_error("%s", "erode needs thermal|hydraulic, IN and OUT");
    const char *kind = o->positional[0], *in = o->positional[1], *out = o->positional[2];
    bool thermal = !strcmp(kind, "thermal");
    if (!thermal && strcmp(kind, "hydraulic")) return usage_error("erode: unknown kind '%s' (thermal or hydraulic)", kind);
    if (thermal && o->hydraulic_flag) return usage_error("%s", "erode thermal takes --talus-angle, --iterations, --transport-rate");
    if (!thermal && o->thermal_flag) return usage_error("%s", "erode hydraulic does not take thermal options");
    if (!check_output_format(out)) return usage_error("%s: unknown output format", out);
    Heightfield hf;
    int code = load_input(in, o, &hf);
    if (code) return code;
    Progress bar = {thermal ? "thermal erosion" : "hydraulic erosion", -1};
    bool tty = isatty(STDERR_FILENO);
    StResult rc;
    if (thermal) {
        if (tty) { o->thermal.progress = progress_draw; o->thermal.progress_user = &bar; }
        ThermalErosionStats st;
        rc = erosion_thermal(&hf, &o->thermal, &st);
    } else {
        o->hydraulic.seed = o->seed;
        if (tty) { o->hydraulic.progress = progress_draw; o->hydraulic.progress_user = &bar; }
        HydraulicErosionStats st;
        rc = erosion_hydraulic(&hf, &o->hydraulic, &st);
    }
    if (rc != ST_OK) {
        fprintf(stderr, "strata-heightmap: erode %s: %s\n", kind, st_error_message());
        heightfield_free(&hf);
        return rc == ST_ERR_ARG ? EXIT_USAGE : 1;
    }
    code = save_output(out, &hf, o);
    heightfield_free(&hf);
    return code;
}

static int cmd_convert(const Options *o, bool export_mode)
{
    const char *in, *out;
    char derived[1024];
    if (export_mode) {
        if (o->positional_count != 1 || !o->format) return usage_error("%s", "export needs IN and --format FMT");
        static const char *names[] = {"raw", "r16", "png", "exr", "sparkterrain"};
        bool known = false;
        for (int i = 0; i < 5; i++) known |= !strcmp(o->format, names[i]);
        if (!known) return usage_error("--format: expected raw, r16, png, exr or sparkterrain, got '%s'", o->format);
        in = o->positional[0];
        if (o->out) {
            out = o->out;
            char want[32];
            snprintf(want, sizeof want, "%s", o->format);
            if (strcmp(heightfield_format_name(heightfield_format_from_path(out)), want))
                return usage_error("--out %s: the extension does not match --format", out);
        } else {
            const char *dot = strrchr(in, '.'), *slash = strrchr(in, '/');
            size_t stem = dot && (!slash || dot > slash) ? (size_t)(dot - in) : strlen(in);
            snprintf(derived, sizeof derived, "%.*s.%s", (int)stem, in, o->format);
            if (!strcmp(derived, in)) return usage_error("export would overwrite its input %s", in);
            out = derived;
        }
    } else {
        if (o->positional_count != 2) return usage_error("%s", "convert needs IN and OUT");
        in = o->positional[0];
        out = o->positional[1];
    }
    if (!check_output_format(out)) return usage_error("%s: unknown output format (.raw .r16 .png .exr .sparkterrain)", out);
    Heightfield hf;
    int code = load_input(in, o, &hf);
    if (code) return code;
    code = save_output(out, &hf, o);
    heightfield_free(&hf);
    if (!code && export_mode) printf("%s\n", out);
    return code;
}

static int cmd_info(const Options *o)
{
    if (o->positional_count != 1) return usage_error("%s", "info needs FILE");
    Heightfield hf;
    int code = load_input(o->positional[0], o, &hf);
    if (code) return code;
    HeightfieldStats s = heightfield_stats(&hf);
    HeightFormat f = heightfield_format_from_path(o->positional[0]);
    if (o->json)
        printf("{\"file\": \"%s\", \"format\": \"%s\", \"width\": %d, \"height\": %d, \"spacing\": %g, \"min\": %.9g, \"max\": %.9g, "
               "\"mean\": %.9g}\n",
               o->positional[0], heightfield_format_name(f), hf.width, hf.height, (double)hf.spacing, (double)s.min, (double)s.max, s.mean);
    else
        printf("%s: %s, %dx%d, spacing %g, min %g, max %g, mean %g\n", o->positional[0], heightfield_format_name(f), hf.width, hf.height,
               (double)hf.spacing, (double)s.min, (double)s.max, s.mean);
    heightfield_free(&hf);
    return 0;
}

typedef struct MemOut {
    uint8_t *data;
    size_t size, cap;
    bool failed;
} MemOut;

static void mem_write(void *ctx, void *data, int size)
{
    MemOut *m = ctx;
    if (m->failed || size <= 0) return;
    if (m->size + (size_t)size > m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 1 << 16;
        while (cap < m->size + (size_t)size) cap *= 2;
        uint8_t *p = realloc(m->data, cap);
        if (!p) { m->failed = true; return; }
        m->data = p;
        m->cap = cap;
    }
    memcpy(m->data + m->size, data, (size_t)size);
    m->size += (size_t)size;
}

static int write_png_atomic(const char *path, int w, int h, int comp, const uint8_t *px)
{
    MemOut m = {0};
    if (!stbi_write_png_to_func(mem_write, &m, w, h, comp, px, w * comp) || m.failed) {
        free(m.data);
        fprintf(stderr, "strata-heightmap: cannot encode %s\n", path);
        return 1;
    }
    StResult rc = fileio_write_atomic(path, m.data, m.size);
    free(m.data);
    if (rc != ST_OK) {
        fprintf(stderr, "strata-heightmap: cannot write %s\n", st_error_message());
        return 1;
    }
    return 0;
}

/* Height tint: lowland green, upland ochre, rock grey, snow white. */
static void tint(float t, float rgb[3])
{
    static const float stops[5][4] = {{0.0f, 0.16f, 0.36f, 0.20f}, {0.35f, 0.42f, 0.56f, 0.28f}, {0.6f, 0.62f, 0.52f, 0.34f},
                                      {0.82f, 0.55f, 0.52f, 0.50f}, {1.0f, 0.96f, 0.96f, 0.98f}};
    for (int i = 1; i < 5; i++)
        if (t <= stops[i][0] || i == 4) {
            float k = (t - stops[i - 1][0]) / (stops[i][0] - stops[i - 1][0]);
            k = k < 0.0f ? 0.0f : (k > 1.0f ? 1.0f : k);
            for (int c = 0; c < 3; c++) rgb[c] = stops[i - 1][c + 1] + (stops[i][c + 1] - stops[i - 1][c + 1]) * k;
            return;
        }
}

static int cmd_preview(const Options *o)
{
    if (o->positional_count != 2) return usage_error("%s", "preview needs IN and OUT.png");
    const char *out = o->positional[1];
    if (heightfield_format_from_path(out) != HEIGHT_FORMAT_PNG) return usage_error("preview: %s must end in .png", out);
    Heightfield hf;
    int code = load_input(o->positional[0], o, &hf);
    if (code) return code;
    HeightfieldStats s = heightfield_stats(&hf);
    float range = s.max > s.min ? s.max - s.min : 1.0f;
    uint8_t *px = malloc((size_t)hf.width * (size_t)hf.height * 3);
    if (!px) {
        heightfield_free(&hf);
        fprintf(stderr, "strata-heightmap: out of memory\n");
        return 1;
    }
    const float light[3] = {-0.5773f, 0.5773f, -0.5773f};   /* from the north-west, 35 degrees up */
    for (int y = 0; y < hf.height; y++)
        for (int x = 0; x < hf.width; x++) {
            size_t i = (size_t)y * (size_t)hf.width + (size_t)x;
            float gx, gy;
            heightfield_gradient(&hf, x, y, &gx, &gy);
            float n[3] = {-gx * 2.0f, 1.0f, -gy * 2.0f};   /* relief exaggerated x2 */
            float len = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
            float shade = (n[0] * light[0] + n[1] * light[1] + n[2] * light[2]) / len;
            shade = 0.35f + 0.65f * (shade < 0.0f ? 0.0f : shade) / 0.5773f * 0.75f;
            float rgb[3];
            tint((hf.heights[i] - s.min) / range, rgb);
            for (int c = 0; c < 3; c++) {
                float v = rgb[c] * shade * 255.0f;
                px[i * 3 + (size_t)c] = (uint8_t)(v < 0.0f ? 0 : (v > 255.0f ? 255 : v));
            }
        }
    code = write_png_atomic(out, hf.width, hf.height, 3, px);
    free(px);
    heightfield_free(&hf);
    return code;
}

static int cmd_splat(const Options *o)
{
    if (o->positional_count != 2) return usage_error("%s", "splat needs IN and OUT_PREFIX");
    SplatRules rules;
    if (o->rules) {
        if (splat_rules_load(o->rules, &rules) != ST_OK) {
            fprintf(stderr, "strata-heightmap: splat rules: %s\n", st_error_message());
            return EXIT_INPUT;
        }
    } else {
        splat_rules_default(&rules);
    }
    Heightfield hf;
    int code = load_input(o->positional[0], o, &hf);
    if (code) return code;
    uint8_t *maps = NULL;
    int count = 0;
    if (splat_compute(&hf, &rules, &maps, &count) != ST_OK) {
        fprintf(stderr, "strata-heightmap: splat: %s\n", st_error_message());
        heightfield_free(&hf);
        return 1;
    }
    size_t cells = (size_t)hf.width * (size_t)hf.height;
    for (int m = 0; m < count && !code; m++) {
        char path[1024];
        snprintf(path, sizeof path, "%s_%d.png", o->positional[1], m);
        code = write_png_atomic(path, hf.width, hf.height, 4, maps + (size_t)m * cells * 4);
        if (!code) {
            printf("%s:", path);
            for (int c = 0; c < 4 && m * 4 + c < rules.layer_count; c++) printf(" %c=%s", "RGBA"[c], rules.layer_names[m * 4 + c]);
            printf("\n");
        }
    }
    free(maps);
    heightfield_free(&hf);
    return code;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "help")) {
        usage(stdout);
        return 0;
    }
    Options o;
    memset(&o, 0, sizeof o);
    o.seed = 1;
    erosion_thermal_defaults(&o.thermal);
    erosion_hydraulic_defaults(&o.hydraulic);
    static const char *IMPORT = "--map-size --height-range --flip --bits --normalize ";
    char allowed[512];
    int rc;
    if (!strcmp(cmd, "generate")) {
        snprintf(allowed, sizeof allowed, "--recipe --size --seed --out --bits --normalize ");
    } else if (!strcmp(cmd, "erode")) {
        snprintf(allowed, sizeof allowed, "--seed --EROSION %s", IMPORT);
    } else if (!strcmp(cmd, "convert")) {
        snprintf(allowed, sizeof allowed, "%s", IMPORT);
    } else if (!strcmp(cmd, "export")) {
        snprintf(allowed, sizeof allowed, "--format --out %s", IMPORT);
    } else if (!strcmp(cmd, "info")) {
        snprintf(allowed, sizeof allowed, "--json %s", IMPORT);
    } else if (!strcmp(cmd, "preview")) {
        snprintf(allowed, sizeof allowed, "%s", IMPORT);
    } else if (!strcmp(cmd, "splat")) {
        snprintf(allowed, sizeof allowed, "--rules %s", IMPORT);
    } else {
        return usage_error("unknown command '%s'", cmd);
    }
    if ((rc = parse_options(argc, argv, 2, allowed, &o)) != 0) return rc;
    if (!strcmp(cmd, "generate")) return cmd_generate(&o);
    if (!strcmp(cmd, "erode")) return cmd_erode(&o);
    if (!strcmp(cmd, "convert")) return cmd_convert(&o, false);
    if (!strcmp(cmd, "export")) return cmd_convert(&o, true);
    if (!strcmp(cmd, "info")) return cmd_info(&o);
    if (!strcmp(cmd, "preview")) return cmd_preview(&o);
    return cmd_splat(&o);
}
