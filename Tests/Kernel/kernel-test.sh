#!/bin/bash
# kernel-test.sh - the kernel lane, on the host: boot the guest once and run the scenarios in it.
#
# usage: Tests/Kernel/kernel-test.sh [NAME...]     (default: every scenario; NAME as in
#                                                   run-scenarios.sh, e.g. 02-lane-att-selftest)
# Expects the guest (build-guest.sh) and the static blectl (`make static`); `make kernel-test`
# builds both first. This script:
#   1. copies blectl into .build/kernel/bin and builds the self-test helpers there (gcc -static,
#      libbluetooth-dev headers);
#   2. empties .build/kernel/run, the scenarios' artifact folder (shared writable at /host);
#   3. boots with $LANE_CONTROLLERS linked controllers (default 4: the two-centrals checks need two
#      centrals and a peripheral, and hci3 for their handles), no pairing agent but blectl's own
#      (the rig's pairing-agent stays in the guest for `run-in-vm.sh -A`), a btmon capture of the whole run
#      (.build/kernel/run/lane.btsnoop), and the project shared read-only at /repo;
#   4. runs run-scenarios.sh in the guest; its output also goes to .build/kernel/run/lane.log,
#      after the guest's package versions (guest/PACKAGES, from build-guest.sh);
#   5. on the host, compares the ATT PDU counts of the monitor scenario's capture with tshark's
#      (compare-att-counts.sh), and reports the slowest ATT round trip and connection setup of
#      the run (lane-timings.sh).
# Environment: BLECTL (default .build/static/release/blectl), EXAMPLES (the folder of the static
# tutorial executables, `make static-examples`; default .build/static-examples/release; their
# scenario skips without them), LANE_CONTROLLERS,
# LANE_TIMEOUT (whole VM run, default 540 s; 1200 s with LANE_STRESS), SCENARIO_TIMEOUT (each
# scenario at the guest's idle speed, default 180 s; the guest scales it by its speed factor),
# LANE_STRESS (N > 0: the lane runs with `stress-ng --cpu N` busy on the host the whole time,
# `make kernel-test-loaded`; this script starts it and always stops it, also on failure or
# Ctrl-C), LANE_SPEED_REFERENCE_CS (the guest's calibration loop on an idle host, in hundredths
# of a second; run-scenarios.sh's default is this project's machine).
# Exit status: the number of failed scenarios; 124 the VM timed out; 125 the lane itself failed.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
KB=$ROOT/.build/kernel
BLECTL=${BLECTL:-$ROOT/.build/static/release/blectl}
EXAMPLES=${EXAMPLES:-$ROOT/.build/static-examples/release}

[ -f "$KB/guest/initrd.img" ] || { echo "kernel-test: no guest; build it: Tests/Kernel/build-guest.sh (or make kernel-test)" >&2; exit 125; }
[ -x "$BLECTL" ] || { echo "kernel-test: no static blectl at $BLECTL; build it: make static" >&2; exit 125; }

mkdir -p "$KB/bin"
cp "$(readlink -f "$BLECTL")" "$KB/bin/blectl"
for example in ScanAndConnect PublishService DiscoverEverything SubscribeToAll AsyncConnection PickRole; do
  rm -f "$KB/bin/$example"
  [ -x "$EXAMPLES/$example" ] && cp "$EXAMPLES/$example" "$KB/bin/$example"
