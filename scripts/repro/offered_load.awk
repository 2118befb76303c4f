# Offered load at the trace's own arrival rate: the GPU-time a trace demands over the pool's
# capacity in the trace window (first to last submit). Compressing arrivals N-fold shrinks the
# window N-fold, so N x load offers N times this. Input: the overview.csv of `mlsys simulate stats`
# (metric,value rows: gpu_hours, first_submit_s, last_submit_s); -v pool=<accelerators>.
# Exits 1 with a message when the pool or the window is empty.
# Usage: awk -F, -v pool=4096 -f scripts/repro/offered_load.awk overview.csv
{ v[$1] = $2 }
END {
  if (pool <= 0) { print "offered_load.awk: no accelerators in the pool (-v pool=N)" > "/dev/stderr"; exit 1 }
  if (!("gpu_hours" in v) || v["last_submit_s"] <= v["first_submit_s"]) {
    print "offered_load.awk: no gpu_hours or an empty submit window in " FILENAME > "/dev/stderr"; exit 1
  }
  printf "%.6g\n", v["gpu_hours"] * 3600 / (pool * (v["last_submit_s"] - v["first_submit_s"]))
}
