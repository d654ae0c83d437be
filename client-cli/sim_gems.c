/* sim_gems.c — `lair sim gems` (placeholder until the gems kind lands). */
#include <stdio.h>

#include "sim.h"

int sim_gems_main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "lair sim gems: not built yet\n");
	return 2;
}
