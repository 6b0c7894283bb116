/* SMPI's latency and bandwidth factors per locality level (cost.h,
 * cost_factors_init). SimGrid 3.32 asks a factor callback, for every
 * message, with the message's size (payload + SMPI's 16-byte envelope) and
 * its two hosts; the callback answers from tables read once from the
 * platform's root-zone properties. The tables are looked up as SMPI looks up
 * smpi/lat-factor and smpi/bw-factor (src/surf/network_smpi.cpp: an entry
 * SIZE:FACTOR applies to sizes above SIZE, factor 1 below the first), so the
 * one-per-regime keys under the `network` model give the same doubles, and
 * the same times, as the same values in <config>. */
#include "cost.h"

extern "C" {
#include "coll_locality_file.h"
}

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/NetZone.hpp>
#include <simgrid/kernel/resource/NetworkModelIntf.hpp>
#include <xbt/config.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace {

namespace s4u = simgrid::s4u;

const char LAT[] = "collsim.factor.lat", BW[] = "collsim.factor.bw";

struct Tables {
    bool per_level = false;              /* full: by level; network: plain only */
    std::vector<std::string> levels;     /* collsim.levels, finest first; then "system" */
    std::vector<cost_piecewise> lat, bw; /* [levels + 1]: each level's (or the plain) table */
    cost_piecewise plain_lat{}, plain_bw{};
    std::vector<int> file_level;         /* levels[l]'s index in the locality file */
    std::unordered_map<const s4u::Host*, std::vector<long>> host_regions;
};

Tables* tables; /* set once, by the first rank; read by the callbacks */

/* SMPI's lookup (NetworkSmpiModel::get_latency_factor) */
double lookup(const cost_piecewise& t, double size)
{
    double current = 1.0;
    for (int k = 0; k < t.n; k++) {
        if (size <= t.from[k])
            return current;
        current = t.a[k];
    }
    return current;
}

const char* root_prop(const std::string& key)
{
    return s4u::Engine::get_instance()->get_netzone_root()->get_property(key);
}

/* The calling rank's host and its colour at each level. */
void register_host(int wrank)
{
    std::vector<long> r;
    for (int fl : tables->file_level)
        r.push_back(coll_loc_file_colour(fl, wrank));
    tables->host_regions.emplace(s4u::this_actor::get_host(), std::move(r));
}

/* Each host's region at each level: the colours of the rank it runs in the
 * locality file (coll_locality_file.h), which the host side wrote from the
 * platform's level declarations; every rank registers its host when it calls
 * cost_factors_init, before any rank's first message. */
const std::vector<long>& regions_of(const s4u::Host* h)
{
    auto found = tables->host_regions.find(h);
    if (found == tables->host_regions.end()) {
        std::fprintf(stderr, "collsim-driver: a message from or to host %s, which runs no rank "
                             "that registered its locality (cost_factors_init)\n", h->get_cname());
        std::abort();
    }
    return found->second;
}

/* The finest level whose region holds both hosts (levels: "system"). */
size_t level_of(const s4u::Host* a, const s4u::Host* b)
{
    if (a == b)
        return 0;
    const std::vector<long>& ra = regions_of(a);
    const std::vector<long>& rb = regions_of(b);
    size_t l = 0;
    while (l < ra.size() && ra[l] != rb[l])
        l++;
    return l;
}

double lat_factor(double size, const s4u::Host* src, const s4u::Host* dst,
                  const std::vector<s4u::Link*>&, const std::unordered_set<s4u::NetZone*>&)
{
    if (!tables->per_level)
        return lookup(tables->plain_lat, size);
    return lookup(tables->lat[level_of(src, dst)], size);
}

double bw_factor(double size, const s4u::Host* src, const s4u::Host* dst,
                 const std::vector<s4u::Link*>&, const std::unordered_set<s4u::NetZone*>&)
{
    if (!tables->per_level)
        return lookup(tables->plain_bw, size);
    return lookup(tables->bw[level_of(src, dst)], size);
}

int fail(char* err, size_t errsize, const std::string& msg)
{
    std::snprintf(err, errsize, "%s", msg.c_str());
    return -1;
}

/* key's table into out; 1 if the platform has the key, 0 if not, -1 on error */
int read_table(const std::string& key, cost_piecewise* out, char* err, size_t errsize)
{
    const char* v = root_prop(key);
    if (!v)
        return 0;
    return cost_parse_piecewise(key.c_str(), v, "SIZE:FACTOR", out, err, errsize) ? -1 : 1;
}

} // namespace

int cost_factors_init(int full, int wrank, char* err, size_t errsize)
{
    if (tables) { /* ranks share this file: the first installs, each registers */
        if (tables->per_level)
            register_host(wrank);
        return 0;
    }
    auto t = std::make_unique<Tables>();
    const int lat = read_table(LAT, &t->plain_lat, err, errsize);
    const int bw = lat < 0 ? -1 : read_table(BW, &t->plain_bw, err, errsize);
    if (lat < 0 || bw < 0)
        return -1;
    std::string levels = root_prop("collsim.levels") ? root_prop("collsim.levels") : "node";
    for (char& c : levels)
        if (c == ',')
            c = ' ';
    size_t pos = 0;
    while ((pos = levels.find_first_not_of(' ', pos)) != std::string::npos) {
        const size_t end = levels.find(' ', pos);
        t->levels.push_back(levels.substr(pos, end - pos));
        pos = end;
    }
    t->levels.push_back("system");
    int named = 0;
    for (const std::string& l : t->levels) {
        t->lat.push_back(t->plain_lat);
        t->bw.push_back(t->plain_bw);
        const int a = read_table(std::string(LAT) + "." + l, &t->lat.back(), err, errsize);
        const int b = a < 0 ? -1 : read_table(std::string(BW) + "." + l, &t->bw.back(), err, errsize);
        if (a < 0 || b < 0)
            return -1;
        named += a + b;
    }
    if (!lat && !bw && !named)
        return 0; /* no factors: SMPI's own (the platform's <config>) */
    if (!lat || !bw)
        return fail(err, errsize,
                    std::string("platform property ") + (lat ? BW : LAT) +
                        " missing: a platform with collsim.factor.* properties gives both " + LAT +
                        " and " + BW + " (the network model's factors)");
    for (const char* opt : {"smpi/lat-factor", "smpi/bw-factor"})
        if (!simgrid::config::is_default(opt))
            return fail(err, errsize,
                        std::string("the platform gives collsim.factor.* properties and sets ") + opt +
                            " (its <config> or --cfg): SimGrid cannot use both; remove " + opt);
    t->per_level = full && named;
    if (t->per_level)
        for (size_t l = 0; l + 1 < t->levels.size(); l++) {
            int found = -1;
            for (int k = 0; k < coll_loc_file_nlevels(); k++)
                if (t->levels[l] == coll_loc_file_level_name(k))
                    found = k;
            if (found < 0)
                return fail(err, errsize, "collsim.levels names " + t->levels[l] +
                                              ", which the locality file does not have");
            t->file_level.push_back(found);
        }
    tables = t.release();
    if (tables->per_level)
        register_host(wrank);
    auto* model = s4u::Engine::get_instance()->get_netzone_root()->get_network_model();
    try {
        model->set_lat_factor_cb(lat_factor);
        model->set_bw_factor_cb(bw_factor);
    } catch (const std::exception& e) {
        return fail(err, errsize, std::string("installing the network factors: ") + e.what());
    }
    return 0;
}
