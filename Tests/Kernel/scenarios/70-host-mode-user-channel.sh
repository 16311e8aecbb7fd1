# Host mode on a BlueZ controller emulator (btvirt), which no one here wrote.
# blectl owns hci0 through its HCI user channel (HCI_CHANNEL_USER: the kernel takes the adapter
# down and hands the socket every packet) and runs its own bring-up, connections, ACL flow
# control and L2CAP; the kernel's own stack on hci1 (kernel-mode blectl) and BlueZ's gatttool on
# hci2 read from it. Then the other way: blectl in host mode on hci1's user channel reads from a
# kernel-mode `blectl serve` on hci2.
. "$LANE_LIB"
needs_blectl serve --hci
blectl --help 2>/dev/null | grep -q -- '--transport' || skip "needs blectl --transport (host mode)"

step "blectl --transport user:hci0 serve (host mode on the user channel)"
spawn blectl --transport user:hci0 serve --db "$LANE_DB" --name HostMode > /tmp/serve-user0.txt 2>&1
USER_SERVE=$LAST_PID
check "serve says it is serving on user:hci0" wait_for_line /tmp/serve-user0.txt '^serving .* on user:hci0' 20
cat /tmp/serve-user0.txt
hciconfig hci0   # the kernel marks a user-channel device UP RUNNING, yet runs none of its stack on it

step "kernel mode on hci1 reads Battery Level from the host-mode server"
timeout "$(scaled 60)" blectl --hci 1 read "$HCI0_ADDR" 2A19 > /tmp/user-read.txt 2>&1; rc=$?
cat /tmp/user-read.txt
check "read exits 0" [ $rc -eq 0 ]
check "Battery Level is 64" eval 'lower "$(cat /tmp/user-read.txt)" | grep -q "64"'
wait_no_link 1

step "kernel mode on hci1 reads the 512-octet value (Read Blob over host-mode L2CAP)"
timeout "$(scaled 60)" blectl --hci 1 read "$HCI0_ADDR" "$CHAR_LONG" --mtu 23 > /tmp/user-long.txt 2>&1; rc=$?
check "read exits 0" [ $rc -eq 0 ]
check "all 512 octets arrive, in order" eval 'lower "$(cat /tmp/user-long.txt)" | grep -q "$(long_value_hex)"'
wait_no_link 1

step "gatttool on hci2 against the host-mode server"
timeout "$(scaled 30)" gatttool -i hci2 -b "$HCI0_ADDR" -t public --primary > /tmp/user-primary.txt 2>&1; rc=$?
cat /tmp/user-primary.txt
check "--primary exits 0 and lists $SERVICE_16" eval '[ $rc -eq 0 ] && grep -qi "uuid: 0000180f-0000-1000-8000-00805f9b34fb" /tmp/user-primary.txt'
wait_no_link 2
stop "$USER_SERVE"
echo "blectl serve (host mode) said:"; cat /tmp/serve-user0.txt
check "serve logged a central's connection and disconnection" eval 'grep -q "^connected" /tmp/serve-user0.txt && grep -q "^disconnected" /tmp/serve-user0.txt'

step "host mode on hci1's user channel reads from kernel-mode blectl serve on hci2"
check "blectl serve starts on hci2" start_serve 2
timeout "$(scaled 60)" blectl --transport user:hci1 read "$HCI2_ADDR" 2A19 > /tmp/user-central.txt 2>&1; rc=$?
cat /tmp/user-central.txt
check "host-mode read exits 0" [ $rc -eq 0 ]
check "Battery Level is 64" eval 'lower "$(cat /tmp/user-central.txt)" | grep -q "64"'
stop "$SERVE_PID"; echo "blectl serve said:"; cat /tmp/serve-hci2.txt
finish
