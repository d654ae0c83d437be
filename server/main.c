/*
 * main.c — laird's entry point. (The server arrives with issue 3; until then
 * it says so.)
 */
#include <stdio.h>

int main(void)
{
	fprintf(stderr, "laird: the server is not built yet; try `lair sim gems`\n");
	return 1;
}
