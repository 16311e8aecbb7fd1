#!/bin/bash
# resolve-pins.sh - the Debian packages the kernel lane's guest is built from.
#
# usage: Tests/Kernel/resolve-pins.sh [PINS_FILE]     (default: Tests/Kernel/guest-packages.txt)
#
# Prints one `name=version` a line on standard output, in the order of PINS_FILE. A pin the
# archive still serves is kept as it is. A pin it no longer serves (Debian's security archive
# drops a kernel once a newer one replaces it) falls back to what the archive serves now:
#   - the kernel, `linux-image-<abi>-amd64=V`, to the image that the linux-image-amd64
#     metapackage depends on (its package name carries the ABI, so the name changes too);
#   - any other package to its candidate version (`apt-cache policy NAME`).
# Each fallback is said on standard error, one line a pin:
#   resolve-pins: fallback: linux-image-6.1.0-57-amd64=6.1.192-3 is not in the archive; using linux-image-6.1.0-58-amd64=6.1.195-1
# The pins file stays the record of the last versions proven; move a pin there once the lane
# has passed on the fallback.
#
# Before falling back it refreshes the package lists once (apt-get update, through sudo when not
# root), so that stale lists never count as a dropped pin. Set RESOLVE_PINS_NO_UPDATE=1 to skip
# that (the lists are then taken as they are).
# Exit status: 0 resolved; 1 a package the archive does not serve at all, or a kernel pin with
# no metapackage to fall back to (the message names it); 2 a usage error.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
PINS=${1:-$HERE/guest-packages.txt}
[ -r "$PINS" ] || { echo "resolve-pins: cannot read $PINS" >&2; exit 2; }
SUDO=$([ "$(id -u)" = 0 ] || echo sudo)
KERNEL_META=linux-image-amd64

# name=version pins, comments and blank lines dropped.
PIN_LIST=$(sed -e 's/#.*//' -e 's/[[:space:]]//g' -e '/^$/d' "$PINS")
[ -n "$PIN_LIST" ] || { echo "resolve-pins: no pins in $PINS" >&2; exit 2; }
for p in $PIN_LIST; do
  case "$p" in
    *=?*) ;;
    *) echo "resolve-pins: $PINS: '$p' is not name=version" >&2; exit 2 ;;
  esac
done

# apt-cache show NAME=VERSION exits 0 with no output for a version the lists lack; madison lists
# exactly the versions they have.
served() {
  local n=${1%%=*} v=${1#*=}
  apt-cache madison "$n" 2>/dev/null | awk -F'|' -v v="$v" '{gsub(/ /, "", $2)} $2 == v {found=1} END {exit !found}'
}
candidate() { apt-cache policy "$1" 2>/dev/null | sed -n 's/^ *Candidate: *//p' | grep -v '^(none)$' || true; }

# The kernel image behind the metapackage's candidate: its Depends names linux-image-<abi>-amd64 (= V).
current_kernel() {
  local meta
  meta=$(candidate "$KERNEL_META")
  [ -n "$meta" ] || return 0
  apt-cache show "$KERNEL_META=$meta" 2>/dev/null |
    sed -n 's/^Depends:.*\(linux-image-[0-9][^ ,]*\) (= \([^)]*\)).*/\1=\2/p' | head -1
}

missing=()
for p in $PIN_LIST; do served "$p" || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ] && [ -z "${RESOLVE_PINS_NO_UPDATE:-}" ]; then
  echo "resolve-pins: not in the package lists: ${missing[*]}; refreshing them (apt-get update)" >&2
  $SUDO apt-get update -qq >&2 || echo "resolve-pins: apt-get update failed; using the lists as they are" >&2
fi

for p in $PIN_LIST; do
  if served "$p"; then
    echo "$p"
    continue
  fi
  name=${p%%=*}
  case "$name" in
    linux-image-[0-9]*)
      now=$(current_kernel)
      [ -n "$now" ] || { echo "resolve-pins: $p is not in the archive, and $KERNEL_META names no kernel to use instead" >&2; exit 1; }
      ;;
    *)
      v=$(candidate "$name")
      [ -n "$v" ] || { echo "resolve-pins: $p is not in the archive, and no version of $name is (apt-cache policy $name)" >&2; exit 1; }
      now=$name=$v
      ;;
  esac
  echo "resolve-pins: fallback: $p is not in the archive; using $now" >&2
  echo "$now"
done
