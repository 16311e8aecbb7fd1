#!/bin/bash
# build-guest.sh - build the kernel lane's VM guest from pinned Debian packages.
#
# usage: Tests/Kernel/build-guest.sh [KERNEL_BUILD_DIR]      (default: .build/kernel)
#
# Writes, under KERNEL_BUILD_DIR (nothing outside it, nothing into the host's /):
#   debs/              the .debs of guest-packages.txt (apt-get download, cached); a pin the
#                      archive no longer serves falls back to its current version (resolve-pins.sh)
#   extract/           those .debs unpacked with dpkg -x (redone when the pins change)
#   stage/initramfs/   the initramfs tree
#   guest/vmlinuz      the Debian kernel as shipped (bzImage)
#   guest/vmlinux      the same kernel uncompressed (ELF with a PVH entry: boots about 4 s faster
#                      under TCG, nothing to decompress)
#   guest/initrd.img   busybox initramfs: BlueZ's tools and their libraries, bash, the Bluetooth
#                      and 9p kernel modules, /init (guest/init) and pairing-agent
#   guest/PACKAGES     the name=version list the guest was built from (kernel-test.sh logs it)
#
# Host tools: apt-get, dpkg, kmod (depmod, modprobe), cpio, xz, gcc and libbluetooth-dev
# (`make kernel-test` installs them). Adapted from the team's VM rig; the pitfall numbers below
# are those of Tests/Kernel/README.md, "Pitfalls".
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
KB=${1:-$ROOT/.build/kernel}
mkdir -p "$KB"
KB=$(cd "$KB" && pwd)
DEBS=$KB/debs
EX=$KB/extract
STAGE=$KB/stage/initramfs
OUT=$KB/guest
PINS=$HERE/guest-packages.txt

