# Shared by the platform generators (POSIX sh; sourced, not run).

# The <config> props every collsim platform without size regimes starts with:
# SMPI's size-dependent factors set to 1 (printed inside a platform heredoc).
unit_factors_config() {
  cat <<'EOF_FACTORS'
    <!--
      SMPI's default smpi/bw-factor and smpi/lat-factor are a piecewise calibration of one
      particular InfiniBand cluster. collsim's link values are effective end-to-end MPI figures,
      so both factors are 1 and a parameter means what its comment says.
      "0:1" = "from message size 0 B upwards, factor 1". (SMPI 3.32 segfaults on a bare "1".)
    -->
    <prop id="smpi/bw-factor" value="0:1"/>
    <prop id="smpi/lat-factor" value="0:1"/>
EOF_FACTORS
}

# weight_s_config VALUE SHORT LONG: the network/weight-S prop of an InfiniBand or Omni-Path platform,
# with the penalties (us) of its shortest and longest inter-node routes under the value chosen
# (platforms/README.md, "Port-level sharing and the sharing weight").
weight_s_config() {
  cat <<EOF_WEIGHT
    <!--
      network/weight-S=$1: SMPI shares a link between messages in inverse proportion to a penalty,
      the route's latency + weight-S x sum(1 / link bandwidth) (SMPI's default weight-S 8775, a TCP
      round-trip rule); InfiniBand's credit flow control favours no route, so the value is the one
      under which this platform's routes differ least. Penalties (us): shortest inter-node route
      $2, longest $3. Written out so that every result records it.
    -->
    <prop id="network/weight-S" value="$1"/>
EOF_WEIGHT
}

# check_choice WHAT VALUE VALID...: returns when VALUE is one of VALID, otherwise names it and the
# valid ones and calls the caller's usage function.
check_choice() {
  what=$1 value=$2
  shift 2
  for v in "$@"; do
    [ "$v" = "$value" ] && return 0
  done
  echo "$0: unknown $what '$value' (valid: $(echo "$@" | sed 's/ /, /g'))" >&2
  usage
}

# write_platform OUT: runs the caller's gen function into OUT ("-": standard
# output) through a temporary file renamed over OUT, so no reader sees half a file.
write_platform() {
  if [ "$1" = "-" ]; then
    gen
  else
    tmp="$1.tmp.$$"
    gen >"$tmp"
    mv "$tmp" "$1"
  fi
}

# The first lines of a platform file (SimGrid 3.32 reads DTD 4.1).
platform_preamble() {
  cat <<'EOF_PREAMBLE'
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
EOF_PREAMBLE
}

