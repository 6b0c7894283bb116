// The layer rule of docs/layout.md, held to every source file: each #include "..." of a file
// under core/, algorithms/, sim/, analysis/ or realmpi/ is resolved to the file it names, and
// the folder of that file must be the includer's own layer or one the table below allows.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

const fs::path root = fs::weakly_canonical(COLLSIM_SOURCE_DIR);

// The layers, most specific first: a file belongs to the first whose folder holds it.
// A folder under analysis/ is a study (analysis/kang/, ...): a layer of its own.
const char *const layer_folders[] = {"core", "algorithms", "sim/driver", "sim/host", "sim/shim",
                                     "sim/benchmarks", "analysis", "realmpi"};

// Who may include whom, besides a layer itself. `header` empty: any file of that layer;
// else that one file only.
struct edge {
    const char *from, *to, *header;
};
const edge allowed[] = {
    {"algorithms", "core", ""},
    {"sim/driver", "core", ""},
    {"sim/driver", "algorithms", ""},
    // the driver built against a real MPI (collsim-mpibench) takes the machine's regions from hwloc
    {"sim/driver", "realmpi", "collsim_hwloc.h"},
    {"analysis", "core", ""},
    {"analysis", "algorithms", "algorithms.def"},
    {"analysis/*", "analysis", ""},
    {"analysis/*", "core", ""},
    {"analysis/*", "algorithms", "algorithms.def"},
    {"sim/host", "core", ""},
    {"sim/host", "analysis", ""},
    {"sim/host", "algorithms", "algorithms.def"},
    {"sim/host", "algorithms", "coll_blocks.h"},
    {"realmpi", "core", ""},
    {"realmpi", "algorithms", ""},
};

std::string rel(const fs::path &p) { return fs::relative(p, root).generic_string(); }

// The layer of a file (its path relative to the root); "" outside the layers.
std::string layer_of(const std::string &path)
{
    for (const char *f : layer_folders) {
        const std::string folder = std::string(f) + "/";
        if (path.compare(0, folder.size(), folder))
            continue;
        const std::string rest = path.substr(folder.size());
        if (folder == "analysis/" && rest.find('/') != std::string::npos)
            return "analysis/" + rest.substr(0, rest.find('/'));
        return f;
    }
    return "";
}

bool is_study(const std::string &layer) { return layer.rfind("analysis/", 0) == 0; }

bool edge_allowed(const std::string &from, const std::string &to, const std::string &header)
{
    if (from == to)
        return true;
    for (const edge &e : allowed) {
        const bool from_ok = from == e.from || (std::string(e.from) == "analysis/*" && is_study(from));
        if (from_ok && to == e.to && (!*e.header || header == e.header))
            return true;
    }
    return false;
}

bool is_source(const fs::path &p)
{
    const std::string x = p.extension().string();
    return x == ".c" || x == ".h" || x == ".cc" || x == ".def";
}

struct sources {
    std::vector<std::string> files;                         // every source file, relative
    std::map<std::string, std::vector<std::string>> by_name; // file name -> its paths
};

sources scan()
{
    sources s;
    for (const char *top : {"core", "algorithms", "sim", "analysis", "realmpi"})
        for (const auto &e : fs::recursive_directory_iterator(root / top))
            if (e.is_regular_file() && is_source(e.path())) {
                const std::string r = rel(e.path());
                s.files.push_back(r);
                s.by_name[e.path().filename().string()].push_back(r);
            }
    std::sort(s.files.begin(), s.files.end());
    return s;
}

// The file an include names: beside the includer, else the one project file whose path ends
// with the name (the build's include directories are project folders); "" when the name is
// no project file (a system header in quotes), "?" and the candidates when it is ambiguous.
std::string resolve(const sources &s, const std::string &includer, const std::string &name,
                    std::string *candidates)
{
    const fs::path beside = (root / includer).parent_path() / name;
    if (fs::exists(beside))
        return rel(fs::weakly_canonical(beside));
    const auto it = s.by_name.find(fs::path(name).filename().string());
    if (it == s.by_name.end())
        return "";
    std::vector<std::string> hits;
    for (const std::string &p : it->second)
        if (p == name || (p.size() > name.size() && p.compare(p.size() - name.size(), name.size(), name) == 0 &&
                          p[p.size() - name.size() - 1] == '/'))
            hits.push_back(p);
    if (hits.size() == 1)
        return hits[0];
    for (const std::string &h : hits)
        *candidates += " " + h;
    return hits.empty() ? "" : "?";
}

} // namespace

