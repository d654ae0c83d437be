/*
 * test_idmap.c — the app's id → pointer map against a plain array model,
 * through growth and deletions (backward shift keeps every key findable).
 */
#include <stdint.h>

#include "../../common/rng.h"
#include "../../server/idmap.h"
#include "../test.h"

TEST(idmap_basic)
{
	idmap m = {0};
	int a, b;
	CHECK(idmap_get(&m, 5) == NULL);
	idmap_put(&m, 5, &a);
	idmap_put(&m, 7, &b);
	CHECK(idmap_get(&m, 5) == &a);
	CHECK(idmap_get(&m, 7) == &b);
	idmap_put(&m, 5, &b);
	CHECK(idmap_get(&m, 5) == &b);
	CHECK_EQ(m.len, 2);
	CHECK(idmap_del(&m, 5) == &b);
	CHECK(idmap_get(&m, 5) == NULL);
	CHECK(idmap_del(&m, 5) == NULL);
	CHECK_EQ(m.len, 1);
	idmap_free(&m);
}

TEST(idmap_random_against_model)
{
	enum { N = 2000 };
	static int present[N];
	static int vals[N];
	idmap m = {0};
	rng r;
	rng_seed(&r, 99, 1);
	for (int step = 0; step < 50000; step++) {
		uint32_t k = rng_below(&r, N);
		if (rng_below(&r, 3)) {
			idmap_put(&m, k + 1, &vals[k]);
			present[k] = 1;
		} else {
			void *got = idmap_del(&m, k + 1);
			CHECK(got == (present[k] ? &vals[k] : NULL));
			present[k] = 0;
		}
	}
	size_t n = 0;
	for (int k = 0; k < N; k++) {
		n += (size_t)present[k];
		CHECK(idmap_get(&m, (uint64_t)k + 1) == (present[k] ? &vals[k] : NULL));
	}
	CHECK_EQ(m.len, n);
	/* iteration visits each entry once, with its key */
	static int seen[N];
	size_t it = 0, visits = 0;
	uint64_t key;
	void *v;
	while ((v = idmap_next(&m, &it, &key))) {
		REQUIRE(key >= 1 && key <= N);
		CHECK(present[key - 1] && !seen[key - 1]);
		CHECK(v == &vals[key - 1]);
		seen[key - 1] = 1;
		visits++;
	}
	CHECK_EQ(visits, n);
	CHECK(idmap_next(&m, &it, NULL) == NULL);
	idmap_free(&m);
	idmap empty = {0};
	it = 0;
	CHECK(idmap_next(&empty, &it, NULL) == NULL);
}
