/*
 * crawl_data.h — crawl's data files (data/NAME.json: monsters, items, relics,
 * events), embedded in the program at build time by common/embed_text.sh (the
 * Makefile writes $(BUILD)/gen/crawl_data.c), so that nothing is read from
 * disk. cr_data.c parses and validates them (docs/rules/crawl.md C29).
 */
#ifndef LAIR_CRAWL_DATA_H
#define LAIR_CRAWL_DATA_H

typedef struct cr_data_file {
	const char *name; /* "events.json" */
	const char *text;
} cr_data_file;

extern const cr_data_file cr_data_files[];
extern const int cr_data_n_files;

#endif
