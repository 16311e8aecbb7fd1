# Issue 4, check 3 (the notification): `gatttool --listen` on hci1 gets blectl serve's
# notification. gatttool first writes the value, then enables notifications in a second
# connection; serve sends a new subscriber the current value.
. "$LANE_LIB"
needs_blectl serve --hci
needs_serve_notifications
check "blectl serve starts on hci0" start_serve 0

step "gatttool --characteristics (the notify characteristic's value handle)"
timeout 30 gatttool -i hci1 -b "$HCI0_ADDR" -t public --characteristics > /tmp/chars.txt 2>&1
NOTIFY=$(gatttool_value_handle "$CHAR_NOTIFY" /tmp/chars.txt)
check "found $CHAR_NOTIFY ($NOTIFY)" [ -n "$NOTIFY" ]
[ -n "$NOTIFY" ] || { stop_serve; finish; }

wait_no_link 1
step "gatttool on hci1 writes c0ffee03 to $NOTIFY"
timeout 30 gatttool -i hci1 -b "$HCI0_ADDR" -t public --char-write-req -a "$NOTIFY" -n c0ffee03 > /tmp/w.txt 2>&1
cat /tmp/w.txt
check "the write succeeds" grep -q 'written successfully' /tmp/w.txt

wait_no_link 1
step "gatttool --listen on hci1 (CCCD $(plus_one "$NOTIFY") = 0100)"
spawn gatttool -i hci1 -b "$HCI0_ADDR" -t public --char-write-req -a "$(plus_one "$NOTIFY")" -n 0100 --listen > /tmp/listen.txt 2>&1
LISTEN=$LAST_PID
wait_for_line /tmp/listen.txt 'Notification handle' 20
stop "$LISTEN" TERM
cat /tmp/listen.txt
check "hci1 got the notification of c0 ff ee 03" grep -q "Notification handle = $NOTIFY value: c0 ff ee 03" /tmp/listen.txt
stop_serve
finish
