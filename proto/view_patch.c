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

#include "json_out.h"

/* The path from the root to the value being compared: keys and indexes,
 * with two running sizes of its prefixes (for the choice in diff()). */
typedef struct path {
	int n;
	const char *key[VIEW_PATCH_DEPTH_MAX]; /* NULL: idx[i] is an index */
	int idx[VIEW_PATCH_DEPTH_MAX];
	size_t w[VIEW_PATCH_DEPTH_MAX + 1];   /* weight() of path[0 .. i-1] as an array */
	size_t est[VIEW_PATCH_DEPTH_MAX + 1]; /* the same, an index counted 3 */
} vpath;

/* Where the operations go: printed at the end of a buf (the reveal's
 * text), or added to an array (view_patch_diff). With text, `view` (when
 * not NULL) gets the text of the whole view after, printed on the way,
 * and a value set is its text there copied: each value printed once. */
typedef struct out {
	buf *text;
	cJSON *tree;
	buf *view;
	size_t n; /* operations written */
} out;

static size_t view_at(const out *o) { return o->view ? o->view->len : 0; }

static void view_put(out *o, const cJSON *v)
{
	if (o->view)
		json_put_item(o->view, v);
}

/* One character of the view's text: a bracket, comma or colon (inline:
 * there are several a value). */
static void view_char(out *o, char c)
{
	buf *b = o->view;
	if (!b)
		return;
	if (b->len + 2 > b->cap)
		buf_reserve(b, 1);
	b->data[b->len++] = c;
	b->data[b->len] = 0;
}

/* The operations written so far, to drop those written after it. */
typedef struct mark {
	size_t len, n;
} mark;

static mark out_mark(const out *o) { return (mark){o->text ? o->text->len : 0, o->n}; }

static void out_cut(out *o, mark m)
{
	if (o->text) {
		o->text->len = m.len;
		o->text->data[m.len] = 0;
	} else {
		for (size_t i = m.n; i < o->n; i++) /* from the tail */
			cJSON_Delete(cJSON_DetachItemViaPointer(o->tree, o->tree->child->prev));
	}
	o->n = m.n;
}

/* v's type is t (cJSON_IsNumber and the like, without a call each: the
 * walk asks it of every value). */
static bool is(const cJSON *v, int t) { return (v->type & 0xff) == t; }

static size_t digits(unsigned long long i)
{
	size_t n = 1;
	for (; i >= 10; i /= 10)
		n++;
	return n;
}

/* About the length of v's text: enough to choose the shorter of two ways
 * to say a change, not to print it. */
static size_t weight(const cJSON *v)
{
	if (is(v, cJSON_String))
		return strlen(v->valuestring) + 2;
	if (is(v, cJSON_Number)) {
		double d = v->valuedouble;
		if (!(d <= 1e15 && d >= -1e15) || d != (double)(long long)d) /* NaN too */
			return 18;
		return d < 0 ? 1 + digits((unsigned long long)-(long long)d)
			     : digits((unsigned long long)d);
	}
	if (is(v, cJSON_Array) || is(v, cJSON_Object)) {
		size_t n = 2;
		for (const cJSON *c = v->child; c; c = c->next)
			n += weight(c) + 1 + (c->string ? strlen(c->string) + 3 : 0);
		return n;
	}
	return 5; /* true, false, null */
}

static void push_key(vpath *p, const char *key)
{
	size_t k = strlen(key) + 2;
	p->key[p->n] = key;
	p->w[p->n + 1] = p->w[p->n] + k + 1;
	p->est[p->n + 1] = p->est[p->n] + k + 1;
	p->n++;
}

/* The last element of the path becomes index i (pushed by push_idx). */
static void set_idx(vpath *p, int i)
{
	p->idx[p->n - 1] = i;
	p->w[p->n] = p->w[p->n - 1] + digits((unsigned)i) + 1;
}

static void push_idx(vpath *p)
{
	p->key[p->n] = NULL;
	p->est[p->n + 1] = p->est[p->n] + 4;
	p->n++;
}

