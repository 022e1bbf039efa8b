/* voxel_model_import.c — a model file (glTF/.glb, FBX, OBJ, anything Assimp reads) as a coloured triangle soup.
 *
 * Design: Assimp's C API imports with Triangulate | PreTransformVertices (node transforms baked into the
 * vertices, so the soup is in the model's own units) | JoinIdenticalVertices; points and lines are skipped.
 * Each triangle gets one colour, the mean of its three vertices' colours: vertex colour set 0 when the mesh
 * has one, else the material's diffuse/base-colour texture (PNG only, embedded as "*N" or a file beside the
 * model; rows top to bottom, UVs from the bottom, repeated) times the material colour, else the material's
 * base or diffuse colour, else white. Textures decode once per material. This is the only file that
 * includes Assimp.
 *
 * Assimp is opened on the first import (dlopen of STRATA_ASSIMP_LIBRARY, the soname of the major version the
 * headers are), not linked: a process that imports no model never loads it and its dependencies (Draco,
 * libstdc++: ~10 ms of every start here, and the game starts twice, huge_pages.h), and a machine without it
 * runs everything but model import, which then fails with a message naming the library. STRATA_ASSIMP (a
 * path or a library name) opens another build of the same major version. */
#include "voxel_model_internal.h"

#include <assimp/cimport.h>
#include <assimp/material.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strata/log.h"

#ifndef STRATA_ASSIMP_LIBRARY
#define STRATA_ASSIMP_LIBRARY "libassimp.so.5"
#endif

/* The five calls this file makes, with the headers' own types. */
static struct {
    __typeof__(aiImportFile) *import_file;
    __typeof__(aiReleaseImport) *release_import;
    __typeof__(aiGetErrorString) *error_string;
    __typeof__(aiGetMaterialColor) *material_color;
    __typeof__(aiGetMaterialTexture) *material_texture;
} assimp;
static char assimp_error[256];   /* why Assimp could not be opened; empty once it is */
static pthread_once_t assimp_once = PTHREAD_ONCE_INIT;

/* Resolves `name` into *slot (the POSIX way to store dlsym's object pointer in a function pointer). */
static bool assimp_symbol(void *lib, const char *name, void *slot)
{
    void *f = dlsym(lib, name);
    if (!f) {
        snprintf(assimp_error, sizeof assimp_error, "the library has no %s", name);
        return false;
    }
    memcpy(slot, &f, sizeof f);
    return true;
}

static void assimp_open(void)
{
    const char *name = getenv("STRATA_ASSIMP");
    if (!name || !*name) name = STRATA_ASSIMP_LIBRARY;
    void *lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *why = dlerror();
        snprintf(assimp_error, sizeof assimp_error, "%s", why ? why : "dlopen failed");
        return;
    }
    if (assimp_symbol(lib, "aiImportFile", &assimp.import_file) &&
        assimp_symbol(lib, "aiReleaseImport", &assimp.release_import) &&
        assimp_symbol(lib, "aiGetErrorString", &assimp.error_string) &&
        assimp_symbol(lib, "aiGetMaterialColor", &assimp.material_color) &&
        assimp_symbol(lib, "aiGetMaterialTexture", &assimp.material_texture))
        return;   /* kept open for the process's life */
    memset(&assimp, 0, sizeof assimp);
    dlclose(lib);
}

typedef struct Image {
    int w, h;
    uint8_t *rgba;     /* NULL: none */
} Image;

static void image_decode(png_image *img, Image *out, bool ok)
{
    if (!ok)
        return;
    img->format = PNG_FORMAT_RGBA;
    uint8_t *px = malloc(PNG_IMAGE_SIZE(*img));
    if (px && png_image_finish_read(img, NULL, px, 0, NULL)) {
        out->w = (int)img->width;
        out->h = (int)img->height;
        out->rgba = px;
        return;
    }
    free(px);
    png_image_free(img);
}

