# Lane check b: BlueZ peers talk ATT over the kernel's LE L2CAP sockets, between the two
# controllers: gatttool on hci1 against att-server-selftest on hci0. The server is the lane's
# SELF-TEST peer (Tests/Kernel/selftest/att-server-selftest.c), not LinuxBLE's GATT server:
# this scenario proves the lane, so that a failing blectl scenario can be told from a broken lane.
. "$LANE_LIB"

step "hci0 advertises connectable (ADV_IND, public address; pitfall 7)"
btmgmt --index 0 connectable on </dev/console >/dev/null
btmgmt --index 0 advertising on </dev/console >/dev/null
s=$(mgmt_settings 0); echo "hci0 current settings: $s"
check "hci0 connectable and advertising" has_words "$s" connectable advertising

step "att-server-selftest on hci0 (listening before the first link: pitfall 8)"
spawn att-server-selftest "$HCI0_ADDR" 2 > /tmp/server.txt 2>&1
# Listening before gatttool connects, whatever the guest's speed: a link that comes up before the
# listen has no ATT server behind it, and gatttool --primary then waits until its timeout (seen
# once on a loaded host after a fixed 0.3 s).
check "the server listens" wait_for_line /tmp/server.txt 'listening on'

step "gatttool -i hci1 --primary"
timeout "$(scaled 30)" gatttool -i hci1 -b "$HCI0_ADDR" -t public --primary > /tmp/primary.txt 2>&1; rc=$?
cat /tmp/primary.txt
check "gatttool --primary exits 0" [ $rc -eq 0 ]
check "gatttool found the Battery service 0x0001..0x0003" \
  grep -q 'attr handle = 0x0001, end grp handle = 0x0003 uuid: 0000180f-0000-1000-8000-00805f9b34fb' /tmp/primary.txt

wait_no_link 1
step "gatttool -i hci1 --char-read -a 0x0003"
timeout "$(scaled 30)" gatttool -i hci1 -b "$HCI0_ADDR" -t public --char-read -a 0x0003 > /tmp/read.txt 2>&1; rc=$?
cat /tmp/read.txt
check "gatttool --char-read exits 0" [ $rc -eq 0 ]
check "the value read is 64" grep -q 'Characteristic value/descriptor: 64' /tmp/read.txt

lane_sleep 0.5
grep -v -e ' << ' -e ' >> ' /tmp/server.txt
check "the server saw a Read By Group Type Request for 0x2800" grep -q '<< 7: 10 01 00 ff ff 00 28' /tmp/server.txt
check "the server saw a Read Request for 0x0003" grep -q '<< 3: 0a 03 00' /tmp/server.txt
advertising_off 0
btmgmt --index 0 connectable off </dev/console >/dev/null
finish
