# Issue 4, check 4: advertising seen both ways:
#  - BlueZ's `hcitool lescan` (hci1) sees `blectl --hci 0 serve` advertising its name;
#  - `blectl --hci 1 scan` sees the advertising that `hciconfig hci0 leadv` enables.
# Pitfall 6: btvirt reports an advertiser once, when scanning or advertising is enabled, so the
# scanner always starts first.
. "$LANE_LIB"
needs_blectl serve --hci
needs_blectl scan

step "hcitool -i hci1 lescan first, then blectl --hci 0 serve"
spawn timeout -s INT 8 hcitool -i hci1 lescan --duplicates > /tmp/lescan.txt 2>&1
LESCAN=$LAST_PID
sleep 1
check "blectl serve starts on hci0" start_serve 0
wait "$LESCAN"
sort -u /tmp/lescan.txt
check "lescan saw the name $SERVE_NAME" grep -q "$SERVE_NAME" /tmp/lescan.txt
stop_serve
advertising_off 0
wait_no_link

step "blectl --hci 1 scan first, then hciconfig hci0 leadv (on, off, on)"
( sleep 2; hciconfig hci0 leadv 0; sleep 1.2; hciconfig hci0 noleadv; hciconfig hci0 leadv 0 ) &
TOGGLE=$!
timeout -s INT 20 blectl --hci 1 scan --duration 6 > /tmp/scan.txt 2>&1
wait "$TOGGLE"
hciconfig hci0 noleadv
cat /tmp/scan.txt
check "blectl scan saw hci0 ($HCI0_ADDR)" grep -qi "$HCI0_ADDR" /tmp/scan.txt
finish