/* [path, value] (v NULL: [path], a remove), printed or built; v's text,
 * when o->view is kept, is what it holds from `at` on. */
static void put_op(out *o, const vpath *p, const cJSON *v, size_t at)
{
	if (o->text) {
		buf *b = o->text;
		buf_append(b, o->n ? ",[[" : "[[", o->n ? 3 : 2);
		for (int i = 0; i < p->n; i++) {
			if (i)
				buf_append(b, ",", 1);
			if (p->key[i])
				json_put_string(b, p->key[i]);
			else
				json_put_int(b, p->idx[i]);
		}
		if (v) {
			buf_append(b, "],", 2);
			if (o->view)
				buf_append(b, o->view->data + at, o->view->len - at);
			else
				json_put_item(b, v);
			buf_append(b, "]", 1);
		} else {
			buf_append(b, "]]", 2);
		}
	} else {
		cJSON *op = cJSON_CreateArray(), *path = cJSON_CreateArray();
		for (int i = 0; i < p->n; i++)
			cJSON_AddItemToArray(path, p->key[i] ? cJSON_CreateString(p->key[i])
							     : cJSON_CreateNumber(p->idx[i]));
		cJSON_AddItemToArray(op, path);
		if (v)
			cJSON_AddItemToArray(op, cJSON_Duplicate(v, true));
		cJSON_AddItemToArray(o->tree, op);
	}
	o->n++;
}

/* A set of v (of weight vw) at p; returns the operation's weight with
 * its comma, as diff() counts it: the value's key counts too when it is
 * an object's member (as it did when the weights were those of the
 * operations' trees, whose values kept their keys; the patches stay what
 * they were). */
static size_t op_set(out *o, const vpath *p, const cJSON *v, size_t vw, size_t at)
{
	put_op(o, p, v, at);
	return p->w[p->n] + vw + 5 + (v->string ? strlen(v->string) + 3 : 0);
}

static size_t op_remove(out *o, const vpath *p)
{
	put_op(o, p, NULL, 0);
	return p->w[p->n] + 4;
}

static bool same_kind(const cJSON *a, const cJSON *b)
{
	return (a->type & 0xff) == (b->type & 0xff) ||
	       (cJSON_IsBool(a) && cJSON_IsBool(b)); /* true -> false is a set */
}

static size_t diff(out *o, vpath *p, const cJSON *a, const cJSON *b, size_t *ops);

/* cJSON_Compare(a, b), with the common cases (a number or a string that
 * stayed the same) decided without the call. */
static bool same(const cJSON *a, const cJSON *b)
{
	if (is(a, cJSON_Number) && is(b, cJSON_Number) && a->valuedouble == b->valuedouble)
		return true;
	if (is(a, cJSON_String) && is(b, cJSON_String) && a->valuestring && b->valuestring &&
	    !strcmp(a->valuestring, b->valuestring))
		return true;
	return cJSON_Compare(a, b, true);
}

/* a's member named key; `hint` is where it is when both objects have
 * their members in the same order (a view always does), so the lookup is
 * one comparison, not a search. */
static const cJSON *member(const cJSON *a, const cJSON *hint, const char *key)
{
	if (hint && hint->string && !strcmp(hint->string, key))
		return hint;
	return cJSON_GetObjectItemCaseSensitive(a, key);
}

static size_t diff_object(out *o, vpath *p, const cJSON *a, const cJSON *b, size_t *ops)
{
	size_t w = 2;
	const cJSON *x, *hint = a->child;
	bool in_step = true; /* so far a's members are b's, in the same order */
	view_char(o, '{');
	cJSON_ArrayForEach(x, b)
	{
		const cJSON *old = member(a, hint, x->string);
		in_step = in_step && old && old == hint;
		hint = old ? old->next : NULL;
		push_key(p, x->string);
		if (x != b->child)
			view_char(o, ',');
		if (o->view) {
			json_put_string(o->view, x->string);
			view_char(o, ':');
		}
		size_t xw;
		if (!old) {
			size_t at = view_at(o);
			xw = weight(x);
			view_put(o, x);
			*ops += op_set(o, p, x, xw, at);
		} else {
			xw = diff(o, p, old, x, ops);
		}
		/* its value, a comma, and its key quoted with a colon (which
		 * weighs what the key and a comma add to the path) */
		w += xw + 1 + (p->w[p->n] - p->w[p->n - 1]);
		p->n--;
	}
	view_char(o, '}');
	if (in_step && !hint)
		return w; /* a has no member that b lacks */
	hint = b->child;
	cJSON_ArrayForEach(x, a)
	{
		const cJSON *now = member(b, hint, x->string);
		hint = now ? now->next : NULL;
		if (now)
			continue;
		push_key(p, x->string);
		*ops += op_remove(o, p);
		p->n--;
	}
	return w;
}

