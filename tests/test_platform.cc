// Platform files: the shipped ones' shapes, and every bad platform file, link,
// cluster, zone or route refused with its file, line and what is valid before
// SimGrid reads it.

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
#include "mapping_util.h"
#include "cli.h"
#include "platform_props.h"

#include <dirent.h>
#include <regex>

namespace {

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
    for (const char *bw : {"1GBps", "9.4148Gbps", "2KiBps", "3Mibps", "100MBps", "1e9Bps", "1TBps",
                           "5000kbps", "1GBps,2GBps"})
        EXPECT_EQ(platform_error(good_cluster, std::string("bandwidth=\"") + bw + "\" latency=\"0\""), "")
            << bw;
    for (const char *lat : {"0", "0us", "2ms", "3ms", "0.4us", "7ns", "1000ps", "0.0001m", "1e-6h",
                            "1e-7d", "1e-8w"})
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


// The one line a platform of tests/data gets at load ("" when it loads).
std::string data_error(const std::string &name)
{
    int nodes;
    long cores;
    char err[2048] = "";
    std::string f = data + "/" + name;
    tw_platform_shape(f.c_str(), &nodes, &cores, err, sizeof err);
    return err;
}

std::string data_warnings(const std::string &name)
{
    char buf[4096] = "";
    std::string f = data + "/" + name;
    EXPECT_EQ(tw_platform_warnings(f.c_str(), buf, sizeof buf), 0) << buf;
    return buf;
}

// SimGrid 3.32 reads a number without a unit as B/s, s or flop/s, with one warning among its log
// lines: bw="37.659" (37.659 Gbps meant) predicted 2,007,533 us for 8 bytes on cervino. Each is
// one line naming the file, line, attribute, value and the units SimGrid takes; 0 stays bare.
TEST(Platform, ValuesWithoutAUnitAreRefused)
{
    std::string e = data_error("platform-unitless-bandwidth.xml");
    EXPECT_EQ(e, data + "/platform-unitless-bandwidth.xml:5: <cluster id=\"c\" bw=\"37.659\">: bw has "
                        "no unit (SimGrid would read 37.659 bytes per second) (a number with a unit: "
                        "Bps, kBps, MBps, GBps, TBps, KiBps, MiBps, GiBps, ..., or bps, kbps, Mbps, "
                        "Gbps, Kibps, Mibps, Gibps, ...)");
    e = data_error("platform-unitless-latency.xml");
    EXPECT_EQ(e, data + "/platform-unitless-latency.xml:5: <cluster id=\"c\" lat=\"7.5\">: lat has no "
                        "unit (SimGrid would read 7.5 seconds) (a number with a unit: s, ms, us, ns, "
                        "ps, m, h, d, w)");
    e = platform_error("speed=\"1e9\" bw=\"1GBps\" lat=\"1us\"", good_link);
    EXPECT_NE(e.find(":5: <cluster id=\"c\" speed=\"1e9\">: speed has no unit (SimGrid would read "
                     "1e9 flop/s) (a number with a unit: f, kf"),
              std::string::npos) << e;
    e = platform_error(good_cluster, "bandwidth=\"1GBps,100\" latency=\"1us\"");
    EXPECT_NE(e.find("bandwidth=\"1GBps,100\">: bandwidth has no unit"), std::string::npos) << e;
    e = platform_error(good_cluster, "bandwidth=\"inf\" latency=\"1us\"");
    EXPECT_NE(e.find("bandwidth=\"inf\">: bandwidth is out of range"), std::string::npos) << e;
    EXPECT_EQ(platform_error(good_cluster, "bandwidth=\"1GBps\" latency=\"0\""), "");
    const std::string disk = "    <host id=\"a\" speed=\"1Gf\"><disk id=\"d\" read_bw=\"100\" "
                             "write_bw=\"100MBps\"/></host>\n";
    e = zone_error(disk);
    EXPECT_NE(e.find(":4: <disk id=\"d\" read_bw=\"100\">: read_bw has no unit"), std::string::npos) << e;
}

// A valid value that no machine has is a one-line warning, and the platform loads. A 0.1 B/s
// link is a warning, not an error: SimGrid simulates it exactly and a what-if study may want a
// crawl, but a unit slip (Bps for GBps) is far likelier, so it is named once.
TEST(Platform, ImplausibleValuesAreWarnedOnce)
{
    EXPECT_EQ(data_warnings("platform-slow-link.xml"),
              data + "/platform-slow-link.xml:5: <cluster id=\"c\" bw=\"0.1Bps\">: 0.1 B/s is "
                     "implausible for a link (expected 1 MB/s to 10 TB/s; is the unit right?)\n");
    EXPECT_EQ(data_warnings("platform-long-latency.xml"),
              data + "/platform-long-latency.xml:5: <cluster id=\"c\" lat=\"50ms\">: 0.05 s is "
                     "implausible for a latency (expected 0, or 1 ns to 10 ms; is the unit right?)\n");
    EXPECT_EQ(data_warnings("platform-slow-copy.xml"),
              data + "/platform-slow-copy.xml:6: <prop id=\"collsim.local.copy-bw\" "
                     "value=\"0:6e9;32768:6e6\">: the rate 6e+06 B/s from 32768 bytes on is "
                     "implausible (expected 1e+08 to 1e+12 B/s)\n");
    EXPECT_EQ(data_warnings("good-platform-props.xml"), "");
    // the run goes on, and the warning is printed once though bench loads the platform again
    Out o = cli("bench --platform " + data + "/platform-slow-link.xml --np 2 --alg ring --sizes 8");
    EXPECT_EQ(o.code, 0) << o.text;
    size_t at = o.text.find("collsim: warning: " + data + "/platform-slow-link.xml:5: ");
    EXPECT_NE(at, std::string::npos) << o.text;
    EXPECT_EQ(o.text.find("collsim: warning:", at + 1), std::string::npos) << o.text;
}

// Every shipped platform, the committed ones and those the build generates, loads without a
// warning.
TEST(Platform, EveryShippedPlatformLoadsWithoutAWarning)
{
    DIR *d = opendir(COLLSIM_SOURCE_DIR "/platforms");
    ASSERT_NE(d, nullptr);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        std::string name = e->d_name;
        if (name.size() < 5 || name.substr(name.size() - 4) != ".xml")
            continue;
        char buf[4096] = "";
        EXPECT_EQ(tw_platform_warnings((std::string(COLLSIM_SOURCE_DIR "/platforms/") + name).c_str(),
                                       buf, sizeof buf), 0) << buf;
        EXPECT_STREQ(buf, "") << name;
        n++;
    }
    closedir(d);
    EXPECT_GE(n, 13); // yahoo, cervino and the eleven generated files
}

