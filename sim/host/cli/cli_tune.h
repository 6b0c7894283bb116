/* collsim tune RESULTS.csv: the decision files of a sweep (analysis/tune.h). */
#ifndef COLLSIM_CLI_TUNE_H
#define COLLSIM_CLI_TUNE_H

int cs_cmd_tune(int argc, char **argv);

#endif
