# Lane check 1: `blectl --hci 1 scan --json` sees `blectl --hci 0 serve` advertising its
# name, a 16-bit and a 128-bit service UUID, and manufacturer data.
# serve puts Flags and the primary services' UUIDs in the advertising data, the manufacturer
# data and the name in the scan response; the checks look at every discovery of hci0's address
# or of the name, so they hold whether scan merges the two or not.
. "$LANE_LIB"
needs_blectl scan --json
needs_blectl serve --hci --manufacturer

step "blectl --hci 0 serve (name $SERVE_NAME, $SERVICE_16, $SERVICE_128, manufacturer 0xFFFF:0102)"
check "blectl serve starts on hci0" start_serve 0 --manufacturer 0xFFFF:0102
step "blectl --hci 1 scan --json --duration $(scaled 6) (started after serve: pitfall 6)"
timeout -s INT "$(scaled 20)" blectl --hci 1 scan --json --duration "$(scaled 6)" > /tmp/scan.json 2>&1; rc=$?
cat /tmp/scan.json
check "scan exits 0" [ $rc -eq 0 ]
grep -i -e "$HCI0_ADDR" -e "\"$SERVE_NAME\"" /tmp/scan.json > /tmp/ours.json
check "scan saw hci0 ($HCI0_ADDR)" grep -qi "\"$HCI0_ADDR\"" /tmp/ours.json
check "... with the name $SERVE_NAME" grep -q "\"name\" *: *\"$SERVE_NAME\"" /tmp/ours.json
check "... the 16-bit service UUID $SERVICE_16" grep -qi "\"$SERVICE_16\"" /tmp/ours.json
check "... the 128-bit service UUID $SERVICE_128" grep -qi "\"$SERVICE_128\"" /tmp/ours.json
check "... the manufacturer data (company 0xFFFF = 65535, data 0102)" \
  grep -q '"company_id" *: *65535, *"data" *: *"0102"' /tmp/ours.json
check "... and connectable" grep -q '"connectable" *: *true' /tmp/ours.json
stop_serve
finish