// A misspelt collsim property was dropped silently (the copies then cost nothing); a property
// below the top zone, where nobody reads it, too.
TEST(Platform, UnknownOrMisplacedPropertiesAreRefused)
{
    EXPECT_EQ(data_error("platform-misspelt-property.xml"),
              data + "/platform-misspelt-property.xml:6: <prop id=\"collsim.local.copy_bw\">: unknown "
                     "collsim property (did you mean collsim.local.copy-bw? `./collsim list "
                     "properties` lists them)");
    EXPECT_EQ(data_error("platform-local-work-below-the-top.xml"),
              data + "/platform-local-work-below-the-top.xml:6: <prop id=\"collsim.local.copy-bw\"> "
                     "in <zone id=\"inner\">: collsim reads this property only on the top-level zone");
    EXPECT_EQ(data_error("platform-overhead-of-no-level.xml"),
              data + "/platform-overhead-of-no-level.xml:5: <prop id=\"collsim.overhead.send.nod\">: "
                     "'nod' is not a level of this platform (collsim.levels: node, system)");
    EXPECT_EQ(data_error("platform-bad-copy-bw.xml"),
              data + "/platform-bad-copy-bw.xml:5: <prop id=\"collsim.local.copy-bw\" value=\"6GBps\">: "
                     "expected 0:BYTES_PER_SECOND;SIZE:BYTES_PER_SECOND;... (sizes increasing from 0, "
                     "rates above 0, numbers without a unit)");
    char near[256];
    EXPECT_STREQ(cs_prop_nearest("collsim.factor.lat.sockt", near, sizeof near), "collsim.factor.lat.sockt");
    EXPECT_STREQ(cs_prop_nearest("collsim.overhed.send.node", near, sizeof near),
                 "collsim.overhead.send.node");
    EXPECT_STREQ(cs_prop_nearest("collsim.regime", near, sizeof near), "collsim.regimes");
    EXPECT_STREQ(cs_prop_nearest("collsim.description", near, sizeof near), "collsim/description");
}

