# Lane check: `blectl monitor` sees what btmon sees, live, on the kernel's monitor channel:
#  - `blectl monitor --write FILE` runs while `blectl --hci 1 gatt` reads the tree of
#    `blectl --hci 0 serve`;
#  - its lines show that session's ATT PDUs on both adapters (sent on one, received on the
#    other), and Ctrl-C ends it with the summary;
#  - FILE (btsnoop 2001) decodes with `blectl decode` to the same ATT PDU counts as the live
#    summary; after the lane, kernel-test.sh compares its ATT opcode counts with tshark's.
. "$LANE_LIB"
needs_blectl monitor --write
needs_blectl serve --hci
needs_blectl gatt
check "blectl serve starts on hci0" start_serve 0

step "blectl monitor --write while hci1 reads the tree of hci0's serve"
CAP=$ARTIFACTS/$SCENARIO.monitor.btsnoop
rm -f "$CAP"
spawn blectl monitor --write "$CAP" > "$ARTIFACTS/$SCENARIO.monitor.txt" 2>&1
MON=$LAST_PID
# The kernel replays each adapter to a new monitor first: its New Index lines say it is reading.
check "monitor lists the adapters as it starts" wait_for_line "$ARTIFACTS/$SCENARIO.monitor.txt" "hci1" 30
wait_no_link 1
timeout "$(scaled 60)" blectl --hci 1 gatt "$HCI0_ADDR" > /tmp/gatt.txt 2>&1; rc=$?
check "gatt exits 0" [ $rc -eq 0 ]
wait_no_link 1
stop "$MON"
stop_serve
M=$ARTIFACTS/$SCENARIO.monitor.txt
grep -E 'ATT (Read By Group Type|Exchange MTU)' "$M" | head -6
sed -n '/^Summary/,$p' "$M" | head -40
check "monitor shows hci1's Read By Group Type Requests" eval "grep '\\[hci1\\]' '$M' | grep -q 'ATT Read By Group Type Request'"
check "monitor shows them arriving at hci0" eval "grep '\\[hci0\\]' '$M' | grep -q 'ATT Read By Group Type Request'"
check "Ctrl-C ended it with the summary" grep -q '^Summary' "$M"

step "blectl decode of the file monitor wrote"
blectl decode "$CAP" > "$ARTIFACTS/$SCENARIO.decode.txt" 2>&1; rc=$?
check "decode exits 0" [ $rc -eq 0 ]
sed -n '/^  ATT PDUs:/,/^  [^ ]/p' "$M" | grep -E '^  ATT PDUs|^    0x' > /tmp/live-att.txt
sed -n '/^  ATT PDUs:/,/^  [^ ]/p' "$ARTIFACTS/$SCENARIO.decode.txt" | grep -E '^  ATT PDUs|^    0x' > /tmp/file-att.txt
cat /tmp/file-att.txt
check "the live summary counted ATT PDUs" [ -s /tmp/live-att.txt ]
check "the file's ATT PDU counts equal the live summary's" cmp -s /tmp/live-att.txt /tmp/file-att.txt
finish
