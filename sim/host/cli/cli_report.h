/* The `report` and `postal` commands of the CLI (main.c dispatches to them):
 * argument handling only; the work is in analysis/report.c and postal.c.
 * Exit codes: 0 done, 2 bad input or a failure. */
#ifndef COLLSIM_CLI_REPORT_H
#define COLLSIM_CLI_REPORT_H

int cs_cmd_report(int argc, char **argv);
int cs_cmd_postal(int argc, char **argv);

#endif