// Each property's value as its row says (core/platform_props.def): the driver's piecewise forms,
// refused at load where the driver refused them inside smpirun.
TEST(Platform, PropertyValuesFollowTheirRow)
{
    struct { const char *id, *value; int rc; const char *problem, *warning; } cases[] = {
        {"collsim.overhead.send.node", "0:1e-7:0;65536:2e-7:1e-11", 0, "", ""},
        {"collsim.overhead.recv", "0:0.05:0", 0, "",
         "the offset 0.05 s from 0 bytes on is implausible (expected 0 to 0.01 s)"},
        {"collsim.overhead.send", "0:1e-7", -1, "expected 0:OFFSET:PERBYTE;", ""},
        {"collsim.overhead.send", "8:1e-7:0", -1, "starts increasing from 0", ""},
        {"collsim.factor.bw.system", "0:1;8192:0", -1, "factors above 0", ""},
        {"collsim.factor.lat", "0:1;8192:1.4;4096:2", -1, "sizes increasing from 0", ""},
        {"collsim.local.copy-call", "1e-7s", -1, "expected seconds, a number >= 0 without a unit", ""},
        {"collsim.local.copy-call", "-1e-7", -1, "expected seconds", ""},
        {"collsim.local.reduce-bw", "0:2e12", 0, "",
         "the rate 2e+12 B/s from 0 bytes on is implausible (expected 1e+08 to 1e+12 B/s)"},
    };
    for (const auto &c : cases) {
        const cs_prop_info *p = cs_prop_find(c.id);
        ASSERT_NE(p, nullptr) << c.id;
        char problem[300] = "", warning[300] = "";
        EXPECT_EQ(cs_prop_check_value(p, c.value, problem, sizeof problem, warning, sizeof warning), c.rc)
            << c.id << "=" << c.value;
        EXPECT_NE(std::string(problem).find(c.problem), std::string::npos) << problem;
        EXPECT_EQ(std::string(warning), c.warning) << c.id << "=" << c.value;
    }
    EXPECT_EQ(cs_prop_find("collsim.overhead.send.node.x"), nullptr);
    EXPECT_EQ(cs_prop_find("collsim.group."), nullptr);
    EXPECT_STREQ(cs_prop_find("collsim.published.intra-socket.short")->name, "collsim.published.PATH.REGIME");
}

// A TORUS cluster without a loopback passed every check and aborted inside smpirun once two ranks
// shared a host ("no connecting path between node-0 and node-0", exit 134).
TEST(Platform, TorusWithoutLoopbackIsRefusedAtLoad)
{
    EXPECT_EQ(data_error("platform-torus-without-loopback.xml"),
              data + "/platform-torus-without-loopback.xml:5: <cluster id=\"t\"> topology=\"TORUS\" "
                     "without loopback_bw and loopback_lat: SimGrid 3.32 finds no route from a torus "
                     "host to itself, so two ranks on one host abort the run (give loopback_bw and "
                     "loopback_lat, e.g. loopback_bw=\"10GBps\" loopback_lat=\"0.3us\")");
    std::string e = platform_error(good_cluster + " topology=\"TORUS\" topo_parameters=\"2\" "
                                                  "loopback_bw=\"10GBps\"", good_link);
    EXPECT_NE(e.find("topology=\"TORUS\" without loopback_lat:"), std::string::npos) << e;
    EXPECT_EQ(platform_error(good_cluster + " topology=\"TORUS\" topo_parameters=\"2\" "
                                            "loopback_bw=\"10GBps\" loopback_lat=\"0.3us\"", good_link),
              "");
}