# local_work_props CPU: the root-zone properties of the `full` model (sim/driver/cost.h):
# the cost of a local copy and each message's software overheads, for one processor and MPI
# stack. Every value cites its source (platforms/README.md, "Local work and overheads", lists
# them with where in the source) or says ASSUMED, why, and what it moves.
#   copy-bw pieces by bytes per copy call, a proxy for the working set: from 0 B the L1 rate,
#   from 32 KiB L2, from 256 KiB L3 (or MCDRAM), from 2 MiB memory with every core of the socket
#   copying (a collective's ranks copy at once). Rates are bytes copied (likwid-bench counts
#   read + write, so its figure / 2). reduce-bw the same pieces for a reduction's arithmetic:
#   bytes of the vector combined (likwid's daxpy, two vectors read and one written, / 3).
#   Overheads: o_s before a message leaves and o_r after it arrives are CPU time that the link
#   latency already holds (latencies are end-to-end MPI figures): they cost time where the CPU
#   is busy, e.g. a rank posting many messages at once (LogGP's gap) or receiving a burst;
#   o_s + o_r never exceeds the level's end-to-end latency (collsim calibrate checks it).
local_work_props() {
  case "$1" in
    haswell-aries|haswell-edr)
      copy_src="kerncraft HaswellEP_E5-2695v3 likwid copy (sibling of the E5-2698 v3, same 2.3 GHz): L1 134.8, L2 32.1, L3 15.9, memory 35.57/16 cores GB/s counted read+write"
      op_src="the same file's likwid daxpy (a[i] = a[i] + s b[i]: two vectors read and one written, the streams of MPI_Reduce_local's inout[i] = in[i] op inout[i]) at 14 cores: L1 119.8, L2 50.9, L3 24.0 GB/s per core, memory 52.7/16 cores GB/s, counted as three streams, so / 3"
      copy_call=4e-9 copy_bw="0:6.7e10;32768:1.6e10;262144:8.0e9;2097152:1.1e9"
      reduce_bw="0:4.0e10;32768:1.7e10;262144:8.0e9;2097152:1.1e9" ;;
    knl-aries)
      copy_src="KNL: memory from chapel-lang/chapel#6389 (nstream 410 GB/s at 64 threads: 3.2 GB/s copied per core); ASSUMED L1 16 B/cycle and L2 8 B/cycle copied at 1.3-1.4 GHz (no KNL in-cache figure found: a 2-wide core, half Haswell's per-cycle rate); call cost ASSUMED 10 ns, 2.5x a big core's; moves every copy-bound variant"
      op_src="MCDRAM: the nstream figure's 6.4 GB/s per core of traffic over three streams (2.1 GB/s combined); in cache ASSUMED the copy rate times the ratio measured on Haswell and Broadwell (0.6 in L1, 1 in L2: kerncraft daxpy against copy)"
      copy_call=1e-8 copy_bw="0:2.2e10;32768:1.1e10;1048576:3.2e9"
      reduce_bw="0:1.3e10;32768:1.1e10;1048576:2.1e9" ;;
    broadwell-opa|broadwell-40gbe)
      copy_src="kerncraft BroadwellEP_E5-2697v4_CoD likwid copy (sibling, 2.3 GHz) scaled to 2.1 GHz in cache: L1 127.7, L2 32.2, L3 18.8, memory 41.0/18 cores GB/s counted read+write"
      op_src="the same file's likwid daxpy (two vectors read, one written: the streams of MPI_Reduce_local) at 18 cores, scaled to 2.1 GHz in cache: L1 92.2, L2 49.1, L3 29.5 GB/s per core, memory 63.0/18 cores GB/s, counted as three streams, so / 3"
      copy_call=4e-9 copy_bw="0:5.8e10;32768:1.47e10;262144:8.6e9;2097152:1.14e9"
      reduce_bw="0:2.8e10;32768:1.49e10;262144:9.0e9;2097152:1.17e9" ;;
    power9-edr)
      copy_src="ASSUMED Haswell-class per-core rates (kerncraft HaswellEP figures) and 1.7 GB/s per core from memory: no POWER9 copy figure was found; moves Bruck-type rotations by the same factor as on cori"
      op_src="ASSUMED the copy rates times the ratio measured on Haswell and Broadwell (kerncraft daxpy against copy: 0.6 in L1, 1 beyond)"
      copy_call=4e-9 copy_bw="0:6.0e10;32768:1.8e10;262144:9.0e9;2097152:1.7e9"
      reduce_bw="0:3.6e10;32768:1.8e10;262144:9.0e9;2097152:1.7e9" ;;
    barcelona-ddr|harpertown-gbe)
      copy_src="ASSUMED (no copy figure found for the Opteron 8356, Xeon E5345 or L5420): L1 16 B/cycle copied (one 128-bit load and store per cycle) at 2.3-2.5 GHz, L2 a third of it, memory 0.6 GB/s per core with every core copying (a shared front-side bus or 4 sockets of DDR2); a 2007-era core's call cost twice a current one's"
      op_src="ASSUMED the copy rates times the ratio measured on Haswell and Broadwell (kerncraft daxpy against copy: 0.6 in L1, 1 beyond)"
      copy_call=8e-9 copy_bw="0:3.7e10;32768:1.2e10;2097152:6.0e8"
      reduce_bw="0:2.2e10;32768:1.2e10;2097152:6.0e8" ;;
    *) echo "local_work_props: unknown processor '$1'" >&2; return 2 ;;
  esac
  o_sys_r=
  case "$1" in
    haswell-aries)
      o_src="system: o_s = g = 0.70 us, the gap of osu_mbw_mr's 1.42 M msg/s for one pair (Open MPI on a Cray XC, gist hppritcha/200bc7a2d4dfde709245d6ffa7b2b971: the sender's cost per message when it posts a window of them); o_r ASSUMED 0.3 us (no receiver figure found; o_s + o_r stays within the 1.3 us end-to-end latency). node: o_s = o_r = 0.083 us, the gap of 12.0 M msg/s over shared memory (openucx/ucx#1831; o_r ASSUMED equal)"
      o_node="0:8.3e-8:0" o_sys="0:7.0e-7:0" o_sys_r="0:3e-7:0" node_level=node ;;
    knl-aries)
      o_src="KNL cores are slower per message: Open MPI over Aries 5.81 us on KNL vs 1.34 us on Broadwell (ofi-cray/libfabric-cray#1055), which would give about 1.7 us; ASSUMED o_s = o_r = 0.6 us inter-node and 0.2 us on-node, capped so that o_s + o_r stays within the platform's 1.3 us and 0.5 us end-to-end latencies (probably low: it understates spread-out's cost)"
      o_node="0:2e-7:0" o_sys="0:6e-7:0" node_level=node ;;
    broadwell-opa)
      o_src="system: o_s = g = 0.31 us, the gap of osu_mbw_mr's 3.21 M msg/s at 8 B for one pair on Omni-Path with the E5-2695 v4 (gist hppritcha/8da4436a216c9d96bf10ad9d403da03f, Open MPI); o_r ASSUMED 0.3 us (no receiver figure found; within the 0.8 us latency). socket, node: o_s = o_r = 0.083 us, the shared-memory gap of 12.0 M msg/s (openucx/ucx#1831; o_r ASSUMED equal)"
      o_node="0:8.3e-8:0" o_sys="0:3.1e-7:0" o_sys_r="0:3e-7:0" node_level=socket ;;
    haswell-edr)
      o_src="ASSUMED as quartz (a generic InfiniBand EDR fat tree): o_s 0.31 us, o_r 0.3 us inter-node, 0.083 us on-node"
      o_node="0:8.3e-8:0" o_sys="0:3.1e-7:0" o_sys_r="0:3e-7:0" node_level=node ;;
    power9-edr)
      o_src="system: o_s = g = 0.25 us, the gap of osu_mbw_mr's 4.06 M msg/s at 8 B for one pair over a Mellanox mlx5 HCA (open-mpi/ompi#1831, Open MPI 1.10.3; host not stated); o_r ASSUMED 0.25 us (within the 1.27 us short-message alpha). socket, node: o_s = o_r = 0.083 us, the shared-memory gap of 12.0 M msg/s (openucx/ucx#1831; within the 0.35 us intra-socket alpha)"
      o_node="0:8.3e-8:0" o_sys="0:2.5e-7:0" node_level=socket ;;
    barcelona-ddr)
      o_src="system: Netgauge LogGP of MVAPICH over InfiniBand on ANL Tukey, o_s 0.98 us, o_r 1.14 us at 1 B (codes-org/codes tests/ng-mpi-tukey.dat); ASSUMED scaled to o_s 0.7, o_r 0.8 us so that the sum stays within the 1.57 us intra-chassis latency. node: ASSUMED 0.15 us (0.4 us on-node latency)"
      o_node="0:1.5e-7:0" o_sys="0:7e-7:0" o_sys_r="0:8e-7:0" node_level=node ;;
    harpertown-gbe|broadwell-40gbe)
      o_src="system: SimGrid's calibration of Open MPI over TCP (pml ob1, btl tcp) on Grid'5000 taurus, o_s = 3.80 us + 0.110 ns/B, o_r = 3.52 us + 0.302 ns/B below 1420 B (Ezibenroc/platform-calibration, data/final_platforms/taurus.xml); the same above (ASSUMED: its larger-message pieces reflect taurus's own protocol switch). node: ASSUMED 0.15 us (Open MPI shared memory)"
      o_node="0:1.5e-7:0" o_sys="0:3.80e-6:1.10e-10" o_sys_r="0:3.52e-6:3.02e-10" node_level=node ;;
  esac
  cat <<EOF_LOCAL
    <!-- The full model (sim/driver/cost.h; platforms/README.md, "Local work and overheads").
      Copy: $copy_src; call cost: 3.1-3.8 ns per 32-128 B memcpy (llvm/llvm-project#70049, glibc in
      skywind3000/FastMemcpy#4)${copy_call:+, here $copy_call s}.
      Reduction arithmetic (bytes of the vector combined per second, one copy call each): $op_src;
      moves every reduction, most where vectors fit in L1.
      Overheads: $o_src. -->
    <prop id="collsim.local.copy-call" value="$copy_call"/>
    <prop id="collsim.local.copy-bw" value="$copy_bw"/>
    <prop id="collsim.local.reduce-bw" value="$reduce_bw"/>
    <prop id="collsim.overhead.send" value="$o_sys"/>
    <prop id="collsim.overhead.recv" value="${o_sys_r:-$o_sys}"/>
    <prop id="collsim.overhead.send.$node_level" value="$o_node"/>
    <prop id="collsim.overhead.recv.$node_level" value="$o_node"/>
EOF_LOCAL
  if [ "$node_level" = socket ]; then
    cat <<EOF_LOCAL
    <prop id="collsim.overhead.send.node" value="$o_node"/>
    <prop id="collsim.overhead.recv.node" value="$o_node"/>
EOF_LOCAL
  fi
}

