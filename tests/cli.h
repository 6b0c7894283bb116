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

// The directory bench names after a failed case ("files kept in DIR; ..."), "" when none.
inline std::string kept_dir(const std::string &text)
{
    const std::string key = "files kept in ";
    const size_t at = text.find(key);
    if (at == std::string::npos)
        return "";
    return text.substr(at + key.size(), text.find(';', at) - at - key.size());
}

// Whether dir is a case directory of bench (so that a wrong parse removes nothing else).
inline bool is_case_dir(const std::string &dir)
{
    return dir.rfind("/tmp/collsim-bench-", 0) == 0 && dir.find_first_of(" \n*'") == std::string::npos;
}

#ifdef COLLSIM_CLI_PATH
inline Out cli(const std::string &args) { return run_shell(std::string(COLLSIM_CLI_PATH) + " " + args); }
#endif

#endif
