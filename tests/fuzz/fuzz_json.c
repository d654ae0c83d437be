/*
 * fuzz_json.c — the JSON printer fuzz target (fuzz.h): any bytes as JSON
 * text through cJSON's parser, then through json_print (proto/json_out.h),
 * laird's printer for every message it sends.
 *
 * Invariants: a tree JSON can carry (fuzz_json_check: no NaN or infinity,
 * which a 1e999 in the text parses to) prints to text that reads back to
 * exactly the same tree, strings byte for byte and numbers bit for bit;
 * json_print reports the length it wrote; and but for numbers it writes
 * what cJSON_PrintUnformatted writes (key order, escapes, nesting). Numbers
 * may differ from cJSON's text, not in value: json_print writes integers
 * below 2^53 in digits (cJSON: 1e+15) and keeps 17 digits whenever 15 do
 * not read back exactly (cJSON settles for nearly: 0.3 for
 * 0.30000000000000004, 1.79769313486232e+308, which reads back as
 * infinity). The game and table targets rely on this target: they check
 * their views printable and leave the printing to it.
 */
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

#include "../../common/util.h"
#include "../../proto/json_out.h"

/* Every number of j set to 0: what is left is what both printers must
 * write alike. */
static void zero_numbers(cJSON *j)
{
	if (cJSON_IsNumber(j))
		cJSON_SetNumberValue(j, 0);
	for (cJSON *c = j->child; c; c = c->next)
		zero_numbers(c);
}

int fuzz_json_one(const uint8_t *data, size_t size)
{
	/* Exactly size bytes: no terminator to lean on. */
	char *text = xmalloc(size ? size : 1);
	memcpy(text, data, size);
	cJSON *j = cJSON_ParseWithLength(text, size);
	free(text);
	if (!j)
		return 0;
	if (fuzz_json_printable(j))
		free(fuzz_json_text(j, "a parsed tree")); /* json_print, read back exactly */
	zero_numbers(j);
	size_t len = 0;
	char *mine = json_print(j, &len);
	char *theirs = cJSON_PrintUnformatted(j);
	FUZZ_CHECK(mine && theirs && strlen(mine) == len, "json_print failed or miscounted");
	FUZZ_CHECK(strcmp(mine, theirs) == 0, "json_print differs from cJSON:\n%.300s\n%.300s",
		   mine, theirs);
	free(mine);
	free(theirs);
	cJSON_Delete(j);
	return 0;
}

FUZZ_ENTRY(fuzz_json_one)
