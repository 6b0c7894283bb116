// The collsim CLI run as users run it, for the suites that test commands:
// exit code and everything it printed (stdout and stderr); run_shell, any
// command the same way.
#ifndef COLLSIM_TEST_CLI_H
#define COLLSIM_TEST_CLI_H

#include <cstdio>
#include <string>
#include <sys/wait.h>

struct Out {
    int code;
    std::string text;
};

// Any shell command: its exit code (-1 when killed) and output.
inline Out run_shell(const std::string &command)
{
    std::string cmd = command + " 2>&1";
    FILE *p = popen(cmd.c_str(), "r");
    Out o{-1, ""};
    if (!p)
        return o;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0)
        o.text.append(buf, n);
    int st = pclose(p);
    o.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return o;
}

#ifdef COLLSIM_CLI_PATH
inline Out cli(const std::string &args) { return run_shell(std::string(COLLSIM_CLI_PATH) + " " + args); }
#endif

#endif
