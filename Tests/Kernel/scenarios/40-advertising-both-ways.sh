# Issue 4, check 4: advertising seen both ways:
#  - BlueZ sees `blectl --hci 0 serve` advertising its name: `btmgmt --index 1 find -l`, the
#    kernel's own LE discovery on hci1, started first (a report that arrives as discovery
#    starts can be lost). (Not `hcitool lescan`: btvirt reports an extended
#    advertising set, which serve uses like the kernel, as LE Extended Advertising Reports even
#    to a legacy scan, and hcitool only reads LE Advertising Reports, so it never prints it.)
#  - `blectl --hci 1 scan` sees the advertising that `hciconfig hci0 leadv` enables.
# Pitfall 6: btvirt reports an advertiser once, when scanning or advertising is enabled.
. "$LANE_LIB"
needs_blectl serve --hci
needs_blectl scan

step "btmgmt --index 1 find -l first (LE discovery lasts about 10 s), then blectl --hci 0 serve"
spawn timeout -s INT 15 btmgmt --index 1 find -l > /tmp/find.txt 2>&1
FIND=$LAST_PID
sleep 1
check "blectl serve starts on hci0" start_serve 0
wait "$FIND"
cat /tmp/find.txt
check "btmgmt find saw hci0 ($HCI0_ADDR) named $SERVE_NAME" \
  eval 'grep -i -A4 "dev_found: $HCI0_ADDR" /tmp/find.txt | grep -q "^name $SERVE_NAME"'
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
