#!/bin/sh
# generate-sockets.sh - write a collsim platform whose SimGrid hosts are sockets
# (SimGrid 3.32, DTD 4.1): lassen or quartz.
#
# usage: generate-sockets.sh [--model flat|nested] [--pcie duplex|shared] lassen|quartz NODES_PER_LEAF LEAVES OUTPUT
#
#   --model         how the tree is written (default flat; see "Models" below)
#   NODES_PER_LEAF  nodes under each leaf switch (>= 1)
#   LEAVES          leaf switches (>= 1)
#   OUTPUT          file to write ("-" = standard output)
#
# platforms/lassen.xml is exactly: generate-sockets.sh lassen 18 57 platforms/lassen.xml
# platforms/quartz.xml is exactly: generate-sockets.sh quartz 24 43 platforms/quartz.xml
#
# Why sockets are hosts: SimGrid hosts have no sockets, and messages between two ranks of one host
# take the host's loopback. Lassen's costs differ between intra-socket, inter-socket and inter-node
# messages (facts: Lassen postal table), so each socket is a host and a node is a zone of two socket
# hosts joined by an inter-socket link:
#
#   zone node-N (Full)                         collsim.level = node
#     hosts node-N-s0, node-N-s1 (one per socket), router node-N-hca (the node's network adapter)
#     routes: sK -> sK: node-N-sK-loop (intra-socket, shared memory)
#             s0 -> s1: node-N-xbus (inter-socket)
#             sK -> hca: node-N-sK-pcie-out, hca -> sK: node-N-sK-pcie-in (the socket's path to the
#             adapter, one FATPIPE link per direction; --pcie shared: one link node-N-sK-pcie for
#             both, as in the files before). A FATPIPE link shares no capacity, but SimGrid 3.32
#             caps each of its flows at its rate times the smallest sharing weight among the link's
#             flows over the flow's own, so it is a constraint of the flow solver like a shared link:
#             one link for both directions ties the socket's outgoing and incoming flows, and
#             through them every flow of the machine, into one system re-solved at each event.
#
# Models: both give every route the same links' latencies and the same bottlenecks; they differ in
# which links a route crosses, which is what SimGrid's max-min solver pays for (docs/simulation-cost.md).
#
# flat (the default): one Floyd zone holds the node zones, one router zone per leaf switch and the
# core router. Node N has its link to its leaf (node-N-nic) and its share of the leaf's uplinks
# (node-N-far); collsim.region.switch names its leaf.
#   zoneRoutes: node-N <-> leaf-L-switch over [nic];  node-N <-> core over [nic, far]
#   routes: same leaf [pcie, nic, nic, pcie]; other leaf [pcie, nic, far, far, nic, pcie]
# Floyd picks the path with the fewest links: within a leaf through the leaf switch (2 links, not 4).
# The tree is non-blocking: a leaf's uplinks carry what its nodes' links carry, so they do not limit a
# flow and are not shared links here (a shared link ties every flow crossing it into one system the
# solver re-solves at each event); their latency is in node-N-far. (In SimGrid's latency-weighted
# max-min a shared uplink can bind slightly when flows of unequal latencies fill a leaf; that, not the
# machine, is the difference between the two models' predictions: docs/platforms.md.)
#
# nested (the model before flat, for comparison): leaf zones hold node zones, the leaf uplinks are
# shared links to a core:
#   zone MACHINE (Floyd) > zone leaf-L (Floyd, collsim.level = switch) > node-N zones and a switch
#   links node-N-nic (node <-> leaf switch), leaf-L-up (leaf <-> core)
#   routes: same leaf [pcie, nic, nic, pcie]; other leaf [pcie, nic, up, up, nic, pcie]
#
# A "node" (what --ppn counts, what mappings fill) is a node-N zone: ranks fill socket 0's cores,
# then socket 1's (sim/host/platform/mapping.h). Values and their sources are written into the output.
. "$(dirname "$0")/platform-lib.sh"

set -eu

usage() {
  echo "usage: $0 [--model flat|nested] [--pcie duplex|shared] lassen|quartz NODES_PER_LEAF LEAVES OUTPUT" >&2
  exit 2
}

is_posint() {
  case "$1" in
    '' | *[!0-9]* | 0*) return 1 ;;
    *) return 0 ;;
  esac
}

model=flat pcie=duplex
while [ "${1:-}" = --model ] || [ "${1:-}" = --pcie ]; do
  [ $# -ge 2 ] || usage
  case "$1" in
    --model) model=$2 ;;
    --pcie) pcie=$2 ;;
  esac
  shift 2
