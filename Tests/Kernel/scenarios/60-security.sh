# Lane check 6: security through the kernel.
#  - without --security, reading a characteristic that needs encryption fails with Insufficient
#    Authentication or Encryption, and the error says so (and what to do: --security);
#  - `--security medium` pairs through the kernel and the read succeeds. Linux asks user space to
#    confirm even Just Works pairing, on both sides (pitfall 9); the lane runs no other agent, so
#    blectl answers: `read --security` for its peer on hci1, `serve` for any central on hci0.
. "$LANE_LIB"
needs_blectl serve --hci
needs_blectl read --security
check "blectl serve starts on hci0" start_serve 0

step "read $CHAR_ENCRYPTED without --security"
timeout "$(scaled 60)" blectl --hci 1 read "$HCI0_ADDR" "$CHAR_ENCRYPTED" > /tmp/plain.txt 2>&1; rc=$?
cat /tmp/plain.txt
check "the read fails" [ $rc -ne 0 ]
check "the error names Insufficient Authentication or Encryption" grep -qi -e 'insufficient authentication' -e 'insufficient encryption' /tmp/plain.txt
check "the error says to retry with --security" grep -q -e '--security' /tmp/plain.txt

wait_no_link 1
step "read $CHAR_ENCRYPTED with --security medium"
timeout "$(scaled 90)" blectl --hci 1 read "$HCI0_ADDR" "$CHAR_ENCRYPTED" --security medium > /tmp/medium.txt 2>&1; rc=$?
cat /tmp/medium.txt
check "the read succeeds" [ $rc -eq 0 ]
check "the value is \"encrypted-ok\"" eval 'lower "$(cat /tmp/medium.txt)" | grep -q 656e637279707465642d6f6b'
check "no other pairing agent runs" eval '! pidof pairing-agent > /dev/null'
stop_serve
check "serve accepted hci1's Just Works pairing" grep -q "accepted Just Works pairing with $HCI1_ADDR" /tmp/serve-hci0.txt
check "serve stopped on SIGINT (advertising off, links closed)" grep -q "^stopped" /tmp/serve-hci0.txt
finish
