#!/bin/bash
# lane-timings.sh - on the host, after a lane run: how close the run came to the stack's own
# timeouts, from the whole run's btmon capture (.build/kernel/run/lane.btsnoop), with tshark.
#
# usage: Tests/Kernel/lane-timings.sh CAPTURE
# Prints two lines:
#   - ATT round trips: each request (and indication) a host sent, to the response (or Error
#     Response, or confirmation) that came back to that host on the same adapter and link; the
#     slowest, the median and the count, against ATT's 30 s transaction timeout (Core v5.4, Vol 3,
#     Part F, 3.3.3), and how many were never answered (the link ended under them, or the capture
#     did: a request answered after 30 s would be a lost response; one cut short by a disconnection
#     is not);
#   - connection setups: LE (Extended) Create Connection to LE (Enhanced) Connection Complete
#     on the same adapter; the slowest and the count, against blectl's 20 s connect timeout.
# A guest that is only slow shows round trips far below the timeouts; a lost response shows as
# an unanswered request.
# Exit status: 0 (a report, not a check), 2 usage or no tshark.
set -uo pipefail
[ $# -eq 1 ] && [ -f "$1" ] || { echo "usage: $0 CAPTURE" >&2; exit 2; }
command -v tshark >/dev/null || { echo "lane-timings: no tshark" >&2; exit 2; }

# ATT: time, adapter, direction (hci_mon opcode 4 = ACL sent by the host, 5 = received), link
# handle, ATT opcode. Requests: the even opcodes 0x02-0x20 that have a response (opcode + 1), and
# Handle Value Indication 0x1D (confirmation 0x1E); Error Response 0x01 answers any request.
tshark -r "$1" -Y btatt -T fields -e frame.time_relative -e hci_mon.adapter_id -e hci_mon.opcode \
    -e bthci_acl.chandle -e btatt.opcode 2>/dev/null |
  awk -F'\t' '
    # hex("0x1d") = 29 (mawk has no strtonum)
    function hex(s,   i, v) { v = 0; s = tolower(substr(s, 3)); for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }
    BEGIN { split("2 4 6 8 10 12 14 16 18 22 24 32 29", r, " "); for (i in r) request[r[i]] = 1 }
    $5 != "" {
      op = hex($5); key = $2 "/" $4
      if ($3 == 4 && (op in request)) {
        if (key in sent) cut++        # the previous request on this link never got its answer
        sent[key] = $1; asked[key] = op; next
      }
      if ($3 == 5 && (key in sent) && (op == asked[key] + 1 || op == 1)) {
        print $1 - sent[key]; delete sent[key]; delete asked[key]
      }
    }
    END { open = cut + 0; for (k in sent) open++; print "unanswered", open }' |
  sort -g |
  awk '
    $1 == "unanswered" { open = $2; next }
    { n++; t[n] = $1 }
    END {
      if (n == 0) { printf "lane-timings: no ATT round trips in the capture (%d unanswered)\n", open; exit }
      printf "lane-timings: ATT round trips: %d, median %.3f s, slowest %.3f s (the ATT transaction timeout is 30 s); requests never answered (their link ended first, or the capture did): %d\n", n, t[int((n + 1) / 2)], t[n], open
    }'

# Connections: LE Create Connection 0x200D / LE Extended Create Connection 0x2043, then LE
# Connection Complete (subevent 0x01) or LE Enhanced Connection Complete (0x0A) on that adapter.
tshark -r "$1" -Y "bthci_cmd.opcode == 0x200d || bthci_cmd.opcode == 0x2043 || bthci_evt.le_meta_subevent == 0x01 || bthci_evt.le_meta_subevent == 0x0a" \
    -T fields -e frame.time_relative -e hci_mon.adapter_id -e bthci_cmd.opcode -e bthci_evt.le_meta_subevent 2>/dev/null |
  awk -F'\t' '
    $3 != "" { started[$2] = $1; next }
    $4 != "" && ($2 in started) { t = $1 - started[$2]; n++; if (t > max) max = t; delete started[$2] }
    END {
      open = 0; for (k in started) open++
      printf "lane-timings: connection setups: %d, slowest %.3f s (blectl connects with a 20 s timeout); still initiating at the end of the capture: %d\n", n, max, open
    }'
exit 0
