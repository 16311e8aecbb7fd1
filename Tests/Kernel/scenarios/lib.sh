# lib.sh - helpers for the kernel lane's scenarios (sourced, busybox ash; not a scenario itself).
# Every scenario starts with `. "$LANE_LIB"` and ends with `finish`.
#
# A scenario's exit status: 0 passed, 77 skipped (it printed "SKIP: ..."), anything else failed.
# run-scenarios.sh provides: LANE_LIB (this file), ARTIFACTS (a writable folder kept on the host
# in .build/kernel/run), SCENARIO (the scenario's name), blectl on the PATH
# (/usr/local/bin/blectl), the lane's self-test helpers on the PATH, and from /init HCI0_ADDR,
# HCI1_ADDR, ... (one per controller). stdin is the console (pitfall 3: btmgmt needs a stdin
# that never hits EOF).
# Pitfall numbers: Tests/Kernel/README.md, "Pitfalls" (from the team's VM rig).

FAILS=0
LANE_PIDS=

# --- time, at the guest's measured speed ----------------------------------------------------
# A loaded host slows the guest (TCG runs every guest instruction on host CPUs that the other work
# shares): blectl takes longer to start, BlueZ's tools and these shell loops take longer. The
# runner times a fixed CPU-bound loop before each scenario against its time on an idle host and
# exports the ratio, at least 1, in hundredths: LANE_SPEED_PCT (210 = the guest runs 2.1 times
# slower). Every wait below and every `timeout` of a scenario is given in seconds at idle speed
# and stretched by that ratio. The stack's own timeouts (ATT's 30 s transaction timer, a
# connect's 20 s) are not: they are the specification's and the user's.
LANE_SPEED_PCT=${LANE_SPEED_PCT:-100}
# scaled SECONDS: whole SECONDS at idle speed as whole seconds at the measured speed (rounded up;
# busybox timeout takes whole seconds).
scaled() { echo $(( ($1 * LANE_SPEED_PCT + 99) / 100 )); }
# lane_sleep SECONDS: sleep SECONDS (may have a fraction) at idle speed, scaled.
lane_sleep() { sleep "$(awk -v s="$1" -v p="$LANE_SPEED_PCT" 'BEGIN { printf "%.2f", s * p / 100 }')"; }
# now_cs: NOW_CS = the guest's uptime in hundredths of a second (no subshell: called in loops).
# /proc/uptime has two decimals; "1" before them and "- 100" keep a leading 0 from reading as octal.
now_cs() { read -r up _ < /proc/uptime; NOW_CS=$(( ${up%.*} * 100 + 1${up#*.} - 100 )); }
# wait_until SECONDS COMMAND...: runs COMMAND every 0.1 s until it succeeds (status 0) or SECONDS
# (at idle speed, scaled) have passed (status 1). COMMAND runs at least once.
wait_until() {
  now_cs; until_cs=$((NOW_CS + $1 * LANE_SPEED_PCT)); shift
  while ! "$@"; do
    now_cs; [ "$NOW_CS" -lt "$until_cs" ] || return 1
    sleep 0.1
  done
}
# gone PID: the process has exited.
gone() { ! kill -0 "$1" 2>/dev/null; }

step() { read -r up _ < /proc/uptime; echo "---- [$up] $*"; }
pass() { echo "ok: $*"; }
fail() { echo "NOT OK: $*"; FAILS=$((FAILS+1)); }
# check DESCRIPTION COMMAND...: a passing or failing check, by the command's status.
check() { desc=$1; shift; if "$@"; then pass "$desc"; else fail "$desc"; fi; }
skip() { echo "SKIP: $*"; exit 77; }
finish() { [ "$FAILS" -eq 0 ] || { echo "$FAILS check(s) failed"; exit 1; }; exit 0; }

# Background processes a scenario starts with `spawn` are stopped when it exits, also when the
# runner's timeout stops it. Their stdin is the console: a background job's stdin is /dev/null
# otherwise (POSIX), on which btmgmt prints nothing (pitfall 3).
spawn() { "$@" </dev/console & LANE_PIDS="$LANE_PIDS $!"; LAST_PID=$!; }
lane_cleanup() { for p in $LANE_PIDS; do kill -KILL "$p" 2>/dev/null; done; }
# stop PID [SIGNAL]: SIGNAL (default INT, how a user stops `blectl serve` or `subscribe`), then
# after 3 s SIGTERM, then after 2 s SIGKILL (both scaled); waits for the process. A background job of a
# non-interactive shell starts with SIGINT *ignored* (POSIX), so only a program that installs
# its own SIGINT handler stops on the first signal; a plain `kill -INT; wait` could hang.
stop() {
  kill -"${2:-INT}" "$1" 2>/dev/null
  if ! wait_until 3 gone "$1"; then
    echo "(pid $1 ignored SIG${2:-INT}; SIGTERM)"
    kill -TERM "$1" 2>/dev/null
    wait_until 2 gone "$1" || kill -KILL "$1" 2>/dev/null
  fi
  wait "$1" 2>/dev/null
}

# --- blectl -------------------------------------------------------------------------------
# blectl_help [COMMAND]: `blectl [COMMAND] --help`, asked once per run and kept in /tmp (the
# 60 MB static blectl takes about a second to start under TCG).
blectl_help() {
  f=/tmp/blectl-help${1:+-$1}.txt
  [ -s "$f" ] || blectl $1 --help > "$f" 2>&1
  cat "$f"
}
# blectl_commands: the commands `blectl --help` lists: the first word of each line indented by
# two spaces, and of each part of such a line after " | " ("  gatt ADDR | read ADDR ...").
blectl_commands() {
  blectl_help | awk '/^  [a-z]/ { n = split($0, part, / \| /); for (i = 1; i <= n; i++) { split(part[i], w, " "); print w[1] } }'
}
# blectl_has COMMAND: `blectl --help` lists COMMAND.
blectl_has() { blectl_commands | grep -qx -e "$1"; }
# blectl_has_option COMMAND OPTION: `blectl COMMAND --help` mentions OPTION.
blectl_has_option() { blectl_help "$1" | grep -q -e "$2"; }
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
# wait_no_link [N...]: wait (up to 15 s, scaled) until hciN has no connection left (default:
# every controller). Pitfall 8: the kernel keeps an idle LE link 4-5 s after its last channel closed,
# a new connect() reuses it, and a socket that started listening later never accepts it.
wait_no_link() {
  [ $# -gt 0 ] || set -- $(ls /sys/class/bluetooth | sed -n 's/^hci//p')
  for n in "$@"; do wait_until 15 no_link "$n"; done
}
# no_link N: hciN has no connection.
no_link() { ! hcitool -i "hci$1" con 2>/dev/null | grep -q handle; }
# advertising_off N...: advertising off on hciN: legacy (hciconfig noleadv), mgmt, and every
# extended advertising set (LE Set Extended Advertising Enable with Enable 0 and
# Num_Sets 0, Core v5.4 Vol 4 Part E 7.8.56, through hcitool cmd). The last one is lane
# hygiene: a set that a stopped blectl serve left enabled makes the next serve's LE Set
# Extended Advertising Parameters fail with Command Disallowed.
advertising_off() {
  for n in "$@"; do
    hciconfig "hci$n" noleadv >/dev/null 2>&1
    btmgmt --index "$n" advertising off </dev/console >/dev/null 2>&1
    hcitool -i "hci$n" cmd 0x08 0x0039 00 00 >/dev/null 2>&1
  done
}
# lescan_while_advertising SCANNER ADVERTISER OUT [SECONDS=4] (times scaled): `hcitool -i hciSCANNER lescan`
# into OUT while hciADVERTISER's legacy advertising (hciconfig leadv) is switched on, off and on.
# Pitfall 6: btvirt reports an advertiser once, when scanning or advertising is enabled, never
# periodically, and hcitool installs its event filter only after enabling the scan: so the
# scanner starts first, then advertising is enabled, and toggled once more in case the VM was
# slow to start hcitool. lescan stops on SIGINT only.
lescan_while_advertising() {
  ( lane_sleep 1; hciconfig "hci$2" leadv 0; lane_sleep 1.2; hciconfig "hci$2" noleadv; hciconfig "hci$2" leadv 0 ) &
  toggler=$!
  timeout -s INT "$(scaled "${4:-4}")" hcitool -i "hci$1" lescan --duplicates > "$3" 2>&1
  wait "$toggler"
  hciconfig "hci$2" noleadv >/dev/null 2>&1
}

# --- two centrals on one peripheral -----------------------------------
# btvirt (BlueZ's emulator/btdev.c: 5.66 here, and unchanged up to 5.8x) gives each end of a link
# the lowest connection handle free on that controller, counting from 0x002A, yet it tells the
# peripheral the *central's* handle in LE (Enhanced) Connection Complete and passes ACL data on
# under the sender's handle. A link works only when both ends picked the same handle. hci0's
# second link gets 0x002B, so its central must already hold 0x002A on another link: hci2 first
# connects to a fourth controller, hci3 (`hold_hci2_handle`), and from then on hci1 connects to
# hci0 while hci0 has no 0x002A link (both ends 0x002A), hci2 while hci0 has exactly hci1's
# (both ends 0x002B). 50 and 51 keep that order and check it (`distinct_handles 0`).

# hold_hci2_handle: `blectl --hci 3 serve`, and hci2 subscribed to it, for the whole scenario
# (HOLD_SERVE, HOLD_SUB); hci2's link to hci3 then holds handle 0x002A on hci2.
hold_hci2_handle() {
  [ -n "${HCI3_ADDR:-}" ] || { echo "no hci3: the lane needs LANE_CONTROLLERS=4 for two centrals"; return 1; }
  start_serve 3 || return 1
  HOLD_SERVE=$SERVE_PID
  spawn blectl --hci 2 subscribe "$HCI3_ADDR" "$CHAR_NOTIFY" --json > /tmp/sub-hold.json 2>&1
  HOLD_SUB=$LAST_PID
  wait_for_line /tmp/sub-hold.json '"subscribed"' 30 || { cat /tmp/sub-hold.json; return 1; }
  hcitool -i hci2 con | grep "$HCI3_ADDR"
}
release_hci2_handle() { stop "$HOLD_SUB"; stop "$HOLD_SERVE"; }
# distinct_handles N: hciN's connections (hcitool con) each have their own handle.
distinct_handles() {
  hcitool -i "hci$1" con | tee /tmp/con.txt
  [ -z "$(sed -n 's/.*handle \([0-9]*\).*/\1/p' /tmp/con.txt | sort | uniq -d)" ]
}
# wait_link_gone N ADDR: wait (up to 15 s, scaled) until hciN has no link to ADDR (pitfall 8, as
# wait_no_link, for one peer when hciN keeps other links).
wait_link_gone() { wait_until 15 no_link_to "$1" "$2"; }
# no_link_to N ADDR: hciN has no link to ADDR.
no_link_to() { ! hcitool -i "hci$1" con 2>/dev/null | grep -q "$2"; }

# --- blectl serve as the peripheral ---------------------------------
# The lane's database (Tests/Kernel/databases/lane.json). Clients address its characteristics
# by UUID: the server adds its own GAP and GATT services, so handles are not fixed here.
LANE_DB=${LANE_DB:-${LANE_REPO:-/repo}/Tests/Kernel/databases/lane.json}
SERVICE_16=180F                                         # Battery, Battery Level 2A19 = 0x64
SERVICE_128=A5F10001-6C1B-4B8E-9E3A-4C696E757842
CHAR_LONG=A5F10002-6C1B-4B8E-9E3A-4C696E757842          # 512 octets: 00 01 02 ... ff 00 ... ff
CHAR_LONG_WRITE=A5F10003-6C1B-4B8E-9E3A-4C696E757842    # read, write (long writes)
CHAR_NOTIFY=A5F10004-6C1B-4B8E-9E3A-4C696E757842        # read, write, notify
CHAR_INDICATE=A5F10005-6C1B-4B8E-9E3A-4C696E757842      # read, write, indicate
CHAR_ENCRYPTED=A5F10006-6C1B-4B8E-9E3A-4C696E757842     # read needs encryption: "encrypted-ok"
SERVE_NAME=LaneServe
# The long value, as lowercase hex without spaces.
long_value_hex() { i=0; while [ $i -lt 512 ]; do printf '%02x' $((i % 256)); i=$((i+1)); done; }
# lower TEXT: TEXT in lowercase, without spaces, colons and dashes (to compare hex and UUIDs).
lower() { echo "$1" | tr 'A-F' 'a-f' | tr -d ' :-'; }

# swift_backtraces: a Swift program started afterwards that crashes prints the runtime's
# backtrace into its output (kernel-test.sh copies the toolchain's swift-backtrace-static when it
# has one): a crash has a record.
swift_backtraces() {
  if [ -x "${LANE_REPO:-/repo}/.build/kernel/bin/swift-backtrace-static" ]; then
    export SWIFT_BACKTRACE="enable=yes,interactive=no,swift-backtrace=${LANE_REPO:-/repo}/.build/kernel/bin/swift-backtrace-static"
  fi
}

# start_serve N [ARGS...]: `blectl --hci N serve --db lane.json --name LaneServe ARGS` in the
# background (output in /tmp/serve-hciN.txt); waits (up to 20 s, scaled) until it says it is serving,
# that is advertising and listening; fails if it exits or stays silent.
start_serve() {
  n=$1; shift
  swift_backtraces
  spawn blectl --hci "$n" serve --db "$LANE_DB" --name "$SERVE_NAME" "$@" > "/tmp/serve-hci$n.txt" 2>&1
  SERVE_PID=$LAST_PID
  wait_until 20 serving_or_gone "$n"
  if ! grep -q '^serving' "/tmp/serve-hci$n.txt"; then
    echo "blectl serve on hci$n is not serving:"; cat "/tmp/serve-hci$n.txt"
    return 1
  fi
}
# serving_or_gone N: the last start_serve's serve on hciN said it is serving, or has exited.
serving_or_gone() { grep -q '^serving' "/tmp/serve-hci$1.txt" || gone "$SERVE_PID"; }
# stop_serve: stops the last start_serve's serve and prints what it said; says so, with its exit
# status (139: SIGSEGV), when it had already exited (a central that cannot connect then has a
# cause on record).
stop_serve() {
  dead=; kill -0 "$SERVE_PID" 2>/dev/null || dead=1
  stop "$SERVE_PID"; status=$?
  [ -z "$dead" ] || echo "NOTE: blectl serve (pid $SERVE_PID) had exited before it was stopped, exit status $status"
  echo "blectl serve said:"; cat "/tmp/serve-hci0.txt"
}
# needs_serve_notifications: skip unless `blectl serve --help` says how serve notifies (a new
# subscriber gets the current value; a written value goes to the subscribers). A blectl from
# before that skips these scenarios instead of failing them.
needs_serve_notifications() {
  blectl_has_option serve 'notif' || skip "needs blectl serve to send notifications and indications (e.g. of written values)"
}
# wait_for_line FILE PATTERN [SECONDS=15]: wait (SECONDS scaled) until FILE has a line matching
# PATTERN; fails if none came.
wait_for_line() { wait_until "${3:-15}" grep -q -e "$2" "$1" 2>/dev/null; }
# gatttool_value_handle UUID FILE: the value handle of UUID in FILE, the output of
# `gatttool --characteristics` ("handle = 0x0009, char properties = 0x1a, char value handle =
# 0x000a, uuid = a5f10004-...").
gatttool_value_handle() {
  u=$(echo "$1" | tr 'A-F' 'a-f')
  case ${#u} in 4) u=0000$u-0000-1000-8000-00805f9b34fb ;; esac
  grep -i "uuid = $u" "$2" | sed -n 's/.*char value handle = \(0x[0-9a-f]*\).*/\1/p' | head -1
}
# plus_one 0xHHHH: the next handle, as 0xhhhh.
plus_one() { printf '0x%04x' $(($1 + 1)); }