static void image_load(const struct aiScene *scene, const char *dir, const char *ref, Image *out)
{
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    const struct aiTexture *tex = NULL;
    if (ref[0] == '*') {
        unsigned i = (unsigned)atoi(ref + 1);
        tex = i < scene->mNumTextures ? scene->mTextures[i] : NULL;
    } else {
        for (unsigned i = 0; i < scene->mNumTextures && !tex; i++)
            if (strcmp(scene->mTextures[i]->mFilename.data, ref) == 0)
                tex = scene->mTextures[i];
    }
    if (tex && tex->mHeight == 0) {
        image_decode(&img, out, png_image_begin_read_from_memory(&img, tex->pcData, tex->mWidth) != 0);
    } else if (tex) {   /* uncompressed BGRA texels */
        out->rgba = malloc((size_t)tex->mWidth * tex->mHeight * 4);
        if (!out->rgba)
            return;
        out->w = (int)tex->mWidth;
        out->h = (int)tex->mHeight;
        for (size_t i = 0; i < (size_t)tex->mWidth * tex->mHeight; i++) {
            const struct aiTexel *t = &tex->pcData[i];
            uint8_t *p = out->rgba + 4 * i;
            p[0] = t->r, p[1] = t->g, p[2] = t->b, p[3] = t->a;
        }
    } else {
        char path[1200];
        snprintf(path, sizeof path, "%s%s", ref[0] == '/' ? "" : dir, ref);
        image_decode(&img, out, png_image_begin_read_from_file(&img, path) != 0);
    }
    if (!out->rgba)
        log_warn("voxelize", "texture '%s' is not a PNG Strata can read: the material colour stands for it", ref);
}

static void image_sample(const Image *im, float u, float v, float rgb[3])
{
    float fu = u - floorf(u), fv = v - floorf(v);
    int x = (int)(fu * (float)im->w), y = (int)((1.0f - fv) * (float)im->h);
    x = x < 0 ? 0 : (x >= im->w ? im->w - 1 : x);
    y = y < 0 ? 0 : (y >= im->h ? im->h - 1 : y);
    const uint8_t *p = im->rgba + 4 * ((size_t)y * (size_t)im->w + (size_t)x);
    for (int k = 0; k < 3; k++)
        rgb[k] = (float)p[k] / 255.0f;
}

typedef struct Material {
    float rgb[3];
    Image image;
    bool loaded;
} Material;

static void material_load(const struct aiScene *scene, unsigned index, const char *dir, Material *m)
{
    m->loaded = true;
    m->rgb[0] = m->rgb[1] = m->rgb[2] = 1.0f;
    if (index >= scene->mNumMaterials)
        return;
    const struct aiMaterial *mat = scene->mMaterials[index];
    struct aiColor4D c;
    if (assimp.material_color(mat, AI_MATKEY_BASE_COLOR, &c) == aiReturn_SUCCESS ||
        assimp.material_color(mat, AI_MATKEY_COLOR_DIFFUSE, &c) == aiReturn_SUCCESS) {
        m->rgb[0] = c.r, m->rgb[1] = c.g, m->rgb[2] = c.b;
    }
    struct aiString ref;
    if (assimp.material_texture(mat, aiTextureType_BASE_COLOR, 0, &ref, NULL, NULL, NULL, NULL, NULL, NULL) ==
            aiReturn_SUCCESS ||
        assimp.material_texture(mat, aiTextureType_DIFFUSE, 0, &ref, NULL, NULL, NULL, NULL, NULL, NULL) ==
            aiReturn_SUCCESS)
        image_load(scene, dir, ref.data, &m->image);
}

static void vertex_colour(const struct aiMesh *mesh, const Material *m, unsigned vi, float rgb[3])
{
    if (mesh->mColors[0]) {
        const struct aiColor4D *c = &mesh->mColors[0][vi];
        rgb[0] = c->r, rgb[1] = c->g, rgb[2] = c->b;
        return;
    }
    if (m->image.rgba && mesh->mTextureCoords[0]) {
        const struct aiVector3D *uv = &mesh->mTextureCoords[0][vi];
        image_sample(&m->image, uv->x, uv->y, rgb);
        for (int k = 0; k < 3; k++)
            rgb[k] *= m->rgb[k];
        return;
    }
    memcpy(rgb, m->rgb, sizeof m->rgb);
}