done
# The Swift runtime's backtracer for static binaries, when the toolchain has one: a blectl that
# crashes in the guest then prints where (lib.sh's start_serve turns it on).
BACKTRACER=$(dirname "$(readlink -f "$(command -v swift 2>/dev/null || echo /nonexistent)")")/../libexec/swift/linux/swift-backtrace-static
if [ -x "$BACKTRACER" ]; then cp "$BACKTRACER" "$KB/bin/"; else rm -f "$KB/bin/swift-backtrace-static"; fi
for c in "$HERE"/selftest/*.c; do
  b=$KB/bin/$(basename "$c" .c)
  if [ ! -x "$b" ] || [ "$c" -nt "$b" ]; then
    gcc -O2 -Wall -static -o "$b" "$c" || exit 125
  fi
done

RUN=$KB/run
rm -rf "$RUN"
mkdir -p "$RUN"

# The guest's package versions: the pins, or what the archive served where a pin was gone.
{
  echo "kernel-test: guest kernel $(cat "$KB/guest/KERNEL" 2>/dev/null || echo unknown)"
  echo "kernel-test: guest packages: $(tr '\n' ' ' < "$KB/guest/PACKAGES" 2>/dev/null || echo unknown)"
} | tee "$RUN/lane.log"

# The loaded lane: stress-ng keeps N host CPUs busy while the guest runs. It stays in this
# script's session: with the kernel's autogroup scheduling (sched_autogroup_enabled) a session of
# its own would only take that session's share of the CPUs and leave qemu's session its share,
# a gentler load than N busy threads beside qemu. It gets a process group of its own (job control
# on for that one start), which the trap ends whatever way this script exits: a failure; Ctrl-C
# (at once: the VM gets the same SIGINT); SIGTERM (once the VM has returned: bash runs a trap
# after the command in the foreground ends). stress-ng's own --timeout ends it even if this
# script is SIGKILLed.
STRESS_PID=
stop_stress() {
  [ -n "$STRESS_PID" ] || return 0
  kill -TERM -- "-$STRESS_PID" 2>/dev/null
  wait "$STRESS_PID" 2>/dev/null
  echo "kernel-test: stress-ng (pid $STRESS_PID) stopped" | tee -a "$RUN/lane.log"
  STRESS_PID=
}
trap stop_stress EXIT
trap 'stop_stress; exit 130' INT
trap 'stop_stress; exit 143' TERM
VM_TIMEOUT=${LANE_TIMEOUT:-540}
if [ "${LANE_STRESS:-0}" -gt 0 ]; then
  command -v stress-ng >/dev/null || { echo "kernel-test: LANE_STRESS needs stress-ng (make kernel-deps installs it)" >&2; exit 125; }
  VM_TIMEOUT=${LANE_TIMEOUT:-1200}
  set -m
  stress-ng --cpu "$LANE_STRESS" --timeout "$((VM_TIMEOUT + 120))s" --quiet </dev/null >"$RUN/stress-ng.log" 2>&1 &
  STRESS_PID=$!
  set +m
  echo "kernel-test: loaded lane: stress-ng --cpu $LANE_STRESS running (pid $STRESS_PID) on this host's $(nproc) CPUs" | tee -a "$RUN/lane.log"
fi

start=$(date +%s.%N)
"$HERE/run-in-vm.sh" -n "${LANE_CONTROLLERS:-4}" -t "$VM_TIMEOUT" \
  -w "$RUN/lane.btsnoop" -s "$RUN" -x "$ROOT:/repo" \
  -e "SCENARIO_TIMEOUT=${SCENARIO_TIMEOUT:-180}" \
  ${LANE_SPEED_REFERENCE_CS:+-e "LANE_SPEED_REFERENCE_CS=$LANE_SPEED_REFERENCE_CS"} \
  "$HERE/run-scenarios.sh" "$@" 2>&1 | tee -a "$RUN/lane.log"
rc=${PIPESTATUS[0]}
stop_stress
# On the host, after the guest: the monitor scenario's saved capture against tshark (a failure
# counts as a failed scenario).
if [ -e "$RUN/90-monitor.monitor.btsnoop" ] && [ "$rc" -lt 124 ]; then
  "$HERE/compare-att-counts.sh" "$RUN/90-monitor.monitor.btsnoop" "$KB/bin/blectl" 2>&1 | tee -a "$RUN/lane.log"
  [ "${PIPESTATUS[0]}" -eq 0 ] || rc=$((rc + 1))
fi
end=$(date +%s.%N)
awk -v a="$start" -v b="$end" -v rc="$rc" 'BEGIN{printf "kernel-test: %.1f s wall (boot, scenarios, power-off); exit status %d\n", b-a, rc}'
# On the host: how close the run came to the stack's own timeouts (ATT round trips and
# connection setups in the whole run's capture); a report, not a check.
if [ -s "$RUN/lane.btsnoop" ] && command -v tshark >/dev/null; then
  "$HERE/lane-timings.sh" "$RUN/lane.btsnoop" 2>&1 | tee -a "$RUN/lane.log"
fi
echo "kernel-test: log and captures in ${RUN#"$ROOT"/}"
exit "$rc"