done
check_choice model "$model" flat nested
check_choice pcie "$pcie" duplex shared
if [ "$pcie" = duplex ]; then
  # (no double hyphen: the note goes into an XML comment)
  pcie_note="one link per direction (sK-pcie-out, sK-pcie-in), so that the socket's outgoing and incoming
                              flows are separate systems for SimGrid's solver (the generator's pcie option
                              duplex, the default; see its header)"
else
  pcie_note="one link for both directions (the generator's pcie option shared: the files before the
                              option's default, duplex)"
fi
[ $# -eq 4 ] || usage
machine=$1
npl=$2
leaves=$3
out=$4
for v in "$npl" "$leaves"; do
  is_posint "$v" || { echo "$0: '$v' is not a positive integer" >&2; usage; }
done

nodes=$((npl * leaves))
last=$((nodes - 1))
far=$(((leaves - 1) * npl)) # first node of the last leaf: the calibration's inter-node partner

case "$machine" in
lassen)
  Machine=Lassen
  cores=20
  ranks=$((nodes * 2 * cores))
  speed=10Gf
  loop_bw=40.31GBps
  loop_lat=0.3923us
  xbus_bw=9.823GBps
  xbus_lat=0.9062us
  pcie_bw=9.859GBps
  pcie_lat=0.2382us
  nic_bw=24GBps
  nic_lat=0.2382us
  up_lat=0.09us
  up_bw_num=$((npl * 24))
  up_bw="${up_bw_num}GBps"
  # facts: Lassen postal table: alpha (s) and beta (s/B) for short, eager, rendezvous
  pub_intra="3.5e-7 2.0e-10 4.8e-7 6.9e-11 3.2e-6 3.4e-11"
  pub_xsock="9.2e-7 1.15e-9 1.17e-6 2.2e-10 6.9e-6 1.48e-10"
  pub_node="1.27e-6 1.09e-9 1.87e-6 5.3e-10 6.85e-6 7.4e-11"
  description="Lassen (LLNL; IBM POWER9, Spectrum MPI): $nodes nodes x 2 sockets x $cores cores = $ranks ranks, sockets as hosts; EDR InfiniBand fat tree ($leaves leaves x $npl nodes, non-blocking core); Lassen postal table fitted with SMPI's short/eager/rendezvous factors (switch at 8 KiB)"
  ;;
quartz)
  Machine=Quartz
  cores=18
  ranks=$((nodes * 2 * cores))
  speed=33.6Gf
  loop_bw=10GBps
  loop_lat=0.25us
  xbus_bw=6GBps
  xbus_lat=0.5us
  pcie_bw=12GBps
  pcie_lat=0.2us
  nic_bw=12GBps
  nic_lat=0.2us
  up_lat=0.1us
  up_bw_num=$((npl * 12))
  up_bw="${up_bw_num}GBps"
  description="Quartz (LLNL; 2x Xeon E5-2695 v4, MVAPICH2): $nodes nodes x 2 sockets x $cores cores = $ranks ranks, sockets as hosts; Omni-Path 100 Gbps fat tree ($leaves leaves x $npl nodes, non-blocking core); assumed Omni-Path-typical values (1 us, 12 GB/s across leaves)"
  ;;
*)
  echo "$0: unknown machine '$machine' (valid: lassen, quartz)" >&2
  usage
  ;;
esac

if [ "$machine" = lassen ]; then
  # the levels' routes in seconds and bytes/s, for the factors (props)
  loop_lat_s="${loop_lat%us}e-6" xbus_lat_s="${xbus_lat%us}e-6"
  loop_bw_bps="${loop_bw%GBps}e9" xbus_bw_bps="${xbus_bw%GBps}e9" pcie_bw_bps="${pcie_bw%GBps}e9"
  sw_lat_us=$(awk "BEGIN { printf \"%.6g\", 2 * ${pcie_lat%us} + 2 * ${nic_lat%us} }")
  sys_lat_us=$(awk "BEGIN { printf \"%.6g\", $sw_lat_us + 2 * ${up_lat%us} }")
  sw_lat_s="${sw_lat_us}e-6" sys_lat_s="${sys_lat_us}e-6"
fi

if [ "$model" = flat ]; then
  up_name=far up_pad="                "
  up_what=" (here one per node: the node's path through its leaf's uplinks; the header says why)"
  up_note="The leaf's uplinks ($up_bw) are not shared
    links: the tree is non-blocking, so they carry what the node links carry; node-N-far holds their latency."