static size_t diff_array(out *o, vpath *p, const cJSON *a, const cJSON *b, size_t *ops)
{
	size_t w = 2;
	int i = 0;
	const cJSON *x = a->child, *y = b->child;
	view_char(o, '[');
	push_idx(p);
	for (; y; i++, y = y->next) {
		set_idx(p, i);
		if (i)
			view_char(o, ',');
		size_t yw;
		if (x) {
			yw = diff(o, p, x, y, ops);
			x = x->next;
		} else {
			size_t at = view_at(o);
			yw = weight(y);
			view_put(o, y);
			*ops += op_set(o, p, y, yw, at);
		}
		w += yw + 1;
	}
	view_char(o, ']');
	/* what a has past b's end, removed from the end: indexes stay put */
	int na = i;
	for (; x; x = x->next)
		na++;
	for (int j = na - 1; j >= i; j--) {
		set_idx(p, j);
		*ops += op_remove(o, p);
	}
	p->n--;
	return w;
}

/* Writes the operations that turn a into b at p; returns weight(b) and
 * adds their weights to *ops. Each value's weight is counted once, on the
 * way back up, so the walk is linear in the views' size. */
static size_t diff(out *o, vpath *p, const cJSON *a, const cJSON *b, size_t *ops)
{
	bool container = is(b, cJSON_Object) || is(b, cJSON_Array);
	size_t at = view_at(o);
	if (!container || !same_kind(a, b) || p->n >= VIEW_PATCH_DEPTH_MAX - 1) {
		/* a scalar (cheap to compare), or a container of another kind */
		size_t w = weight(b);
		view_put(o, b);
		if (!same(a, b))
			*ops += op_set(o, p, b, w, at);
		return w;
	}
	/* Member by member (or element by element), no deep compare first:
	 * an unchanged subtree is one that adds no operation. Set whole when
	 * that says it shorter (a list that moved along, a record redone). */
	mark m = out_mark(o);
	size_t changes = 0;
	size_t w = is(b, cJSON_Object) ? diff_object(o, p, a, b, &changes)
				     : diff_array(o, p, a, b, &changes);
	/* (the changes weighed as an array of their own: + 2) */
	if (changes && w + p->est[p->n] + 4 <= changes + 2) {
		out_cut(o, m);
		changes = op_set(o, p, b, w, at);
	}
	*ops += changes;
	return w;
}

/* The patch from `from` to `to` written to o. */
static void diff_root(out *o, const cJSON *from, const cJSON *to)
{
	vpath p;
	p.n = 0;
	p.w[0] = p.est[0] = 2;
	size_t ops = 0;
	if (!from || !to) {
		cJSON null = {.type = cJSON_NULL};
		size_t at = view_at(o);
		view_put(o, to);
		put_op(o, &p, to ? to : &null, at);
	} else {
		diff(o, &p, from, to, &ops);
	}
}

cJSON *view_patch_diff(const cJSON *from, const cJSON *to)
{
	out o = {.tree = cJSON_CreateArray()};
	diff_root(&o, from, to);
	return o.tree;
}

void view_patch_write(buf *b, buf *view, const cJSON *from, const cJSON *to)
{
	out o = {.text = b, .view = view};
	buf_append(b, "[", 1);
	diff_root(&o, from, to);
	buf_append(b, "]", 1);
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
