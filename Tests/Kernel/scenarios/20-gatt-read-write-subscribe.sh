# Issue 4, check 2: blectl --hci 1 gatt, read, write and subscribe against blectl --hci 0 serve
# on the lane's database: a long value (512 octets, more than 3 x ATT_MTU), a characteristic
# that takes long writes, a notify and an indicate characteristic. Every value round-trips, and
# the notifications and indications arrive.
# Assumes: read prints the value in hex; subscribe --json prints one JSON object per
# notification or indication with the value in hex; serve notifies or indicates a value to its
# subscribers when a client writes it (the write comes from hci2, a second central). Adjust
# here when the commands land.
. "$LANE_LIB"
needs_blectl serve --hci
for c in gatt read write subscribe; do needs_blectl "$c"; done

check "blectl serve starts on hci0" start_serve 0

step "gatt: the tree"
timeout 60 blectl --hci 1 gatt "$HCI0_ADDR" > /tmp/gatt.txt 2>&1; rc=$?
cat /tmp/gatt.txt
check "gatt exits 0" [ $rc -eq 0 ]
check "the tree has Battery ($SERVICE_16) with Battery Level 2A19" eval 'grep -qi "180f" /tmp/gatt.txt && grep -qi "2a19" /tmp/gatt.txt'
for u in $SERVICE_128 $CHAR_LONG $CHAR_LONG_WRITE $CHAR_NOTIFY $CHAR_INDICATE; do
  check "the tree has $u" grep -qi "$u" /tmp/gatt.txt
done
check "the tree names properties (notify, indicate)" eval 'grep -qi notify /tmp/gatt.txt && grep -qi indicate /tmp/gatt.txt'
# no link, no point in the timeouts of the steps below
[ $rc -eq 0 ] || finish

wait_no_link 1
step "read the long value ($CHAR_LONG, 512 octets)"
timeout 60 blectl --hci 1 read "$HCI0_ADDR" "$CHAR_LONG" > /tmp/long.txt 2>&1; rc=$?
head -c 300 /tmp/long.txt; echo
check "read exits 0" [ $rc -eq 0 ]
check "all 512 octets arrive, in order" eval 'lower "$(cat /tmp/long.txt)" | grep -q "$(long_value_hex)"'

wait_no_link 1
step "long write ($CHAR_LONG_WRITE, 200 octets), then read it back"
VALUE=$(i=0; while [ $i -lt 200 ]; do printf '%02x' $(((i * 7 + 3) % 256)); i=$((i+1)); done)
timeout 60 blectl --hci 1 write "$HCI0_ADDR" "$CHAR_LONG_WRITE" "$VALUE" > /tmp/write.txt 2>&1; rc=$?
cat /tmp/write.txt
check "write exits 0" [ $rc -eq 0 ]
wait_no_link 1
timeout 60 blectl --hci 1 read "$HCI0_ADDR" "$CHAR_LONG_WRITE" > /tmp/back.txt 2>&1
check "the 200 octets read back equal the ones written" eval 'lower "$(cat /tmp/back.txt)" | grep -q "$VALUE"'

for kind in notify indicate; do
  wait_no_link 1 2
  if [ $kind = notify ]; then U=$CHAR_NOTIFY; F=; else U=$CHAR_INDICATE; F=--indicate; fi
  step "subscribe $F on hci1 to $U; hci2 writes 2 values"
  spawn blectl --hci 1 subscribe "$HCI0_ADDR" "$U" $F --json > /tmp/sub-$kind.json 2>&1
  SUB=$LAST_PID
  sleep 3
  timeout 60 blectl --hci 2 write "$HCI0_ADDR" "$U" c0ffee01 > /tmp/w1.txt 2>&1
  timeout 60 blectl --hci 2 write "$HCI0_ADDR" "$U" c0ffee02 > /tmp/w2.txt 2>&1
  sleep 2
  stop "$SUB"
  cat /tmp/sub-$kind.json
  check "$kind: the first value arrives" eval 'tr -d " :-" < /tmp/sub-$kind.json | grep -qi c0ffee01'
  check "$kind: the second value arrives" eval 'tr -d " :-" < /tmp/sub-$kind.json | grep -qi c0ffee02'
done
stop_serve
finish
