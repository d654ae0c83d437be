/*
 * view_patch.c — writing and applying a view's patch (view_patch.h): the
 * server diffs a seat's view before and after a decision, the clients
 * apply it. Most of a view stays as it was from one decision to the next
 * (the map, the names, the rules' constants), so the patch is a fraction
 * of the view.
 */
#include "view_patch.h"

#include <stdint.h>
#include <string.h>

/* The path from the root to the value being compared: keys and indexes. */
typedef struct path {
	int n;
	const char *key[VIEW_PATCH_DEPTH_MAX]; /* NULL: idx[i] is an index */
	int idx[VIEW_PATCH_DEPTH_MAX];
} vpath;

static cJSON *path_json(const vpath *p)
{
	cJSON *a = cJSON_CreateArray();
	for (int i = 0; i < p->n; i++)
		cJSON_AddItemToArray(a, p->key[i] ? cJSON_CreateString(p->key[i])
						  : cJSON_CreateNumber(p->idx[i]));
	return a;
}

static void op_set(cJSON *ops, const vpath *p, const cJSON *v)
{
	cJSON *op = cJSON_CreateArray();
	cJSON_AddItemToArray(op, path_json(p));
	cJSON_AddItemToArray(op, cJSON_Duplicate(v, true));
	cJSON_AddItemToArray(ops, op);
}

static void op_remove(cJSON *ops, const vpath *p)
{
	cJSON *op = cJSON_CreateArray();
	cJSON_AddItemToArray(op, path_json(p));
	cJSON_AddItemToArray(ops, op);
}

static bool same_kind(const cJSON *a, const cJSON *b)
{
	return (a->type & 0xff) == (b->type & 0xff) ||
	       (cJSON_IsBool(a) && cJSON_IsBool(b)); /* true -> false is a set */
}

static void diff(cJSON *ops, vpath *p, const cJSON *a, const cJSON *b);

/* a's member named key; `hint` is where it is when both objects have
 * their members in the same order (a view always does), so the lookup is
 * one comparison, not a search. */
static const cJSON *member(const cJSON *a, const cJSON *hint, const char *key)
{
	if (hint && hint->string && !strcmp(hint->string, key))
		return hint;
	return cJSON_GetObjectItemCaseSensitive(a, key);
}

static void diff_object(cJSON *ops, vpath *p, const cJSON *a, const cJSON *b)
{
	const cJSON *x, *hint = a->child;
	cJSON_ArrayForEach(x, b)
	{
		const cJSON *old = member(a, hint, x->string);
		hint = old ? old->next : NULL;
		p->key[p->n] = x->string;
		p->n++;
		if (!old)
			op_set(ops, p, x);
		else
			diff(ops, p, old, x);
		p->n--;
	}
	hint = b->child;
	cJSON_ArrayForEach(x, a)
	{
		const cJSON *now = member(b, hint, x->string);
		hint = now ? now->next : NULL;
		if (now)
			continue;
		p->key[p->n] = x->string;
		p->n++;
		op_remove(ops, p);
		p->n--;
	}
}

static void diff_array(cJSON *ops, vpath *p, const cJSON *a, const cJSON *b)
{
	int na = cJSON_GetArraySize(a), nb = cJSON_GetArraySize(b);
	const cJSON *x = a->child, *y = b->child;
	p->key[p->n] = NULL;
	p->n++;
	for (int i = 0; i < nb; i++, y = y->next) {
		p->idx[p->n - 1] = i;
		if (i < na) {
			diff(ops, p, x, y);
			x = x->next;
		} else {
			op_set(ops, p, y);
		}
	}
	for (int i = na - 1; i >= nb; i--) { /* from the end: indexes stay put */
		p->idx[p->n - 1] = i;
		op_remove(ops, p);
	}
	p->n--;
}

/* About the length of v's text, counted up to `cap` at most (the caller
 * only needs to know whether it reaches that): enough to choose the
 * shorter of two ways to say a change, not to print it. */
static size_t weight(const cJSON *v, size_t cap)
{
	if (cJSON_IsString(v))
		return strlen(v->valuestring) + 2;
	if (cJSON_IsNumber(v)) {
		double d = v->valuedouble;
		if (!(d <= 1e15 && d >= -1e15) || d != (double)(long long)d) /* NaN too */
			return 18;
		size_t n = d < 0 ? 2 : 1;
		for (long long i = d < 0 ? -(long long)d : (long long)d; i >= 10; i /= 10)
			n++;
		return n;
	}
	if (cJSON_IsArray(v) || cJSON_IsObject(v)) {
		size_t n = 2;
		for (const cJSON *c = v->child; c && n < cap; c = c->next)
			n += weight(c, cap - n) + 1 + (c->string ? strlen(c->string) + 3 : 0);
		return n;
	}
	return 5; /* true, false, null */
}

static size_t path_weight(const vpath *p)
{
	size_t n = 2;
	for (int i = 0; i < p->n; i++)
		n += 1 + (p->key[i] ? strlen(p->key[i]) + 2 : 3);
	return n;
}

