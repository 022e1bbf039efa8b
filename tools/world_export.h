/* world_export.h — strata-world export-template: any box of a saved world (plus its generated chunks) as a
 * voxel template (assets/templates/README.md). Tool-private; main thread only. */
#ifndef STRATA_TOOLS_WORLD_EXPORT_H
#define STRATA_TOOLS_WORLD_EXPORT_H

/* argv: X0,Y0,Z0 X1,Y1,Z1 OUT.json (inclusive corners, any order). Returns the exit code (0, 1 I/O, 2 usage). */
int world_export_template(const char *dir, const char *assets, int argc, char **argv);

#endif
