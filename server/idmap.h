/*
 * idmap.h — a small open-addressing hash map from a non-zero 64-bit id to
 * a pointer: the app's registries of players, sessions and tables, which
 * hold up to tens of thousands of entries and are looked up on every
 * message sent to a player.
 *
 * Memory: the map owns its slot array only; the values are borrowed.
 */
#ifndef LAIR_IDMAP_H
#define LAIR_IDMAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct idmap_slot {
	uint64_t key; /* 0: empty */
	void *val;
} idmap_slot;

typedef struct idmap {
	idmap_slot *slots;
	size_t cap; /* a power of two, or 0 */
	size_t len;
} idmap;

/* key != 0. Replaces an existing value. */
void idmap_put(idmap *m, uint64_t key, void *val);
void *idmap_get(const idmap *m, uint64_t key);
/* Returns the removed value or NULL. */
void *idmap_del(idmap *m, uint64_t key);
void idmap_free(idmap *m);

/* Iteration: the next entry's value from *it on (start *it at 0), its key
 * in *key (may be NULL); NULL after the last. Do not insert or delete
 * while iterating (collect first).
 *   size_t it = 0; player *p;
 *   while ((p = idmap_next(&a->players, &it, NULL))) ... */
void *idmap_next(const idmap *m, size_t *it, uint64_t *key);

#endif
