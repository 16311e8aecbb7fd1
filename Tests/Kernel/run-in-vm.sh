#!/bin/bash
# run-in-vm.sh - boot the kernel lane's guest (build-guest.sh) in qemu, bring up linked virtual
# Bluetooth controllers (btvirt -lN on /dev/vhci: hci0, hci1, ... powered, LE on), run a guest
# shell script, print its output, power off, and exit with the script's exit status.
# Adapted from the team's VM rig; pitfall numbers: Tests/Kernel/README.md, "Pitfalls".
#
# usage: Tests/Kernel/run-in-vm.sh [options] GUEST_SCRIPT [ARGS...]
#   -s DIR      share host DIR at /host (default: the current folder); the guest script
#               starts there
#   -S          share no host folder
#   -r          share the host folder read-only
#   -x HOST[:GUEST]  extra read-only share of host folder HOST at GUEST (default: the same
#               path) (repeatable)
#   -w FILE     btmon capture (btsnoop, monitor format) of the whole run into FILE
#   -A          start pairing-agent (accepts the kernel's pairing questions; pitfall 9)
#   -n N        number of virtual controllers (default 2)
#   -L          LE-only controllers (btvirt -L); default dual-mode BR/EDR + LE
#   -p MODE     how the controllers are powered: mgmt (default: btmgmt le on + power on),
#               hciconfig (legacy ioctl; leaves LE off on dual-mode, pitfall 5), none
#   -B          no Bluetooth at all (no modules, no btvirt)
#   -e VAR=VAL  export VAR=VAL to the guest script (repeatable)
#   -t SECS     timeout of the whole VM run (default 300); exit 124 on timeout
#   -m MB       guest memory (default 1024)
#   -c N        guest vCPUs (default 2)
#   -K / -T     force KVM / force TCG (default: KVM if /dev/kvm is usable and is real KVM,
#               else TCG); the environment's LANE_CPU overrides the -cpu model
#   -a ARGS     extra kernel command line arguments
#   -i          forward the host's stdin to the guest console (default: none)
#   -v          verbose: kernel messages and /init's timestamps
# Environment: LANE_GUEST_DIR (default .build/kernel/guest), LANE_KERNEL (default its vmlinux,
# else vmlinuz), LANE_INITRD (default its initrd.img).
# In the guest: the script runs as root under busybox sh (or its #! interpreter; bash is
# there), with HCI0_ADDR, HCI1_ADDR, ..., BTVIRT_PID (and BTMON_PID with -w) exported. Its
# stdout and stderr both arrive on this script's stdout.
# Exit status: the guest script's; 124 timeout; 125 lane failure (setup failed, or the VM
# died without reporting a status); 2 usage.
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
GUEST=${LANE_GUEST_DIR:-$ROOT/.build/kernel/guest}
if [ -n "${LANE_KERNEL:-}" ]; then KERNEL=$LANE_KERNEL
elif [ -f "$GUEST/vmlinux" ]; then KERNEL=$GUEST/vmlinux   # PVH entry, nothing to decompress
else KERNEL=$GUEST/vmlinuz; fi
INITRD=${LANE_INITRD:-$GUEST/initrd.img}

SHARE=$PWD; SHARE_RO=; BTSNOOP=; NUM=2; BTVIRT_ARGS=; POWER=mgmt; BT=1; AGENT=0
TIMEOUT=300; MEM=1024; CPUS=2; ACCEL=${LANE_ACCEL:-auto}; VERBOSE=0; STDIN=0; KARGS=
ENVS=(); EXTRA=()
usage() { sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit "${1:-2}"; }
while getopts "s:Srx:w:An:Lp:Be:t:m:c:KTa:ivh" o; do
  case $o in
    s) SHARE=$(cd "$OPTARG" && pwd) || exit 2 ;;
    S) SHARE= ;;
    r) SHARE_RO=1 ;;
    x) EXTRA+=("$OPTARG") ;;
    w) BTSNOOP=$OPTARG ;;
    A) AGENT=1 ;;
    n) NUM=$OPTARG ;;
    L) BTVIRT_ARGS="$BTVIRT_ARGS -L" ;;
    p) POWER=$OPTARG ;;
    B) BT=0 ;;
    e) ENVS+=("$OPTARG") ;;
    t) TIMEOUT=$OPTARG ;;
    m) MEM=$OPTARG ;;
    c) CPUS=$OPTARG ;;
    K) ACCEL=kvm ;;
    T) ACCEL=tcg ;;
    a) KARGS="$KARGS $OPTARG" ;;
    i) STDIN=1 ;;
    v) VERBOSE=1 ;;
    h) usage 0 ;;
    *) usage ;;
  esac
