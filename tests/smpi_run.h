// An SMPI test program of its own (tests/*_unit.c) run by smpirun on Yahoo,
// np ranks dealt over its 16 nodes (rank w on node-(w mod 16)); the unit's
// regions, if any, are its own. Returns the exit status, the output in out.
#ifndef COLLSIM_TESTS_SMPI_RUN_H
#define COLLSIM_TESTS_SMPI_RUN_H

#include <cstdio>
#include <string>

#include "cli.h"
#include "wrapper.h"

inline int run_smpi_unit(const std::string &program, int np, const std::string &args,
                         std::string &out, const std::string &env = "")
{
    char dir[256];
    if (tw_tempdir(dir, sizeof dir))
        return -1;
    const std::string hosts = std::string(dir) + "/hosts";
    FILE *f = fopen(hosts.c_str(), "w");
    if (!f)
        return -1;
    for (int w = 0; w < np; w++)
        fprintf(f, "node-%d\n", w % 16);
    fclose(f);
    const std::string cmd = env + (env.empty() ? "" : " ") + "timeout 900 smpirun -np " +
                            std::to_string(np) + " -platform " COLLSIM_PLATFORM_DIR
                            "/yahoo.xml -hostfile " + hosts +
                            " --cfg=smpi/privatization:no --cfg=smpi/simulate-computation:no"
                            " --cfg=contexts/stack-size:256 --log=root.thresh:warning " +
                            program + " " + args;
    Out o = run_shell(cmd);
    out = o.text;
    tw_rmtree(dir);
    return o.code;
}

#endif
