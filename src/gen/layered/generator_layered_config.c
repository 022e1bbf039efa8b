/* generator_layered_config.c — reads seed 002's worldgen/chunk_config.yaml with libyaml and validates it.
 *
 * Design: the file is loaded as one YAML document (yaml_parser_load) and walked with a small schema: each
 * mapping key is known (HeightNoise {Octaves, Persistence, Scale}, SeaLevel, BedrockLayers, Ores: a list
 * of {Type, MinY, MaxY, VeinsPerChunk, VeinSize}), each scalar has a type and a range, and Type names a
 * block of the registry. Every error names FILE:LINE (the node's 1-based line) and what was expected, and
 * the first error wins. Missing keys keep the seed's defaults. The seed's own file, with its `ChunkGeneration:`
 * root around the same keys, reads the same. Nothing here is kept after the call. */
#include "layered_internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

typedef struct YamlWalk {
    const char *path;
    yaml_document_t *doc;
    const BlockRegistry *blocks;
} YamlWalk;

static int node_line(const yaml_node_t *n) { return (int)n->start_mark.line + 1; }

static StResult node_fail(const YamlWalk *w, const yaml_node_t *n, const char *key, const char *expected)
{
    const char *got = n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value
                      : n->type == YAML_MAPPING_NODE ? "a mapping" : "a list";
    return st_fail(ST_ERR_FORMAT, "%s:%d: %s: expected %s, got '%s'", w->path, node_line(n), key, expected, got);
}

static StResult get_number(const YamlWalk *w, const yaml_node_t *n, const char *key, double min, double max,
                           bool integer, double *out)
{
    char expected[96];
    snprintf(expected, sizeof expected, "%s in %g..%g", integer ? "an integer" : "a number", min, max);
    if (n->type != YAML_SCALAR_NODE) return node_fail(w, n, key, expected);
    const char *text = (const char *)n->data.scalar.value;
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (!*text || *end || errno || !isfinite(v) || (integer && v != floor(v)) || v < min || v > max)
        return node_fail(w, n, key, expected);
    *out = v;
    return ST_OK;
}

static StResult get_int(const YamlWalk *w, const yaml_node_t *n, const char *key, int min, int max, int *out)
{
    double v;
    StResult rc = get_number(w, n, key, min, max, true, &v);
    if (rc == ST_OK) *out = (int)v;
    return rc;
}

static const char *key_text(const yaml_node_t *k) { return k->type == YAML_SCALAR_NODE ? (const char *)k->data.scalar.value : "?"; }

static StResult unknown_key(const YamlWalk *w, const yaml_node_t *k, const char *where, const char *known)
{
    return st_fail(ST_ERR_FORMAT, "%s:%d: unknown key '%s' in %s (known: %s)", w->path, node_line(k), key_text(k), where,
                   known);
}

static StResult read_height_noise(const YamlWalk *w, const yaml_node_t *map, LayeredConfig *c)
{
    if (map->type != YAML_MAPPING_NODE) return node_fail(w, map, "HeightNoise", "a mapping");
    for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
        const yaml_node_t *k = yaml_document_get_node(w->doc, p->key), *v = yaml_document_get_node(w->doc, p->value);
        const char *name = key_text(k);
        StResult rc;
        double d;
        if (strcmp(name, "Octaves") == 0) rc = get_int(w, v, "HeightNoise.Octaves", 1, 8, &c->octaves);
        else if (strcmp(name, "Persistence") == 0) {
            rc = get_number(w, v, "HeightNoise.Persistence", 0.0, 1.0, false, &d);
            c->persistence = (float)d;
        } else if (strcmp(name, "Scale") == 0) {
            rc = get_number(w, v, "HeightNoise.Scale", 0.0001, 1.0, false, &d);
            c->scale = (float)d;
        } else rc = unknown_key(w, k, "HeightNoise", "Octaves, Persistence, Scale");
        if (rc != ST_OK) return rc;
    }
    return ST_OK;
}

