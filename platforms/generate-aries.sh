#!/bin/sh
# generate-aries.sh - write a collsim Cray XC40 (Aries dragonfly) platform (SimGrid 3.32, DTD 4.1).
#
# usage: generate-aries.sh [-r adaptive|adaptive-bundles|minimal] [-l 2|3] MACHINE OUTPUT [GROUPS]
#
#   -r       routing model (default adaptive):
#              adaptive  Aries' adaptive routing as aggregate links: each router's green and black
#                        ports as one bundle its flows share, each group's global (blue) ports as
#                        one. The bundles cannot bind (the node links bind first), so the file
#                        leaves them out and gives each pair of routers one link with its route's
#                        latency
#              adaptive-bundles  the same model with the bundles written out as links (zone
#                        MACHINE-bundles): same rates, costlier for SimGrid's flow solver
#              minimal   one static minimal route per router pair over explicit green, black and
#                        blue links
#   -l       route latency classes of the adaptive models (default 2):
#              2  one on a router (1.3 us), one between routers (1.5 us), within a group or not
#              3  same router / same group / other group (1.3 / 1.5 / 1.8 us); zone MACHINE-3lat
#                 (MACHINE-bundles-3lat): 0.3 us more between groups, and several times the
#                 solver's work once a job spans groups (platforms/README.md, "Simulation cost")
#   MACHINE  cori (Haswell, 32 cores/node) | cori-knl (KNL, 68 cores/node) | theta (KNL, 64 cores/node)
#   OUTPUT   file to write ("-" = standard output)
#   GROUPS   optional number of dragonfly groups to model (>= 1); default: the fewest full groups
#            that hold 32,768 ranks at one rank per core (cori 3, cori-knl 2, theta 2)
#
# The build (CMakeLists.txt) writes these files, which are not committed:
#   generate-aries.sh cori     platforms/cori.xml       generate-aries.sh -r minimal cori     platforms/cori-minimal.xml
#   generate-aries.sh cori-knl platforms/cori-knl.xml   generate-aries.sh -r minimal cori-knl platforms/cori-knl-minimal.xml
#   generate-aries.sh theta    platforms/theta.xml      generate-aries.sh -r minimal theta    platforms/theta-minimal.xml
# Every value and its justification is written into the output; change them here only.
#
# Why generated zones and not SimGrid's <cluster topology="DRAGONFLY">: see platforms/README.md
# ("Cray XC40 Aries platforms"). In short, SimGrid 3.32's DRAGONFLY routing adds a spurious black
# hop to same-chassis routes in every chassis but the first and drops the black hop of routes into
# chassis 0 (measured), it needs groups <= routers per chassis, and it gives every level one
# latency, so the ~1.2 us end-point cost and the 100 ns per router hop cannot both be right.
#
# Layout (node-i, i = ((g * 6 + c) * 16 + r) * 4 + n):
#   group g, chassis c (6 per group), router r (16 per chassis, one per blade), node n (4 per router).
#   One FLAT <cluster> per router ("g<g>c<c>r<r>", router_id "g<g>c<c>r<r>-rtr") holds its 4 nodes;
#   all router clusters sit in one top-level zone (routing="Full") with one <zoneRoute> per pair of
#   routers: over the aggregate links (adaptive) or over explicit green, black and blue links (minimal).
. "$(dirname "$0")/platform-lib.sh"

set -eu

usage() {
  echo "usage: $0 [-r adaptive|adaptive-bundles|minimal] [-l 2|3] cori|cori-knl|theta OUTPUT [GROUPS]" >&2
  exit 2
}

routing=adaptive classes=2 larg=""
while [ "${1:-}" = "-r" ] || [ "${1:-}" = "-l" ]; do
  [ $# -ge 2 ] || usage
  case "$1" in
    -r) routing=$2 ;;
    -l) classes=$2 ;;
  esac
  shift 2
done
check_choice routing "$routing" adaptive adaptive-bundles minimal
check_choice "latency classes (-l)" "$classes" 2 3
if [ "$classes" = 3 ]; then
  [ "$routing" != minimal ] || { echo "$0: -l applies to the adaptive models; the minimal routes have one latency per pair of routers" >&2; exit 2; }
  larg="-l 3 "
