// The collsim CLI run as users run it, for the suites that test commands:
// exit code and everything it printed (stdout and stderr).
#ifndef COLLSIM_TEST_CLI_H
#define COLLSIM_TEST_CLI_H

#include <cstdio>
#include <string>
#include <sys/wait.h>

struct Out {
    int code;
    std::string text;
};

inline Out cli(const std::string &args)
{
    std::string cmd = std::string(COLLSIM_CLI_PATH) + " " + args + " 2>&1";
    FILE *p = popen(cmd.c_str(), "r");
    Out o{-1, ""};
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0)
        o.text.append(buf, n);
    int st = pclose(p);
    o.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return o;
}

#endif
