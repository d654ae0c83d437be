/*
 * sim.h — `lair sim KIND ...`: headless all-AI games of one kind. Each kind's
 * simulator lives in its own file (sim_<kind>.c) and takes the arguments
 * after the kind name. Exit codes as lair's: 0 ok, 2 usage.
 */
#ifndef LAIR_SIM_H
#define LAIR_SIM_H

int sim_gems_main(int argc, char **argv);
int sim_deepfall_main(int argc, char **argv);
int sim_crawl_main(int argc, char **argv);

#endif
