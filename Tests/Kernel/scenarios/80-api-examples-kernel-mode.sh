# The BLE API in kernel mode: the tutorials' PickRole example (Examples/CoreBluetoothTutorials),
# built static, as a PeripheralManager on hci0 and a CentralManager on hci1, on real AF_BLUETOOTH
# sockets (the kernel's L2CAP ATT channel, the raw HCI channel for scanning and advertising).
# Then BlueZ's gatttool on hci2 reads and writes the example peripheral's greeting.
. "$LANE_LIB"
command -v PickRole >/dev/null || skip "needs the static PickRole example (make static-examples)"
swift_backtraces
# A manager never powers an adapter on (an adapter that is down is poweredOff), and scenario 70's
# user channel leaves hci0 and hci1 down: power them on as a user would.
for n in 0 1 2; do
  check "hci$n is powered on" eval "blectl --hci $n power on > /dev/null"
done
GREETING=9e1c0001-2b3a-4d5e-8f60-718293a4b5c6
# "hello from the peripheral" in hex, as gatttool prints it, up to the 19 octets a Read By Type
# Response holds at the default ATT_MTU of 23 (23 - 2 for the opcode and length - 2 for the
# handle; Core v5.4, Vol 3, Part F, 3.4.4.2): gatttool does not exchange the MTU
HELLO_HEX="68 65 6c 6c 6f 20 66 72 6f 6d 20 74 68 65 20 70 65 72 69"

step "PickRole --role peripheral --transport kernel:hci0"
spawn PickRole --role peripheral --transport kernel:hci0 > /tmp/pick-peripheral.txt 2>&1
PERIPHERAL=$LAST_PID
check "the peripheral manager powers on and advertises" wait_for_line /tmp/pick-peripheral.txt 'advertising "Greeter"' 20
cat /tmp/pick-peripheral.txt

step "PickRole --role central --transport kernel:hci1"
timeout "$(scaled 60)" PickRole --role central --transport kernel:hci1 > /tmp/pick-central.txt 2>&1; rc=$?
cat /tmp/pick-central.txt
check "the central exits 0" [ $rc -eq 0 ]
check "the central is powered on" grep -qx 'central: poweredOn' /tmp/pick-central.txt
check "the central's scan finds the greeter by its service" grep -qx 'central: found "Greeter"' /tmp/pick-central.txt
check "the central reads the peripheral's greeting" grep -qx 'central: read "hello from the peripheral"' /tmp/pick-central.txt
check "the central writes its own and disconnects" eval 'grep -qx "central: wrote \"hello from the central\"" /tmp/pick-central.txt && grep -qx "central: disconnected" /tmp/pick-central.txt'
check "the peripheral got the central's greeting" wait_for_line /tmp/pick-peripheral.txt 'a central wrote "hello from the central"' 10
wait_no_link 1

step "gatttool on hci2 reads the greeting by UUID"
timeout "$(scaled 30)" gatttool -i hci2 -b "$HCI0_ADDR" -t public --char-read --uuid="$GREETING" > /tmp/pick-read.txt 2>&1; rc=$?
cat /tmp/pick-read.txt
check "--char-read exits 0 with the greeting's first 19 octets" eval '[ $rc -eq 0 ] && grep -qi "value: $HELLO_HEX" /tmp/pick-read.txt'
HANDLE=$(sed -n 's/^handle: \(0x[0-9a-f]*\).*/\1/p' /tmp/pick-read.txt | head -1)
wait_no_link 2

step "gatttool on hci2 writes \"hi\" to handle ${HANDLE:-?}"
timeout "$(scaled 30)" gatttool -i hci2 -b "$HCI0_ADDR" -t public --char-write-req -a "${HANDLE:-0x0000}" -n 6869 > /tmp/pick-write.txt 2>&1
cat /tmp/pick-write.txt
check "the write succeeds" grep -q 'written successfully' /tmp/pick-write.txt
check "the peripheral got \"hi\"" wait_for_line /tmp/pick-peripheral.txt 'a central wrote "hi"' 10
wait_no_link 2

kill -0 "$PERIPHERAL" 2>/dev/null || echo "NOTE: the peripheral had exited before it was stopped"
check "the peripheral is still serving" kill -0 "$PERIPHERAL"
stop "$PERIPHERAL"
echo "the peripheral said:"; cat /tmp/pick-peripheral.txt
finish
