/*
 * cmd_sim.c — `lair sim KIND [options]`: hands the arguments after KIND to
 * that kind's simulator.
 */
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "sim.h"

int cmd_sim(int argc, char **argv)
{
	if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		/* asked for: stdout, exit 0; a missing kind is a usage error */
		fprintf(argc < 2 ? stderr : stdout,
			"usage: lair sim gems|deepfall|crawl [options]   (lair sim KIND --help)\n");
		return argc < 2 ? 2 : 0;
	}
	if (strcmp(argv[1], "gems") == 0)
		return sim_gems_main(argc - 1, argv + 1);
	if (strcmp(argv[1], "deepfall") == 0)
		return sim_deepfall_main(argc - 1, argv + 1);
	if (strcmp(argv[1], "crawl") == 0)
		return sim_crawl_main(argc - 1, argv + 1);
	fprintf(stderr, "lair sim: unknown game kind '%s' (gems, deepfall, crawl)\n", argv[1]);
	return 2;
}