# level_factors WHAT LATENCY_S BANDWIDTH_BPS "A_SHORT B_SHORT A_EAGER B_EAGER A_RDV B_RDV":
# one level's SMPI network factors (sim/driver/cost.h, collsim.factor.lat.LEVEL and
# collsim.factor.bw.LEVEL) from its published postal parameters (alpha s, beta s/B per regime:
# short, eager, rendezvous), for a route of end-to-end latency LATENCY_S and bottleneck rate
# BANDWIDTH_BPS. Prints the lat table (WHAT lat) or the bw table (WHAT bw), SMPI's "SIZE:FACTOR"
# format with the regimes' payload thresholds 256 B and 8 KiB written 271 and 8207 (SMPI looks a
# factor up by payload + 16 bytes, an entry applying above its size):
#   bw factor  = (1 / beta) / BANDWIDTH_BPS   (the published rate over the route's bottleneck)
#   lat factor = (alpha - 16 beta) / LATENCY_S (the 16 envelope bytes cross at the published rate,
#                so the fitted alpha at payload 0 is the published one)
# Factors to 5 significant digits.
level_factors() {
  echo "$4" | awk -v what="$1" -v lat="$2" -v bw="$3" '{
    split("0 271 8207", from, " ")
    out = ""
    for (r = 1; r <= 3; r++) {
      a = $(2 * r - 1); b = $(2 * r)
      f = what == "lat" ? (a - 16 * b) / lat : 1 / (b * bw)
      out = out (r > 1 ? ";" : "") from[r] ":" sprintf("%.5g", f)
    }
    print out
  }'
}
