# Lane check 5: two centrals (hci1 and hci2) connected at once to one `blectl --hci 0 serve`,
# each with its own CCCD state.
#  1. hci1 subscribes to the notify characteristic (its CCCD on hci1's connection: 0x0001);
#  2. meanwhile hci2 reads that same CCCD on its own connection with gatttool: 00 00;
#  3. hci2 subscribes to the indicate characteristic: hci0 now has both links, each with its own
#     handle, and serve reports both connections.
# Notifications that follow each central's CCCD are 51's.
# hci2 first holds handle 0x002A on a link to hci3, and hci1 connects before hci2: btvirt needs
# both ends of a link to pick the same handle (lib.sh, "two centrals on one peripheral").
. "$LANE_LIB"
needs_blectl serve --hci
needs_blectl subscribe --indicate
step "hci2 holds handle 0x002A on a link to hci3"
check "hci2 is subscribed to blectl serve on hci3" hold_hci2_handle
check "blectl serve starts on hci0" start_serve 0

step "hci1 subscribes to notify ($CHAR_NOTIFY)"
spawn blectl --hci 1 subscribe "$HCI0_ADDR" "$CHAR_NOTIFY" --json > /tmp/sub1.json 2>&1
SUB1=$LAST_PID
check "hci1 subscribed" wait_for_line /tmp/sub1.json '"subscribed"' 30
cat /tmp/sub1.json
VALUE_HANDLE=$(sed -n 's/.*"handle" *: *\([0-9]*\).*/\1/p' /tmp/sub1.json | head -1)
CCCD=$(plus_one "${VALUE_HANDLE:-0}")

step "hci2 reads the notify CCCD ($CCCD) on its own connection"
timeout "$(scaled 15)" gatttool -i hci2 -b "$HCI0_ADDR" -t public --char-read -a "$CCCD" > /tmp/cccd.txt 2>&1
cat /tmp/cccd.txt
check "hci0's links have distinct handles" distinct_handles 0
check "hci2's CCCD reads 00 00 while hci1 is subscribed" grep -q 'Characteristic value/descriptor: 00 00' /tmp/cccd.txt
check "hci1 is still subscribed (connected)" kill -0 "$SUB1"

wait_link_gone 2 "$HCI0_ADDR"
step "hci2 subscribes to indicate ($CHAR_INDICATE)"
spawn blectl --hci 2 subscribe "$HCI0_ADDR" "$CHAR_INDICATE" --indicate --json > /tmp/sub2.json 2>&1
SUB2=$LAST_PID
check "hci2 subscribed" wait_for_line /tmp/sub2.json '"subscribed"' 30
cat /tmp/sub2.json
check "hci0's links have distinct handles" distinct_handles 0
check "hci0 is connected to hci1 and hci2 at once" eval 'grep -q "$HCI1_ADDR" /tmp/con.txt && grep -q "$HCI2_ADDR" /tmp/con.txt'
check "hci1 is still subscribed (connected)" kill -0 "$SUB1"
stop "$SUB1"
stop "$SUB2"
stop_serve
release_hci2_handle
check "serve reported both connections" eval 'grep -q "connected $HCI1_ADDR" /tmp/serve-hci0.txt && grep -q "connected $HCI2_ADDR" /tmp/serve-hci0.txt'
finish