static StResult read_ore(const YamlWalk *w, const yaml_node_t *map, LayeredOre *o)
{
    if (map->type != YAML_MAPPING_NODE) return node_fail(w, map, "Ores[]", "a mapping {Type, MinY, MaxY, ...}");
    o->block = -1;
    o->min_y = 1;
    o->max_y = 128;
    o->veins_per_chunk = 8;
    o->vein_size = 8;
    for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
        const yaml_node_t *k = yaml_document_get_node(w->doc, p->key), *v = yaml_document_get_node(w->doc, p->value);
        const char *name = key_text(k);
        StResult rc = ST_OK;
        if (strcmp(name, "Type") == 0) {
            if (v->type != YAML_SCALAR_NODE) return node_fail(w, v, "Ores.Type", "a block name");
            o->block = block_registry_find(w->blocks, (const char *)v->data.scalar.value);
            if (o->block <= 0)
                return st_fail(ST_ERR_FORMAT, "%s:%d: Ores.Type: unknown block name '%s'", w->path, node_line(v),
                               (const char *)v->data.scalar.value);
        } else if (strcmp(name, "MinY") == 0) rc = get_int(w, v, "Ores.MinY", 1, 254, &o->min_y);
        else if (strcmp(name, "MaxY") == 0) rc = get_int(w, v, "Ores.MaxY", 1, 254, &o->max_y);
        else if (strcmp(name, "VeinsPerChunk") == 0) rc = get_int(w, v, "Ores.VeinsPerChunk", 0, 256, &o->veins_per_chunk);
        else if (strcmp(name, "VeinSize") == 0) rc = get_int(w, v, "Ores.VeinSize", 1, LAYERED_VEIN_SIZE_MAX, &o->vein_size);
        else rc = unknown_key(w, k, "an ore", "Type, MinY, MaxY, VeinsPerChunk, VeinSize");
        if (rc != ST_OK) return rc;
    }
    if (o->block < 0)
        return st_fail(ST_ERR_FORMAT, "%s:%d: Ores[]: missing Type (a block name)", w->path, node_line(map));
    if (o->min_y > o->max_y)
        return st_fail(ST_ERR_FORMAT, "%s:%d: Ores[]: expected MinY <= MaxY, got %d > %d", w->path, node_line(map),
                       o->min_y, o->max_y);
    return ST_OK;
}

static StResult read_root(const YamlWalk *w, const yaml_node_t *root, LayeredConfig *c)
{
    if (root->type != YAML_MAPPING_NODE) return node_fail(w, root, "the document", "a mapping");
    /* the seed's file nests everything under one `ChunkGeneration:` key; the shipped one does not */
    const yaml_node_pair_t *first = root->data.mapping.pairs.start;
    if (root->data.mapping.pairs.top - first == 1 &&
        strcmp(key_text(yaml_document_get_node(w->doc, first->key)), "ChunkGeneration") == 0) {
        root = yaml_document_get_node(w->doc, first->value);
        if (root->type != YAML_MAPPING_NODE) return node_fail(w, root, "ChunkGeneration", "a mapping");
    }
    for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top; p++) {
        const yaml_node_t *k = yaml_document_get_node(w->doc, p->key), *v = yaml_document_get_node(w->doc, p->value);
        const char *name = key_text(k);
        StResult rc = ST_OK;
        if (strcmp(name, "HeightNoise") == 0) rc = read_height_noise(w, v, c);
        else if (strcmp(name, "SeaLevel") == 0) rc = get_int(w, v, "SeaLevel", 1, 254, &c->sea_level);
        else if (strcmp(name, "BedrockLayers") == 0) rc = get_int(w, v, "BedrockLayers", 0, 16, &c->bedrock_layers);
        else if (strcmp(name, "Ores") == 0) {
            if (v->type != YAML_SEQUENCE_NODE) return node_fail(w, v, "Ores", "a list of ores");
            c->ore_count = 0;
            for (yaml_node_item_t *it = v->data.sequence.items.start; it < v->data.sequence.items.top; it++) {
                const yaml_node_t *item = yaml_document_get_node(w->doc, *it);
                if (c->ore_count == LAYERED_ORE_MAX)
                    return st_fail(ST_ERR_FORMAT, "%s:%d: Ores: at most %d ores", w->path, node_line(item), LAYERED_ORE_MAX);
                if ((rc = read_ore(w, item, &c->ores[c->ore_count])) != ST_OK) return rc;
                c->ore_count++;
            }
        } else rc = unknown_key(w, k, "the top level", "HeightNoise, SeaLevel, BedrockLayers, Ores");
        if (rc != ST_OK) return rc;
    }
    return ST_OK;
}

StResult layered_config_load(const char *path, const BlockRegistry *blocks, LayeredConfig *out)
{
    memset(out, 0, sizeof *out);
    out->octaves = 4;
    out->persistence = 0.5f;
    out->scale = 0.01f;
    out->sea_level = 64;
    out->bedrock_layers = 1;
    FILE *f = fopen(path, "rb");
    if (!f) return st_fail(ST_ERR_IO, "%s: cannot open the layered generator's config", path);
    yaml_parser_t parser;
    yaml_document_t doc;
    if (!yaml_parser_initialize(&parser)) {
        fclose(f);
        return st_fail(ST_ERR_NOMEM, "%s: out of memory", path);
    }
    yaml_parser_set_input_file(&parser, f);
    StResult rc = ST_OK;
    if (!yaml_parser_load(&parser, &doc)) {
        rc = st_fail(ST_ERR_FORMAT, "%s:%d: YAML: %s", path, (int)parser.problem_mark.line + 1,
                     parser.problem ? parser.problem : "syntax error");
    } else {
        yaml_node_t *root = yaml_document_get_root_node(&doc);
        YamlWalk w = {path, &doc, blocks};
        if (root) rc = read_root(&w, root, out);   /* an empty file keeps the defaults */
        yaml_document_delete(&doc);
    }
    yaml_parser_delete(&parser);
    fclose(f);
    return rc;
}

StResult generator_layered_check_config(const char *path, const BlockRegistry *blocks)
{
    LayeredConfig c;
    return layered_config_load(path, blocks, &c);
}