static StResult soup_fill(const struct aiScene *scene, const char *dir, Material *mats, VoxelSoup *out)
{
    size_t total = 0;
    for (unsigned i = 0; i < scene->mNumMeshes; i++)
        for (unsigned f = 0; f < scene->mMeshes[i]->mNumFaces; f++)
            total += scene->mMeshes[i]->mFaces[f].mNumIndices == 3;
    if (total == 0)
        return ST_OK;
    if (total > 50u * 1000u * 1000u)
        return st_fail(ST_ERR_ARG, "more than 50 million triangles");
    out->tris = malloc(total * sizeof *out->tris);
    if (!out->tris)
        return st_fail(ST_ERR_NOMEM, "out of memory for %zu triangles", total);
    for (unsigned i = 0; i < scene->mNumMeshes; i++) {
        const struct aiMesh *mesh = scene->mMeshes[i];
        Material *m = &mats[mesh->mMaterialIndex < scene->mNumMaterials ? mesh->mMaterialIndex : 0];
        if (!m->loaded)
            material_load(scene, mesh->mMaterialIndex, dir, m);
        for (unsigned f = 0; f < mesh->mNumFaces; f++) {
            const struct aiFace *face = &mesh->mFaces[f];
            if (face->mNumIndices != 3)
                continue;
            VoxelTriangle *t = &out->tris[out->count++];
            memset(t->rgb, 0, sizeof t->rgb);
            for (int k = 0; k < 3; k++) {
                unsigned vi = face->mIndices[k];
                const struct aiVector3D *p = &mesh->mVertices[vi];
                t->v[k][0] = p->x, t->v[k][1] = p->y, t->v[k][2] = p->z;
                float rgb[3];
                vertex_colour(mesh, m, vi, rgb);
                for (int c = 0; c < 3; c++)
                    t->rgb[c] += rgb[c] / 3.0f;
                for (int a = 0; a < 3; a++) {
                    float x = t->v[k][a];
                    if (out->count == 1 && k == 0)
                        out->min[a] = out->max[a] = x;
                    out->min[a] = x < out->min[a] ? x : out->min[a];
                    out->max[a] = x > out->max[a] ? x : out->max[a];
                }
            }
        }
    }
    return ST_OK;
}

StResult voxel_soup_import(const char *path, VoxelSoup *out)
{
    memset(out, 0, sizeof *out);
    FILE *f = fopen(path, "rb");
    if (!f)
        return st_fail(ST_ERR_IO, "%s: cannot open the model", path);
    fclose(f);
    pthread_once(&assimp_once, assimp_open);
    if (!assimp.import_file)
        return st_fail(ST_ERR_IO, "%s: importing a model needs Assimp (%s, or a path in STRATA_ASSIMP): %s", path,
                       STRATA_ASSIMP_LIBRARY, assimp_error);
    const struct aiScene *scene = assimp.import_file(path, aiProcess_Triangulate | aiProcess_PreTransformVertices |
                                                               aiProcess_JoinIdenticalVertices | aiProcess_SortByPType);
    if (!scene)
        return st_fail(ST_ERR_IO, "%s: cannot read the model: %s", path, assimp.error_string());
    char dir[1024] = "";
    const char *slash = strrchr(path, '/');
    if (slash)
        snprintf(dir, sizeof dir, "%.*s/", (int)(slash - path), path);
    Material *mats = calloc(scene->mNumMaterials ? scene->mNumMaterials : 1, sizeof *mats);
    StResult rc = mats ? soup_fill(scene, dir, mats, out) : st_fail(ST_ERR_NOMEM, "out of memory");
    for (unsigned i = 0; mats && i < (scene->mNumMaterials ? scene->mNumMaterials : 1); i++)
        free(mats[i].image.rgba);
    free(mats);
    assimp.release_import(scene);
    if (rc != ST_OK) {
        voxel_soup_free(out);
        return st_fail_context(rc, "%s", path);
    }
    if (out->count == 0) {
        voxel_soup_free(out);
        return st_fail(ST_ERR_FORMAT, "%s: the model has no triangles (nothing to voxelize)", path);
    }
    return ST_OK;
}

void voxel_soup_free(VoxelSoup *soup)
{
    free(soup->tris);
    memset(soup, 0, sizeof *soup);
}