done
shift $((OPTIND-1))
[ $# -ge 1 ] || usage
SCRIPT=$1; shift
[ -f "$SCRIPT" ] || { echo "run-in-vm: no such script: $SCRIPT" >&2; exit 2; }
[ -f "$KERNEL" ] && [ -f "$INITRD" ] || { echo "run-in-vm: no guest in $GUEST; build it: Tests/Kernel/build-guest.sh" >&2; exit 2; }

RUNDIR=$(mktemp -d "${TMPDIR:-/tmp}/blelane-run.XXXXXX")
trap 'rm -rf "$RUNDIR"' EXIT
chmod 755 "$RUNDIR"

q() { local s=${1//\'/\'\\\'\'}; printf "'%s'" "$s"; }   # POSIX-sh single quoting

cp "$SCRIPT" "$RUNDIR/script"; chmod 755 "$RUNDIR/script"
{
  printf 'exec'
  if [ "$(head -c2 "$SCRIPT")" = "#!" ]; then printf ' /lane/script'; else printf ' /bin/sh /lane/script'; fi
  for a in "$@"; do printf ' %s' "$(q "$a")"; done
  echo
} > "$RUNDIR/run"
{
  echo "LANE_VERBOSE=$VERBOSE"
  echo "LANE_BT=$BT"
  echo "LANE_AGENT=$AGENT"
  echo "LANE_NUM_CTRL=$(q "$NUM")"
  echo "LANE_BTVIRT_ARGS=$(q "$BTVIRT_ARGS")"
  echo "LANE_POWER=$(q "$POWER")"
  [ -n "$SHARE" ] && echo "LANE_HOST_SHARE=1"
  [ -n "$SHARE_RO" ] && echo "LANE_HOST_RO=1"
  [ -n "$BTSNOOP" ] && echo "LANE_BTSNOOP=/lane/capture.btsnoop"
  n=0
  for x in "${EXTRA[@]+"${EXTRA[@]}"}"; do
    g=${x#*:}; [ "$g" = "$x" ] && g=$x
    echo "LANE_EXTRA_$n=$(q "$g")"; n=$((n+1))
  done
  for e in "${ENVS[@]+"${ENVS[@]}"}"; do echo "export ${e%%=*}=$(q "${e#*=}")"; done
} > "$RUNDIR/config"

if [ "$ACCEL" = auto ]; then
  ACCEL=tcg
  if [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
    if [ -d /sys/module/kvm_pvm ]; then
      # PVM (the "pagetable-based" nested KVM of some cloud sandboxes, this machine's /dev/kvm)
      # cannot run a stock Debian kernel: the bzImage stub hangs, the PVH vmlinux dies with
      # "KVM internal error ... emulation failure". So TCG (Tests/Kernel/README.md, "The guest").
      [ "$VERBOSE" = 1 ] && echo "run-in-vm: /dev/kvm is kvm_pvm, using TCG" >&2
    else
      ACCEL=kvm
    fi
  fi
fi
if [ "$ACCEL" = kvm ]; then
  ACC=(-accel kvm -cpu "${LANE_CPU:-host}")
else
  ACC=(-accel tcg -cpu "${LANE_CPU:-max}")
fi
if [ "$VERBOSE" = 1 ]; then KLOG="loglevel=7"; else KLOG="quiet loglevel=1"; fi

QEMU=(qemu-system-x86_64 "${ACC[@]}" -m "$MEM" -smp "$CPUS"
  -nodefaults -no-user-config -display none -no-reboot
  -serial stdio
  -kernel "$KERNEL" -initrd "$INITRD"
  -append "console=ttyS0 $KLOG panic=-1 8250.nr_uarts=1 rdinit=/init$KARGS"
  -fsdev "local,id=lane,path=$RUNDIR,security_model=none"
  -device virtio-9p-pci,fsdev=lane,mount_tag=lane)
if [ -n "$SHARE" ]; then
  QEMU+=(-fsdev "local,id=host,path=$SHARE,security_model=none${SHARE_RO:+,readonly=on}"
         -device virtio-9p-pci,fsdev=host,mount_tag=host)
fi
n=0
for x in "${EXTRA[@]+"${EXTRA[@]}"}"; do
  h=${x%%:*}
  [ -d "$h" ] || { echo "run-in-vm: -x: no such folder: $h" >&2; exit 2; }
  QEMU+=(-fsdev "local,id=x$n,path=$(cd "$h" && pwd),security_model=none,readonly=on"
         -device virtio-9p-pci,fsdev=x$n,mount_tag=x$n)
  n=$((n+1))
done
[ "$VERBOSE" = 1 ] && echo "run-in-vm: ${QEMU[*]}" >&2

if [ "$STDIN" = 1 ]; then
  timeout --foreground -k 5 "$TIMEOUT" "${QEMU[@]}"
else
  timeout --foreground -k 5 "$TIMEOUT" "${QEMU[@]}" </dev/null
fi
qrc=$?
if [ $qrc = 124 ] || [ $qrc = 137 ]; then
  echo "run-in-vm: timed out after ${TIMEOUT}s" >&2
  exit 124
fi
if [ -n "$BTSNOOP" ]; then
  if [ -f "$RUNDIR/capture.btsnoop" ]; then cp "$RUNDIR/capture.btsnoop" "$BTSNOOP"
  else echo "run-in-vm: no btsnoop capture was written" >&2; fi
fi
if [ ! -s "$RUNDIR/rc" ]; then
  echo "run-in-vm: the VM exited (qemu status $qrc) without reporting a status" >&2
  exit 125
fi
exit "$(cat "$RUNDIR/rc")"