// A FAT_TREE, TORUS or DRAGONFLY cluster whose radical names fewer hosts than its topology makes
// aborted smpirun ("Insufficient number of radicals available (total = 15)").
TEST(Platform, TopologiesShortOfRadicalsAreRefusedAtLoad)
{
    EXPECT_EQ(data_error("platform-fat-tree-short-of-radicals.xml"),
              data + "/platform-fat-tree-short-of-radicals.xml:6: <cluster id=\"c\"> "
                     "topology=\"FAT_TREE\" topo_parameters=\"2;4,4;1,2;1,2\" radical=\"0-14\": the "
                     "topology has 16 hosts and the radical names 15 (SimGrid 3.32 aborts: give a "
                     "radical of 16 numbers, e.g. 0-15)");
    const std::string loop = " loopback_bw=\"10GBps\" loopback_lat=\"0.3us\"";
    std::string e = platform_error(good_cluster + loop + " topology=\"TORUS\" topo_parameters=\"2,2\"",
                                   good_link);
    EXPECT_NE(e.find("the topology has 4 hosts and the radical names 2"), std::string::npos) << e;
    e = platform_error(good_cluster + " topology=\"DRAGONFLY\" topo_parameters=\"1,1;1,1;2,1;2\"",
                       good_link, "0-2");
    EXPECT_NE(e.find("the topology has 4 hosts and the radical names 3"), std::string::npos) << e;
    EXPECT_EQ(platform_error(good_cluster + loop + " topology=\"TORUS\" topo_parameters=\"2,2\"",
                             good_link, "0-3"),
              "");
}

// collsim.levels="bogus node,switch" said "host 'node-0' has no 'node' region", never naming
// bogus; a directory given as the platform "does not exist".
TEST(Platform, LevelWordsAndDirectoriesAreNamed)
{
    EXPECT_EQ(data_error("platform-levels-bogus.xml"),
              data + "/platform-levels-bogus.xml:5: <prop id=\"collsim.levels\" value=\"bogus "
                     "node,switch\">: no zone or cluster declares level 'node' (the first level, "
                     "'bogus', is the SimGrid host itself; the file declares: switch; valid: "
                     "HOST_LEVEL,switch, HOST_LEVEL being node, or a finer word such as socket when "
                     "zones declare node)");
    int nodes;
    long cores;
    char err[2048] = "";
    EXPECT_EQ(tw_platform_shape(data.c_str(), &nodes, &cores, err, sizeof err), -1);
    EXPECT_EQ(std::string(err), "platform '" + data + "' is a directory (a platform is a NAME of "
                                "platforms/, e.g. yahoo, or the path of one SimGrid XML file)");
}

// Each refusal is the CLI's one line before anything runs: no smpirun, no table.
TEST(Platform, EachRefusalIsOneLineBeforeAnythingRuns)
{
    for (const char *f : {"platform-unitless-bandwidth.xml", "platform-unitless-latency.xml",
                          "platform-misspelt-property.xml", "platform-torus-without-loopback.xml",
                          "platform-levels-bogus.xml"}) {
        Out o = cli(std::string("bench --platform ") + data + "/" + f + " --np 8 --alg ring --sizes 8");
        EXPECT_EQ(o.code, 2) << f << ": " << o.text;
        EXPECT_EQ(o.text.rfind("collsim: " + data + "/" + f + ":", 0), 0u) << o.text;
        EXPECT_EQ(o.text.find('\n'), o.text.size() - 1) << o.text;
    }
}

// ---- the property table (core/platform_props.def) against its readers and its docs ----

