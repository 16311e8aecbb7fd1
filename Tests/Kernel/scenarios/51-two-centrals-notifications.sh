# Lane check 5 (notifications follow each central's own CCCD state): two centrals (hci1,
# hci2) of one `blectl --hci 0 serve`.
#  1. hci1 subscribes to the notify characteristic, then hci2 to the indicate one.
#  2. hci2 stops and writes both values: hci1 gets the notify value, not the indicate one.
#  3. hci2 subscribes to indicate again (and gets its current value), hci1 stops and writes both
#     values: hci2 gets the indicate value, not the notify one.
# A central holds one ATT channel per link (the kernel answers EBUSY to a second), so the writes
# come from the central that is not subscribed at the time.
# hci2 holds handle 0x002A on a link to hci3, and every connection to hci0 comes in the order
# btvirt needs (lib.sh, "two centrals on one peripheral"): hci2 only while hci0 has hci1's link.
. "$LANE_LIB"
needs_blectl serve --hci
for c in subscribe write; do needs_blectl "$c"; done
needs_serve_notifications
step "hci2 holds handle 0x002A on a link to hci3"
check "hci2 is subscribed to blectl serve on hci3" hold_hci2_handle
check "blectl serve starts on hci0" start_serve 0
has_value() { grep -qi "\"value\" *: *\"$1\"" "$2"; }
# write_as N UUID HEX WHICH: hciN writes HEX to hci0's characteristic UUID (a connection of its own).
write_as() {
  timeout "$(scaled 60)" blectl --hci "$1" write "$HCI0_ADDR" "$2" "$3" > "/tmp/write-$3.txt" 2>&1; rc=$?
  [ $rc -eq 0 ] || cat "/tmp/write-$3.txt"
  check "hci$1 wrote $3 to the $4 characteristic" [ $rc -eq 0 ]
}

step "hci1 subscribes to notify, then hci2 to indicate"
spawn blectl --hci 1 subscribe "$HCI0_ADDR" "$CHAR_NOTIFY" --json > /tmp/sub1.json 2>&1
SUB1=$LAST_PID
check "hci1 subscribed" wait_for_line /tmp/sub1.json '"subscribed"' 30
spawn blectl --hci 2 subscribe "$HCI0_ADDR" "$CHAR_INDICATE" --indicate --json > /tmp/sub2.json 2>&1
SUB2=$LAST_PID
check "hci2 subscribed" wait_for_line /tmp/sub2.json '"subscribed"' 30
check "hci0's links have distinct handles" distinct_handles 0

step "hci2 stops, then writes both values"
stop "$SUB2"
wait_link_gone 2 "$HCI0_ADDR"
write_as 2 "$CHAR_NOTIFY" a1a1a1a1 notify
write_as 2 "$CHAR_INDICATE" a2a2a2a2 indicate
check "hci1 got the notify value a1a1a1a1" wait_for_line /tmp/sub1.json '"value" *: *"a1a1a1a1"'

step "hci2 subscribes to indicate again; hci1 stops, then writes both values"
wait_link_gone 2 "$HCI0_ADDR"
spawn blectl --hci 2 subscribe "$HCI0_ADDR" "$CHAR_INDICATE" --indicate --json > /tmp/sub2b.json 2>&1
SUB2=$LAST_PID
check "hci2 subscribed again" wait_for_line /tmp/sub2b.json '"subscribed"' 30
check "hci2 got the current indicate value a2a2a2a2" wait_for_line /tmp/sub2b.json '"value" *: *"a2a2a2a2"'
check "hci0's links have distinct handles" distinct_handles 0
stop "$SUB1"
cat /tmp/sub1.json
check "hci1 did not get the indicate value a2a2a2a2" eval '! has_value a2a2a2a2 /tmp/sub1.json'
wait_link_gone 1 "$HCI0_ADDR"
write_as 1 "$CHAR_INDICATE" b2b2b2b2 indicate
write_as 1 "$CHAR_NOTIFY" b1b1b1b1 notify
check "hci2 got the indicate value b2b2b2b2" wait_for_line /tmp/sub2b.json '"value" *: *"b2b2b2b2"'
lane_sleep 1   # time for a wrongly sent b1b1b1b1 notification to arrive before the check below
stop "$SUB2"
cat /tmp/sub2b.json
check "hci2 did not get the notify value b1b1b1b1" eval '! has_value b1b1b1b1 /tmp/sub2b.json'
stop_serve
release_hci2_handle
finish
