# Issue 4, check 1: `blectl --hci 1 scan --json` sees `blectl --hci 0 serve` advertising its
# name, a 16-bit and a 128-bit service UUID, and manufacturer data.
# Assumes: serve advertises its --name and the database's primary service UUIDs, and takes the
# manufacturer data from an option whose name starts with --manufacturer (HEX: the AD
# structure's data, Company Identifier first, least significant octet first); scan --json
# prints one JSON object per discovery, one per line. Adjust here when the commands land.
. "$LANE_LIB"
needs_blectl scan --json
needs_blectl serve --hci --manufacturer
MFLAG=$(blectl_help serve | grep -o -e '--manufacturer[a-z-]*' | head -1)

step "blectl --hci 0 serve (name $SERVE_NAME, $SERVICE_16, $SERVICE_128, manufacturer data ffff0102)"
check "blectl serve starts on hci0" start_serve 0 "$MFLAG" ffff0102

step "blectl --hci 1 scan --json for 6 s"
timeout -s INT 6 blectl --hci 1 scan --json > /tmp/scan.json 2>&1
cat /tmp/scan.json
grep -i "\"$SERVE_NAME\"" /tmp/scan.json > /tmp/ours.json
check "a discovery carries the name $SERVE_NAME" [ -s /tmp/ours.json ]
check "... and the 16-bit service UUID $SERVICE_16" grep -qi "$SERVICE_16" /tmp/ours.json
check "... and the 128-bit service UUID $SERVICE_128" grep -qi "$SERVICE_128" /tmp/ours.json
check "... and the manufacturer data (company 0xFFFF, 01 02)" eval 'tr -d " :-" < /tmp/ours.json | grep -qi -e "ffff0102" -e "0102"'
check "... and says it is connectable" grep -qi '"connectable" *: *true' /tmp/ours.json
stop_serve
finish