# name=version of each pin, or of what the archive serves now where the pin is gone.
PIN_LIST=$("$HERE/resolve-pins.sh" "$PINS")
KPKG=$(printf '%s\n' "$PIN_LIST" | sed -n 's/^\(linux-image-[0-9][^=]*\)=.*/\1/p' | head -1)
[ -n "$KPKG" ] || { echo "build-guest: no linux-image-<version> pin in $PINS" >&2; exit 2; }
KVER=${KPKG#linux-image-}

# Programs shipped in the guest (paths inside the packages).
BINS="usr/bin/btvirt usr/bin/btmon bin/hciconfig usr/bin/hcitool usr/bin/gatttool
      usr/bin/l2test usr/bin/l2ping usr/bin/btmgmt usr/bin/isotest usr/bin/btattach
      usr/bin/l2cap-tester usr/bin/mgmt-tester usr/bin/smp-tester usr/bin/gap-tester
      usr/bin/userchan-tester usr/bin/hci-tester usr/bin/iso-tester usr/bin/sco-tester
      usr/bin/ioctl-tester usr/bin/bnep-tester usr/bin/rfcomm-tester bin/bash"

# Libraries for programs built on the host and run from the share (blectl from `make static`
# links the Swift runtime in, but loads these from the system).
HOST_PROGRAM_LIBS="libstdc++.so.6 libgcc_s.so.1 libm.so.6 libresolv.so.2 libdl.so.2 libpthread.so.0
      librt.so.1 libutil.so.1 libcrypto.so.3"

# Kernel modules; their dependencies are added from modules.dep.
#   hci_vhci: /dev/vhci for btvirt.
#   drbg + sha512_generic + ctr: the default RNG that the ECDH self-test needs (pitfall 1:
#     without it SMP is disabled, "Unable to create ECDH crypto context"); ctr lets the DRBG
#     self-tests pass. guest/init loads drbg BEFORE ecdh_generic.
#   algif_hash + algif_skcipher + ecb + cmac: AF_ALG crypto that btvirt's emulated controllers
#     use (pitfall 2: otherwise "Failed to open Virtual HCI device").
#   virtio_pci + 9pnet_virtio + 9p: the host folder shares.
MODS="hci_vhci bluetooth ecdh_generic drbg sha512_generic ctr cmac ccm ecb rfkill
      algif_hash algif_skcipher virtio_pci 9pnet_virtio 9p"

ts() { date +%s.%N; }
t0=$(ts)
mkdir -p "$DEBS" "$OUT"

# 1. download the pinned .debs (cached by file name: apt writes the epoch's ':' as %3a)
deb_file() { local n=${1%%=*} v=${1#*=}; ls "$DEBS/${n}_${v//:/%3a}_"*.deb 2>/dev/null | head -1; }
need=()
for p in $PIN_LIST; do [ -n "$(deb_file "$p")" ] || need+=("$p"); done
download() {
  echo "== apt-get download $*"
  (cd "$DEBS" && apt-get download "$@" 2>&1 | { grep -v 'unsandboxed' || true; })
}
if [ ${#need[@]} -gt 0 ]; then
  download "${need[@]}"
  left=()
  for p in "${need[@]}"; do [ -n "$(deb_file "$p")" ] || left+=("$p"); done
  if [ ${#left[@]} -gt 0 ]; then
    # The lists promised a version the archive no longer has: refresh them and resolve again.
    echo "== not downloaded: ${left[*]}; apt-get update, then resolving the pins again"
    $([ "$(id -u)" = 0 ] || echo sudo) apt-get update -qq || true
    PIN_LIST=$("$HERE/resolve-pins.sh" "$PINS")
    KPKG=$(printf '%s\n' "$PIN_LIST" | sed -n 's/^\(linux-image-[0-9][^=]*\)=.*/\1/p' | head -1)
    KVER=${KPKG#linux-image-}
    need=()
    for p in $PIN_LIST; do [ -n "$(deb_file "$p")" ] || need+=("$p"); done
    [ ${#need[@]} -eq 0 ] || download "${need[@]}"
    for p in "${need[@]}"; do
      [ -n "$(deb_file "$p")" ] || { echo "build-guest: $p was not downloaded (apt-cache madison ${p%%=*})" >&2; exit 1; }
    done
  fi
fi

# 2. unpack: a fresh tree whenever the pins change, so no file of an old version lingers
if [ "$(cat "$EX/.pins" 2>/dev/null)" != "$PIN_LIST" ]; then
  rm -rf "$EX"
  mkdir -p "$EX"
  for p in $PIN_LIST; do
    d=$(deb_file "$p")
    echo "== dpkg -x $(basename "$d")"
    dpkg -x "$d" "$EX"
  done
  depmod -b "$EX" "$KVER"
  printf '%s\n' "$PIN_LIST" > "$EX/.pins"
fi
t1=$(ts)

# 3. stage the initramfs tree
rm -rf "$STAGE"
mkdir -p "$STAGE"/{bin,sbin,usr/bin,usr/sbin,usr/local/bin,lib/x86_64-linux-gnu,lib64} \
         "$STAGE"/{proc,sys,dev,tmp,run,mnt,host,repo,lane,root,etc,var/lib/bluetooth}
ln -s ../lib "$STAGE/usr/lib"

cp "$EX/bin/busybox" "$STAGE/bin/busybox"
for a in $("$STAGE/bin/busybox" --list); do
  [ "$a" = busybox ] && continue
  [ -e "$STAGE/bin/$a" ] || ln -s busybox "$STAGE/bin/$a"
done
ln -sf ../../bin/busybox "$STAGE/usr/bin/env"
for a in modprobe insmod rmmod lsmod depmod poweroff reboot halt init switch_root mdev; do
  ln -sf ../bin/busybox "$STAGE/sbin/$a"
done

# programs and the shared libraries they need, resolved with the *packaged* loader so that no
# host library leaks in
LD=$EX/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2
LIBPATH=$EX/lib/x86_64-linux-gnu:$EX/usr/lib/x86_64-linux-gnu
declare -A LIBS=()
for b in $BINS; do
  src=$EX/$b
  [ -f "$src" ] || { echo "build-guest: $b is not in the packages" >&2; exit 1; }
  mkdir -p "$(dirname "$STAGE/$b")"
  cp "$src" "$STAGE/$b"
  while read -r name arrow path rest; do
    case "$name" in /*) continue ;; esac
    case "$path" in
      "$EX"/*) LIBS[$name]=$path ;;
      not) echo "build-guest: $b: $name not found" >&2; exit 1 ;;
      *) echo "build-guest: $b: $name resolved outside the package tree: $path" >&2; exit 1 ;;
    esac
  done < <("$LD" --library-path "$LIBPATH" --list "$src" | grep '=>')
done
for n in "${!LIBS[@]}"; do
  cp -L "${LIBS[$n]}" "$STAGE/lib/x86_64-linux-gnu/$n"
done
cp -L "$LD" "$STAGE/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2"
ln -sf /lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 "$STAGE/lib64/ld-linux-x86-64.so.2"
for n in $HOST_PROGRAM_LIBS; do
  [ -e "$STAGE/lib/x86_64-linux-gnu/$n" ] && continue
  f=$(ls "$EX"/lib/x86_64-linux-gnu/$n "$EX"/usr/lib/x86_64-linux-gnu/$n 2>/dev/null | head -1 || true)
  [ -n "$f" ] || { echo "build-guest: $n is not in the packages" >&2; exit 1; }
  cp -L "$f" "$STAGE/lib/x86_64-linux-gnu/$n"
done

# kernel modules with their dependencies, and a fresh modules.dep/alias for busybox modprobe
# (so that the crypto-* aliases resolve)
MDIR=lib/modules/$KVER
mkdir -p "$STAGE/$MDIR"
cp "$EX/$MDIR"/modules.builtin* "$EX/$MDIR"/modules.order "$STAGE/$MDIR/"
for m in $MODS; do
  modprobe -d "$EX" -S "$KVER" --show-depends "$m" | awk '$1=="insmod"{print $2}'
done | sort -u | while read -r ko; do
  rel=${ko#"$EX"/}
  mkdir -p "$STAGE/$(dirname "$rel")"
  cp "$ko" "$STAGE/$rel"
done
depmod -b "$STAGE" "$KVER"

# pairing-agent: answers the kernel's pairing questions over mgmt (pitfall 9), static
gcc -O2 -Wall -static -o "$STAGE/usr/local/bin/pairing-agent" "$HERE/guest/pairing-agent.c"

echo 'root:x:0:0:root:/root:/bin/sh' > "$STAGE/etc/passwd"
echo 'root:x:0:' > "$STAGE/etc/group"
echo blelane > "$STAGE/etc/hostname"
cp "$HERE/guest/init" "$STAGE/init"
chmod 755 "$STAGE/init"
t2=$(ts)

# 4. kernel: the bzImage, and the uncompressed vmlinux cut out of it (its XZ payload starts at
#    the magic fd 37 7a 58 5a 00). Process substitution, not a pipe: tail gets SIGPIPE when xz
#    stops after the first stream, and pipefail would fail the build (pitfall 15).
cp "$EX/boot/vmlinuz-$KVER" "$OUT/vmlinuz"
if [ ! -f "$OUT/vmlinux" ] || [ "$OUT/vmlinuz" -nt "$OUT/vmlinux" ] || [ "$(cat "$OUT/KERNEL" 2>/dev/null)" != "$KPKG" ]; then
  off=$(LC_ALL=C grep -obUaP '\xfd7zXZ\x00' "$OUT/vmlinuz" | head -1 | cut -d: -f1 || true)
  rm -f "$OUT/vmlinux"
  if [ -n "$off" ] && xz -dc --single-stream < <(tail -c +$((off + 1)) "$OUT/vmlinuz") > "$OUT/vmlinux.tmp" 2>/dev/null \
     && [ "$(readelf -n "$OUT/vmlinux.tmp" 2>/dev/null | grep -c 'Xen')" -gt 0 ]; then
    mv "$OUT/vmlinux.tmp" "$OUT/vmlinux"
  else
    rm -f "$OUT/vmlinux.tmp"
    echo "build-guest: warning: no PVH vmlinux could be extracted; run-in-vm.sh boots vmlinuz" >&2
  fi
fi
echo "$KPKG" > "$OUT/KERNEL"
printf '%s\n' "$PIN_LIST" > "$OUT/PACKAGES"

# 5. pack (uncompressed: the fastest to load, and compression saved nothing measurable)
(cd "$STAGE" && find . -print0 | LC_ALL=C sort -z | cpio --null -o -H newc --quiet --owner=0:0) > "$OUT/initrd.img.tmp"
mv "$OUT/initrd.img.tmp" "$OUT/initrd.img"

t3=$(ts)
echo "== guest packages: $(printf '%s\n' "$PIN_LIST" | tr '\n' ' ')"
printf '== guest: kernel %s; initrd %s (%d files)\n' "$KVER" \
  "$(du -h "$OUT/initrd.img" | cut -f1)" "$(find "$STAGE" | wc -l)"
awk -v a="$t0" -v b="$t1" -v c="$t2" -v d="$t3" 'BEGIN{printf "== guest build: download+unpack %.1fs, stage %.1fs, kernel+pack %.1fs, total %.1fs\n", b-a, c-b, d-c, d-a}'
