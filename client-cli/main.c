/*
 * main.c — lair's entry point: dispatches to one file per command.
 */
#include <stdio.h>

int main(void)
{
	fprintf(stderr, "lair: no commands yet\n");
	return 2;
}