fi
[ $# -eq 2 ] || [ $# -eq 3 ] || usage
machine=$1
out=$2

case "$machine" in
  cori)
    cores=32; dflt_groups=3; real_groups=34
    speed="36.8Gf"
    speed_note="2.3 GHz x 16 double-precision flops/cycle (two 4-wide AVX2 FMA units). ASSUMPTION: 2.3 GHz Xeon E5-2698 v3 base clock (Intel data, not in the facts file)"
    cores_note="32 cores/node (facts: Cray XC40, \"Cori Haswell\" row: 2,388 nodes, 32 cores/node (2 x 16))"
    lb_lat="0.25us"
    lb_lat_note="ASSUMPTION: the low end of Cori's published MPI latency range (facts: Cray XC40, \"Cori MPI\" row, 0.25-3.7 us), read as the on-node figure because the inter-node minimum is 1.3 us (facts: \"latency\" row)"
    lb_bw="10GBps"
    lb_bw_note="ASSUMPTION: a single-copy shared-memory transfer between two Haswell cores sustains about 10 GB/s (not in the facts file)"
    desc="Cori Haswell (NERSC Cray XC40)"
    nodes_note="Cori Haswell has 2,388 nodes (facts: \"Cori Haswell\" row) in some of Cori's 34 groups (facts: \"Cori groups\" row)"
    ;;
  cori-knl)
    cores=68; dflt_groups=2; real_groups=34
    speed="44.8Gf"
    speed_note="1.4 GHz x 32 double-precision flops/cycle (two 8-wide AVX-512 FMA units). ASSUMPTION: 1.4 GHz Xeon Phi 7250 base clock (Intel data, not in the facts file)"
    cores_note="68 cores/node (facts: Cray XC40, \"Cori KNL\" row: 9,688 nodes, 68 cores/node)"
    lb_lat="0.5us"
    lb_lat_note="ASSUMPTION: twice the Haswell on-node figure (0.25 us, facts: \"Cori MPI\" row) because a KNL core runs MPI's software path about half as fast as a Haswell core (not in the facts file)"
    lb_bw="5GBps"
    lb_bw_note="ASSUMPTION: a single-copy shared-memory transfer between two KNL cores sustains about 5 GB/s (half the Haswell figure, slower cores; not in the facts file)"
    desc="Cori KNL (NERSC Cray XC40)"
    nodes_note="Cori KNL has 9,688 nodes (facts: \"Cori KNL\" row) in Cori's 34 groups (facts: \"Cori groups\" row)"
    ;;
  theta)
    cores=64; dflt_groups=2; real_groups=12
    speed="41.6Gf"
    speed_note="1.3 GHz x 32 double-precision flops/cycle (two 8-wide AVX-512 FMA units). ASSUMPTION: 1.3 GHz Xeon Phi 7230 base clock (Intel data, not in the facts file)"
    cores_note="64 cores/node (facts: Cray XC40, \"Theta\" row: 4,392 KNL nodes, 64 cores/node)"
    lb_lat="0.5us"
    lb_lat_note="ASSUMPTION: twice the Haswell on-node figure (0.25 us, facts: \"Cori MPI\" row) because a KNL core runs MPI's software path about half as fast as a Haswell core (not in the facts file)"
    lb_bw="5GBps"
    lb_bw_note="ASSUMPTION: a single-copy shared-memory transfer between two KNL cores sustains about 5 GB/s (half the Haswell figure, slower cores; not in the facts file)"
    desc="Theta (ALCF Cray XC40, KNL)"
    nodes_note="Theta has 4,392 KNL nodes (facts: \"Theta\" row); ASSUMPTION: 12 groups (4,392 / 384 nodes per group, rounded up; the group count is not in the facts file)"
    ;;
  *)
    echo "$0: unknown machine '$machine' (valid: cori, cori-knl, theta)" >&2
    usage
    ;;
esac

groups=${3:-$dflt_groups}
case "$groups" in
  '' | *[!0-9]* | 0*) echo "$0: GROUPS '$groups' is not a positive integer" >&2; usage ;;
esac

# Global (blue) cables between one pair of groups: 240 cables per group spread over the machine's
# other groups (see the comment written into the file).
cables=$((240 / (real_groups - 1)))
nodes=$((groups * 384))
ranks=$((nodes * cores))
last=$((nodes - 1))
[ "$groups" -eq "$dflt_groups" ] && garg="" || garg=" $groups"

