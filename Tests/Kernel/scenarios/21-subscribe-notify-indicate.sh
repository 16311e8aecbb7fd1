# Lane check 2 (notifications): `blectl --hci 1 subscribe` (notify, then --indicate)
# against `blectl --hci 0 serve`; the values arrive.
# serve sends a new subscriber the characteristic's current value, so one central at a time
# suffices: hci1 writes a value, disconnects, subscribes, and receives that value as a
# notification (or indication). Two centrals at once are 50 and 51.
. "$LANE_LIB"
needs_blectl serve --hci
for c in subscribe write; do needs_blectl "$c"; done
needs_serve_notifications
check "blectl serve starts on hci0" start_serve 0

for kind in notify indicate; do
  if [ $kind = notify ]; then U=$CHAR_NOTIFY; F=; V=c0ffee01; else U=$CHAR_INDICATE; F=--indicate; V=c0ffee02; fi
  wait_no_link 1
  step "hci1 writes $V to $U, then subscribes $F"
  check "$kind: the write succeeds" timeout "$(scaled 60)" blectl --hci 1 write "$HCI0_ADDR" "$U" $V
  wait_no_link 1
  spawn blectl --hci 1 subscribe "$HCI0_ADDR" "$U" $F --json > /tmp/sub-$kind.json 2>&1
  SUB=$LAST_PID
  check "$kind: subscribed" wait_for_line /tmp/sub-$kind.json '"subscribed"'
  check "$kind: the value arrives" wait_for_line /tmp/sub-$kind.json "\"value\":\"$V\""
  stop "$SUB"
  cat /tmp/sub-$kind.json
  if [ $kind = indicate ]; then
    check "indicate: it came as an indication" grep -q '"kind":"indication"' /tmp/sub-$kind.json
  fi
done
stop_serve
finish