std::string slurp(const std::string &path)
{
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// The files that read or write collsim properties: the host, the driver, the generators.
std::vector<std::string> property_users()
{
    std::vector<std::string> files;
    for (const char *dir : {"sim/host/platform", "sim/host/model", "sim/host/cli", "sim/host/scenario",
                            "sim/host/run", "sim/host/case", "sim/driver", "platforms"}) {
        DIR *d = opendir((std::string(COLLSIM_SOURCE_DIR "/") + dir).c_str());
        if (!d)
            continue;
        for (struct dirent *e; (e = readdir(d));) {
            std::string n = e->d_name;
            for (const char *ext : {".c", ".cc", ".h", ".sh"})
                if (n.size() > strlen(ext) && n.substr(n.size() - strlen(ext)) == ext)
                    files.push_back(std::string(dir) + "/" + n);
        }
        closedir(d);
    }
    return files;
}

// A name as used: parts joined by '.', where '*' stands for a part built at run time (%s, $var).
bool parts_match(const std::string &row, const std::string &used)
{
    std::vector<std::string> a, b;
    std::stringstream sa(row), sb(used);
    for (std::string p; std::getline(sa, p, '.');)
        a.push_back(p);
    for (std::string p; std::getline(sb, p, '.');)
        b.push_back(p);
    if (a.size() != b.size())
        return false;
    for (size_t i = 0; i < a.size(); i++) {
        bool placeholder = !a[i].empty() && std::all_of(a[i].begin(), a[i].end(), ::isupper);
        if (a[i] != b[i] && b[i] != "*" && !placeholder)
            return false;
    }
    return true;
}

// Every property name in the sources and scripts (string literals, comments, written ids; a
// name built at run time with its parts as '*'), with where it is.
std::vector<std::pair<std::string, std::string>> used_names()
{
    std::vector<std::pair<std::string, std::string>> used;
    const std::regex name("collsim[./]([A-Za-z0-9_-]+|%s|\\$\\{?[a-z_]+\\}?|\\$\\([^)]*\\))"
                          "(\\.([A-Za-z0-9_-]+|%s|\\$\\{?[a-z_]+\\}?|\\$\\([^)]*\\)))*");
    const std::regex runtime("%s|\\$\\{?[a-z_]+\\}?|\\$\\([^)]*\\)");
    for (const std::string &f : property_users()) {
        std::string text = slurp(COLLSIM_SOURCE_DIR "/" + f);
        for (auto m = std::sregex_iterator(text.begin(), text.end(), name); m != std::sregex_iterator(); ++m) {
            std::string n = std::regex_replace(m->str(), runtime, "*");
            size_t end = m->position() + m->length();
            // collsim.sbatch, collsim.h (files), collsim.factor.* (families in prose), a prefix
            // that code completes (collsim.calibrate. + a level)
            if (n.rfind("collsim.sbatch", 0) == 0 || n == "collsim.h" ||
                (end < text.size() && (text[end] == '*' || text[end] == '.' || text[end] == '{')))
                continue;
            used.push_back({n, f});
        }
    }
    return used;
}

// A property read anywhere (the host, the driver, a generator writing it) is in the table, and
// every row of the table is read somewhere.
TEST(Platform, EveryPropertyNameIsInTheTableAndEveryRowIsRead)
{
    auto used = used_names();
    ASSERT_GT(used.size(), 40u);
    for (const auto &[n, where] : used) {
        bool found = false;
        for (int i = 0; i < cs_nprops && !found; i++)
            found = parts_match(cs_props[i].name, n);
        EXPECT_TRUE(found) << where << " uses " << n << ", which core/platform_props.def lacks";
    }
    for (int i = 0; i < cs_nprops; i++) {
        int readers = 0;
        for (const auto &[n, where] : used)
            readers += parts_match(cs_props[i].name, n) && where.rfind("platforms/", 0) != 0;
        EXPECT_GT(readers, 0) << cs_props[i].name << " is in core/platform_props.def but nothing "
                                                     "in sim/ reads it";
    }
    // the driver's reads, by name
    std::string cost = slurp(COLLSIM_SOURCE_DIR "/sim/driver/cost.c") +
                       slurp(COLLSIM_SOURCE_DIR "/sim/driver/factors.cc");
    for (const char *n : {"collsim.local.copy-call", "collsim.local.copy-bw", "collsim.local.reduce-bw",
                          "collsim.overhead.%s", "collsim.factor.lat", "collsim.factor.bw", "collsim.levels"})
        EXPECT_NE(cost.find(std::string("\"") + n + "\""), std::string::npos) << n;
}

// platforms/README.md's table is `./collsim list properties --markdown`.
TEST(Platform, TheReadmeTableIsTheTable)
{
    std::string readme = slurp(COLLSIM_SOURCE_DIR "/platforms/README.md");
    const std::string begin = "<!-- the table of ./collsim list properties --markdown -->\n";
    const std::string end = "<!-- end of the table -->";
    size_t a = readme.find(begin), b = readme.find(end);
    ASSERT_NE(a, std::string::npos);
    ASSERT_NE(b, std::string::npos);
    Out o = cli("list properties --markdown");
    EXPECT_EQ(o.code, 0);
    EXPECT_EQ(readme.substr(a + begin.size(), b - a - begin.size()), o.text)
        << "regenerate: ./collsim list properties --markdown";
    Out t = cli("list properties");
    EXPECT_NE(t.text.find("collsim.overhead.send.LEVEL\n    on: top zone\n"), std::string::npos) << t.text;
    Out bad = cli("list properties --json");
    EXPECT_EQ(bad.code, 2);
    EXPECT_EQ(bad.text, "collsim: list properties takes only --markdown (got '--json')\n");
}

} // namespace
