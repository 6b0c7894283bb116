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