TEST(Layers, EveryIncludeIsOneTheLayerRuleAllows)
{
    const sources s = scan();
    const std::regex inc(R"re(^\s*#\s*include\s*"([^"]+)")re");
    size_t checked = 0, crossing = 0;
    for (const std::string &f : s.files) {
        const std::string from = layer_of(f);
        ASSERT_FALSE(from.empty()) << f << " is in no layer of this test's table";
        std::ifstream in(root / f);
        std::string line;
        for (int n = 1; std::getline(in, line); n++) {
            std::smatch m;
            if (!std::regex_search(line, m, inc))
                continue;
            std::string candidates;
            const std::string target = resolve(s, f, m[1], &candidates);
            if (target.empty())
                continue;
            checked++;
            if (target == "?") {
                ADD_FAILURE() << f << ":" << n << ": \"" << m[1] << "\" names more than one file:" << candidates;
                continue;
            }
            const std::string to = layer_of(target);
            crossing += to != from;
            if (!edge_allowed(from, to, fs::path(target).filename().string()))
                ADD_FAILURE() << f << ":" << n << ": " << from << " includes \"" << m[1] << "\" (" << target
                              << ", layer " << (to.empty() ? "none" : to) << "): not allowed (docs/layout.md)";
        }
    }
    // the scan saw the project: its includes, and some across layers
    EXPECT_GT(checked, 300u);
    EXPECT_GT(crossing, 50u);
}

// The table's own cases: a folder under analysis/ is a study, which may use the general part
// but not the reverse, nor the host's headers.
TEST(Layers, AStudyMayUseTheGeneralAnalysisButNotTheReverse)
{
    EXPECT_EQ(layer_of("analysis/kang/report_kang.c"), "analysis/kang");
    EXPECT_EQ(layer_of("analysis/report.c"), "analysis");
    EXPECT_EQ(layer_of("sim/host/run/runner.c"), "sim/host");
    EXPECT_TRUE(edge_allowed("analysis/kang", "analysis", "report_int.h"));
    EXPECT_FALSE(edge_allowed("analysis", "analysis/kang", "report_kang.h"));
    EXPECT_FALSE(edge_allowed("analysis/kang", "analysis/kandalla", "x.h"));
    EXPECT_FALSE(edge_allowed("analysis", "sim/host", "scenario.h"));
    EXPECT_FALSE(edge_allowed("sim/driver", "sim/host", "scenario.h"));
    EXPECT_FALSE(edge_allowed("sim/host", "sim/driver", "driver.h"));
    EXPECT_FALSE(edge_allowed("core", "algorithms", "coll_util.h"));
    EXPECT_FALSE(edge_allowed("sim/host", "algorithms", "coll_util.h"));
    EXPECT_TRUE(edge_allowed("sim/host", "algorithms", "algorithms.def"));
}

// What ships to real MPI programs (realmpi/'s libraries: algorithms/, realmpi/ and the
// collectives' descriptor of core/, a public header) is plain
// MPI: no file of it includes a SimGrid header or names a SimGrid/SMPI symbol (smpi_*, SMPI_*,
// sg_*, simgrid_*, xbt_*, s4u_*), comments and strings aside. What only the simulator needs
// (sharing tables and groups between the simulated ranks of one process) lives in sim/driver.
namespace {

// The file's text with comments and string or character literals blanked (newlines kept).
std::string code_of(const std::string &text)
{
    std::string out = text;
    enum { code, line_comment, block_comment, str, chr } st = code;
    for (size_t i = 0; i < out.size(); i++) {
        const char c = text[i], d = i + 1 < text.size() ? text[i + 1] : '\0';
        switch (st) {
        case code:
            if (c == '/' && d == '/')
                st = line_comment;
            else if (c == '/' && d == '*')
                st = block_comment;
            else if (c == '"')
                st = str;
            else if (c == '\'')
                st = chr;
            continue;
        case line_comment:
            if (c == '\n')
                st = code;
            break;
        case block_comment:
            if (c == '*' && d == '/') {
                out[i] = out[i + 1] = ' ';
                i++;
                st = code;
                continue;
            }
            break;
        case str:
        case chr:
            if (c == '\\') {
                out[i] = ' ';
                if (i + 1 < out.size() && text[i + 1] != '\n')
                    out[++i] = ' ';
                continue;
            }
            if (c == (st == str ? '"' : '\'')) {
                st = code;
                continue;
            }
            break;
        }
        if (out[i] != '\n')
            out[i] = ' ';
    }
    return out;
}

// Each use of the simulator in text: "LINE: what" (the text's includes and identifiers).
std::vector<std::string> simulator_uses(const std::string &text)
{
    static const std::regex header(R"re(^\s*#\s*include\s*[<"]((smpi|simgrid|xbt)[/_.][^>"]*)[>"])re");
    static const std::regex symbol(R"re(\b((smpi|SMPI|sg|simgrid|xbt|s4u)_\w*))re");
    std::vector<std::string> uses;
    std::istringstream raw(text), code(code_of(text));
    std::string rline, cline;
    for (int n = 1; std::getline(raw, rline) && std::getline(code, cline); n++) {
        std::smatch m;
        if (std::regex_search(rline, m, header)) {
            uses.push_back(std::to_string(n) + ": includes " + m[1].str());
            continue;
        }
        for (auto it = std::sregex_iterator(cline.begin(), cline.end(), symbol); it != std::sregex_iterator(); ++it)
            uses.push_back(std::to_string(n) + ": " + (*it)[1].str());
    }
    return uses;
}

std::string read_all(const fs::path &p)
{
    std::ifstream in(p);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace

TEST(Layers, TheRealMpiLibraryUsesNoSimulatorSymbolOrHeader)
{
    size_t files = 0;
    for (const std::string &f : scan().files) {
        const std::string layer = layer_of(f);
        const bool descriptor = f.rfind("core/collectives.", 0) == 0;
        if (layer != "algorithms" && layer != "realmpi" && !descriptor)
            continue;
        files++;
        for (const std::string &use : simulator_uses(read_all(root / f)))
            ADD_FAILURE() << f << ":" << use << ": a simulator symbol in a file of the real-MPI library "
                          << "(the simulator's part belongs in sim/driver, docs/layout.md)";
    }
    EXPECT_GT(files, 80u);
}

// The scanner itself: what it must find, and what it must not take for a use.
TEST(Layers, TheSimulatorScanFindsSymbolsAndHeadersOutsideCommentsAndStrings)
{
    EXPECT_EQ(simulator_uses("#ifndef SMPI_H\n#endif\n"), std::vector<std::string>{"1: SMPI_H"});
    EXPECT_EQ(simulator_uses("x;\n#include <smpi/smpi.h>\n"), std::vector<std::string>{"2: includes smpi/smpi.h"});
    EXPECT_EQ(simulator_uses("#include \"simgrid/s4u.hpp\"\n"), std::vector<std::string>{"1: includes simgrid/s4u.hpp"});
    EXPECT_EQ(simulator_uses("  smpi_execute_flops(1e6);\n"), std::vector<std::string>{"1: smpi_execute_flops"});
    EXPECT_EQ(simulator_uses("a = sg_host_self();"), std::vector<std::string>{"1: sg_host_self"});
    EXPECT_TRUE(simulator_uses("/* under SMPI_H, smpi_x */ int a; // sg_host\n").empty());
    EXPECT_TRUE(simulator_uses("const char *s = \"smpi_x \\\" SMPI_Y\";\n").empty());
    EXPECT_TRUE(simulator_uses("double coll_smpi_eager(double b);\nstruct { const char *const *smpi; } d;\n").empty());
}

// A case's background and groups are parsed where the case is resolved, and every other stage
// reads the parsed form (docs/layout.md): the calls of their
// parsers, file by file, are these and no more. A new call elsewhere parses a case's text again.
TEST(Layers, BackgroundAndGroupsAreParsedOnlyWhereACaseIsResolved)
{
    const std::map<std::string, int> expected = {
        {"core/case_fields.h", 2},  // the declarations
        {"core/case_values.c", 2},  // the parsers
        // cs_fields_resolve (a case's background and groups: the driver's command line, the
        // host's cs_case_resolve), cs_background_canonical (one value's spelling) and the
        // check of one groups value of a scenario attribute
        {"core/case_fields.c", 4},
        {"sim/host/scenario/scenario_place.c", 1},   // <background>, read once into the scenario
        {"analysis/cost_model_intergroup.c", 1},     // a result row's groups column
    };
    static const std::regex call(R"re(\b(cs_background_parse|cs_groups_parse)\s*\()re");
    std::map<std::string, int> found;
    for (const std::string &f : scan().files) {
        const std::string code = code_of(read_all(root / f));
        for (auto it = std::sregex_iterator(code.begin(), code.end(), call); it != std::sregex_iterator(); ++it)
            found[f]++;
    }
    for (const auto &[file, n] : found)
        if (!expected.count(file) || expected.at(file) != n)
            ADD_FAILURE() << file << ": " << n << " call(s) of cs_background_parse or cs_groups_parse, "
                          << (expected.count(file) ? std::to_string(expected.at(file)) : std::string("none"))
                          << " expected: a case's background and groups are parsed once, where the case is "
                          << "built (cs_fields_resolve, cs_case_resolve), and read from its parsed form after";
    for (const auto &[file, n] : expected)
        EXPECT_TRUE(found.count(file)) << file << ": no call left; update this table";
}
