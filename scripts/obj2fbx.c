/* obj2fbx.c — converts a model to ASCII FBX (Assimp 5.2 cannot read back its own binary FBX) with Assimp's exporter: how scripts/make_seed_models.py's OBJ
 * tiles become the .fbx meshes seed 001's tileset names (examples/seeds/tiles/).
 *
 *   cc -o /tmp/obj2fbx scripts/obj2fbx.c $(pkg-config --cflags --libs assimp) && /tmp/obj2fbx IN.obj OUT.fbx */
#include <assimp/cexport.h>
#include <assimp/cimport.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: obj2fbx IN OUT.fbx\n");
        return 2;
    }
    const struct aiScene *scene = aiImportFile(argv[1], aiProcess_Triangulate);
    if (!scene) {
        fprintf(stderr, "obj2fbx: %s: %s\n", argv[1], aiGetErrorString());
        return 1;
    }
    int rc = aiExportScene(scene, "fbxa", argv[2], 0) == aiReturn_SUCCESS ? 0 : 1;
    if (rc)
        fprintf(stderr, "obj2fbx: %s: %s\n", argv[2], aiGetErrorString());
    aiReleaseImport(scene);
    return rc;
}