else
  up_name=leaf-up up_pad="         " up_what=""
  up_note="The leaf uplinks ($up_bw) are shared by the leaf's."
fi

header() {
  cat <<EOF
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <!--
    Generated by platforms/generate-sockets.sh, model $model, pcie $pcie: $machine $npl $leaves OUTPUT - edit the script,
    not this file.

    $Machine: $nodes nodes x 2 sockets x $cores cores = $ranks ranks. SimGrid hosts are SOCKETS
    (node-N-s0, node-N-s1); a node is the zone node-N holding its two sockets (see the script's header
    for the construction and its models). Nodes node-0 .. node-$last in document order; node-N is under
    leaf switch floor(N / $npl) (leaf-L). Facts: platforms/FACTS.md (the published facts, each row with its public source) (rows cited below).

    One-way routes (link latencies as written; every link value is cited in its own comment):
      intra-socket (sK -> sK)      node-N-sK-loop                                  $loop_lat, $loop_bw
      inter-socket (s0 <-> s1)     node-N-xbus                                     $xbus_lat, $xbus_bw
      other node, same leaf        pcie, nic, nic, pcie                            4 x $pcie_lat
      other node, other leaf       pcie, nic, $up_name, $up_name, nic, pcie $up_pad 4 x $pcie_lat + 2 x $up_lat
    A message's rate is capped by the slowest link of its route (the socket's pcie path, $pcie_bw); the
    node link ($nic_bw) is shared by the node's concurrent flows. $up_note
