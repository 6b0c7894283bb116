// Sequential and cyclic rank mappings, generated from a platform's hosts.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>
#include <unistd.h>

#include "wrapper.h"

namespace {

std::vector<int> map(const char *platform, const char *mapping, int np, bool over = false)
{
    std::vector<int> v(np);
    char err[2048];
    EXPECT_EQ(tw_map(platform, mapping, np, over, v.data(), err, sizeof err), 0) << err;
    return v;
}

std::string map_error(const char *platform, const char *mapping, int np, bool over = false)
{
    std::vector<int> v(np > 0 ? np : 1);
    char err[2048] = "";
    EXPECT_EQ(tw_map(platform, mapping, np, over, v.data(), err, sizeof err), -1);
    return err;
}

const std::string data = COLLSIM_TEST_DATA_DIR;

TEST(Platform, ShapesOfTheShippedPlatforms)
{
    struct { const char *name; int nodes; long cores; } want[] = {
        {"yahoo", 16, 128}, {"cervino", 5, 160}, {"fattree-32k", 1024, 32768},
        {"ranger", 3936, 62976}, {"kandalla-testbed", 40, 8 * 16 + 32 * 8}};
    for (auto &w : want) {
        int nodes;
        long cores;
        char err[2048];
        ASSERT_EQ(tw_platform_shape(w.name, &nodes, &cores, err, sizeof err), 0) << err;
        EXPECT_EQ(nodes, w.nodes) << w.name;
        EXPECT_EQ(cores, w.cores) << w.name;
    }
}

TEST(Platform, BadPlatformsAreRejectedWithFileAndLine)
{
    int nodes;
    long cores;
    char err[2048];
    ASSERT_EQ(tw_platform_shape("yahooo", &nodes, &cores, err, sizeof err), -1);
    EXPECT_NE(std::string(err).find("unknown platform 'yahooo'"), std::string::npos) << err;
    EXPECT_NE(std::string(err).find("valid: cervino, "), std::string::npos) << err;
    EXPECT_NE(std::string(err).find("fattree-32k, "), std::string::npos) << err;
    EXPECT_NE(std::string(err).find("yahoo"), std::string::npos) << err;
    std::string f = data + "/malformed-platform.xml";
    ASSERT_EQ(tw_platform_shape(f.c_str(), &nodes, &cores, err, sizeof err), -1);
    EXPECT_NE(std::string(err).find("malformed-platform.xml:"), std::string::npos) << err;
    f = data + "/bad-cores.xml";
    ASSERT_EQ(tw_platform_shape(f.c_str(), &nodes, &cores, err, sizeof err), -1);
    EXPECT_NE(std::string(err).find("bad-cores.xml:4"), std::string::npos) << err;
    EXPECT_NE(std::string(err).find("core=\"two\""), std::string::npos) << err;
}

// A one-cluster, one-link platform in a temporary file with the given
// attributes; removed by the caller.
std::string temp_platform(const std::string &cluster, const std::string &link,
                          const std::string &radical = "0-1")
{
    char path[] = "/tmp/collsim-test-platform-XXXXXX.xml";
    int fd = mkstemps(path, 4);
    EXPECT_GE(fd, 0);
    std::string xml = "<?xml version='1.0'?>\n"
                      "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                      "<platform version=\"4.1\">\n"
                      "  <zone id=\"z\" routing=\"Full\">\n"
                      "    <cluster id=\"c\" prefix=\"n\" suffix=\"\" radical=\"" + radical + "\" " + cluster +
                      "/>\n    <link id=\"l1\" " + link + "/>\n  </zone>\n</platform>\n";
    EXPECT_EQ(write(fd, xml.data(), xml.size()), (ssize_t)xml.size());
    close(fd);
    return path;
}

// "" when the platform loads, else the error
std::string platform_error(const std::string &cluster, const std::string &link,
                           const std::string &radical = "0-1")
{
    std::string f = temp_platform(cluster, link, radical);
    int nodes;
    long cores;
    char err[2048] = "";
    tw_platform_shape(f.c_str(), &nodes, &cores, err, sizeof err);
    unlink(f.c_str());
    return err;
}

const std::string good_cluster = "speed=\"1Gf\" bw=\"1GBps\" lat=\"1us\"";
const std::string good_link = "bandwidth=\"1GBps\" latency=\"1us\"";

// SimGrid 3.32 aborts ("The Impossible Did Happen") on these, or runs a
// negative latency; collsim names the file, line, element and attribute.
TEST(Platform, BadLinkValuesAreRejectedBeforeSimGrid)
{
    std::string e = platform_error(good_cluster, "bandwidth=\"1GBps\" latency=\"-5us\"");
    EXPECT_NE(e.find(".xml:6: <link id=\"l1\" latency=\"-5us\">: latency must be >= 0 (a number "
                     "with a unit: s, ms, us, ns"),
              std::string::npos) << e;
    e = platform_error(good_cluster, "bandwidth=\"0\" latency=\"1us\"");
    EXPECT_NE(e.find(":6: <link id=\"l1\" bandwidth=\"0\">: bandwidth must be > 0 (a number with "
                     "a unit: Bps, kBps, MBps, GBps"),
              std::string::npos) << e;
    e = platform_error(good_cluster, "bandwidth=\"10Gbbps\" latency=\"1us\"");
    EXPECT_NE(e.find(":6: <link id=\"l1\" bandwidth=\"10Gbbps\">: bandwidth has an unknown unit "
                     "'Gbbps'"),
              std::string::npos) << e;
    e = platform_error(good_cluster, "bandwidth=\"fast\" latency=\"1us\"");
    EXPECT_NE(e.find("bandwidth=\"fast\">: bandwidth is not a number"), std::string::npos) << e;
    e = platform_error(good_cluster, "bandwidth=\"1GBps\" latency=\"1 us\"");
    EXPECT_NE(e.find("latency has an unknown unit ' us'"), std::string::npos) << e;
}

// A radical of millions of hosts filled the memory (and the region numbering took
// minutes: it compared every host with every earlier one); one ending at
// LONG_MAX never ended. Found reviewing the loaders for the fuzz targets (tests/fuzz).
TEST(Platform, HugeClustersAreRefusedLargeOnesLoad)
{
    EXPECT_EQ(platform_error(good_cluster, good_link, "0-131071"), "");
    std::string e = platform_error(good_cluster, good_link, "0-131072");
    EXPECT_NE(e.find(".xml:5: <cluster radical=\"0-131072\">: the platform has more than 131072 "
                     "hosts"),
              std::string::npos) << e;
    e = platform_error(good_cluster, good_link, "0-3,9223372036854775806-9223372036854775807");
    EXPECT_EQ(e, "");
    e = platform_error(good_cluster, good_link, "0-999999999999");
    EXPECT_NE(e.find("more than 131072 hosts"), std::string::npos) << e;
}

TEST(Platform, BadClusterValuesAreRejectedBeforeSimGrid)
{
    struct { std::string attrs, want; } cases[] = {
        {"speed=\"1Gf\" bw=\"1GBps\" lat=\"-1ns\"", "lat=\"-1ns\">: lat must be >= 0"},
        {"speed=\"1Gf\" bw=\"0GBps\" lat=\"1us\"", "bw=\"0GBps\">: bw must be > 0"},
        {"speed=\"1Gf\" bw=\"1GBps\" lat=\"1us\" loopback_bw=\"1GBs\"",
         "loopback_bw=\"1GBs\">: loopback_bw has an unknown unit 'GBs'"},
        {"speed=\"1Gf\" bw=\"1GBps\" lat=\"1us\" loopback_lat=\"1sec\"",
         "loopback_lat=\"1sec\">: loopback_lat has an unknown unit 'sec'"},
        {"speed=\"1GHz\" bw=\"1GBps\" lat=\"1us\"",
         "speed=\"1GHz\">: speed has an unknown unit 'GHz' (a number with a unit: f, kf, Mf, Gf"},
    };
    for (auto &c : cases) {
        std::string e = platform_error(c.attrs, good_link);
        EXPECT_NE(e.find(":5: <cluster id=\"c\" " + c.want), std::string::npos)
            << c.attrs << ": " << e;
    }
}

// What SimGrid 3.32 accepts (xbt_parse_units.cpp) still loads.
TEST(Platform, EverySimGridUnitIsAccepted)
{
    for (const char *bw : {"1GBps", "9.4148Gbps", "2KiBps", "3Mibps", "100", "1e9Bps", "1TBps",
                           "5kbps", "1GBps,2GBps"})
        EXPECT_EQ(platform_error(good_cluster, std::string("bandwidth=\"") + bw + "\" latency=\"0\""), "")
            << bw;
    for (const char *lat : {"0", "1.5", "2s", "3ms", "0.4us", "7ns", "1ps", "1m", "1h", "1d", "1w"})
        EXPECT_EQ(platform_error(good_cluster, std::string("bandwidth=\"1GBps\" latency=\"") + lat + "\""), "")
            << lat;
    for (const char *speed : {"1Gf", "1f", "2kf", "3Mf", "1Tf", "1gigaflops", "5flops", "1Gf,0.5Gf"})
        EXPECT_EQ(platform_error(std::string("speed=\"") + speed + "\" bw=\"1GBps\" lat=\"1us\"", good_link), "")
            << speed;
}

// The error of loading a platform whose <platform> holds body ("" when it loads).
std::string platform_body_error(const std::string &body)
{
    char path[] = "/tmp/collsim-test-platform-XXXXXX.xml";
    int fd = mkstemps(path, 4);
    EXPECT_GE(fd, 0);
    std::string xml = "<?xml version='1.0'?>\n<platform version=\"4.1\">\n" + body + "</platform>\n";
    EXPECT_EQ(write(fd, xml.data(), xml.size()), (ssize_t)xml.size());
    close(fd);
    int nodes;
    long cores;
    char err[2048] = "";
    tw_platform_shape(path, &nodes, &cores, err, sizeof err);
    unlink(path);
    return err;
}

// The same for a platform whose top zone holds body.
std::string zone_error(const std::string &body, const std::string &routing = "Full")
{
    return platform_body_error("  <zone id=\"z\" routing=\"" + routing + "\">\n" + body + "  </zone>\n");
}

// A zone's body of two clusters, k and m (hosts k0, k1, m0, m1), and a link l1; a <zoneRoute>
// joining k and m through their routers.
const std::string two_clusters =
    "    <cluster id=\"k\" prefix=\"k\" suffix=\"\" radical=\"0-1\" speed=\"1Gf\" bw=\"1GBps\" "
    "lat=\"1us\"/>\n    <cluster id=\"m\" prefix=\"m\" suffix=\"\" radical=\"0-1\" speed=\"1Gf\" "
    "bw=\"1GBps\" lat=\"1us\"/>\n    <link id=\"l1\" bandwidth=\"1GBps\" latency=\"1us\"/>\n";
const std::string k_to_m = "    <zoneRoute src=\"k\" dst=\"m\" gw_src=\"kk_router\" gw_dst=\"mm_router\">"
                           "<link_ctn id=\"l1\"/></zoneRoute>\n";

// SimGrid 3.32 finds these only inside smpirun, with a multi-line abort ("Link not found: l2",
// "no connecting path between these two hosts"); a duplicate host id also made the header count
// one node more than SimGrid has.
TEST(Platform, RoutesAndHostIdsAreCheckedBeforeSimGrid)
{
    const std::string hosts = "    <host id=\"a\" speed=\"1Gf\"/>\n    <host id=\"b\" speed=\"1Gf\"/>\n"
                              "    <host id=\"c\" speed=\"1Gf\"/>\n"
                              "    <link id=\"l1\" bandwidth=\"1GBps\" latency=\"1us\"/>\n";
    const std::string ab = "    <route src=\"a\" dst=\"b\"><link_ctn id=\"l1\"/></route>\n";
    const std::string ac = "    <route src=\"a\" dst=\"c\"><link_ctn id=\"l1\"/></route>\n";
    const std::string bc = "    <route src=\"b\" dst=\"c\"><link_ctn id=\"l1\"/></route>\n";
    EXPECT_EQ(zone_error(hosts + ab + ac + bc), "");
    std::string e = zone_error(hosts + ab + ac);
    EXPECT_NE(e.find(".xml:3: <zone id=\"z\" routing=\"Full\">: no route from 'b' to 'c' (a Full "
                     "zone needs a <route>"),
              std::string::npos) << e;
    e = zone_error(hosts + ab + ac + "    <route src=\"b\" dst=\"c\" symmetrical=\"NO\"><link_ctn "
                                       "id=\"l1\"/></route>\n");
    EXPECT_NE(e.find("no route from 'c' to 'b'"), std::string::npos) << e;
    e = zone_error(hosts + ab + ac + "    <route src=\"b\" dst=\"c\"><link_ctn id=\"l2\"/></route>\n");
    EXPECT_NE(e.find(".xml:10: <link_ctn id=\"l2\">: no link 'l2' in the file (links: l1)"),
              std::string::npos) << e;
    e = zone_error(hosts + ab + ac + "    <route src=\"b\" dst=\"zz\"><link_ctn id=\"l1\"/></route>\n");
    EXPECT_NE(e.find(".xml:10: <route dst=\"zz\">: no host or router 'zz' in the file (hosts and "
                     "routers: a, b, c)"),
              std::string::npos) << e;
    e = zone_error("    <zone id=\"y\" routing=\"Full\">\n    <host id=\"a\" speed=\"1Gf\"/>\n"
                   "    <host id=\"b\" speed=\"1Gf\"/>\n" + ab + "    </zone>\n    <zone id=\"x\" "
                   "routing=\"Full\">\n    <host id=\"c\" speed=\"1Gf\"/>\n"
                   "    <link id=\"l1\" bandwidth=\"1GBps\" latency=\"1us\"/>\n    </zone>\n");
    EXPECT_NE(e.find(".xml:7: <link_ctn id=\"l1\">: link 'l1' is defined only later, at line 11"),
              std::string::npos) << e;
    e = zone_error("    <host id=\"a\" speed=\"1Gf\"/>\n    <host id=\"b\" speed=\"1Gf\"/>\n"
                   "    <cluster id=\"k\" prefix=\"\" suffix=\"\" radical=\"0-1\" speed=\"1Gf\" "
                   "bw=\"1GBps\" lat=\"1us\"/>\n    <host id=\"a\" speed=\"1Gf\"/>\n");
    EXPECT_NE(e.find(".xml:7: host id 'a' is already defined at line 4 (host ids must be unique"),
              std::string::npos) << e;
    e = zone_error("    <cluster id=\"k\" prefix=\"n\" suffix=\"\" radical=\"0-1\" speed=\"1Gf\" "
                   "bw=\"1GBps\" lat=\"1us\"/>\n    <cluster id=\"m\" prefix=\"n\" suffix=\"\" "
                   "radical=\"1-2\" speed=\"1Gf\" bw=\"1GBps\" lat=\"1us\"/>\n");
    EXPECT_NE(e.find(".xml:5: host id 'n1' is already defined at line 4"), std::string::npos) << e;
    // zones: a zoneRoute names zones and gateways; a graph zone must connect its members
    const std::string &two = two_clusters;
    const std::string &km = k_to_m;
    EXPECT_EQ(zone_error(two + km), "");
    EXPECT_EQ(zone_error(two + km, "Floyd"), "");
    e = zone_error(two + "    <zoneRoute src=\"k\" dst=\"mx\" gw_src=\"kk_router\" gw_dst=\"mm_router\">"
                         "<link_ctn id=\"l1\"/></zoneRoute>\n");
    EXPECT_NE(e.find(":7: <zoneRoute dst=\"mx\">: no zone 'mx' in the file (zones: k, m, z)"),
              std::string::npos) << e;
    e = zone_error(two, "Floyd");
    EXPECT_NE(e.find(":3: <zone id=\"z\" routing=\"Floyd\">: no route from 'k' to 'm'"),
              std::string::npos) << e;
}

// SimGrid 3.32 refuses these only inside smpirun: an empty route with a multi-line abort ("Empty
// route (between a and b) forbidden."), elements out of its DTD's order with "Starting tag <host>
// is not allowed here.", an element it does not know with "Unexpected character", a link id given
// twice with "Link 'l1' declared several times in the platform." and a backtrace.
TEST(Platform, EmptyRoutesAndElementOrderAreCheckedBeforeSimGrid)
{
    const std::string hosts = "    <host id=\"a\" speed=\"1Gf\"/>\n    <host id=\"b\" speed=\"1Gf\"/>\n"
                              "    <link id=\"l1\" bandwidth=\"1GBps\" latency=\"1us\"/>\n";
    const std::string ab = "    <route src=\"a\" dst=\"b\"><link_ctn id=\"l1\"/></route>\n";
    EXPECT_EQ(zone_error(hosts + ab), "");
    std::string e = zone_error(hosts + "    <route src=\"a\" dst=\"b\"></route>\n");
    EXPECT_NE(e.find(".xml:7: <route src=\"a\" dst=\"b\"> names no link: SimGrid refuses an empty "
                     "route (give it at least one <link_ctn id=\"LINK\"/>)"),
              std::string::npos) << e;
    e = zone_error(hosts + "    <bypassRoute src=\"a\" dst=\"b\"/>\n" + ab);
    EXPECT_NE(e.find(".xml:7: <bypassRoute src=\"a\" dst=\"b\"> names no link"), std::string::npos)
        << e;
    const std::string &two = two_clusters;
    e = zone_error(two + "    <zoneRoute src=\"k\" dst=\"m\" gw_src=\"kk_router\" "
                         "gw_dst=\"mm_router\"></zoneRoute>\n");
    EXPECT_NE(e.find(".xml:7: <zoneRoute src=\"k\" dst=\"m\"> names no link"), std::string::npos)
        << e;
    // order: a zone's hosts, routers and links before its routes; props first
    e = zone_error(hosts + ab + "    <host id=\"c\" speed=\"1Gf\"/>\n");
    EXPECT_NE(e.find(".xml:8: <host> after <route> (line 7) in <zone id=\"z\">: SimGrid (DTD 4.1) "
                     "takes zone's elements in this order: prop; then include storage_type storage "
                     "host cabinet router link backbone trace trace_connect host_link; then route "
                     "bypassRoute trace trace_connect"),
              std::string::npos) << e;
    e = zone_error(hosts + "    <prop id=\"p\" value=\"1\"/>\n" + ab);
    EXPECT_NE(e.find(".xml:7: <prop> after <host> (line 4) in <zone id=\"z\">"), std::string::npos)
        << e;
    e = zone_error(two + "    <zoneRoute src=\"k\" dst=\"m\" gw_src=\"kk_router\" gw_dst=\"mm_router\">"
                         "<link_ctn id=\"l1\"/></zoneRoute>\n    <link id=\"l2\" bandwidth=\"1GBps\" "
                         "latency=\"1us\"/>\n");
    EXPECT_NE(e.find(".xml:8: <link> after <zoneRoute> (line 7) in <zone id=\"z\">"), std::string::npos)
        << e;
    // a zone holds zones and clusters, or hosts and routers
    e = zone_error(two + "    <host id=\"a\" speed=\"1Gf\"/>\n");
    EXPECT_NE(e.find(".xml:7: <host> in <zone id=\"z\">, which is a zone of zones: SimGrid (DTD 4.1) "
                     "takes either zones, clusters and links then <zoneRoute>s, or hosts, routers "
                     "and links then <route>s in one zone"),
              std::string::npos) << e;
    e = zone_error(hosts + "    <cluster id=\"k\" prefix=\"k\" suffix=\"\" radical=\"0-1\" "
                           "speed=\"1Gf\" bw=\"1GBps\" lat=\"1us\"/>\n" + ab);
    EXPECT_NE(e.find(".xml:7: <cluster> in <zone id=\"z\">, which is a zone of hosts"),
              std::string::npos) << e;
    // elements where SimGrid takes none, or none of its own; <config> before the zones
    e = zone_error("    <host id=\"a\" speed=\"1Gf\"><link_ctn id=\"l1\"/></host>\n");
    EXPECT_NE(e.find(".xml:4: <link_ctn> in <host id=\"a\">: SimGrid (DTD 4.1) takes disk prop mount"),
              std::string::npos) << e;
    // link ids
    e = zone_error(hosts + "    <link id=\"l1\" bandwidth=\"2GBps\" latency=\"1us\"/>\n" + ab);
    EXPECT_NE(e.find(".xml:7: link id 'l1' is already defined at line 6 (link ids must be unique"),
              std::string::npos) << e;
    // SimGrid 3.32 loads a <backbone> of a link's id
    EXPECT_EQ(zone_error(hosts + "    <backbone id=\"l1\" bandwidth=\"2GBps\" latency=\"1us\"/>\n" +
                         ab),
              "");
    e = zone_error(hosts + "    <link id=\"l1_UP\" bandwidth=\"2GBps\" latency=\"1us\"/>\n"
                           "    <link id=\"l1\" bandwidth=\"2GBps\" latency=\"1us\" "
                           "sharing_policy=\"SPLITDUPLEX\"/>\n" + ab);
    EXPECT_NE(e.find(".xml:8: link id 'l1' is already defined at line 6"), std::string::npos) << e;
    e = zone_error(hosts + "    <hots id=\"c\" speed=\"1Gf\"/>\n" + ab);
    EXPECT_NE(e.find(".xml:7: <hots> is not an element of SimGrid's platform files (DTD 4.1)"),
              std::string::npos) << e;
    e = platform_body_error("  <zone id=\"z\" routing=\"Full\">\n" + hosts + ab + "  </zone>\n"
                            "  <config><prop id=\"smpi/async-small-thresh\" value=\"0\"/></config>\n");
    EXPECT_NE(e.find(".xml:9: <config> after <zone> (line 3) in <platform>: SimGrid (DTD 4.1) takes "
                     "platform's elements in this order: config random; then include cluster "
                     "cabinet peer AS zone trace trace_connect; then process actor"),
              std::string::npos) << e;
}

// SimGrid 3.32 aborts on these inside smpirun (exit 134, a multi-line "Uncaught exception" or
// CRITICAL log): a route given twice in one direction ("The route between a and b already
// exists"), a second top-level zone or cluster ("Impossible to create host: k0. Invalid CPU model:
// nullptr"), an unknown routing ("Not a valid model!"); a route naming a host of another zone
// ("Internal error: a@y and b@x are not in the same netzone"), a gateway outside its zone, a
// router or zone of a host's name, a <peer> outside a Vivaldi zone. A lower-case "full" is a Full
// zone to SimGrid: left unchecked, its missing route was a segmentation fault.
TEST(Platform, RoutesGivenTwiceTopLevelAndRoutingAreCheckedBeforeSimGrid)
{
    const std::string hosts = "    <host id=\"a\" speed=\"1Gf\"/>\n    <host id=\"b\" speed=\"1Gf\"/>\n"
                              "    <link id=\"l1\" bandwidth=\"1GBps\" latency=\"1us\"/>\n";
    const std::string ab = "    <route src=\"a\" dst=\"b\"><link_ctn id=\"l1\"/></route>\n";
    const std::string ab_one = "    <route src=\"a\" dst=\"b\" symmetrical=\"NO\"><link_ctn "
                               "id=\"l1\"/></route>\n";
    const std::string ba_one = "    <route src=\"b\" dst=\"a\" symmetrical=\"NO\"><link_ctn "
                               "id=\"l1\"/></route>\n";
    EXPECT_EQ(zone_error(hosts + ab), "");
    EXPECT_EQ(zone_error(hosts + ab_one + ba_one), "");
    // (a) a route twice, or the reverse of a symmetrical one, in a Full or a graph zone
    std::string e = zone_error(hosts + ab + ab);
    EXPECT_NE(e.find(".xml:8: <route src=\"a\" dst=\"b\">: the route <route src=\"a\" dst=\"b\"> "
                     "(line 7) already joins these two in this direction (routes are symmetrical "
                     "unless symmetrical=\"NO\""),
              std::string::npos) << e;
    e = zone_error(hosts + ab + ba_one);
    EXPECT_NE(e.find(".xml:8: <route src=\"b\" dst=\"a\">: the route <route src=\"a\" dst=\"b\"> "
                     "(line 7) already joins"),
              std::string::npos) << e;
    e = zone_error(hosts + ab + "    <route src=\"b\" dst=\"a\"><link_ctn id=\"l1\"/></route>\n",
                   "Floyd");
    EXPECT_NE(e.find(".xml:8: <route src=\"b\" dst=\"a\">: the route"), std::string::npos) << e;
    e = zone_error(hosts + ab + ab_one, "DijkstraCache");
    EXPECT_NE(e.find(".xml:8: <route src=\"a\" dst=\"b\">: the route"), std::string::npos) << e;
    const std::string &two = two_clusters;
    const std::string &km = k_to_m;
    e = zone_error(two + km + km);
    EXPECT_NE(e.find(".xml:8: <zoneRoute src=\"k\" dst=\"m\">: the route <zoneRoute src=\"k\" "
                     "dst=\"m\"> (line 7) already joins"),
              std::string::npos) << e;
    const std::string bypass = "    <bypassRoute src=\"a\" dst=\"b\"><link_ctn id=\"l1\"/></bypassRoute>\n";
    EXPECT_EQ(zone_error(hosts + ab + bypass), "");
    e = zone_error(hosts + ab + bypass + bypass);
    EXPECT_NE(e.find(".xml:9: <bypassRoute src=\"a\" dst=\"b\">: a bypass route from 'a' to 'b' is "
                     "already given at line 8"),
              std::string::npos) << e;
    // (b) one top-level zone or cluster: SimGrid gives a second one no parent
    const std::string z = "  <zone id=\"z\" routing=\"Full\">\n" + hosts + ab + "  </zone>\n";
    const std::string k = "  <cluster id=\"k\" prefix=\"k\" suffix=\"\" radical=\"0-1\" speed=\"1Gf\" "
                          "bw=\"1GBps\" lat=\"1us\"/>\n";
    EXPECT_EQ(platform_body_error(k), "");
    e = platform_body_error(z + k);
    EXPECT_NE(e.find(".xml:9: <cluster id=\"k\"> beside <zone id=\"z\"> (line 3) at the top level: "
                     "SimGrid 3.32 takes one top-level <zone> or <cluster>, the platform's root"),
              std::string::npos) << e;
    e = platform_body_error(k + "  <cluster id=\"m\" prefix=\"m\" suffix=\"\" radical=\"0-1\" "
                                "speed=\"1Gf\" bw=\"1GBps\" lat=\"1us\"/>\n");
    EXPECT_NE(e.find(".xml:4: <cluster id=\"m\"> beside <cluster id=\"k\"> (line 3)"),
              std::string::npos) << e;
    e = platform_body_error("  <zone id=\"y\" routing=\"Full\">\n  </zone>\n" + z);
    EXPECT_NE(e.find(".xml:5: <zone id=\"z\"> beside <zone id=\"y\"> (line 3)"), std::string::npos)
        << e;
    // (c) routing: SimGrid 3.32's models, in any case
    e = zone_error(hosts + ab, "Fulll");
    EXPECT_NE(e.find(".xml:3: <zone id=\"z\">: unknown routing=\"Fulll\" (SimGrid 3.32 takes: Full, "
                     "Floyd, Dijkstra, DijkstraCache, Cluster, None, Vivaldi, Wifi; in any case)"),
              std::string::npos) << e;
    EXPECT_EQ(zone_error(hosts + ab, "full"), "");
    e = zone_error(hosts, "full");
    EXPECT_NE(e.find(".xml:3: <zone id=\"z\" routing=\"full\">: no route from 'a' to 'b'"),
              std::string::npos) << e;
    // a route joins two members of its own zone; a gateway lies inside its zone
    const std::string y = "    <zone id=\"y\" routing=\"Full\">\n    <host id=\"a\" speed=\"1Gf\"/>\n"
                          "    </zone>\n";
    const std::string x = "    <zone id=\"x\" routing=\"Full\">\n    <host id=\"b\" speed=\"1Gf\"/>\n"
                          "    <host id=\"c\" speed=\"1Gf\"/>\n"
                          "    <link id=\"l1\" bandwidth=\"1GBps\" latency=\"1us\"/>\n"
                          "    <route src=\"b\" dst=\"c\"><link_ctn id=\"l1\"/></route>\n";
    const std::string lt = "    <link id=\"lt\" bandwidth=\"1GBps\" latency=\"1us\"/>\n";
    const std::string yx = "    <zoneRoute src=\"y\" dst=\"x\" gw_src=\"a\" gw_dst=\"b\"><link_ctn "
                           "id=\"lt\"/></zoneRoute>\n";
    EXPECT_EQ(zone_error(y + x + "    </zone>\n" + lt + yx), "");
    e = zone_error(y + x + "    <route src=\"a\" dst=\"b\"><link_ctn id=\"l1\"/></route>\n"
                           "    </zone>\n" + lt + yx);
    EXPECT_NE(e.find(".xml:12: <route src=\"a\">: 'a' is not a host or router of <zone id=\"x\">, "
                     "the zone the route is in (its hosts and routers: b, c;"),
              std::string::npos) << e;
    e = zone_error(y + x + "    </zone>\n" + lt + "    <zoneRoute src=\"y\" dst=\"x\" gw_src=\"b\" "
                   "gw_dst=\"a\"><link_ctn id=\"lt\"/></zoneRoute>\n");
    EXPECT_NE(e.find(".xml:14: <zoneRoute gw_src=\"b\">: 'b' is not in zone 'y', its src"),
              std::string::npos) << e;
    EXPECT_EQ(zone_error(two + "    <zoneRoute src=\"k\" dst=\"m\" gw_src=\"k1\" gw_dst=\"m0\">"
                         "<link_ctn id=\"l1\"/></zoneRoute>\n"),
              "");
    e = zone_error(two + "    <zoneRoute src=\"k\" dst=\"m\" gw_src=\"m1\" gw_dst=\"m0\">"
                         "<link_ctn id=\"l1\"/></zoneRoute>\n");
    EXPECT_NE(e.find(".xml:7: <zoneRoute gw_src=\"m1\">: 'm1' is not in cluster 'k', its src"),
              std::string::npos) << e;
    // hosts, routers, zones and clusters: one namespace
    e = zone_error(hosts + "    <router id=\"a\"/>\n" + ab);
    EXPECT_NE(e.find(".xml:7: 'a' names a router here and a host at line 4 (hosts, routers, zones "
                     "and clusters share one namespace"),
              std::string::npos) << e;
    e = zone_error("    <zone id=\"a\" routing=\"Full\">\n    <host id=\"a\" speed=\"1Gf\"/>\n"
                   "    </zone>\n");
    EXPECT_NE(e.find(".xml:5: 'a' names a host here and a zone at line 4"), std::string::npos) << e;
    // a <peer> needs a Vivaldi zone
    e = zone_error(two + "    <peer id=\"p\" speed=\"1Gf\" bw_in=\"1GBps\" bw_out=\"1GBps\"/>\n" + km);
    EXPECT_NE(e.find(".xml:7: <peer id=\"p\"> in <zone id=\"z\">: SimGrid 3.32 takes a <peer> only "
                     "in a zone of routing=\"Vivaldi\""),
              std::string::npos) << e;
    // elements SimGrid removed; a link's direction where SimGrid finds the link by it
    e = zone_error("    <storage_type id=\"st\" size=\"1GB\"/>\n" + hosts + ab);
    EXPECT_NE(e.find(".xml:4: <storage_type>: SimGrid removed this element (in 3.27) and 3.32 "
                     "refuses it"),
              std::string::npos) << e;
    const std::string split = "    <host id=\"a\" speed=\"1Gf\"/>\n    <host id=\"b\" speed=\"1Gf\"/>\n"
                              "    <link id=\"l1\" bandwidth=\"1GBps\" latency=\"1us\" "
                              "sharing_policy=\"SPLITDUPLEX\"/>\n";
    EXPECT_EQ(zone_error(split + "    <route src=\"a\" dst=\"b\"><link_ctn id=\"l1\" "
                                 "direction=\"UP\"/></route>\n"),
              "");
    EXPECT_EQ(zone_error(split + "    <route src=\"a\" dst=\"b\"><link_ctn id=\"l1_DOWN\"/></route>\n"),
              "");
    e = zone_error(split + ab);
    EXPECT_NE(e.find(".xml:7: <link_ctn id=\"l1\">: link 'l1' (line 6) is sharing_policy=\"SPLITDUPLEX\": "
                     "give direction=\"UP\" or \"DOWN\", or name l1_UP or l1_DOWN"),
              std::string::npos) << e;
    e = zone_error(hosts + "    <route src=\"a\" dst=\"b\"><link_ctn id=\"l1\" direction=\"DOWN\"/>"
                           "</route>\n");
    EXPECT_NE(e.find(".xml:7: <link_ctn id=\"l1\" direction=\"DOWN\">: link 'l1' (line 6) is not "
                     "sharing_policy=\"SPLITDUPLEX\""),
              std::string::npos) << e;
    // a Cluster zone's host links name its hosts and links
    const std::string host_links = "    <host_link id=\"a\" up=\"l1\" down=\"l1\"/>\n";
    EXPECT_EQ(zone_error(hosts + host_links + "    <host_link id=\"b\" up=\"l1\" down=\"l1\"/>\n",
                         "Cluster"),
              "");
    e = zone_error(hosts + host_links + "    <host_link id=\"b\" up=\"l1\" down=\"l9\"/>\n",
                   "Cluster");
    EXPECT_NE(e.find(".xml:8: <host_link down=\"l9\">: no link 'l9' in the file (links: l1)"),
              std::string::npos) << e;
    // the whole files of tests/data (the platform fuzz target's seeds), each refused at its line
    const std::pair<const char *, const char *> files[] = {
        {"platform-route-twice.xml", ":9: <route src=\"a\" dst=\"b\">: the route"},
        {"platform-route-twice-floyd.xml", ":9: <route src=\"b\" dst=\"a\">: the route"},
        {"platform-bypass-route-twice.xml", ":10: <bypassRoute src=\"a\" dst=\"b\">: a bypass"},
        {"platform-cluster-beside-zone.xml", ":10: <cluster id=\"k\"> beside <zone id=\"z\">"},
        {"platform-two-top-level-zones.xml", ":10: <zone id=\"y\"> beside <zone id=\"z\">"},
        {"platform-unknown-routing.xml", ":4: <zone id=\"z\">: unknown routing=\"Fulll\""},
        {"platform-lower-case-full-without-route.xml", ":4: <zone id=\"z\" routing=\"full\">: no route"},
        {"platform-route-of-another-zone.xml", ":14: <route src=\"a\">: 'a' is not a host or router"},
        {"platform-gateway-outside-its-zone.xml", ":12: <zoneRoute gw_src=\"b\">: 'b' is not in zone"},
        {"platform-router-of-a-host-name.xml", ":8: 'a' names a router here and a host at line 5"},
        {"platform-zone-of-a-host-name.xml", ":6: 'a' names a host here and a zone at line 5"},
        {"platform-removed-storage-type.xml", ":5: <storage_type>: SimGrid removed this element"},
        {"platform-split-duplex-link-without-direction.xml", ":8: <link_ctn id=\"l1\">: link 'l1' (line 7)"},
        {"platform-host-link-to-no-link.xml", ":8: <host_link down=\"nope\">: no link 'nope'"},
    };
    for (const auto &[name, what] : files) {
        int nodes;
        long cores;
        char err[2048] = "";
        std::string f = data + "/" + name;
        EXPECT_EQ(tw_platform_shape(f.c_str(), &nodes, &cores, err, sizeof err), -1) << name;
        EXPECT_EQ(std::string(err).find(f + what), 0u) << err;
        EXPECT_EQ(std::string(err).find('\n'), std::string::npos) << err;
    }
}

TEST(Mapping, SequentialFillsEachNode)
{
    auto v = map("yahoo", "sequential", 13);
    for (int r = 0; r < 13; r++)
        EXPECT_EQ(v[r], r / 8) << "rank " << r;
}

TEST(Mapping, CyclicDealsRoundRobin)
{
    auto v = map("yahoo", "cyclic", 37);
    for (int r = 0; r < 37; r++)
        EXPECT_EQ(v[r], r % 16) << "rank " << r;
}

TEST(Mapping, EveryMappingRespectsNodeCapacity)
{
    for (const char *m : {"sequential", "cyclic"})
        for (int np : {1, 2, 7, 8, 9, 64, 127, 128}) {
            auto v = map("yahoo", m, np);
            std::map<int, int> count;
            for (int node : v)
                count[node]++;
            for (auto &c : count)
                EXPECT_LE(c.second, 8) << m << " np=" << np << " node " << c.first;
            if (std::string(m) == "cyclic") { // balanced: node loads differ by at most one
                for (int node = 0; node < 16; node++)
                    EXPECT_LE(std::abs(count[node] - count[0]), 1) << "np=" << np;
            }
        }
}

TEST(Mapping, OversubscriptionIsAnErrorUnlessAllowed)
{
    std::string e = map_error("yahoo", "sequential", 129);
    EXPECT_NE(e.find("129 processes do not fit"), std::string::npos) << e;
    EXPECT_NE(e.find("at most 128"), std::string::npos) << e;
    // the Sparbit paper's 2 processes per core: 16 per node
    auto seq = map("yahoo", "sequential", 256, true);
    for (int r = 0; r < 256; r++)
        ASSERT_EQ(seq[r], r / 16) << r;
    auto cyc = map("yahoo", "cyclic", 256, true);
    for (int r = 0; r < 256; r++)
        ASSERT_EQ(cyc[r], r % 16) << r;
    auto odd = map("yahoo", "sequential", 133, true); // first load above one per core
    EXPECT_EQ(odd[127], 7);
    EXPECT_EQ(odd[128], 8);
    EXPECT_EQ(odd[132], 8);
}

TEST(Mapping, HeterogeneousNodesInDocumentOrder)
{
    std::string f = data + "/hetero.xml"; // a:2 cores, b:4, c0 c1 c5: 1 each
    int nodes;
    long cores;
    char err[2048];
    ASSERT_EQ(tw_platform_shape(f.c_str(), &nodes, &cores, err, sizeof err), 0) << err;
    EXPECT_EQ(nodes, 5);
    EXPECT_EQ(cores, 9);
    EXPECT_EQ(map(f.c_str(), "sequential", 9), (std::vector<int>{0, 0, 1, 1, 1, 1, 2, 3, 4}));
    EXPECT_EQ(map(f.c_str(), "cyclic", 9), (std::vector<int>{0, 1, 2, 3, 4, 0, 1, 1, 1}));
}

// Kandalla et al. 2010, Section 5.1: 4 nodes of switch A (16 cores) and 29 of switch B (8 cores),
// one process per core; the file lists those 33 nodes first (node-0..3 on A, node-4..32 on B),
// then A's other 4 and B's other 3, so the sequential mapping of 296 ranks is the paper's run.
bool testbed_on_a(int node) { return node < 4 || (node >= 33 && node < 37); }

TEST(Mapping, KandallaTestbedHoldsThePapersRunOnHeterogeneousNodes)
{
    const char *tb = "kandalla-testbed";
    auto seq = map(tb, "sequential", 296);
    std::map<int, int> count;
    int on_a = 0;
    for (int r = 0; r < 296; r++) {
        count[seq[r]]++;
        on_a += testbed_on_a(seq[r]);
        ASSERT_EQ(seq[r], r < 64 ? r / 16 : 4 + (r - 64) / 8) << "rank " << r;
    }
    EXPECT_EQ(on_a, 64);
    EXPECT_EQ(count.size(), 33u); // 4 + 29 nodes, each full
    for (auto &c : count)
        EXPECT_EQ(c.second, testbed_on_a(c.first) ? 16 : 8) << "node-" << c.first;
    // every core once; one more needs oversubscription
    auto all = map(tb, "cyclic", 384);
    std::map<int, int> per;
    for (int n : all)
        per[n]++;
    ASSERT_EQ(per.size(), 40u);
    for (auto &c : per)
        EXPECT_EQ(c.second, testbed_on_a(c.first) ? 16 : 8) << "node-" << c.first;
    EXPECT_NE(map_error(tb, "sequential", 385).find("at most 384"), std::string::npos);
}

TEST(Mapping, UnknownMappingAndBadCounts)
{
    EXPECT_NE(map_error("yahoo", "round-robin", 4).find("valid: sequential, cyclic"),
              std::string::npos);
    EXPECT_NE(map_error("yahoo", "sequential", 0).find("not positive"), std::string::npos);
}

// ---- the nodes a job takes (--hosts SPEC, <hosts>; sim/host/platform/hostspec.h) ----

std::vector<int> hosts_of(const char *platform, const char *spec)
{
    std::vector<int> v(4096);
    char err[2048] = "";
    int n = tw_hosts(platform, spec, v.data(), (int)v.size(), err, sizeof err);
    EXPECT_GE(n, 0) << spec << ": " << err;
    v.resize(n > 0 ? n : 0);
    return v;
}

std::string hosts_error(const char *platform, const char *spec)
{
    std::vector<int> v(64);
    char err[2048] = "";
    EXPECT_EQ(tw_hosts(platform, spec, v.data(), (int)v.size(), err, sizeof err), -1) << spec;
    return err;
}

std::vector<int> seq(int a, int b) // a..b, either way
{
    std::vector<int> v;
    for (int i = a;; i += a <= b ? 1 : -1) {
        v.push_back(i);
        if (i == b)
            return v;
    }
}

std::vector<int> cat(std::vector<int> a, const std::vector<int> &b)
{
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

TEST(Hosts, NamesRangesAndLevelsChooseNodesInOrder)
{
    const char *tb = "kandalla-testbed"; // switch A: node-0..3, 33..36; B: node-4..32, 37..39
    EXPECT_EQ(hosts_of(tb, ""), seq(0, 39));
    EXPECT_EQ(hosts_of(tb, "all"), seq(0, 39));
    EXPECT_EQ(hosts_of(tb, "node-7"), (std::vector<int>{7}));
    EXPECT_EQ(hosts_of(tb, "node-0..3+node-4..32"), seq(0, 32));
    EXPECT_EQ(hosts_of(tb, "node-0..node-3+node-4..node-32"), seq(0, 32));
    EXPECT_EQ(hosts_of(tb, "node-4..32+node-0..3"), cat(seq(4, 32), seq(0, 3)));
    EXPECT_EQ(hosts_of(tb, "node-3..node-0"), seq(3, 0));
    EXPECT_EQ(hosts_of(tb, "node-39+node-0"), (std::vector<int>{39, 0}));
    // N per region of a level: region after region, or dealt over the regions
    EXPECT_EQ(hosts_of(tb, "2-per-switch"), (std::vector<int>{0, 1, 4, 5}));
    EXPECT_EQ(hosts_of(tb, "2-per-switch-cyclic"), (std::vector<int>{0, 4, 1, 5}));
    EXPECT_EQ(hosts_of(tb, "8-per-switch"), cat(cat(seq(0, 3), seq(33, 36)), seq(4, 11)));
    // earlier terms' nodes are skipped
    EXPECT_EQ(hosts_of(tb, "node-0+node-4+2-per-switch"), (std::vector<int>{0, 4, 1, 2, 5, 6}));
    EXPECT_EQ(hosts_of(tb, "1-per-node").size(), 40u);
    // ranger: a rack is 48 nodes, a line card 96
    EXPECT_EQ(hosts_of("ranger", "1-per-rack").size(), 82u);
    EXPECT_EQ(hosts_of("ranger", "2-per-linecard-cyclic"),
              (std::vector<int>{0, 96, 192, 288, 384, 480, 576, 672, 768, 864, 960, 1056, 1152,
                                1248, 1344, 1440, 1536, 1632, 1728, 1824, 1920, 2016, 2112, 2208,
                                2304, 2400, 2496, 2592, 2688, 2784, 2880, 2976, 3072, 3168, 3264,
                                3360, 3456, 3552, 3648, 3744, 3840, 1, 97, 193, 289, 385, 481, 577,
                                673, 769, 865, 961, 1057, 1153, 1249, 1345, 1441, 1537, 1633, 1729,
                                1825, 1921, 2017, 2113, 2209, 2305, 2401, 2497, 2593, 2689, 2785,
                                2881, 2977, 3073, 3169, 3265, 3361, 3457, 3553, 3649, 3745, 3841}));
}

TEST(Hosts, BadSpecsNameTheValueAndWhatIsValid)
{
    const char *tb = "kandalla-testbed";
    struct {
        const char *spec, *want;
    } cases[] = {
        {"node-40", "--hosts 'node-40': 'node-40': platform 'kandalla-testbed' has no node 'node-40' "
                    "(its nodes: node-0 .. node-39)"},
        {"node-0..node-40", "has no node 'node-40'"},
        {"node-0..99", "has no node 'node-99'"},
        {"nod-0..3", "has no node 'nod-0'"},
        {"node-0..3+node-2", "node node-2 is chosen twice (by 'node-0..3' and 'node-2')"},
        {"1-per-node+node-1", "node node-1 is chosen twice (by '1-per-node' and 'node-1')"},
        {"3-per-rack", "'rack' is not a level of platform 'kandalla-testbed' at or above node "
                       "(valid: node, switch)"},
        {"9-per-switch", "'9-per-switch': switch region 0 of platform 'kandalla-testbed' has 8 free "
                         "nodes, fewer than 9"},
        {"node-0..3+6-per-switch", "switch region 0 of platform 'kandalla-testbed' has 4 free nodes, "
                                   "fewer than 6"},
        {"0-per-switch", "'0-per-switch': expected N-per-LEVEL with N >= 1 and a level name"},
        {"2-per-", "'2-per-': expected N-per-LEVEL with N >= 1"},
        {"node-0++node-1", "an empty term (expected NAME, NAME..NAME, N-per-LEVEL or "
                           "N-per-LEVEL-cyclic, joined by '+')"},
        {"node-0+", "an empty term"},
        {"node-0,node-1", "'node-0,node-1': expected NAME, NAME..NAME, N-per-LEVEL or "
                          "N-per-LEVEL-cyclic, joined by '+'"},
    };
    for (auto &c : cases) {
        std::string e = hosts_error(tb, c.spec);
        EXPECT_NE(e.find(c.want), std::string::npos) << c.spec << ": " << e;
        EXPECT_EQ(e.find('\n'), std::string::npos) << e;
    }
    std::string longer(200, 'n');
    EXPECT_NE(hosts_error(tb, longer.c_str()).find("longer than 127 characters"), std::string::npos);
    // sockets as hosts: the node is the zone, named as a node
    EXPECT_EQ(hosts_of("lassen", "node-3..5"), seq(3, 5));
    EXPECT_NE(hosts_error("lassen", "node-3-s0").find("has no node 'node-3-s0'"), std::string::npos);
    EXPECT_NE(hosts_error("lassen", "1-per-socket").find("'socket' is not a level of platform "
                                                         "'lassen' at or above node"),
              std::string::npos);
}

std::vector<int> case_map(const char *platform, const char *mapping, int np, int ppn,
                          const char *hosts, const char *bg = nullptr, int nbg = 0)
{
    std::vector<int> v(np + nbg);
    char err[2048] = "";
    EXPECT_EQ(tw_case_map(platform, mapping, np, ppn, hosts, bg, v.data(), err, sizeof err), 0)
        << (hosts ? hosts : "") << ": " << err;
    return v;
}

std::string case_map_error(const char *platform, const char *mapping, int np, int ppn,
                           const char *hosts, const char *bg = nullptr)
{
    std::vector<int> v(np + 512);
    char err[2048] = "";
    EXPECT_EQ(tw_case_map(platform, mapping, np, ppn, hosts, bg, v.data(), err, sizeof err), -1)
        << (hosts ? hosts : "");
    return err;
}

// Kandalla et al.'s placement (iii) (docs/papers.md, "Kandalla: the testbed and what it leaves open"): the 296 ranks dealt node by node over the
// 33 nodes the paper used, which leaves switch A's and B's other nodes to the background job.
TEST(Hosts, TheMappingWorksOverTheChosenNodesOnly)
{
    const char *tb = "kandalla-testbed", *used = "node-0..3+node-4..32";
    auto cyc = case_map(tb, "cyclic", 296, 0, used);
    std::map<int, int> per;
    for (int r = 0; r < 296; r++)
        per[cyc[r]]++;
    ASSERT_EQ(per.size(), 33u);
    for (auto &c : per) {
        EXPECT_LE(c.first, 32);
        EXPECT_EQ(c.second, testbed_on_a(c.first) ? 16 : 8) << "node-" << c.first;
    }
    for (int r = 0; r < 33; r++) // the first round: one rank per node, in the list's order
        EXPECT_EQ(cyc[r], r);
    EXPECT_EQ(cyc[33], 0);
    EXPECT_EQ(cyc[295], 3); // B's nodes are full after 8 rounds: the rest go to A's
    // contiguous, switch B first: rank 0 on node-4, A's ranks last
    auto bfirst = case_map(tb, "sequential", 296, 0, "node-4..32+node-0..3");
    EXPECT_EQ(bfirst[0], 4);
    EXPECT_EQ(bfirst[231], 32);
    EXPECT_EQ(bfirst[232], 0);
    EXPECT_EQ(bfirst[295], 3);
    // ranks per node over the list; the list, not the platform, bounds it
    EXPECT_EQ(case_map(tb, "cyclic", 6, 2, "node-9+node-2+node-30"),
              (std::vector<int>{9, 2, 30, 9, 2, 30}));
    EXPECT_EQ(case_map(tb, "sequential", 5, 2, "node-9+node-2+node-30"),
              (std::vector<int>{9, 9, 2, 2, 30}));
    EXPECT_NE(case_map_error(tb, "cyclic", 8, 2, "node-9+node-2+node-30")
                  .find("8 processes at 2 per node need 4 nodes, but --hosts chooses 3 on "
                        "platform 'kandalla-testbed'"),
              std::string::npos);
    EXPECT_NE(case_map_error(tb, "sequential", 297, 0, used)
                  .find("297 processes do not fit on the 33 nodes --hosts chooses on platform "
                        "'kandalla-testbed' (296 cores in all); use at most 296"),
              std::string::npos);
    EXPECT_NE(case_map_error(tb, "sequential", 4, 0, "node-99").find("has no node 'node-99'"),
              std::string::npos);
    // the default is the platform in its order, as without --hosts
    EXPECT_EQ(case_map(tb, "cyclic", 296, 0, nullptr), map(tb, "cyclic", 296));
    EXPECT_EQ(case_map(tb, "cyclic", 296, 0, "all"), map(tb, "cyclic", 296));
}

TEST(Hosts, TheBackgroundRunsOnNodesOfItsOwn)
{
    const char *tb = "kandalla-testbed", *used = "node-0..3+node-4..32";
    // automatic: the free nodes, 48 per switch (B's 24 free cores twice over)
    auto a = case_map(tb, "cyclic", 296, 0, used, "alltoall:inter-switch:1M:96", 96);
    std::map<int, int> per;
    for (int i = 296; i < 392; i++)
        per[a[i]]++;
    for (auto &c : per)
        EXPECT_GE(c.first, 33) << "node-" << c.first;
    int on_a = 0;
    for (auto &c : per)
        on_a += testbed_on_a(c.first) ? c.second : 0;
    EXPECT_EQ(on_a, 48);
    // chosen: the same nodes given by name place it the same way
    auto chosen = case_map(tb, "cyclic", 296, 0, used,
                           "alltoall:inter-switch:1M:96@node-33..36+node-37..39", 96);
    EXPECT_EQ(chosen, a);
    // two nodes, 48 ranks each; their order in the list is kept within a switch
    auto two = case_map(tb, "cyclic", 296, 0, used, "alltoall:inter-switch:1M:96@node-39+node-36", 96);
    for (int i = 296; i < 392; i++)
        EXPECT_EQ(two[i], (i - 296) % 2 ? 39 : 36) << "background rank " << i - 296;
    // nodes the measured job chose but does not fill stay its own
    auto sparse = case_map(tb, "sequential", 16, 0, "node-0+node-1", "alltoall:inter-switch:64K:4", 4);
    for (int i = 16; i < 20; i++)
        EXPECT_NE(sparse[i], 1) << "background rank " << i - 16;
    EXPECT_NE(case_map_error(tb, "sequential", 16, 0, "node-0+node-1",
                             "alltoall:inter-switch:64K:4@node-1+node-5")
                  .find("--background alltoall:inter-switch:64K:4@node-1+node-5: hosts "
                        "'node-1+node-5': node node-1 belongs to the measured job (its --hosts "
                        "choose it): the background runs on nodes of its own"),
              std::string::npos);
    EXPECT_NE(case_map_error(tb, "sequential", 16, 0, nullptr, "alltoall:inter-switch:64K:4@node-0+node-5")
                  .find("node node-0 belongs to the measured job (its ranks use it)"),
              std::string::npos);
    EXPECT_NE(case_map_error(tb, "cyclic", 296, 0, used, "alltoall:inter-switch:1M:96@node-33..36")
                  .find("hosts 'node-33..36': the background's nodes must lie in two switch "
                        "regions at least"),
              std::string::npos);
    EXPECT_NE(case_map_error(tb, "cyclic", 296, 0, used, "alltoall:inter-switch:1M:96@node-33+node-99")
                  .find("hosts 'node-33+node-99': 'node-99': platform 'kandalla-testbed' has no "
                        "node 'node-99'"),
              std::string::npos);
}

// ---- ranks per node (--ppn K, <ppn>) ----

std::vector<int> map_ppn(const char *platform, const char *mapping, int np, int ppn,
                         bool over = false, std::vector<int> *hosts = nullptr)
{
    std::vector<int> v(np), h(np);
    char err[2048];
    EXPECT_EQ(tw_map_ppn(platform, mapping, np, over, ppn, v.data(), h.data(), err, sizeof err), 0)
        << err;
    if (hosts)
        *hosts = h;
    return v;
}

std::string map_ppn_error(const char *platform, const char *mapping, int np, int ppn,
                          bool over = false)
{
    std::vector<int> v(np > 0 ? np : 1);
    char err[2048] = "";
    EXPECT_EQ(tw_map_ppn(platform, mapping, np, over, ppn, v.data(), nullptr, err, sizeof err), -1);
    return err;
}

TEST(Ppn, SequentialPutsKConsecutiveRanksOnEachNode)
{
    for (int k : {1, 3, 4, 8})
        for (int np : {1, 5, 16, 37}) {
            if ((np + k - 1) / k > 16)
                continue;
            auto v = map_ppn("yahoo", "sequential", np, k);
            for (int r = 0; r < np; r++)
                ASSERT_EQ(v[r], r / k) << "k=" << k << " np=" << np << " rank " << r;
        }
}

TEST(Ppn, CyclicDealsRanksOverCeilNpOverKNodes)
{
    auto v = map_ppn("yahoo", "cyclic", 10, 4); // 3 nodes: 4, 3 and 3 ranks
    EXPECT_EQ(v, (std::vector<int>{0, 1, 2, 0, 1, 2, 0, 1, 2, 0}));
    for (int k : {2, 4, 8}) {
        auto w = map_ppn("yahoo", "cyclic", 32, k);
        int nodes = (32 + k - 1) / k;
        for (int r = 0; r < 32; r++)
            ASSERT_EQ(w[r], r % nodes) << "k=" << k << " rank " << r;
    }
}

TEST(Ppn, ZeroIsTheDefaultAndKEqualToTheCoresFillsLikeIt)
{
    EXPECT_EQ(map_ppn("yahoo", "sequential", 37, 0), map("yahoo", "sequential", 37));
    EXPECT_EQ(map_ppn("yahoo", "cyclic", 37, 0), map("yahoo", "cyclic", 37));
    EXPECT_EQ(map_ppn("yahoo", "sequential", 37, 8), map("yahoo", "sequential", 37));
    // the default cyclic deals over every node; with K given, over ceil(np/K) nodes
    auto d = map_ppn("yahoo", "cyclic", 20, 0), k = map_ppn("yahoo", "cyclic", 20, 8);
    EXPECT_EQ(d[16], 0);
    EXPECT_EQ(k[3], 0);
}

TEST(Ppn, MoreThanTheCoresNeedsOversubscription)
{
    std::string e = map_ppn_error("yahoo", "sequential", 18, 9);
    EXPECT_NE(e.find("9 ranks per node exceed the 8 cores of node 'node-0' on platform 'yahoo'"),
              std::string::npos) << e;
    EXPECT_NE(e.find("--ppn 8 or less"), std::string::npos) << e;
    auto v = map_ppn("yahoo", "sequential", 32, 16, true); // 2 per core on 2 nodes
    for (int r = 0; r < 32; r++)
        ASSERT_EQ(v[r], r / 16);
    // the last node may hold fewer: 3 x 8 + 1, fine without oversubscription
    EXPECT_EQ(map_ppn("yahoo", "sequential", 25, 8)[24], 3);
}

TEST(Ppn, ImpossibleCombinationsNameTheValues)
{
    std::string e = map_ppn_error("yahoo", "sequential", 65, 4);
    EXPECT_NE(e.find("65 processes at 4 per node need 17 nodes, but platform 'yahoo' has 16"),
              std::string::npos) << e;
    e = map_ppn_error("fattree-32k", "cyclic", 32768, 16);
    EXPECT_NE(e.find("32768 processes at 16 per node need 2048 nodes, but platform 'fattree-32k' "
                     "has 1024"), std::string::npos) << e;
    e = map_ppn_error("yahoo", "sequential", 4, -1);
    EXPECT_NE(e.find("negative"), std::string::npos) << e;
}

TEST(Ppn, NodesOfSocketHostsFillSocketZeroThenSocketOne)
{
    std::string f = data + "/sockets.xml"; // 3 nodes x 2 sockets x 2 cores
    int nodes;
    long cores;
    char err[2048];
    ASSERT_EQ(tw_platform_shape(f.c_str(), &nodes, &cores, err, sizeof err), 0) << err;
    EXPECT_EQ(nodes, 3); // nodes are the zones, not the 6 socket hosts
    EXPECT_EQ(cores, 12);
    std::vector<int> hosts;
    auto v = map_ppn(f.c_str(), "sequential", 12, 4, false, &hosts);
    EXPECT_EQ(v, (std::vector<int>{0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2}));
    EXPECT_EQ(hosts, (std::vector<int>{0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5}));
    v = map_ppn(f.c_str(), "sequential", 6, 3, false, &hosts); // 2 on socket 0, 1 on socket 1
    EXPECT_EQ(hosts, (std::vector<int>{0, 0, 1, 2, 2, 3}));
    v = map_ppn(f.c_str(), "cyclic", 7, 3, false, &hosts); // nodes 0 1 2 0 1 2 0
    EXPECT_EQ(v, (std::vector<int>{0, 1, 2, 0, 1, 2, 0}));
    EXPECT_EQ(hosts, (std::vector<int>{0, 2, 4, 0, 2, 4, 1}));
    // the default (no K) fills each node's 4 cores
    v = map_ppn(f.c_str(), "sequential", 9, 0, false, &hosts);
    EXPECT_EQ(v, (std::vector<int>{0, 0, 0, 0, 1, 1, 1, 1, 2}));
    EXPECT_EQ(hosts, (std::vector<int>{0, 0, 1, 1, 2, 2, 3, 3, 4}));
    EXPECT_NE(map_ppn_error(f.c_str(), "sequential", 10, 5).find("5 ranks per node exceed the 4 "
                                                                 "cores of node 'node-0'"),
              std::string::npos);
    v = map_ppn(f.c_str(), "sequential", 8, 8, true, &hosts); // 2 per core: 4 per socket
    EXPECT_EQ(hosts, (std::vector<int>{0, 0, 0, 0, 1, 1, 1, 1}));
}

// ---- locality levels (platforms/README.md, "Locality levels") ----

struct Levels {
    std::string names;
    std::vector<std::vector<int>> region; // [host][level]
};

Levels levels(const char *platform)
{
    Levels l;
    char names[256], err[2048];
    std::vector<int> reg(8 * 4096);
    int n = tw_platform_levels(platform, names, sizeof names, reg.data(), 4096, err, sizeof err);
    EXPECT_GE(n, 0) << err;
    l.names = names;
    for (int h = 0; h < n; h++)
        l.region.emplace_back(reg.begin() + h * 6, reg.begin() + h * 6 + 6);
    return l;
}

std::string levels_error(const std::string &platform)
{
    char names[256], err[2048] = "";
    std::vector<int> reg(8 * 64);
    EXPECT_EQ(tw_platform_levels(platform.c_str(), names, sizeof names, reg.data(), 64, err,
                                 sizeof err), -1);
    return err;
}

TEST(Levels, ShippedPlatformsDeclareTheirLevels)
{
    auto y = levels("yahoo");
    EXPECT_EQ(y.names, "node switch");
    ASSERT_EQ(y.region.size(), 16u);
    for (int h = 0; h < 16; h++) {
        EXPECT_EQ(y.region[h][0], h);
        EXPECT_EQ(y.region[h][1], h < 5 ? 0 : 1) << "node-" << h; // leaf A: node-0..4
    }
    auto c = levels("cervino");
    EXPECT_EQ(c.names, "node");
    auto f = levels("fattree-32k");
    EXPECT_EQ(f.names, "node switch");
    ASSERT_EQ(f.region.size(), 1024u);
    for (int h = 0; h < 1024; h++)
        ASSERT_EQ(f.region[h][1], h / 32) << "node-" << h;
    auto s = levels((data + "/sockets.xml").c_str());
    EXPECT_EQ(s.names, "socket node switch");
    ASSERT_EQ(s.region.size(), 6u);
    for (int h = 0; h < 6; h++) {
        EXPECT_EQ(s.region[h][0], h);
        EXPECT_EQ(s.region[h][1], h / 2);
        EXPECT_EQ(s.region[h][2], h < 4 ? 0 : 1); // uneven: 2 nodes, then 1
    }
    auto r = levels("ranger"); // chassis of 12 blades, racks of 4 chassis, line cards of 2 racks
    EXPECT_EQ(r.names, "node chassis rack linecard");
    ASSERT_EQ(r.region.size(), 3936u);
    for (int n = 0; n < 3936; n++)
        ASSERT_EQ(std::vector<int>(r.region[n].begin(), r.region[n].begin() + 4),
                  (std::vector<int>{n, n / 12, n / 48, n / 96})) << "node-" << n;
    auto t = levels("kandalla-testbed"); // switch A (region 0: node-0 comes first), B (1)
    EXPECT_EQ(t.names, "node switch");
    ASSERT_EQ(t.region.size(), 40u);
    for (int n = 0; n < 40; n++) {
        EXPECT_EQ(t.region[n][0], n);
        EXPECT_EQ(t.region[n][1], testbed_on_a(n) ? 0 : 1) << "node-" << n;
    }
    auto h = levels((data + "/hetero.xml").c_str()); // no declaration: one level, the host
    EXPECT_EQ(h.names, "node");
}

// collsim.region.LEVEL = NAME: every element naming a region shares it, so a
// platform whose routing is flat (platforms/generate-sockets.sh) still has switches.
TEST(Levels, RegionsCanBeGivenByName)
{
    auto n = levels((data + "/levels-named.xml").c_str());
    EXPECT_EQ(n.names, "node switch");
    ASSERT_EQ(n.region.size(), 6u);
    const int sw[] = {0, 0, 1, 1, 0, 1}; // a0 a1 (left) b2 b3 (right) c4 (left) d5 (right)
    for (int h = 0; h < 6; h++) {
        EXPECT_EQ(n.region[h][0], h);
        EXPECT_EQ(n.region[h][1], sw[h]) << "host " << h;
    }
}

// The locality file the host writes next to each case's hostfile is all the
// driver knows of the levels: for every mapping and ranks per node, line r
// must give rank r the regions of the host the hostfile puts it on, each
// derived here from the host's name (the platforms' documented layouts).
struct Placement {
    const char *mapping;
    int np, ppn;
};

void expect_case_files(const std::string &platform, const std::string &levels,
                       const std::function<std::vector<int>(int node, int socket)> &regions,
                       const std::vector<Placement> &placements)
{
    char dir[256], err[2048];
    ASSERT_EQ(tw_tempdir(dir, sizeof dir), 0);
    const std::string hf = std::string(dir) + "/hostfile", lf = std::string(dir) + "/locality";
    for (const Placement &p : placements) {
        const std::string what = platform + " " + p.mapping + " np " + std::to_string(p.np) +
                                 " ppn " + std::to_string(p.ppn);
        ASSERT_EQ(tw_case_files(platform.c_str(), p.mapping, p.np, p.ppn, nullptr, hf.c_str(),
                                lf.c_str(), err, sizeof err), 0) << what << ": " << err;
        std::ifstream hosts(hf), loc(lf);
        std::string host, line;
        ASSERT_TRUE(std::getline(loc, line)) << what;
        EXPECT_EQ(line, "levels " + levels) << what;
        int r = 0;
        for (; std::getline(hosts, host); r++) {
            int node = -1, socket = 0;
            ASSERT_GE(sscanf(host.c_str(), "node-%d-s%d", &node, &socket), 1) << what << host;
            ASSERT_TRUE(std::getline(loc, line)) << what << ": no line for rank " << r;
            std::istringstream in(line);
            std::vector<int> got;
            for (int c; in >> c;)
                got.push_back(c);
            ASSERT_EQ(got, regions(node, socket)) << what << ": rank " << r << " on " << host;
        }
        EXPECT_EQ(r, p.np) << what;
        EXPECT_FALSE(std::getline(loc, line)) << what << ": more lines than ranks";
    }
    tw_rmtree(dir);
}

TEST(Levels, TheLocalityFileGivesEachRankItsHostsRegions)
{
    expect_case_files("yahoo", "node switch",
                      [](int n, int) { return std::vector<int>{n, n < 5 ? 0 : 1}; },
                      {{"sequential", 128, 0}, {"cyclic", 128, 0}, {"sequential", 60, 4},
                       {"cyclic", 60, 4}, {"cyclic", 13, 1}, {"sequential", 21, 3}});
    expect_case_files("cervino", "node", [](int n, int) { return std::vector<int>{n}; },
                      {{"sequential", 100, 0}, {"cyclic", 100, 0}, {"cyclic", 9, 2}});
    expect_case_files("fattree-32k", "node switch",
                      [](int n, int) { return std::vector<int>{n, n / 32}; },
                      {{"sequential", 4096, 32}, {"cyclic", 4096, 32}, {"cyclic", 1000, 7},
                       {"sequential", 1000, 0}});
    expect_case_files(data + "/sockets.xml", "socket node switch",
                      [](int n, int s) { return std::vector<int>{2 * n + s, n, n < 2 ? 0 : 1}; },
                      {{"sequential", 12, 4}, {"cyclic", 12, 4}, {"cyclic", 7, 3},
                       {"sequential", 9, 3}, {"sequential", 12, 0}, {"cyclic", 5, 0}});
    for (const auto &sw : std::map<std::string, int>{{"lassen", 18}, {"quartz", 24}})
        expect_case_files(sw.first, "socket node switch",
                          [&](int n, int s) { return std::vector<int>{2 * n + s, n, n / sw.second}; },
                          {{"sequential", 4096, 32}, {"cyclic", 4096, 32}, {"cyclic", 999, 20},
                           {"sequential", 1500, 0}});
    expect_case_files("ranger", "node chassis rack linecard",
                      [](int n, int) { return std::vector<int>{n, n / 12, n / 48, n / 96}; },
                      {{"sequential", 4096, 16}, {"cyclic", 4096, 0}, {"cyclic", 1000, 3}});
    expect_case_files("kandalla-testbed", "node switch",
                      [](int n, int) { return std::vector<int>{n, testbed_on_a(n) ? 0 : 1}; },
                      {{"sequential", 296, 0}, {"cyclic", 296, 0}, {"cyclic", 40, 1},
                       {"sequential", 384, 0}});
    expect_case_files("theta", "node router chassis group",
                      [](int n, int) { return std::vector<int>{n, n / 4, n / 64, n / 384}; },
                      {{"sequential", 8192, 64}, {"cyclic", 8192, 64}, {"cyclic", 3000, 5}});
}

TEST(Levels, BadDeclarationsAreErrors)
{
    std::string e = levels_error(data + "/levels-undeclared.xml");
    EXPECT_NE(e.find("host 'c2' has no 'switch' region"), std::string::npos) << e;
    e = levels_error(data + "/levels-nonesting.xml");
    EXPECT_NE(e.find("levels do not nest"), std::string::npos) << e;
    EXPECT_NE(e.find("'switch' region but not a 'rack' region"), std::string::npos) << e;
    e = levels_error(data + "/levels-unlisted.xml");
    EXPECT_NE(e.find("declares level 'rack', which collsim.levels does not list"),
              std::string::npos) << e;
    e = levels_error(data + "/levels-nonode.xml");
    EXPECT_NE(e.find("must include 'node'"), std::string::npos) << e;
    e = levels_error(data + "/levels-undeclared.xml");
    EXPECT_NE(e.find("<prop id=\"collsim.region.switch\" value=\"NAME\"/>"), std::string::npos) << e;
}

} // namespace
