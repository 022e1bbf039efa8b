/* edit_brush.c — the Editor as a BrushWorld, and brush strokes.
 *
 * Design: the brush (world layer) paints through two callbacks and knows nothing of editing; this file
 * binds them to editor_get_cell and editor_change_cell, so every cell a brush paints is ChangeCell in full
 * (history, modified-cell notifications to behaviours, listener, downgrades). A stroke brackets the paint
 * with begin/end action: one history entry however many cells it touches. */
#include "strata/edit.h"

static int32_t editor_world_get(void *user, int x, int y, int z) { return editor_get_cell(user, x, y, z); }

static bool editor_world_set(void *user, int x, int y, int z, int32_t value)
{
    return editor_change_cell(user, x, y, z, value);
}

BrushWorld editor_brush_world(Editor *editor)
{
    BrushWorld w = {.user = editor, .get_cell = editor_world_get, .set_cell = editor_world_set};
    return w;
}

int editor_paint_brush(Editor *editor, const CompiledBrush *brush, int x, int y, int z, BrushMatch only, void *user)
{
    BrushWorld w = editor_brush_world(editor);
    editor_begin_action(editor);
    int n = brush_paint_where(brush, &w, x, y, z, only, user);
    editor_end_action(editor);
    return n;
}
