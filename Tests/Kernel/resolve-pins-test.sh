#!/bin/bash
# resolve-pins-test.sh - proves resolve-pins.sh against the real archive: a pin it serves is kept,
# a kernel pin that does not exist falls back to the image behind linux-image-amd64, a library
# pin that does not exist falls back to the candidate, and a package that does not exist at all
# fails naming it. Run by `make kernel-test` before the guest is built; exit status 0 or 1.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
failed=0
check() { if [ "$2" = "$3" ]; then echo "ok   $1"; else echo "FAIL $1: got '$2', want '$3'"; failed=1; fi; }

candidate() { apt-cache policy "$1" | sed -n 's/^ *Candidate: *//p'; }
# Lists first, so that what the test expects and what the script sees come from the same lists.
[ -n "$(candidate bash)" ] || $([ "$(id -u)" = 0 ] || echo sudo) apt-get update -qq
bash_now=bash=$(candidate bash)
meta=$(candidate linux-image-amd64)
kernel_now=$(apt-cache show "linux-image-amd64=$meta" | sed -n 's/^Depends:.*\(linux-image-[0-9][^ ,]*\) (= \([^)]*\)).*/\1=\2/p' | head -1)
[ -n "$kernel_now" ] || { echo "FAIL the archive names no kernel behind linux-image-amd64"; exit 1; }

cat > "$T/pins.txt" <<PINS
# a kernel whose ABI and version were never published
linux-image-6.1.0-1-amd64=6.1.0-0linuxble0
$bash_now
libcap2=1:0.0-0linuxble0   # a library version that was never published
PINS
out=$(RESOLVE_PINS_NO_UPDATE=1 "$HERE/resolve-pins.sh" "$T/pins.txt" 2>"$T/err"); rc=$?
check "exit status with two dropped pins" "$rc" 0
check "the missing kernel pin becomes linux-image-amd64's image" "$(sed -n 1p <<<"$out")" "$kernel_now"
check "a served pin is kept" "$(sed -n 2p <<<"$out")" "$bash_now"
check "the missing library pin becomes the candidate" "$(sed -n 3p <<<"$out")" "libcap2=$(candidate libcap2)"
check "each fallback is said" "$(grep -c '^resolve-pins: fallback: ' "$T/err")" 2
check "the kernel fallback names both versions" \
  "$(grep -c "fallback: linux-image-6.1.0-1-amd64=6.1.0-0linuxble0 is not in the archive; using $kernel_now" "$T/err")" 1

printf 'linuxble-no-such-package=1.0\n' > "$T/absent.txt"
RESOLVE_PINS_NO_UPDATE=1 "$HERE/resolve-pins.sh" "$T/absent.txt" >/dev/null 2>"$T/err"; rc=$?
check "a package the archive lacks fails" "$rc" 1
check "and the message names it" "$(grep -c 'linuxble-no-such-package=1.0 is not in the archive, and no version of linuxble-no-such-package is' "$T/err")" 1

printf 'bash\n' > "$T/bad.txt"
RESOLVE_PINS_NO_UPDATE=1 "$HERE/resolve-pins.sh" "$T/bad.txt" >/dev/null 2>"$T/err"; rc=$?
check "a line that is not name=version is a usage error" "$rc" 2

out=$(RESOLVE_PINS_NO_UPDATE=1 "$HERE/resolve-pins.sh" "$HERE/guest-packages.txt" 2>"$T/err"); rc=$?
check "the lane's own pins resolve" "$rc" 0
check "one package a pin" "$(wc -l <<<"$out")" "$(sed -e 's/#.*//' -e 's/[[:space:]]//g' -e '/^$/d' "$HERE/guest-packages.txt" | wc -l)"
[ -s "$T/err" ] && sed 's/^/     (today) /' "$T/err"
[ "$failed" = 0 ] && echo "resolve-pins-test: passed" || echo "resolve-pins-test: FAILED"
exit "$failed"