if [ "$routing" = minimal ]; then
  rarg="-r minimal "; zone="$machine-minimal"
  desc_routes="1.3 us + 0.1 us per router hop, 8 GB/s per node (explicit minimal routes)"
  routes_note="    Routes (one-way, minimal, static; every link SPLITDUPLEX = full duplex):
      same node      : loopback                                              $lb_lat, $lb_bw
      same router    : node link up, node link down                          1.3 us, 8 GB/s
      same chassis   : + 1 green link (router to router)                     1.4 us, 8 GB/s
      same group     : + 1 black link (same blade slot, other chassis), or
                       green then black (other slot, other chassis)          1.4 / 1.5 us, 8 GB/s
      other group    : to the router holding the global cable (0-2 hops),
                       1 blue link, from the far cable's router (0-2 hops)   1.4 .. 1.8 us, 8 GB/s
    One-way time of s bytes = 2 x 0.65 us + 0.1 us per router-to-router link + (s + 16) / 8 GB/s
    (SMPI adds 16 bytes per message): 1.3 us for 8 bytes on one router and 100 ns more per extra
    router on the route (facts: \"latency\" row), at most 1.8 us (\"under 2 us between any pair\")."
else
  # the adaptive models: route latency classes (-l), then the form (pair links or bundles)
  if [ "$classes" = 2 ]; then
    zsuf=""
    desc_lat="1.3 / 1.5 us same router / other router"
    lat_rows="      other router   : + the pair link of the two routers (0.2 us)           1.5 us, 8 GB/s"
    brows="      other router   : + the source router's local link (out), the
                       destination router's local link (in)                  1.5 us, 8 GB/s"
    lat_note="Latency: 1.3 us on one router and 1.5 us between two routers, the longest minimal route within
    a group (facts: \"latency\" row: 1.3 us + 100 ns per router hop). ASSUMPTION: 1.5 us between groups too,
    whose minimal routes take 1.4 .. 1.8 us (\"under 2 us between any pair\"), because adaptive routing
    mixes paths of several lengths at both levels; it moves routes between groups by +0.1 to -0.3 us, one
    8-byte call at 32,768 ranks by -0.1 to -2.6%, and lets the ranks' steps end together (platforms/README.md,
    \"Simulation cost\"); three classes: -l 3.
    The per-pair minimal latencies are in the minimal variant ($machine-minimal)."
  else
    zsuf="-3lat"
    desc_lat="1.3 / 1.5 / 1.8 us same router / group / other group"
    lat_rows="      same group     : + the pair link of the two routers (0.2 us)           1.5 us, 8 GB/s
      other group    : + the pair link of the two routers (0.5 us)           1.8 us, 8 GB/s"
    brows="      same group     : + the source router's local link (out), the
                       destination router's local link (in)                  1.5 us, 8 GB/s
      other group    : + the source group's global link (out), the
                       destination group's global link (in)                  1.8 us, 8 GB/s"
    lat_note="Latency: 1.3 us on one router, 1.5 us within a group and 1.8 us between groups, the longest
    minimal route of each class (facts: \"latency\" row: 1.3 us + 100 ns per router hop, \"under 2 us
    between any pair\"); the per-pair minimal latencies (1.4 .. 1.8 us) are in the minimal variant
    ($machine-minimal)."
  fi
  routes_head="    Routes (one-way; adaptive routing as aggregate links; every link SPLITDUPLEX = full duplex):
      same node      : loopback                                              $lb_lat, $lb_bw
      same router    : node link up, node link down                          1.3 us, 8 GB/s"
  if [ "$routing" = adaptive ]; then
    rarg="$larg"; zone="$machine$zsuf"
    desc_routes="$desc_lat, 8 GB/s per node (adaptive routing as aggregate links)"
    routes_note="$routes_head
$lat_rows
    A router's 15 green and 15 black ports form one bundle (157.5 GB/s), a group's 960 optical ports
    another (4,500 GB/s): Aries spreads each packet adaptively over minimal and non-minimal paths, so a
    flow is limited by the bundles, not by one cable, and the bundles cannot bind (a router's nodes
    inject at most 32 GB/s, a group's 3,072 GB/s), so only the node links bind; the pair links carry
    the route latencies (see their comment below).
    $lat_note"
  else
    rarg="-r adaptive-bundles $larg"; zone="$machine-bundles$zsuf"
    desc_routes="$desc_lat, 8 GB/s per node (adaptive routing as aggregate links, the bundles written out)"
    routes_note="$routes_head
$brows
    A router's local link is its 15 green and 15 black ports as one link (157.5 GB/s), a group's
    global link its 960 optical ports as one (4,500 GB/s): Aries spreads each packet adaptively over
    minimal and non-minimal paths, so a flow is limited by the bundle, not by one cable (the links'
    comments below).
    $lat_note"
  fi
fi

gen() {
  cat <<EOF
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <!--
    Generated by platforms/generate-aries.sh $rarg$machine OUTPUT$garg - edit the script, not this file.

    $desc: $groups dragonfly group(s) of the Cray XC40 Aries network, $nodes nodes x $cores cores = $ranks ranks.
    $nodes_note.
    Modelled: the $groups group(s) a 32,768-rank job needs at one rank per core (the allocation), not the
    whole machine (see platforms/README.md, "Cray XC40 Aries platforms").
    Facts: platforms/FACTS.md (the published facts, each row with its public source), section "Cray XC40 Aries dragonfly" (rows cited below).

    Packaging (facts: "packaging" row): 4 nodes per blade and 1 Aries router per blade, 16 blades per
    chassis, 6 chassis per group (384 nodes per group).
    Hosts: node-0 .. node-$last in document order; node-i is on router floor(i / 4), in chassis
    floor(i / 64) and group floor(i / 384). Router cluster g<g>c<c>r<r> holds node-(4k) .. node-(4k+3),
    k = (g * 6 + c) * 16 + r.

$routes_note
  -->
  <config>
$(unit_factors_config)
    <!--
      network/crosstraffic=0: ASSUMPTION: no reverse-path charge, because Aries uses credit-based
      link-level flow control and its end-to-end acknowledgements are small and coalesced, unlike
      SimGrid's default (1), which charges 5% of every flow to the reverse path (TCP acks). It also
      keeps the flow solver cheaper at scale.
    -->
    <prop id="network/crosstraffic" value="0"/>
  </config>

  <zone id="$zone" routing="Full">
    <prop id="collsim/description" value="$desc, Aries dragonfly: $groups group(s) x 6 chassis x 16 routers x 4 nodes = $nodes nodes x $cores cores = $ranks ranks; $desc_routes"/>
EOF
  if [ "$machine" = cori ]; then local_work_props haswell-aries; else local_work_props knl-aries; fi
  awk -v M="$routing" -v L="$classes" -v G="$groups" -v K="$cables" -v RG="$real_groups" -v cores="$cores" -v speed="$speed" \
      -v lb_bw="$lb_bw" -v lb_lat="$lb_lat" -v speed_note="$speed_note" -v cores_note="$cores_note" \
      -v lb_lat_note="$lb_lat_note" -v lb_bw_note="$lb_bw_note" -f - <<'AWK'
function rid(g, c, r) { return "g" g "c" c "r" r }
# router x's cluster (x = group * 96 + chassis * 16 + slot), and the route between routers x and y
function router(x) { return rid(int(x / 96), int((x % 96) / 16), x % 16) }
function zone_route(x, y, body) {
    printf "    <zoneRoute src=\"%s\" dst=\"%s\" gw_src=\"%s-rtr\" gw_dst=\"%s-rtr\">\n%s    </zoneRoute>\n", router(x), router(y), router(x), router(y), body
}
# the links of a minimal route inside group g from router (c1,r1) to (c2,r2), appended to ROUTE;
# returns the number of router-to-router links
function intra(g, c1, r1, c2, r2,    n, a, b) {
    n = 0
    if (r1 != r2) {            # green: within chassis c1, slot r1 -> r2
        a = r1 < r2 ? r1 : r2; b = r1 < r2 ? r2 : r1
        ROUTE = ROUTE sprintf("      <link_ctn id=\"green-g%dc%d-%d-%d\" direction=\"%s\"/>\n", g, c1, a, b, r1 < r2 ? "UP" : "DOWN")
        n++
    }
    if (c1 != c2) {            # black: slot r2, chassis c1 -> c2
        a = c1 < c2 ? c1 : c2; b = c1 < c2 ? c2 : c1
        ROUTE = ROUTE sprintf("      <link_ctn id=\"black-g%d-%d-%d-r%d\" direction=\"%s\"/>\n", g, a, b, r2, c1 < c2 ? "UP" : "DOWN")
        n++
    }
    return n
}
# router (index 0..95 in its group) that holds cable k of group g towards group h
function gw(g, h, k,    slot) {
    slot = (h < g ? h : h - 1) * K + k
    return int(slot * 96 / ((G - 1) * K))
}
# router-to-router links on the route between router clusters x and y (global indices)
function hops(x, y,    g1, i1, g2, i2, k, a, b, n) {
    g1 = int(x / 96); i1 = x % 96; g2 = int(y / 96); i2 = y % 96
    ROUTE = ""
    if (g1 == g2)
        return intra(g1, int(i1 / 16), i1 % 16, int(i2 / 16), i2 % 16)
    k = (i1 + i2) % K
    a = gw(g1, g2, k); b = gw(g2, g1, k)
    n = intra(g1, int(i1 / 16), i1 % 16, int(a / 16), a % 16) + 1
    return n + intra(g2, int(b / 16), b % 16, int(i2 / 16), i2 % 16)
}
# the route latency class of routers x and y in the three-class model: 0 same router, 2 same
# group, 5 other group (router-to-router links of the longest minimal route of the class); the
# adaptive models' class (-l): with two classes every route between routers is a same-group one
function cls3(x, y) { return x == y ? 0 : (int(x / 96) == int(y / 96) ? 2 : 5) }
function cls(x, y) { return L == 2 && x != y ? 2 : cls3(x, y) }
function level(name, x, y, na, nb, note,    h, m) {
    h = M == "minimal" ? hops(x, y) : cls3(x, y)
    m = M == "minimal" ? h : cls(x, y)
    printf "      %-13s: node-%d node-%d (%s - %s: %s), %d router(s)%s: %.1f us%s.\n", name, na, nb, rid(int(x / 96), int((x % 96) / 16), x % 16), rid(int(y / 96), int((y % 96) / 16), y % 16), note, h + 1, M == "minimal" ? "" : " on the class's longest minimal route", 1.3 + 0.1 * h, m == h ? "" : sprintf(" (this model: %.1f us)", 1.3 + 0.1 * m)
    PROPS = PROPS sprintf("    <prop id=\"collsim.calibrate.%s\" value=\"node-%d node-%d\"/>\n", name, na, nb)
    PUB = PUB sprintf("    <prop id=\"collsim.published.%s.all\" value=\"%.2e 1.25e-10\"/>\n", name, 1.3e-6 + 1e-7 * h)
}
# the adaptive model with its bundles written out as links (M == "adaptive-bundles")
function bundles(    g, x, y, n, g1, g2, ROUTE) {
    printf "\n"
    printf "    <!--\n"
    printf "      Local links: one per router, local-g<g>c<c>r<r>, its 15 green ports (one link to each other router of\n"
    printf "      its chassis, facts: \"rank-1\" row) and 15 black ports (3 links to its peer in each of the 5 other\n"
    printf "      chassis, facts: \"rank-2\" row) as one link: UP = leaving the router, DOWN = entering it.\n"
    printf "      bandwidth=\"157.5GBps\": 30 ports x 5.25 GB/s per direction (facts: \"electrical link\" row). Aries routes\n"
    printf "                          each packet adaptively over minimal and non-minimal paths (facts: \"adaptive routing\"\n"
    printf "                          row), so the flows leaving or entering a router share its ports as one bundle, not one\n"
    printf "                          link per destination. ASSUMPTION: the spreading is ideal (SimGrid shares the bundle\n"
    printf "                          max-min fairly) and the second hop of a non-minimal path, on a third router, is not\n"
    printf "                          charged, because that load falls on the group's other routers; it moves results only\n"
    printf "                          where a router's bundle binds, and its 4 nodes inject at most 4 x 8 = 32 GB/s, so\n"
    printf "                          within a group only the node links bind.\n"
    printf "      latency=\"0.1us\"     : each; a same-group route crosses two (out of one router, into another): 1.3 + 0.2 =\n"
    printf "                          1.5 us, the longest minimal route within a group (green then black: 2 router hops,\n"
    printf "                          \"about 100 ns per router hop\", facts: \"latency\" row). ASSUMPTION: one latency for the\n"
    printf "                          class, because adaptive routes mix 1-, 2- and 3-hop paths; it moves same-chassis and\n"
    printf "                          same-slot pairs by +0.1 us against their minimal route.\n"
    printf "    -->\n"
    n = G * 96
    for (x = 0; x < n; x++)
        printf "    <link id=\"local-%s\" bandwidth=\"157.5GBps\" latency=\"0.1us\" sharing_policy=\"SPLITDUPLEX\"/>\n", rid(int(x / 96), int((x % 96) / 16), x % 16)
    if (G > 1) {
        printf "\n"
        printf "    <!--\n"
        printf "      Global links: one per group, global-g<g>, its blue (rank-3, optical) ports as one link: UP = leaving\n"
        printf "      the group, DOWN = entering it.\n"
        printf "      bandwidth=\"4500GBps\": 96 routers x 10 optical ports x 3 lanes x 12.5 Gbps (facts: \"router ports\" row) =\n"
        printf "                          96 x 46.875 GB/s per direction = 240 cables x 18.75 GB/s (facts: \"rank-3\" row).\n"
        printf "                          ASSUMPTION: 3 lanes per optical port, as per electrical port (facts: \"electrical link\"\n"
        printf "                          row), because the lane count is not in the facts (it makes a cable 4 ports); and every\n"
        printf "                          optical port cabled, because the facts give no cable count for these machines (fewer\n"
        printf "                          cables lower the link in proportion).\n"
        printf "                          One link per group, not per pair of groups: the machine's %d groups are all joined\n", RG
        printf "                          (%d cables per pair), and adaptive routing takes a pair's traffic over its direct\n", K
        printf "                          cables and over two-cable paths through every other group, %d + %d x %d = %d of the\n", K, RG - 2, K, K * (RG - 1)
        printf "                          group's 240 cables, so the group's ports are what such traffic shares. ASSUMPTION: the\n"
        printf "                          intermediate groups (outside the modelled ones) are idle. A group's 384 nodes inject at\n"
        printf "                          most 384 x 8 = 3,072 GB/s, so on this quiet machine a global link does not bind.\n"
        if (L == 2) {
            printf "      latency=\"0us\"       : an other-group route takes the latency of a same-group one, 1.5 us. ASSUMPTION:\n"
            printf "                          one latency between routers, within a group or not, because adaptive routing mixes\n"
            printf "                          paths of several lengths at both levels (minimal routes between groups: 1.4 .. 1.8 us,\n"
            printf "                          facts: \"latency\" row); it moves them by +0.1 to -0.3 us (three classes: -l 3).\n"
        } else {
            printf "      latency=\"0.15us\"    : each; an other-group route crosses two (out of one group, into another) and two\n"
            printf "                          local links: 1.3 + 0.2 + 0.3 = 1.8 us, the longest minimal route between groups (5\n"
            printf "                          router hops; facts: \"latency\" row, \"under 2 us between any pair\"), one latency for\n"
            printf "                          the class as within a group.\n"
        }
        printf "    -->\n"
        for (g = 0; g < G; g++)
            printf "    <link id=\"global-g%d\" bandwidth=\"4500GBps\" latency=\"%s\" sharing_policy=\"SPLITDUPLEX\"/>\n", g, L == 2 ? "0us" : "0.15us"
    }
    printf "\n"
    printf "    <!--\n"
    printf "      Routes between router clusters (symmetrical: the way back is the same links in reverse): the source\n"
    printf "      router's local link out, between groups the source group's global link out and the destination group's\n"
    printf "      in, then the destination router's local link in.\n"
    printf "    -->\n"
    for (x = 0; x < n; x++) for (y = x + 1; y < n; y++) {
        g1 = int(x / 96); g2 = int(y / 96)
        ROUTE = sprintf("      <link_ctn id=\"local-%s\" direction=\"UP\"/>\n", router(x))
        if (g1 != g2)
            ROUTE = ROUTE sprintf("      <link_ctn id=\"global-g%d\" direction=\"UP\"/>\n      <link_ctn id=\"global-g%d\" direction=\"DOWN\"/>\n", g1, g2)
        ROUTE = ROUTE sprintf("      <link_ctn id=\"local-%s\" direction=\"DOWN\"/>\n", router(y))
        zone_route(x, y, ROUTE)
    }
}
# The same capacities with the bundles left out, since they cannot bind (a router's 4 nodes inject
# at most 32 GB/s against its 157.5 GB/s local link, a group's 384 nodes 3,072 GB/s against its
# 4,500 GB/s global link): one link per pair of routers carries the route's latency and, as its
# bandwidth, the bundles' share of SMPI's sharing weight (1 / bw = the sum of 1 / bw over them).
function pairs(    x, y, n, same) {
    printf "\n"
    printf "    <!--\n"
    printf "      Adaptive routing as aggregate links (platforms/README.md, \"Cray XC40 Aries platforms\"). A router's\n"
    printf "      local link is its 15 green ports (one link to each other router of its chassis, facts: \"rank-1\" row) and\n"
    printf "      15 black ports (3 links to its peer in each of the 5 other chassis, facts: \"rank-2\" row) as one bundle:\n"
    printf "      30 x 5.25 GB/s = 157.5 GB/s per direction (facts: \"electrical link\" row), 0.1 us each way. A group's\n"
    printf "      global link is its optical ports as one bundle: 96 routers x 10 ports x 3 lanes x 12.5 Gbps (facts:\n"
    printf "      \"router ports\" row) = 4,500 GB/s per direction = 240 cables x 18.75 GB/s (facts: \"rank-3\" row), 0.15 us.\n"
    printf "      Aries routes each packet adaptively over minimal and non-minimal paths (facts: \"adaptive routing\" row),\n"
    printf "      so the flows leaving or entering a router or a group share its ports as one bundle. ASSUMPTIONS: ideal\n"
    printf "      spreading; the second hop of a non-minimal path is not charged; 3 lanes per optical port and every\n"
    printf "      optical port cabled (the facts give neither); one global bundle per group, not per pair of groups\n"
    printf "      (the machine's %d groups are all joined, %d cables per pair, and adaptive routing takes a pair's\n", RG, K
    printf "      traffic over %d of the group's 240 cables); the intermediate groups are idle.\n", K * (RG - 1)
    printf "      The bundles cannot bind: a router's 4 nodes inject at most 4 x 8 = 32 GB/s and receive at most as\n"
    printf "      much (against 157.5 GB/s), a group's 384 nodes 3,072 GB/s (against 4,500 GB/s). So this file leaves them\n"
    printf "      out of SimGrid's flow solver, which otherwise re-solves every flow that crosses them at each event (the\n"
    printf "      same model written with the bundles: generate-aries.sh -r adaptive-bundles). Each pair of routers has\n"
    printf "      one link, pair-<router>-<router>, that carries its route's latency and, as its bandwidth, the bundles'\n"
    printf "      term of SMPI's sharing weight (weight-S x the sum of 1 / bandwidth over a route's links):\n"
    printf "        same group : latency=\"0.2us\" (two local links: 1.3 + 0.2 = 1.5 us, the longest minimal route within\n"
    printf "                     a group, green then black, 2 router hops, \"about 100 ns per router hop\", facts: \"latency\"\n"
    printf "                     row), bandwidth=\"78.75GBps\" (1 / (2 / 157.5 GB/s)).\n"
    if (L == 2) {
        printf "        other group: latency=\"0.2us\" (1.5 us, as within a group; ASSUMPTION: one latency between routers,\n"
        printf "                     because adaptive routing mixes paths of several lengths at both levels; the minimal\n"
        printf "                     routes between groups take 1.4 .. 1.8 us, 5 router hops at most, so this moves them by\n"
        printf "                     +0.1 to -0.3 us; three classes, 1.8 us between groups: -l 3),\n"
    } else {
        printf "        other group: latency=\"0.5us\" (two local and two global links: 1.3 + 0.2 + 0.3 = 1.8 us, the longest\n"
        printf "                     minimal route between groups, 5 router hops; \"under 2 us between any pair\"),\n"
    }
    printf "                     bandwidth=\"76.0869565GBps\" (1 / (2 / 157.5 + 2 / 4,500 GB/s) = 1,750 / 23 GB/s).\n"
    printf "      A pair link carries at most 32 GB/s (its source router's 4 nodes), so it does not bind either.\n"
    printf "      ASSUMPTION: one latency per class, because adaptive routes mix paths of several lengths; it moves\n"
    printf "      same-chassis and same-slot pairs by +0.1 us against their minimal route.\n"
    printf "    -->\n"
    n = G * 96
    for (x = 0; x < n; x++) for (y = x + 1; y < n; y++) {
        same = int(x / 96) == int(y / 96)
        printf "    <link id=\"pair-%s-%s\" bandwidth=\"%s\" latency=\"%s\" sharing_policy=\"SPLITDUPLEX\"/>\n", router(x), router(y), same ? "78.75GBps" : "76.0869565GBps", same || L == 2 ? "0.2us" : "0.5us"
    }
    printf "\n"
    printf "    <!--\n"
    printf "      Routes between router clusters (symmetrical: the way back is the pair link's other direction).\n"
    printf "    -->\n"
    for (x = 0; x < n; x++) for (y = x + 1; y < n; y++)
        zone_route(x, y, sprintf("      <link_ctn id=\"pair-%s-%s\" direction=\"UP\"/>\n", router(x), router(y)))
}
BEGIN {
    # calibration levels: the farthest router of group 1 from router 0 for the other-group pair
    far = 96; fh = -1
    for (y = 96; G > 1 && y < 192; y++) if ((h = hops(0, y)) > fh) { fh = h; far = y }
    printf "    <!--\n"
    printf "      Calibration (collsim calibrate PLATFORM; the convention is in platforms/README.md): one ping-pong per\n"
    printf "      locality level. Published values: alpha = 1.3 us between two nodes of one router (\"8-byte MPI about\n"
    printf "      1.3 us\") plus 100 ns per further router on the route (\"about 100 ns per router hop\"), both facts:\n"
    printf "      \"latency\" row; beta = 1 / (8 GB/s) = 1.25e-10 s/B at every distance (facts: \"injection\" row, \"about\n"
    printf "      8 GB/s per direction for bulk traffic\"). One regime (\"all\"): the facts give no eager/rendezvous split\n"
    printf "      for Aries. same-node is measured but has no published value (facts: none for on-node MPI here).\n"
    PROPS = "    <prop id=\"collsim.calibrate.same-node\" value=\"node-0 node-0\"/>\n"
    PUB = ""
    level("same-router", 0, 0, 0, 1, "same router")
    if (M == "minimal")
        level("same-chassis", 0, 1, 0, 4, "1 green link")
    level("same-group", 0, 17, 0, 68, "green + black")
    if (G > 1)
        level("other-group", 0, far, 0, far * 4 + 3, "the farthest router of group 1")
    printf "    -->\n"
    printf "%s%s", PROPS, PUB
    printf "    <!-- Locality levels (platforms/README.md, \"Locality levels\"): a host is a node; node-i is on\n"
    printf "         router floor(i / 4), chassis floor(i / 64) and group floor(i / 384) (facts: \"packaging\" row). -->\n"
    printf "    <prop id=\"collsim.levels\" value=\"node,router,chassis,group\"/>\n"
    printf "    <prop id=\"collsim.group.router\" value=\"4\"/>\n"
    printf "    <prop id=\"collsim.group.chassis\" value=\"64\"/>\n"
    printf "    <prop id=\"collsim.group.group\" value=\"384\"/>\n"

    printf "\n"
    printf "    <!--\n"
    printf "      One router cluster per Aries router (blade): 4 nodes (facts: \"packaging\" row).\n"
    printf "      core=\"%d\"         : %s.\n", cores, cores_note
    printf "      speed=\"%s\"     : per core, %s. Only matters when simulated computation is on\n", speed, speed_note
    printf "                          (collsim runs with smpi/simulate-computation:no).\n"
    printf "      bw=\"8GBps\"        : node link (NIC to router), each direction. Injection: \"NIC peak 10.2 GB/s, about\n"
    printf "                          8 GB/s per direction for bulk traffic\" (facts: \"injection\" row); 8 GB/s is what an\n"
    printf "                          MPI flow gets, so it is the model's per-node rate.\n"
    printf "      lat=\"0.65us\"      : node link. Two node links per inter-node route, so 1.3 us one-way between two nodes of\n"
    printf "                          one router: \"8-byte MPI about 1.3 us\" (facts: \"latency\" row). The node links carry the\n"
    printf "                          whole end-point cost (NIC, MPI software, the first router), so that each further router\n"
    printf "                          costs only its own 100 ns (the router-to-router links below).\n"
    printf "      sharing_policy    : SPLITDUPLEX = full duplex (facts give per-direction rates).\n"
    printf "      loopback_lat=\"%s\": on-node (shared memory) latency. %s.\n", lb_lat, lb_lat_note
    printf "      loopback_bw=\"%s\" : on-node per-message bandwidth. %s.\n", lb_bw, lb_bw_note
    printf "                          SimGrid's loopback is a FATPIPE: every concurrent on-node message gets the full rate.\n"
    printf "    -->\n"
    node = 0
    for (g = 0; g < G; g++) for (c = 0; c < 6; c++) for (r = 0; r < 16; r++) {
        printf "    <cluster id=\"%s\" prefix=\"node-\" radical=\"%d-%d\" suffix=\"\" core=\"%d\" speed=\"%s\" bw=\"8GBps\" lat=\"0.65us\" sharing_policy=\"SPLITDUPLEX\" loopback_bw=\"%s\" loopback_lat=\"%s\" router_id=\"%s-rtr\"/>\n", rid(g, c, r), node, node + 3, cores, speed, lb_bw, lb_lat, rid(g, c, r)
        node += 4
    }

    if (M == "adaptive") {
        pairs()
        exit 0
    }
    if (M == "adaptive-bundles") {
        bundles()
        exit 0
    }

    printf "\n"
    printf "    <!--\n"
    printf "      Green (rank-1) links: \"within a chassis: all-to-all among 16 routers, 1 link each\" (facts: \"rank-1\" row);\n"
    printf "      green-g<g>c<c>-<a>-<b> joins slots a < b of chassis c (UP = a to b).\n"
    printf "      bandwidth=\"8GBps\" : ASSUMPTION: 8 GB/s instead of the raw 5.25 GB/s of one electrical link (facts: \"electrical\n"
    printf "                          link\" row), because Aries routes adaptively: a flow between two routers of a chassis also\n"
    printf "                          uses two-hop paths through the other 14 routers, and a point-to-point transfer reaches\n"
    printf "                          the NIC's ~8 GB/s at any distance (facts: \"injection\" row). A static single-path model\n"
    printf "                          reproduces that only if no link on the path is slower than the node link. Under uniform\n"
    printf "                          all-to-all load this overstates a green link by 8 / 5.25 = 1.52x.\n"
    printf "      latency=\"0.1us\"   : one more router on the route: \"about 100 ns per router hop\" (facts: \"latency\" row).\n"
    printf "    -->\n"
    for (g = 0; g < G; g++) for (c = 0; c < 6; c++) for (a = 0; a < 16; a++) for (b = a + 1; b < 16; b++)
        printf "    <link id=\"green-g%dc%d-%d-%d\" bandwidth=\"8GBps\" latency=\"0.1us\" sharing_policy=\"SPLITDUPLEX\"/>\n", g, c, a, b

    printf "\n"
    printf "    <!--\n"
    printf "      Black (rank-2) links: \"within a group: 3 links from each router to its peer in each other chassis\"\n"
    printf "      (facts: \"rank-2\" row); black-g<g>-<a>-<b>-r<r> joins slot r of chassis a < b (UP = a to b).\n"
    printf "      bandwidth=\"15.75GBps\": 3 links x 5.25 GB/s per direction (facts: \"rank-2\" and \"electrical link\" rows).\n"
    printf "      latency=\"0.1us\"      : one more router (facts: \"latency\" row).\n"
    printf "    -->\n"
    for (g = 0; g < G; g++) for (a = 0; a < 6; a++) for (b = a + 1; b < 6; b++) for (r = 0; r < 16; r++)
        printf "    <link id=\"black-g%d-%d-%d-r%d\" bandwidth=\"15.75GBps\" latency=\"0.1us\" sharing_policy=\"SPLITDUPLEX\"/>\n", g, a, b, r

    if (G > 1) {
        printf "\n"
        printf "    <!--\n"
        printf "      Blue (rank-3) links: optical global cables, \"18.75 GB/s per cable per direction\" (facts: \"rank-3\" row).\n"
        printf "      blue-<g>-<h>-k<k> is cable k between groups g < h (UP = g to h); %d cables per pair of groups.\n", K
        printf "      ASSUMPTION: %d = 240 cables per group / %d other groups of the whole machine, because each Aries\n", K, RG - 1
        printf "      router has 10 optical ports (facts: \"router ports\" row), i.e. 96 x 10 = 960 ports,\n"
        printf "      4 ports (12 lanes, 18.75 GB/s) per cable = 240 cables per group, spread evenly over the other groups.\n"
        printf "      Cable k of a pair ends on router floor(s * 96 / ((groups - 1) * %d)) of each group, s = slot of the\n", K
        printf "      cable among that group's cables, so the global cables are spread over the group's routers.\n"
        printf "      latency=\"0.1us\": one more router (facts: \"latency\" row); cable time of flight is not modelled.\n"
        printf "    -->\n"
        for (g = 0; g < G; g++) for (h = g + 1; h < G; h++) for (k = 0; k < K; k++)
            printf "    <link id=\"blue-%d-%d-k%d\" bandwidth=\"18.75GBps\" latency=\"0.1us\" sharing_policy=\"SPLITDUPLEX\"/>\n", g, h, k
    }

    printf "\n"
    printf "    <!--\n"
    printf "      Routes between router clusters (symmetrical: the way back is the same links in reverse).\n"
    printf "      Same group: the green link to the destination's slot, then the black link to its chassis (each only\n"
    printf "      when needed). Other group: cable k = (source router index + destination router index) mod %d of\n", K
    printf "      the pair (spreads pairs of routers over the cables), reached and left with the same-group rule.\n"
    printf "      Aries routes adaptively; this model uses one minimal path per pair of routers.\n"
    printf "    -->\n"
    n = G * 96
    for (x = 0; x < n; x++) for (y = x + 1; y < n; y++) {
        g1 = int(x / 96); i1 = x % 96; c1 = int(i1 / 16); r1 = i1 % 16
        g2 = int(y / 96); i2 = y % 96; c2 = int(i2 / 16); r2 = i2 % 16
        ROUTE = ""
        if (g1 == g2) {
            intra(g1, c1, r1, c2, r2)
        } else {
            k = (i1 + i2) % K
            a = gw(g1, g2, k); b = gw(g2, g1, k)
            intra(g1, c1, r1, int(a / 16), a % 16)
            ROUTE = ROUTE sprintf("      <link_ctn id=\"blue-%d-%d-k%d\" direction=\"UP\"/>\n", g1, g2, k)
            intra(g2, int(b / 16), b % 16, c2, r2)
        }
        zone_route(x, y, ROUTE)
    }
}
AWK
  cat <<EOF
  </zone>
</platform>
EOF
}

write_platform "$out"
