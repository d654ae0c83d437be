/*
 * metric_sample.h — the value of an unlabelled sample in /metrics text
 * ("\nname value"), for the tests that read what laird would serve
 * (test_metrics, test_store).
 */
#ifndef LAIR_TEST_METRIC_SAMPLE_H
#define LAIR_TEST_METRIC_SAMPLE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The value of sample `name` in text; -1 when it is missing. */
static inline double metric_sample(const char *text, const char *name)
{
	char key[128];
	snprintf(key, sizeof key, "\n%s ", name);
	const char *p = strstr(text, key);
	return p ? strtod(p + strlen(key), NULL) : -1;
}

#endif
