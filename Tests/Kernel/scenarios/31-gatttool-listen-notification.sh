# Lane check 3 (the notification): `gatttool --listen` on hci1 gets blectl serve's
# notifications. gatttool writes a value, then in a second connection writes the CCCD and
# listens; hci2 then writes another value, which serve notifies to hci1.
# serve also sends a new subscriber the current value right after the CCCD's Write Response,
# but gatttool registers its notification handler from an idle callback of its main loop,
# which runs after pending socket input: on a loaded machine the two PDUs arrive together and
# gatttool drops the notification. The value hci2 writes while gatttool listens is the check.
# hci2 holds handle 0x002A on a link to hci3 first (lib.sh, "two centrals on one peripheral").
. "$LANE_LIB"
needs_blectl serve --hci
needs_blectl write
needs_serve_notifications
step "hci2 holds handle 0x002A on a link to hci3 (it writes while hci1 listens)"
check "hci2 is subscribed to blectl serve on hci3" hold_hci2_handle
check "blectl serve starts on hci0" start_serve 0

step "gatttool --characteristics (the notify characteristic's value handle)"
timeout "$(scaled 30)" gatttool -i hci1 -b "$HCI0_ADDR" -t public --characteristics > /tmp/chars.txt 2>&1
NOTIFY=$(gatttool_value_handle "$CHAR_NOTIFY" /tmp/chars.txt)
check "found $CHAR_NOTIFY ($NOTIFY)" [ -n "$NOTIFY" ]
[ -n "$NOTIFY" ] || { stop_serve; release_hci2_handle; finish; }

wait_no_link 1
step "gatttool on hci1 writes c0ffee03 to $NOTIFY"
timeout "$(scaled 30)" gatttool -i hci1 -b "$HCI0_ADDR" -t public --char-write-req -a "$NOTIFY" -n c0ffee03 > /tmp/w.txt 2>&1
cat /tmp/w.txt
check "the write succeeds" grep -q 'written successfully' /tmp/w.txt

wait_no_link 1
step "gatttool --listen on hci1 (CCCD $(plus_one "$NOTIFY") = 0100), then hci2 writes c0ffee04"
spawn gatttool -i hci1 -b "$HCI0_ADDR" -t public --char-write-req -a "$(plus_one "$NOTIFY")" -n 0100 --listen > /tmp/listen.txt 2>&1
LISTEN=$LAST_PID
check "gatttool wrote the CCCD and listens" wait_for_line /tmp/listen.txt 'written successfully' 30
timeout "$(scaled 60)" blectl --hci 2 write "$HCI0_ADDR" "$CHAR_NOTIFY" c0ffee04 > /tmp/w2.txt 2>&1; rc=$?
cat /tmp/w2.txt
check "hci2's write succeeds" [ $rc -eq 0 ]
wait_for_line /tmp/listen.txt "value: c0 ff ee 04" 20
stop "$LISTEN" TERM
cat /tmp/listen.txt
check "hci1 got the notification of c0 ff ee 04" grep -q "Notification handle = $NOTIFY value: c0 ff ee 04" /tmp/listen.txt
grep -q "value: c0 ff ee 03" /tmp/listen.txt && echo "(gatttool also caught the current value c0 ff ee 03 sent on subscribing)"
stop_serve
release_hci2_handle
finish