static void diff(cJSON *ops, vpath *p, const cJSON *a, const cJSON *b)
{
	bool container = cJSON_IsObject(b) || cJSON_IsArray(b);
	if (!container || !same_kind(a, b) || p->n >= VIEW_PATCH_DEPTH_MAX - 1) {
		/* a scalar (cheap to compare), or a container of another kind */
		if (!cJSON_Compare(a, b, true))
			op_set(ops, p, b);
		return;
	}
	/* Member by member (or element by element), no deep compare first:
	 * an unchanged subtree is one that adds no operation. Set whole when
	 * that says it shorter (a list that moved along, a record redone). */
	cJSON *last = ops->child ? ops->child->prev : NULL; /* the ops' tail */
	if (cJSON_IsObject(b))
		diff_object(ops, p, a, b);
	else
		diff_array(ops, p, a, b);
	cJSON *first = last ? last->next : ops->child;
	if (!first)
		return;
	size_t changes = 2;
	for (const cJSON *o = first; o; o = o->next)
		changes += weight(o, SIZE_MAX) + 1;
	if (weight(b, changes) + path_weight(p) + 4 <= changes) {
		while (first) {
			cJSON *next = first->next;
			cJSON_Delete(cJSON_DetachItemViaPointer(ops, first));
			first = next;
		}
		op_set(ops, p, b);
	}
}

cJSON *view_patch_diff(const cJSON *from, const cJSON *to)
{
	cJSON *ops = cJSON_CreateArray();
	vpath p = {0};
	if (!from || !to) {
		cJSON *null = cJSON_CreateNull();
		op_set(ops, &p, to ? to : null);
		cJSON_Delete(null);
	} else {
		diff(ops, &p, from, to);
	}
	return ops;
}

/* The container at path[0 .. n-1] from root, or NULL. */
static cJSON *walk(cJSON *root, const cJSON *path, int n)
{
	cJSON *at = root;
	const cJSON *k = path->child;
	for (int i = 0; i < n && at; i++, k = k->next) {
		if (cJSON_IsString(k) && cJSON_IsObject(at))
			at = cJSON_GetObjectItemCaseSensitive(at, k->valuestring);
		else if (cJSON_IsNumber(k) && cJSON_IsArray(at) && k->valuedouble >= 0 &&
			 k->valuedouble < INT32_MAX && k->valuedouble == (int)k->valuedouble)
			at = cJSON_GetArrayItem(at, (int)k->valuedouble);
		else
			return NULL;
	}
	return at;
}

/* One operation on *root; false when it is not one. */
static bool apply_op(cJSON **root, const cJSON *op)
{
	int n = cJSON_GetArraySize(op);
	const cJSON *path = cJSON_GetArrayItem(op, 0);
	const cJSON *value = n == 2 ? cJSON_GetArrayItem(op, 1) : NULL;
	int depth = cJSON_GetArraySize(path);
	if (!cJSON_IsArray(op) || (n != 1 && n != 2) || !cJSON_IsArray(path) ||
	    depth > VIEW_PATCH_DEPTH_MAX)
		return false;
	if (depth == 0) { /* the root: set only */
		if (!value)
			return false;
		cJSON_Delete(*root);
		*root = cJSON_Duplicate(value, true);
		return *root != NULL;
	}
	cJSON *parent = walk(*root, path, depth - 1);
	const cJSON *last = cJSON_GetArrayItem(path, depth - 1);
	if (!parent)
		return false;
	if (cJSON_IsObject(parent) && cJSON_IsString(last)) {
		const char *key = last->valuestring;
		bool has = cJSON_GetObjectItemCaseSensitive(parent, key) != NULL;
		if (!value) {
			if (!has)
				return false;
			cJSON_DeleteItemFromObjectCaseSensitive(parent, key);
			return true;
		}
		cJSON *v = cJSON_Duplicate(value, true);
		if (has)
			return cJSON_ReplaceItemInObjectCaseSensitive(parent, key, v);
		return cJSON_AddItemToObject(parent, key, v);
	}
	if (!cJSON_IsArray(parent) || !cJSON_IsNumber(last))
		return false;
	double d = last->valuedouble;
	int len = cJSON_GetArraySize(parent);
	if (!(d >= 0 && d <= len) || d != (int)d || (!value && d == len)) /* NaN too */
		return false;
	int i = (int)d;
	if (!value) {
		cJSON_DeleteItemFromArray(parent, i);
		return true;
	}
	cJSON *v = cJSON_Duplicate(value, true);
	if (i == len)
		return cJSON_AddItemToArray(parent, v);
	return cJSON_ReplaceItemInArray(parent, i, v);
}

bool view_patch_apply(cJSON **view, const cJSON *patch)
{
	if (!cJSON_IsArray(patch))
		return false;
	cJSON *work = *view ? cJSON_Duplicate(*view, true) : cJSON_CreateNull();
	const cJSON *op;
	cJSON_ArrayForEach(op, patch)
	{
		if (!apply_op(&work, op)) {
			cJSON_Delete(work);
			return false;
		}
	}
	cJSON_Delete(*view);
	*view = work;
	return true;
}
