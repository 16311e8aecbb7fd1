# Issue 4, check 5: two centrals (hci1 and hci2) connected at once to one `blectl --hci 0
# serve`, each with its own CCCD state.
#  1. hci1 subscribes to the notify characteristic, hci2 to the indicate one; hci0 then has two
#     links at once.
#  2. hci2 stops; hci2 writes both values: hci1 gets the notify value, not the indicate one.
#  3. hci2 subscribes to indicate again, hci1 stops; hci1 writes both: hci2 gets the indicate
#     value, not the notify one.
# A central can hold one ATT channel per link (the kernel answers EBUSY to a second), so the
# writes come from the central that is not subscribed at the time.
# Assumes: serve notifies or indicates a characteristic's subscribers when a client writes its
# value; subscribe --json prints each value in hex. Adjust here when the commands land.
. "$LANE_LIB"
needs_blectl serve --hci
for c in subscribe write; do needs_blectl "$c"; done
check "blectl serve starts on hci0" start_serve 0
has_value() { tr -d ' :-' < "$2" | grep -qi "$1"; }

step "hci1 subscribes to notify, hci2 to indicate"
spawn blectl --hci 1 subscribe "$HCI0_ADDR" "$CHAR_NOTIFY" --json > /tmp/sub1.json 2>&1
SUB1=$LAST_PID
spawn blectl --hci 2 subscribe "$HCI0_ADDR" "$CHAR_INDICATE" --indicate --json > /tmp/sub2.json 2>&1
SUB2=$LAST_PID
sleep 4
hcitool -i hci0 con | tee /tmp/con.txt
check "hci0 is connected to hci1 and hci2 at once" eval 'grep -q "$HCI1_ADDR" /tmp/con.txt && grep -q "$HCI2_ADDR" /tmp/con.txt'

step "hci2 stops, then writes both values"
stop "$SUB2"
wait_no_link 2
timeout 60 blectl --hci 2 write "$HCI0_ADDR" "$CHAR_NOTIFY" a1a1a1a1 > /dev/null 2>&1
timeout 60 blectl --hci 2 write "$HCI0_ADDR" "$CHAR_INDICATE" a2a2a2a2 > /dev/null 2>&1
sleep 2
stop "$SUB1"
cat /tmp/sub1.json
check "hci1 got the notify value a1a1a1a1" has_value a1a1a1a1 /tmp/sub1.json
check "hci1 did not get the indicate value a2a2a2a2" eval '! has_value a2a2a2a2 /tmp/sub1.json'

step "hci2 subscribes to indicate, hci1 writes both values"
wait_no_link 1 2
spawn blectl --hci 2 subscribe "$HCI0_ADDR" "$CHAR_INDICATE" --indicate --json > /tmp/sub2b.json 2>&1
SUB2=$LAST_PID
sleep 3
timeout 60 blectl --hci 1 write "$HCI0_ADDR" "$CHAR_INDICATE" b2b2b2b2 > /dev/null 2>&1
timeout 60 blectl --hci 1 write "$HCI0_ADDR" "$CHAR_NOTIFY" b1b1b1b1 > /dev/null 2>&1
sleep 2
stop "$SUB2"
cat /tmp/sub2b.json
check "hci2 got the indicate value b2b2b2b2" has_value b2b2b2b2 /tmp/sub2b.json
check "hci2 did not get the notify value b1b1b1b1" eval '! has_value b1b1b1b1 /tmp/sub2b.json'
stop_serve
finish
