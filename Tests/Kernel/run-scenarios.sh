#!/bin/sh
# run-scenarios.sh - the kernel lane's scenario runner; runs INSIDE the guest (run-in-vm.sh's
# GUEST_SCRIPT), started by kernel-test.sh.
#
# usage (guest): run-scenarios.sh [NAME...]     NAME: a scenario's file name, with or without
#                                               .sh (default: every scenarios/[0-9]*.sh, in order)
# Needs the project at $LANE_REPO (default /repo, a read-only share), the static blectl and the
# self-test helpers in $LANE_REPO/.build/kernel/bin, and a writable cwd for artifacts (the
# /host share, .build/kernel/run on the host).
# Each scenario runs under `timeout` ($SCENARIO_TIMEOUT s at idle speed, default 180, scaled)
# with its output passed through, then gets one line: PASS, FAIL or SKIP, its name, its time, and
# the guest's speed factor it ran at.
# The guest's speed: before each scenario the runner times a fixed CPU-bound loop (busybox awk)
# and divides by its time on an idle host, LANE_SPEED_REFERENCE_CS (hundredths of a second,
# default 48: this project's machine, 2 cores, TCG, measured idle). The ratio, at least 1, is
# exported as LANE_SPEED_PCT (hundredths), and the scenario's waits and timeouts scale by it
# (lib.sh, "time, at the guest's measured speed"). The stack's own timeouts are not scaled.
# Between scenarios, advertising is switched off and the runner waits for the links to go
# (pitfall 8), so each scenario starts from powered, idle controllers.
# Exit status: the number of failed scenarios (skips are not failures).
read -r BOOTED _ < /proc/uptime
LANE_REPO=${LANE_REPO:-/repo}
DIR=$LANE_REPO/Tests/Kernel/scenarios
BIN=$LANE_REPO/.build/kernel/bin
export LANE_LIB=$DIR/lib.sh ARTIFACTS=$PWD
# The 60 MB static blectl and the API example run from a copy in the guest's RAM (tmpfs), ahead
# of the share on the PATH: started from the 9p share, each run reads the binary through qemu's
# 9p server again (the share has no page cache), which took 1-6 s per start on a busy host
# against 0.2-0.3 s from tmpfs. Copying costs a few seconds once.
FAST=/tmp/lane-bin
mkdir -p "$FAST"
for b in blectl PickRole; do [ -x "$BIN/$b" ] && cp "$BIN/$b" "$FAST/$b"; done
export PATH=$FAST:$BIN:$PATH
# blectl at a known path, whatever the share's layout
ln -sf "$FAST/blectl" /usr/local/bin/blectl
. "$LANE_LIB"
trap - EXIT

now() { read -r up _ < /proc/uptime; echo "$up"; }
controllers=$(ls /sys/class/bluetooth | sed -n 's/^hci//p' | sort -n | tr '\n' ' ')
echo "lane: guest ready at ${BOOTED} s of guest uptime (4.7 s on an idle host); controllers: $controllers; kernel $(uname -r)"

# measure_speed: times the calibration loop (CALIBRATION_CS, hundredths of a second) and sets
# and exports LANE_SPEED_PCT, the guest's slowness against an idle host in hundredths (>= 100).
# The guest clock follows the host's wall clock (also under TCG), so a busy host shows as a
# longer loop. One loop takes about 0.5 s on an idle host.
REFERENCE_CS=${LANE_SPEED_REFERENCE_CS:-48}
measure_speed() {
  now_cs; t0=$NOW_CS
  awk 'BEGIN { for (i = 0; i < 100000; i++) s += i % 7 }'
  now_cs; CALIBRATION_CS=$((NOW_CS - t0))
  LANE_SPEED_PCT=$((CALIBRATION_CS * 100 / REFERENCE_CS))
  [ "$LANE_SPEED_PCT" -ge 100 ] || LANE_SPEED_PCT=100
  export LANE_SPEED_PCT
}
# factor: LANE_SPEED_PCT as a factor ("x2.10"); as_secs CS: hundredths as seconds ("0.48").
factor() { printf 'x%d.%02d' $((LANE_SPEED_PCT / 100)) $((LANE_SPEED_PCT % 100)); }
as_secs() { printf '%d.%02d' $(($1 / 100)) $(($1 % 100)); }
measure_speed
echo "lane: guest speed: the calibration loop took $(as_secs "$CALIBRATION_CS") s (idle host: $(as_secs "$REFERENCE_CS") s): factor $(factor); each scenario's waits and timeouts are scaled by the factor measured just before it (the stack's ATT and connect timeouts are not)"

if [ $# -eq 0 ]; then set -- $(cd "$DIR" && ls [0-9]*.sh | sort); fi
passed=0 failed=0 skipped=0 summary=
for name in "$@"; do
  f=$DIR/${name%.sh}.sh
  name=$(basename "$f" .sh)
  echo "==== $name"
  if [ ! -f "$f" ]; then
    echo "no such scenario: $f"; rc=1; t0=$(now); t1=$t0; limit=0
  else
    measure_speed
    limit=$(scaled "${SCENARIO_TIMEOUT:-180}")
    echo "(guest speed factor $(factor): calibration loop $(as_secs "$CALIBRATION_CS") s; scenario timeout $limit s)"
    t0=$(now)
    SCENARIO=$name timeout -s TERM "$limit" /bin/sh "$f" </dev/console
    rc=$?
    t1=$(now)
  fi
  secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.1f", b-a}')
  case $rc in
    0) verdict=PASS; passed=$((passed+1)) ;;
    77) verdict=SKIP; skipped=$((skipped+1)) ;;
    143) verdict=FAIL; failed=$((failed+1)); echo "timed out after $limit s" ;;
    *) verdict=FAIL; failed=$((failed+1)) ;;
  esac
  line=$(printf '%-4s %-36s %6s s  %s' "$verdict" "$name" "$secs" "$(factor)")
  echo "$line"
  summary="$summary$line
"
  # back to idle controllers for the next scenario (a skipped one touched nothing)
  if [ $rc != 77 ]; then
    advertising_off $controllers
    wait_no_link
  fi
done
echo "==== summary (guest uptime $(now) s)"
printf '%s' "$summary"
echo "lane: $passed passed, $failed failed, $skipped skipped"
exit $failed