EOF
  if [ "$machine" = lassen ]; then
    cat <<EOF

    Protocol regimes (facts: Lassen postal table: short < 256 B, eager 256 B .. 8 KiB, rendezvous
    >= 16 KiB; the loc-Bruck paper switches to rendezvous at 8192 B): SMPI multiplies a route's
    latency by a latency factor and its rate by a bandwidth factor, both chosen by message size.
    The full model (the default) takes them per level (the collsim.factor.*.LEVEL properties: each
    level's published row, so ./collsim calibrate lassen meets the table within 1.5%). The network
    model takes one factor per regime for ALL paths (collsim.factor.lat, collsim.factor.bw; the
    fit below). The published table cannot be reproduced exactly that way
    (its inter-node/intra-socket ratios differ per regime: alpha 3.63, 3.90, 2.14; beta 5.45, 7.68,
    2.18), so the fit is (alpha and beta separately, in log space):
      - the inter-node/intra-socket ratio is the midpoint of the published ratios over the regimes
        (alpha 2.888, beta 4.089), and each regime's factor splits the remaining error evenly between
        the two paths: every intra-socket and inter-node alpha is within 16.1%, every beta within 37.1%
        of the table (the smallest largest error any one-factor-per-regime model can reach);
      - inter-socket latency and bandwidth are then the least-squares fit given those factors
        (alpha within 10.1%, beta within 76% (eager); inter-socket matters only above 20 ranks per node).
      Link latencies are short-message values (lat-factor 1 below 256 B); link bandwidths are rendezvous
      values (bw-factor 1 from 8 KiB: a factor above 1 would let concurrent flows move more than a
      shared link's bandwidth, see the factors' comment below).
      Resulting one-way times T = alpha + beta * s (s = payload; SMPI adds 16 bytes per message, +0.1 ..
      1.3% on alpha):
        path          regime      alpha model / published     beta model / published
        intra-socket  short       0.392 / 0.35 us (+12%)      2.31e-10 / 2.0e-10 (+15%)
        intra-socket  eager       0.558 / 0.48 us (+16%)      9.46e-11 / 6.9e-11 (+37%)
        intra-socket  rendezvous  2.755 / 3.2 us  (-14%)      2.48e-11 / 3.4e-11 (-27%)
        inter-socket  short       0.906 / 0.92 us (-1.5%)     9.48e-10 / 1.15e-9 (-18%)
        inter-socket  eager       1.288 / 1.17 us (+10%)      3.88e-10 / 2.2e-10 (+76%)
        inter-socket  rendezvous  6.364 / 6.9 us  (-7.8%)     1.02e-10 / 1.48e-10 (-31%)
        inter-node    short       1.133 / 1.27 us (-11%)      9.44e-10 / 1.09e-9 (-13%)
        inter-node    eager       1.610 / 1.87 us (-14%)      3.87e-10 / 5.3e-10 (-27%)
        inter-node    rendezvous  7.956 / 6.85 us (+16%)      1.01e-10 / 7.4e-11 (+37%)
      (inter-node: across leaves, the calibration's pair; within a leaf 2 x $up_lat x lat-factor less.)
EOF
  else
    cat <<EOF

    ASSUMPTIONS: the facts give no Quartz postal parameters ("not found; choose Omni-Path-typical values
    (about 1 us latency, 12 GB/s) and say so"), no node count ("at least 911 nodes for 32K ranks") and no
    intra-node figures; every value below is an assumption with its reason. No protocol regimes are
    modelled (smpi/lat-factor and smpi/bw-factor 0:1, SMPI's default eager/rendezvous switch at 64 KiB)
    because there is no per-regime data to fit.
EOF
  fi
  cat <<EOF
  -->
EOF
}

config() {
  if [ "$machine" = lassen ]; then
    cat <<EOF
  <config>
    <!--
      No smpi/lat-factor or smpi/bw-factor here: the factors are the root zone's collsim.factor.*
      properties (below), which the driver installs as SimGrid's factor callbacks (SimGrid refuses
      a callback when <config> sets them).
    -->
    <!--
      Eager/rendezvous switch at 8 KiB (facts: Lassen postal table; the loc-Bruck paper models messages
      >= 8192 B with rendezvous parameters): below 8192 B a send is detached (the sender does not wait
      for the receiver: smpi/send-is-detached-thresh) and starts moving data before the receive is posted
      (smpi/async-small-thresh); from 8192 B the transfer waits for the matching receive.
    -->
    <prop id="smpi/send-is-detached-thresh" value="8192"/>
    <prop id="smpi/async-small-thresh" value="8192"/>
    <!--
      smpi/os, smpi/or (per-message software overheads of eager sends and receives): 0. The fit above
      gives them no weight: an overhead is the same on every path, and it would only push the per-regime
      path ratios further from the published ones. Written out so that it is visible.
    -->
    <prop id="smpi/os" value="0:0:0"/>
    <prop id="smpi/or" value="0:0:0"/>
    <!--
      network/crosstraffic=0: ASSUMPTION: no reverse-path charge, because InfiniBand uses credit-based
      link-level flow control and small coalesced acknowledgements (SimGrid's default 1 models TCP).
    -->
    <prop id="network/crosstraffic" value="0"/>
$(weight_s_config 8775 "3.46 (same leaf; 0.95 at 0)" "3.69 (across leaves; 1.13 at 0)")
  </config>
EOF
  else
    cat <<EOF
  <config>
    <!--
      No regimes (see the header): factors 1, written 0:1 ("from 0 B up, factor 1"; SMPI 3.32 segfaults
      on a bare 1), so that a link value means what its comment says.
    -->
    <prop id="smpi/bw-factor" value="0:1"/>
    <prop id="smpi/lat-factor" value="0:1"/>
    <!--
      network/crosstraffic=0: ASSUMPTION: no reverse-path charge, because Omni-Path uses credit-based
      link-level flow control (SimGrid's default 1 models TCP acknowledgements).
    -->
    <prop id="network/crosstraffic" value="0"/>
$(weight_s_config 8775 "3.73 (same leaf; 0.80 at 0)" "3.99 (across leaves; 1.00 at 0)")
  </config>
EOF
  fi
}

# published_props PATH "A B A B A B" ROWS: the path's collsim.published.PATH.REGIME props
published_props() {
  echo "    <!-- facts: Lassen postal table, $3 -->"
  echo "$2" | awk -v path="$1" '{
    split("short eager rendezvous", regime, " ")
    for (r = 1; r <= 3; r++)
      printf "    <prop id=\"collsim.published.%s.%s\" value=\"%s %s\"/>\n", path, regime[r], $(2 * r - 1), $(2 * r)
  }'
}

props() {
  cat <<EOF
    <prop id="collsim/description" value="$description"/>
    <!-- Locality levels (platforms/README.md, "Locality levels"): a host is a socket; node-N zones and
         leaf-L zones declare the node and switch regions. -->
    <prop id="collsim.levels" value="socket,node,switch"/>
$(if [ "$machine" = lassen ]; then local_work_props power9-edr; else local_work_props broadwell-opa; fi)
    <!-- Calibration (platforms/README.md, "Calibration properties"): one host pair per published path;
         inter-node across leaves (node-0 and node-$far, the first node of the last leaf). -->
    <prop id="collsim.calibrate.intra-socket" value="node-0-s0 node-0-s0"/>
    <prop id="collsim.calibrate.inter-socket" value="node-0-s0 node-0-s1"/>
    <prop id="collsim.calibrate.inter-node" value="node-0-s0 node-$far-s0"/>
EOF
  if [ "$machine" = lassen ]; then
    cat <<EOF
    <!-- Regimes as the facts' fit defines them (short < 256 B, eager 256 B ..; rendezvous >= 16 KiB);
         8 KiB, where the model switches to rendezvous (facts: the paper's 8192 B), is left unfitted. -->
    <prop id="collsim.regimes" value="short:0-255 eager:256-4K rendezvous:16K-"/>
$(published_props intra-socket "$pub_intra" "intra-socket rows (short, eager, rendezvous)")
$(published_props inter-socket "$pub_xsock" "inter-socket rows")
$(published_props inter-node "$pub_node" "inter-node rows")
    <!-- Network factors (sim/driver/cost.h; platforms/README.md, "Lassen's regimes"), SMPI's
         smpi/lat-factor format: an entry SIZE:FACTOR applies to messages above SIZE bytes, payload
         + SMPI's 16-byte envelope, so the payload thresholds 256 B and 8 KiB are written 271 and
         8207 (measured: a 256-byte payload takes the first entry, 257 bytes the second, with
         K = 272). Route latencies are multiplied by the lat factor, a flow's rate (its bottleneck
         link's) by the bw factor.
         collsim.factor.lat, collsim.factor.bw: one factor per regime for every path, the fit in the
         header; the network model uses them.
           lat: short 1 (link latencies are short-message values); eager 1.421 = sqrt(0.48 x 1.87) /
                sqrt(0.35 x 1.27); rendezvous 7.022 = sqrt(3.2 x 6.85) / sqrt(0.35 x 1.27) (facts:
                Lassen postal table, intra-socket and inter-node alphas).
           bw:  rendezvous 1 (link bandwidths are rendezvous values); eager 0.2623 =
                sqrt(3.4e-11 x 7.4e-11) / sqrt(6.9e-11 x 5.3e-10); short 0.1074 =
                sqrt(3.4e-11 x 7.4e-11) / sqrt(2.0e-10 x 1.09e-9) (same table, the betas). -->
    <prop id="collsim.factor.lat" value="0:1;271:1.421;8207:7.022"/>
    <prop id="collsim.factor.bw" value="0:0.1074;271:0.2623;8207:1"/>
    <!-- collsim.factor.lat.LEVEL, collsim.factor.bw.LEVEL: the full model (the default) takes the
         factors of the finest level both hosts share, each fitted to that level's published row
         (facts: Lassen postal table; platform-lib.sh, level_factors), per regime:
           bw  = (1 / published beta) / the route's bottleneck rate
           lat = (published alpha - 16 B x published beta) / the route's latency
         (the envelope's 16 bytes cross at the published rate, so alpha at payload 0 is the
         published one).
         socket (intra-socket rows): route [loop], $loop_lat, $loop_bw
         node (inter-socket rows): route [xbus], $xbus_lat, $xbus_bw
         switch (inter-node rows, same leaf): [pcie, nic, nic, pcie], $sw_lat_us us, $pcie_bw
         system (inter-node rows, across leaves): [pcie, nic, $up_name, $up_name, nic, pcie], $sys_lat_us us, $pcie_bw
         A bw factor above 1 (inter-node rendezvous: 13.5 GB/s published, over the 9.859 GB/s
         pcie link) raises the flow's rate above its links' bandwidths; SimGrid's sharing still
         counts the flow at its unscaled rate, so concurrent inter-node rendezvous flows through a
         node link move up to that factor x $nic_bw (facts: 24 GB/s node injection) in the full
         model. -->
    <prop id="collsim.factor.lat.socket" value="$(level_factors lat "$loop_lat_s" "$loop_bw_bps" "$pub_intra")"/>
    <prop id="collsim.factor.bw.socket" value="$(level_factors bw "$loop_lat_s" "$loop_bw_bps" "$pub_intra")"/>
    <prop id="collsim.factor.lat.node" value="$(level_factors lat "$xbus_lat_s" "$xbus_bw_bps" "$pub_xsock")"/>
    <prop id="collsim.factor.bw.node" value="$(level_factors bw "$xbus_lat_s" "$xbus_bw_bps" "$pub_xsock")"/>
    <prop id="collsim.factor.lat.switch" value="$(level_factors lat "$sw_lat_s" "$pcie_bw_bps" "$pub_node")"/>
    <prop id="collsim.factor.bw.switch" value="$(level_factors bw "$sw_lat_s" "$pcie_bw_bps" "$pub_node")"/>
    <prop id="collsim.factor.lat.system" value="$(level_factors lat "$sys_lat_s" "$pcie_bw_bps" "$pub_node")"/>
    <prop id="collsim.factor.bw.system" value="$(level_factors bw "$sys_lat_s" "$pcie_bw_bps" "$pub_node")"/>
EOF
  else
    cat <<EOF
    <!-- ASSUMED reference values (nothing is published for Quartz: facts, Quartz "postal parameters"
         row): alpha = the route's latency, beta = 1 / its bandwidth, as chosen below. -->
    <prop id="collsim.published.intra-socket.all" value="2.5e-7 1.0e-10"/>
    <prop id="collsim.published.inter-socket.all" value="5.0e-7 1.6667e-10"/>
    <prop id="collsim.published.inter-node.all" value="1.0e-6 8.3333e-11"/>
EOF
  fi
}

link_comments() {
  if [ "$machine" = lassen ]; then
    cat <<EOF
      Per-socket and per-node values (every node zone below uses them):
      core="$cores"         : 20 usable cores per socket (facts: Lassen, "40 (2 sockets x 20)").
      speed="$speed"        : per core. ASSUMPTION: a round figure; it only matters when simulated
                              computation is on (collsim runs with smpi/simulate-computation:no).
      sK-loop $loop_lat, $loop_bw, FATPIPE: intra-socket (shared memory). Latency and bandwidth from the
                              fit in the header (intra-socket rows of the Lassen postal table). FATPIPE:
                              every concurrent intra-socket message gets the full rate (no memory-bandwidth
                              cap), as on the other platforms.
      xbus $xbus_lat, $xbus_bw, FATPIPE: inter-socket; the least-squares fit in the header (inter-socket
                              rows). FATPIPE: ASSUMPTION: no aggregate cap, because the POWER9 X-bus carries
                              far more than one MPI flow's rate.
      sK-pcie $pcie_lat, $pcie_bw, FATPIPE: the socket's path to the network adapter, $pcie_note; its bandwidth is a
                              single inter-node flow's rendezvous rate from the fit (inter-node rows).
                              Latency: ASSUMPTION: the inter-node latency from the fit (1.133 us across
                              leaves) minus 2 x $up_lat for the core, split evenly over the 4 host-side links
                              (pcie, nic at each end), because the table gives only the total.
      nic $nic_lat, $nic_bw, SPLITDUPLEX: the node's link to its leaf switch, shared by the node's flows.
                              24 GB/s: facts: Lassen, "40 ranks/node sending 512 KiB in total took 21.9 us
                              (about 24 GB/s per node)"; Summit row, 23 GB/s dual-rail EDR injection.
                              Latency: as pcie.
      $up_name $up_lat, $up_bw (= $npl nodes x $nic_bw), SPLITDUPLEX: a leaf's link to the core$up_what.
                              Non-blocking: ASSUMPTION, the facts give Summit's fat tree as non-blocking
                              (Summit row) and nothing on Lassen's; the core is one ideal switch (no static
                              route collisions). $npl nodes per leaf: ASSUMPTION: a 36-port EDR switch with
                              half its ports down. $up_lat: ASSUMPTION: one more EDR switch traversal per
                              direction (about 90 ns each, vendor data, not in the facts).
      Size: $nodes nodes, because 32,768 ranks need 820 nodes at 40 per node (facts: Lassen "node count")
                              and 1,024 at 32 per node (the paper's largest PPN).
EOF
  else
    cat <<EOF
      Per-socket and per-node values (every node zone below uses them):
      core="$cores"         : 18 cores per socket (facts: Quartz, "36 (2 sockets x 18)").
      speed="$speed"        : per core. ASSUMPTION: 2.1 GHz base clock (Intel data for the E5-2695 v4, not
                              in the facts) x 16 flops/cycle (two 4-wide AVX2 FMA units). Only matters when
                              simulated computation is on.
      sK-loop $loop_lat, $loop_bw, FATPIPE: intra-socket (shared memory). ASSUMPTION: MVAPICH2 shared-
                              memory latency within a Broadwell-EP socket is about 0.2-0.3 us and large
                              copies reach about 10 GB/s. FATPIPE: no memory-bandwidth cap.
      xbus $xbus_lat, $xbus_bw, FATPIPE: inter-socket (QPI). ASSUMPTION: about twice the intra-socket
                              latency and a lower copy rate across QPI, as on other two-socket Xeons.
      sK-pcie $pcie_lat, $pcie_bw, FATPIPE ($pcie_note) and nic $nic_lat, $nic_bw, SPLITDUPLEX: the
                              socket's path to the adapter and the node's link to its leaf. ASSUMPTION: "about 1 us latency,
                              12 GB/s" (facts: Quartz, "postal parameters") across leaves: 4 x $pcie_lat +
                              2 x $up_lat = 1.0 us; 12 GB/s per flow and per node (one 100 Gbps Omni-Path
                              adapter per node, facts: Quartz "network").
      $up_name $up_lat, $up_bw (= $npl nodes x $nic_bw), SPLITDUPLEX: non-blocking leaf-to-core link$up_what.
                              $npl nodes per leaf: facts: Quartz "48-port switch silicon", half the ports
                              down (ASSUMPTION: non-blocking). $up_lat: ASSUMPTION: about 100 ns per extra
                              Omni-Path switch traversal.
      Size: $nodes nodes, because 32,768 ranks need 911 nodes at 36 per node (facts: Quartz "nodes") and
                              1,024 at 32 per node (the loc-Bruck paper's largest PPN on Quartz).
EOF
  fi
}

# a node zone's links to the adapter and their routes, into $pcie_links and $pcie_routes (no
# subshell: this runs once per node): one FATPIPE per direction (--pcie duplex, the default) or
# one for both (--pcie shared, the files before it)
pcie_xml() {
  n=$1
  if [ "$pcie" = duplex ]; then
    pcie_links="        <link id=\"node-$n-s0-pcie-out\" bandwidth=\"$pcie_bw\" latency=\"$pcie_lat\" sharing_policy=\"FATPIPE\"/>
        <link id=\"node-$n-s0-pcie-in\" bandwidth=\"$pcie_bw\" latency=\"$pcie_lat\" sharing_policy=\"FATPIPE\"/>
        <link id=\"node-$n-s1-pcie-out\" bandwidth=\"$pcie_bw\" latency=\"$pcie_lat\" sharing_policy=\"FATPIPE\"/>
        <link id=\"node-$n-s1-pcie-in\" bandwidth=\"$pcie_bw\" latency=\"$pcie_lat\" sharing_policy=\"FATPIPE\"/>"
    pcie_routes="        <route src=\"node-$n-s0\" dst=\"node-$n-hca\" symmetrical=\"NO\"><link_ctn id=\"node-$n-s0-pcie-out\"/></route>
        <route src=\"node-$n-hca\" dst=\"node-$n-s0\" symmetrical=\"NO\"><link_ctn id=\"node-$n-s0-pcie-in\"/></route>
        <route src=\"node-$n-s1\" dst=\"node-$n-hca\" symmetrical=\"NO\"><link_ctn id=\"node-$n-s1-pcie-out\"/></route>
        <route src=\"node-$n-hca\" dst=\"node-$n-s1\" symmetrical=\"NO\"><link_ctn id=\"node-$n-s1-pcie-in\"/></route>"
  else
    pcie_links="        <link id=\"node-$n-s0-pcie\" bandwidth=\"$pcie_bw\" latency=\"$pcie_lat\" sharing_policy=\"FATPIPE\"/>
        <link id=\"node-$n-s1-pcie\" bandwidth=\"$pcie_bw\" latency=\"$pcie_lat\" sharing_policy=\"FATPIPE\"/>"
    pcie_routes="        <route src=\"node-$n-s0\" dst=\"node-$n-hca\"><link_ctn id=\"node-$n-s0-pcie\"/></route>
        <route src=\"node-$n-s1\" dst=\"node-$n-hca\"><link_ctn id=\"node-$n-s1-pcie\"/></route>"
  fi
}

node_zone() {
  n=$1
  pcie_xml "$n"
  switch_prop=""
  [ "$model" = nested ] || switch_prop="
        <prop id=\"collsim.region.switch\" value=\"leaf-$((n / npl))\"/>"
  cat <<EOF
      <zone id="node-$n" routing="Full">
        <prop id="collsim.level" value="node"/>$switch_prop
        <host id="node-$n-s0" speed="$speed" core="$cores"/>
        <host id="node-$n-s1" speed="$speed" core="$cores"/>
        <router id="node-$n-hca"/>
        <link id="node-$n-s0-loop" bandwidth="$loop_bw" latency="$loop_lat" sharing_policy="FATPIPE"/>
        <link id="node-$n-s1-loop" bandwidth="$loop_bw" latency="$loop_lat" sharing_policy="FATPIPE"/>
        <link id="node-$n-xbus" bandwidth="$xbus_bw" latency="$xbus_lat" sharing_policy="FATPIPE"/>
$pcie_links
        <route src="node-$n-s0" dst="node-$n-s0"><link_ctn id="node-$n-s0-loop"/></route>
        <route src="node-$n-s1" dst="node-$n-s1"><link_ctn id="node-$n-s1-loop"/></route>
        <route src="node-$n-s0" dst="node-$n-s1"><link_ctn id="node-$n-xbus"/></route>
$pcie_routes
      </zone>
EOF
}

gen_nested() {
  l=0
  while [ "$l" -lt "$leaves" ]; do
    echo "    <zone id=\"leaf-$l\" routing=\"Floyd\">"
    echo "      <prop id=\"collsim.level\" value=\"switch\"/>"
    echo "      <zone id=\"leaf-$l-switch\" routing=\"Full\"><router id=\"leaf-$l-sw\"/></zone>"
    i=0
    while [ "$i" -lt "$npl" ]; do
      node_zone $((l * npl + i))
      i=$((i + 1))
    done
    i=0
    while [ "$i" -lt "$npl" ]; do
      n=$((l * npl + i))
      echo "      <link id=\"node-$n-nic\" bandwidth=\"$nic_bw\" latency=\"$nic_lat\" sharing_policy=\"SPLITDUPLEX\"/>"
      i=$((i + 1))
    done
    i=0
    while [ "$i" -lt "$npl" ]; do
      n=$((l * npl + i))
      echo "      <zoneRoute src=\"node-$n\" dst=\"leaf-$l-switch\" gw_src=\"node-$n-hca\" gw_dst=\"leaf-$l-sw\"><link_ctn id=\"node-$n-nic\" direction=\"UP\"/></zoneRoute>"
      i=$((i + 1))
    done
    echo "    </zone>"
    l=$((l + 1))
  done
  echo "    <zone id=\"core\" routing=\"Full\"><router id=\"core-sw\"/></zone>"
  l=0
  while [ "$l" -lt "$leaves" ]; do
    echo "    <link id=\"leaf-$l-up\" bandwidth=\"$up_bw\" latency=\"$up_lat\" sharing_policy=\"SPLITDUPLEX\"/>"
    l=$((l + 1))
  done
  l=0
  while [ "$l" -lt "$leaves" ]; do
    echo "    <zoneRoute src=\"leaf-$l\" dst=\"core\" gw_src=\"leaf-$l-sw\" gw_dst=\"core-sw\"><link_ctn id=\"leaf-$l-up\" direction=\"UP\"/></zoneRoute>"
    l=$((l + 1))
  done
}

gen_flat() {
  n=0
  while [ "$n" -lt "$nodes" ]; do
    node_zone "$n"
    n=$((n + 1))
  done
  l=0
  while [ "$l" -lt "$leaves" ]; do
    echo "    <zone id=\"leaf-$l-switch\" routing=\"Full\"><router id=\"leaf-$l-sw\"/></zone>"
    l=$((l + 1))
  done
  echo "    <zone id=\"core\" routing=\"Full\"><router id=\"core-sw\"/></zone>"
  n=0
  while [ "$n" -lt "$nodes" ]; do
    echo "    <link id=\"node-$n-nic\" bandwidth=\"$nic_bw\" latency=\"$nic_lat\" sharing_policy=\"SPLITDUPLEX\"/>"
    echo "    <link id=\"node-$n-far\" bandwidth=\"$up_bw\" latency=\"$up_lat\" sharing_policy=\"SPLITDUPLEX\"/>"
    n=$((n + 1))
  done
  n=0
  while [ "$n" -lt "$nodes" ]; do
    l=$((n / npl))
    echo "    <zoneRoute src=\"node-$n\" dst=\"leaf-$l-switch\" gw_src=\"node-$n-hca\" gw_dst=\"leaf-$l-sw\"><link_ctn id=\"node-$n-nic\" direction=\"UP\"/></zoneRoute>"
    echo "    <zoneRoute src=\"node-$n\" dst=\"core\" gw_src=\"node-$n-hca\" gw_dst=\"core-sw\"><link_ctn id=\"node-$n-nic\" direction=\"UP\"/><link_ctn id=\"node-$n-far\" direction=\"UP\"/></zoneRoute>"
    n=$((n + 1))
  done
}

gen() {
  header
  config
  cat <<EOF

  <zone id="$machine" routing="Floyd">
EOF
  props
  cat <<EOF
    <!--
EOF
  link_comments
  cat <<EOF
    -->
EOF
  "gen_$model"
  cat <<EOF
  </zone>
</platform>
EOF
}

write_platform "$out"
