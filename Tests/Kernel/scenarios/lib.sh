# lib.sh - helpers for the kernel lane's scenarios (sourced, busybox ash; not a scenario itself).
# Every scenario starts with `. "$LANE_LIB"` and ends with `finish`.
#
# A scenario's exit status: 0 passed, 77 skipped (it printed "SKIP: ..."), anything else failed.
# run-scenarios.sh provides: LANE_LIB (this file), ARTIFACTS (a writable folder kept on the host
# in .build/kernel/run), SCENARIO (the scenario's name), blectl on the PATH
# (/usr/local/bin/blectl), the lane's self-test helpers on the PATH, and from /init HCI0_ADDR,
# HCI1_ADDR, HCI2_ADDR. stdin is the console (pitfall 3: btmgmt needs a stdin that never hits EOF).
# Pitfall numbers are the team's VM rig README's (../shared/vm-rig/README.md).

FAILS=0
LANE_PIDS=

step() { read -r up _ < /proc/uptime; echo "---- [$up] $*"; }
pass() { echo "ok: $*"; }
fail() { echo "NOT OK: $*"; FAILS=$((FAILS+1)); }
# check DESCRIPTION COMMAND...: a passing or failing check, by the command's status.
check() { desc=$1; shift; if "$@"; then pass "$desc"; else fail "$desc"; fi; }
skip() { echo "SKIP: $*"; exit 77; }
finish() { [ "$FAILS" -eq 0 ] || { echo "$FAILS check(s) failed"; exit 1; }; exit 0; }

# Background processes a scenario starts with `spawn` are stopped when it exits, also when the
# runner's timeout stops it.
spawn() { "$@" & LANE_PIDS="$LANE_PIDS $!"; LAST_PID=$!; }
lane_cleanup() { for p in $LANE_PIDS; do kill "$p" 2>/dev/null; done; }
trap lane_cleanup EXIT
trap 'exit 143' TERM INT

# --- blectl -------------------------------------------------------------------------------
# blectl_has COMMAND: `blectl --help` lists COMMAND (a line "  COMMAND ..." under commands:).
blectl_has() { blectl --help 2>&1 | grep -qE "^  $1( |\$)"; }
# blectl_has_option COMMAND OPTION: `blectl COMMAND --help` mentions OPTION.
blectl_has_option() { blectl "$1" --help 2>&1 | grep -q -e "$2"; }
# needs_blectl COMMAND [OPTION...]: skip the scenario, saying why, unless blectl has COMMAND
# with every OPTION (how kernel-mode commands are told apart from today's, e.g. serve's --hci).
needs_blectl() {
  c=$1; shift
  blectl_has "$c" || skip "needs blectl $c"
  for o in "$@"; do blectl_has_option "$c" "$o" || skip "needs blectl $c $o"; done
  return 0
}

# --- controllers -------------------------------------------------------------------------
# mgmt_settings N: hciN's current settings as mgmt reports them ("powered br/edr le ...").
mgmt_settings() { btmgmt --index "$1" info </dev/console 2>/dev/null | sed -n 's/^[[:space:]]*current settings: *//p'; }
# has_words "TEXT" WORD...: TEXT contains every WORD as a whole word.
has_words() { t=" $1 "; shift; for w in "$@"; do case "$t" in *" $w "*) ;; *) return 1 ;; esac; done; return 0; }
# wait_no_link [N...]: wait (up to 15 s) until hciN has no connection left (default: every
# controller). Pitfall 8: the kernel keeps an idle LE link 4-5 s after its last channel closed,
# a new connect() reuses it, and a socket that started listening later never accepts it.
wait_no_link() {
  [ $# -gt 0 ] || set -- $(ls /sys/class/bluetooth | sed -n 's/^hci//p')
  for n in "$@"; do
    i=0
    while hcitool -i "hci$n" con 2>/dev/null | grep -q handle && [ $i -lt 150 ]; do sleep 0.1; i=$((i+1)); done
  done
}
# advertising_off N...: legacy and mgmt advertising off on hciN.
advertising_off() {
  for n in "$@"; do
    hciconfig "hci$n" noleadv >/dev/null 2>&1
    btmgmt --index "$n" advertising off </dev/console >/dev/null 2>&1
  done
}
# lescan_while_advertising SCANNER ADVERTISER OUT [SECONDS=4]: `hcitool -i hciSCANNER lescan`
# into OUT while hciADVERTISER's legacy advertising (hciconfig leadv) is switched on, off and on.
# Pitfall 6: btvirt reports an advertiser once, when scanning or advertising is enabled, never
# periodically, and hcitool installs its event filter only after enabling the scan: so the
# scanner starts first, then advertising is enabled, and toggled once more in case the VM was
# slow to start hcitool. lescan stops on SIGINT only.
lescan_while_advertising() {
  ( sleep 1; hciconfig "hci$2" leadv 0; sleep 1.2; hciconfig "hci$2" noleadv; hciconfig "hci$2" leadv 0 ) &
  toggler=$!
  timeout -s INT "${4:-4}" hcitool -i "hci$1" lescan --duplicates > "$3" 2>&1
  wait "$toggler"
  hciconfig "hci$2" noleadv >/dev/null 2>&1
}
