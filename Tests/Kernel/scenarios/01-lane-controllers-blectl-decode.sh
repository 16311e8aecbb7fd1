# Lane check a: the guest's controllers, the static blectl, and blectl decode on a capture of
# this very run.
#  - hci0 and hci1 are up, powered, with LE on, as mgmt reports them (btmgmt info);
#  - the static blectl runs in the guest (`blectl version`);
#  - hci1 scans (hcitool lescan) while hci0 advertises (hciconfig leadv), in the order pitfall 6
#    needs, with btmon writing a capture (-w); `blectl decode` of that capture shows hci0's
#    LE Advertising Reports. The capture and its decode stay in .build/kernel/run.
. "$LANE_LIB"

step "controllers: hci0=$HCI0_ADDR hci1=$HCI1_ADDR"
for n in 0 1; do
  s=$(mgmt_settings $n)
  echo "hci$n current settings: $s"
  check "hci$n powered with LE (mgmt)" has_words "$s" powered le
done
check "hci0 and hci1 UP RUNNING" [ "$(hciconfig hci0 | grep -c 'UP RUNNING')$(hciconfig hci1 | grep -c 'UP RUNNING')" = 11 ]

step "the static blectl in the guest"
v=$(blectl version 2>&1); rc=$?
echo "$v"
check "blectl version exits 0" [ $rc -eq 0 ]
check "blectl version names itself" eval 'echo "$v" | grep -q "^blectl [0-9]"'

step "btmon -w while hci1 scans and hci0 advertises"
CAP=$ARTIFACTS/$SCENARIO.btsnoop
rm -f "$CAP"
spawn btmon -w "$CAP" > /tmp/btmon.log 2>&1
MON=$LAST_PID
wait_until 2 test -s "$CAP"
lescan_while_advertising 1 0 /tmp/lescan.txt
stop "$MON"
sort -u /tmp/lescan.txt
check "hcitool lescan on hci1 saw hci0 ($HCI0_ADDR)" grep -q "$HCI0_ADDR" /tmp/lescan.txt
ls -l "$CAP"

step "blectl decode of the capture"
blectl decode "$CAP" > "$ARTIFACTS/$SCENARIO.txt" 2>&1; rc=$?
grep -E 'Advertising Report|devices seen|^    [0-9A-F:]{17} ' "$ARTIFACTS/$SCENARIO.txt" | head -8
tail -n 25 "$ARTIFACTS/$SCENARIO.txt" | sed -n '/^Summary/,$p' | head -12
check "blectl decode exits 0" [ $rc -eq 0 ]
check "decode shows LE Advertising Reports from hci0 ($HCI0_ADDR)" \
  eval "grep 'LE Advertising Report' '$ARTIFACTS/$SCENARIO.txt' | grep -q '$HCI0_ADDR'"
finish
