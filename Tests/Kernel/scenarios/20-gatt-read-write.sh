# Lane check 2 (without notifications: 21): `blectl --hci 1` gatt, read and write against
# `blectl --hci 0 serve` on the lane's database: the tree, a long value (512 octets, more than
# 3 x ATT_MTU: the reads offer an ATT_MTU of 23, so it takes a Read and many Read Blobs), and a
# long write (200 octets: Prepare Writes and an Execute Write at ATT_MTU 23) read back.
. "$LANE_LIB"
needs_blectl serve --hci
for c in gatt read write; do needs_blectl "$c"; done
check "blectl serve starts on hci0" start_serve 0

step "gatt: the tree"
timeout "$(scaled 60)" blectl --hci 1 gatt "$HCI0_ADDR" > /tmp/gatt.txt 2>&1; rc=$?
cat /tmp/gatt.txt
check "gatt exits 0" [ $rc -eq 0 ]
check "the tree has Battery ($SERVICE_16) with Battery Level 2A19" eval 'grep -qi "180f" /tmp/gatt.txt && grep -qi "2a19" /tmp/gatt.txt'
for u in $SERVICE_128 $CHAR_LONG $CHAR_LONG_WRITE $CHAR_NOTIFY $CHAR_INDICATE $CHAR_ENCRYPTED; do
  check "the tree has $u" grep -qi "$u" /tmp/gatt.txt
done
check "the tree shows properties (notify, indicate)" eval 'grep -qi notify /tmp/gatt.txt && grep -qi indicate /tmp/gatt.txt'
# no link, no point in the timeouts of the steps below
[ $rc -eq 0 ] || { stop_serve; finish; }

wait_no_link 1
step "read the long value ($CHAR_LONG, 512 octets)"
timeout "$(scaled 60)" blectl --hci 1 read "$HCI0_ADDR" "$CHAR_LONG" --mtu 23 > /tmp/long.txt 2>&1; rc=$?
head -c 200 /tmp/long.txt; echo " ..."
check "read exits 0" [ $rc -eq 0 ]
check "all 512 octets arrive, in order" eval 'lower "$(cat /tmp/long.txt)" | grep -q "$(long_value_hex)"'

wait_no_link 1
step "write 200 octets to $CHAR_LONG_WRITE (a long write), then read them back"
VALUE=$(i=0; while [ $i -lt 200 ]; do printf '%02x' $(((i * 7 + 3) % 256)); i=$((i+1)); done)
timeout "$(scaled 60)" blectl --hci 1 write "$HCI0_ADDR" "$CHAR_LONG_WRITE" "$VALUE" --mtu 23 > /tmp/write.txt 2>&1; rc=$?
cat /tmp/write.txt
check "write exits 0" [ $rc -eq 0 ]
check "write says 200 octets" grep -q "wrote 200 octets" /tmp/write.txt
wait_no_link 1
timeout "$(scaled 60)" blectl --hci 1 read "$HCI0_ADDR" "$CHAR_LONG_WRITE" --mtu 23 > /tmp/back.txt 2>&1
head -c 200 /tmp/back.txt; echo " ..."
check "the 200 octets read back equal the ones written" eval 'lower "$(cat /tmp/back.txt)" | grep -q "$VALUE"'
stop_serve
finish
