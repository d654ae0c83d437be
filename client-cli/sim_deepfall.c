/* sim_deepfall.c — `lair sim deepfall` (placeholder until the deepfall kind lands). */
#include <stdio.h>

#include "sim.h"

int sim_deepfall_main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "lair sim deepfall: not built yet\n");
	return 2;
}
