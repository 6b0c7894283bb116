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
