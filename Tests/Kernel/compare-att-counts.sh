#!/bin/bash
# compare-att-counts.sh FILE BLECTL - the ATT PDU counts of a capture by opcode, as `BLECTL decode
# --json` finds them and as tshark does (frames its btatt dissector takes), side by side; exit 0
# when they are equal, 1 when they differ, 2 without tshark or FILE.
# kernel-test.sh runs it on the btsnoop that the monitor scenario's `blectl monitor --write` saved.
set -uo pipefail
file=${1:?usage: compare-att-counts.sh FILE BLECTL}
blectl=${2:?usage: compare-att-counts.sh FILE BLECTL}
command -v tshark > /dev/null || { echo "compare-att-counts: no tshark (make deps installs it)"; exit 2; }
[ -s "$file" ] || { echo "compare-att-counts: no capture at $file"; exit 2; }
ours=$("$blectl" decode --json --no-summary "$file" | grep -o '"att":{"opcode":[0-9]*' | grep -o '[0-9]*$' \
       | awk '{printf "0x%02x\n", $1}' | sort | uniq -c)
theirs=$(tshark -r "$file" -Y btatt -T fields -e btatt.opcode 2>/dev/null | sort | uniq -c)
echo "ATT PDUs by opcode in ${file##*/}: blectl decode | tshark"
paste <(echo "$ours") <(echo "$theirs")
if [ -n "$ours" ] && [ "$ours" = "$theirs" ]; then
  echo "ok: blectl decode and tshark count the same ATT PDUs ($(echo "$ours" | awk '{n += $1} END {print n}'))"
  exit 0
fi
echo "NOT OK: blectl decode and tshark count the ATT PDUs differently"
exit 1
