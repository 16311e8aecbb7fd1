# Issue 4, check 2 (notifications): `blectl --hci 1 subscribe` (notify, then --indicate)
# against `blectl --hci 0 serve`; the values arrive.
# Assumes: serve notifies or indicates a value to its subscribers when a client writes it (the
# writes come from hci2, a second central). Skips until serve says how it notifies.
. "$LANE_LIB"
needs_blectl serve --hci
for c in subscribe write; do needs_blectl "$c"; done
needs_serve_notifications
check "blectl serve starts on hci0" start_serve 0

for kind in notify indicate; do
  wait_no_link 1 2
  if [ $kind = notify ]; then U=$CHAR_NOTIFY; F=; else U=$CHAR_INDICATE; F=--indicate; fi
  step "subscribe $F on hci1 to $U; hci2 writes two values"
  spawn blectl --hci 1 subscribe "$HCI0_ADDR" "$U" $F --json > /tmp/sub-$kind.json 2>&1
  SUB=$LAST_PID
  check "$kind: subscribed" wait_for_line /tmp/sub-$kind.json '"subscribed"'
  timeout 60 blectl --hci 2 write "$HCI0_ADDR" "$U" c0ffee01 > /dev/null 2>&1
  timeout 60 blectl --hci 2 write "$HCI0_ADDR" "$U" c0ffee02 > /dev/null 2>&1
  sleep 2
  stop "$SUB"
  cat /tmp/sub-$kind.json
  check "$kind: the first value arrives" grep -qi '"value" *: *"c0ffee01"' /tmp/sub-$kind.json
  check "$kind: the second value arrives" grep -qi '"value" *: *"c0ffee02"' /tmp/sub-$kind.json
done
stop_serve
finish
