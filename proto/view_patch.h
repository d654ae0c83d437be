/*
 * view_patch.h — a view sent as what changed: the `view_patch` of a
 * `reveal` to a client that asked for it in `hello` (proto/table.md §5.6,
 * capability "view_patch"). laird writes the patch from the seat's view
 * before the decision to its view after it; a client applies it to the
 * view it holds and has the view the reveal would have carried whole.
 *
 * A patch is an array of operations, applied in order:
 *   [path, value]   set: the member or element at path becomes value (an
 *                   object member is added when missing; an array index
 *                   equal to the array's length appends);
 *   [path]          remove: the object member, or the array element (the
 *                   later elements move down one);
 * path is an array of object keys (strings) and array indexes (integers)
 * from the view's root; [] is the root itself (set only).
 *
 * view_patch_write prints the patch where view_patch_diff builds it (the
 * same walk: the text is the tree printed by json_put_item, byte for
 * byte), with no tree, no copy of a value and no allocation but the bufs';
 * on the way it can print the whole view after too (a reveal keeps it for
 * resume), so that each value is printed once.
 *
 * Memory: view_patch_diff and view_patch_apply return new trees the caller
 * deletes; none keeps a pointer into its arguments.
 */
#ifndef LAIR_VIEW_PATCH_H
#define LAIR_VIEW_PATCH_H

#include <stdbool.h>

#include <cJSON.h>

#include "../common/util.h"

/* The longest path a patch may hold (views are a few levels deep). */
#define VIEW_PATCH_DEPTH_MAX 32

/* The patch that turns `from` into `to` (an empty array when they are
 * equal; from NULL: one set of the root). Objects are compared member by
 * member, arrays element by element; a value that changed wholesale (its
 * type, or most of an array) is set whole. */
cJSON *view_patch_diff(const cJSON *from, const cJSON *to);

/* The same patch as text, appended to b; and when view is not NULL, `to`
 * whole appended to it (what json_put_item writes), the values set
 * copied from there rather than printed twice. */
void view_patch_write(buf *b, buf *view, const cJSON *from, const cJSON *to);

/* Applies `patch` to *view (replaced by the patched tree). False, and
 * *view unchanged, when the patch is not one (not an array of operations,
 * a path that leads nowhere, an index past the end, deeper than
 * VIEW_PATCH_DEPTH_MAX): the client then asks for a snapshot
 * (table_sync). */
bool view_patch_apply(cJSON **view, const cJSON *patch);

#endif
