#!/bin/sh
# run-scenarios.sh - the kernel lane's scenario runner; runs INSIDE the guest (run-in-vm.sh's
# GUEST_SCRIPT), started by kernel-test.sh.
#
# usage (guest): run-scenarios.sh [NAME...]     NAME: a scenario's file name, with or without
#                                               .sh (default: every scenarios/[0-9]*.sh, in order)
# Needs the project at $LANE_REPO (default /repo, a read-only share), the static blectl and the
# self-test helpers in $LANE_REPO/.build/kernel/bin, and a writable cwd for artifacts (the
# /host share, .build/kernel/run on the host).
# Each scenario runs under `timeout` ($SCENARIO_TIMEOUT s, default 180) with its output
# passed through, then gets one line: PASS, FAIL or SKIP, its name, its time.
# Between scenarios, advertising is switched off and the runner waits for the links to go
# (pitfall 8), so each scenario starts from powered, idle controllers.
# Exit status: the number of failed scenarios (skips are not failures).
read -r BOOTED _ < /proc/uptime
LANE_REPO=${LANE_REPO:-/repo}
DIR=$LANE_REPO/Tests/Kernel/scenarios
BIN=$LANE_REPO/.build/kernel/bin
export LANE_LIB=$DIR/lib.sh ARTIFACTS=$PWD
export PATH=$BIN:$PATH
# blectl at a known path, whatever the share's layout
ln -sf "$BIN/blectl" /usr/local/bin/blectl
. "$LANE_LIB"
trap - EXIT

now() { read -r up _ < /proc/uptime; echo "$up"; }
controllers=$(ls /sys/class/bluetooth | sed -n 's/^hci//p' | sort -n | tr '\n' ' ')
echo "lane: guest ready at ${BOOTED} s of guest uptime; controllers: $controllers; kernel $(uname -r)"

if [ $# -eq 0 ]; then set -- $(cd "$DIR" && ls [0-9]*.sh | sort); fi
passed=0 failed=0 skipped=0 summary=
for name in "$@"; do
  f=$DIR/${name%.sh}.sh
  name=$(basename "$f" .sh)
  echo "==== $name"
  if [ ! -f "$f" ]; then
    echo "no such scenario: $f"; rc=1; t0=$(now); t1=$t0
  else
    t0=$(now)
    SCENARIO=$name timeout -s TERM "${SCENARIO_TIMEOUT:-180}" /bin/sh "$f" </dev/console
    rc=$?
    t1=$(now)
  fi
  secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.1f", b-a}')
  case $rc in
    0) verdict=PASS; passed=$((passed+1)) ;;
    77) verdict=SKIP; skipped=$((skipped+1)) ;;
    143) verdict=FAIL; failed=$((failed+1)); echo "timed out after ${SCENARIO_TIMEOUT:-180} s" ;;
    *) verdict=FAIL; failed=$((failed+1)) ;;
  esac
  line=$(printf '%-4s %-36s %6s s' "$verdict" "$name" "$secs")
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
