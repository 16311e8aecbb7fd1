# Lane check 3: BlueZ's gatttool (hci1) as the client against `blectl --hci 0 serve`:
# --primary, --characteristics, --char-read -a, --char-write-req, and --listen (here: the CCCD
# write that subscribes is accepted; the notification itself is 31's, once serve sends them).
. "$LANE_LIB"
needs_blectl serve --hci
check "blectl serve starts on hci0" start_serve 0

step "gatttool --primary"
timeout "$(scaled 30)" gatttool -i hci1 -b "$HCI0_ADDR" -t public --primary > /tmp/primary.txt 2>&1; rc=$?
cat /tmp/primary.txt
check "--primary exits 0" [ $rc -eq 0 ]
check "--primary lists $SERVICE_16" grep -qi "uuid: 0000180f-0000-1000-8000-00805f9b34fb" /tmp/primary.txt
check "--primary lists $SERVICE_128" grep -qi "uuid: $SERVICE_128" /tmp/primary.txt
# no link, no point in the 30 s timeouts of the steps below
[ $rc -eq 0 ] || { stop_serve; finish; }

wait_no_link 1
step "gatttool --characteristics"
timeout "$(scaled 30)" gatttool -i hci1 -b "$HCI0_ADDR" -t public --characteristics > /tmp/chars.txt 2>&1; rc=$?
cat /tmp/chars.txt
check "--characteristics exits 0" [ $rc -eq 0 ]
BATTERY=$(gatttool_value_handle 2A19 /tmp/chars.txt)
WRITABLE=$(gatttool_value_handle "$CHAR_LONG_WRITE" /tmp/chars.txt)
NOTIFY=$(gatttool_value_handle "$CHAR_NOTIFY" /tmp/chars.txt)
echo "value handles: Battery Level $BATTERY, writable $WRITABLE, notify $NOTIFY"
check "--characteristics lists Battery Level, the writable and the notify characteristic" \
  [ -n "$BATTERY" ] && [ -n "$WRITABLE" ] && [ -n "$NOTIFY" ]

wait_no_link 1
step "gatttool --char-read -a $BATTERY"
timeout "$(scaled 30)" gatttool -i hci1 -b "$HCI0_ADDR" -t public --char-read -a "$BATTERY" > /tmp/read.txt 2>&1
cat /tmp/read.txt
check "Battery Level reads 64" grep -q 'Characteristic value/descriptor: 64' /tmp/read.txt

wait_no_link 1
step "gatttool --char-write-req -a $WRITABLE -n 0a0b0c, then read back"
timeout "$(scaled 30)" gatttool -i hci1 -b "$HCI0_ADDR" -t public --char-write-req -a "$WRITABLE" -n 0a0b0c > /tmp/write.txt 2>&1
cat /tmp/write.txt
check "the write succeeds" grep -q 'written successfully' /tmp/write.txt
wait_no_link 1
timeout "$(scaled 30)" gatttool -i hci1 -b "$HCI0_ADDR" -t public --char-read -a "$WRITABLE" > /tmp/back.txt 2>&1
cat /tmp/back.txt
check "the value reads back 0a 0b 0c" grep -q 'Characteristic value/descriptor: 0a 0b 0c' /tmp/back.txt

wait_no_link 1
step "gatttool --char-write-req -a $(plus_one "$NOTIFY") -n 0100 --listen (subscribes, then listens)"
spawn gatttool -i hci1 -b "$HCI0_ADDR" -t public --char-write-req -a "$(plus_one "$NOTIFY")" -n 0100 --listen > /tmp/listen.txt 2>&1
LISTEN=$LAST_PID
wait_for_line /tmp/listen.txt 'written successfully' 20
check "gatttool --listen is still listening" kill -0 "$LISTEN"
# gatttool --listen runs until killed; GLib flushes each line it prints, so SIGTERM loses nothing
stop "$LISTEN" TERM
cat /tmp/listen.txt
check "the CCCD write (notifications on) succeeds" grep -q 'written successfully' /tmp/listen.txt
stop_serve
finish
