/*
 * idmap.c — see idmap.h. Linear probing with backward-shift deletion (no
 * tombstones), load factor at most 1/2.
 */
#include "idmap.h"

#include <stdlib.h>

#include "../common/util.h"

static size_t slot_of(uint64_t key, size_t cap)
{
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdULL;
	key ^= key >> 33;
	return (size_t)key & (cap - 1);
}

static void grow(idmap *m)
{
	size_t ncap = m->cap ? m->cap * 2 : 16;
	idmap_slot *ns = xcalloc(ncap, sizeof *ns);
	for (size_t i = 0; i < m->cap; i++) {
		if (!m->slots[i].key)
			continue;
		size_t j = slot_of(m->slots[i].key, ncap);
		while (ns[j].key)
			j = (j + 1) & (ncap - 1);
		ns[j] = m->slots[i];
	}
	free(m->slots);
	m->slots = ns;
	m->cap = ncap;
}

void idmap_put(idmap *m, uint64_t key, void *val)
{
	if ((m->len + 1) * 2 > m->cap)
		grow(m);
	size_t i = slot_of(key, m->cap);
	while (m->slots[i].key && m->slots[i].key != key)
		i = (i + 1) & (m->cap - 1);
	if (!m->slots[i].key)
		m->len++;
	m->slots[i].key = key;
	m->slots[i].val = val;
}

void *idmap_get(const idmap *m, uint64_t key)
{
	if (!m->cap || !key)
		return NULL;
	size_t i = slot_of(key, m->cap);
	while (m->slots[i].key) {
		if (m->slots[i].key == key)
			return m->slots[i].val;
		i = (i + 1) & (m->cap - 1);
	}
	return NULL;
}

void *idmap_del(idmap *m, uint64_t key)
{
	if (!m->cap || !key)
		return NULL;
	size_t mask = m->cap - 1, i = slot_of(key, m->cap);
	while (m->slots[i].key && m->slots[i].key != key)
		i = (i + 1) & mask;
	if (!m->slots[i].key)
		return NULL;
	void *val = m->slots[i].val;
	m->len--;
	/* Backward shift: move later entries of the run into the hole when
	 * their home slot does not lie cyclically in (hole, j]. */
	size_t hole = i, j = i;
	for (;;) {
		j = (j + 1) & mask;
		if (!m->slots[j].key)
			break;
		size_t home = slot_of(m->slots[j].key, m->cap);
		int in_range = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j);
		if (!in_range) {
			m->slots[hole] = m->slots[j];
			hole = j;
		}
	}
	m->slots[hole].key = 0;
	m->slots[hole].val = NULL;
	return val;
}

void idmap_free(idmap *m)
{
	free(m->slots);
	m->slots = NULL;
	m->cap = m->len = 0;
}

void *idmap_next(const idmap *m, size_t *it, uint64_t *key)
{
	for (; *it < m->cap; (*it)++) {
		const idmap_slot *e = &m->slots[*it];
		if (e->key && e->val) {
			(*it)++;
			if (key)
				*key = e->key;
			return e->val;
		}
	}
	return NULL;
}
