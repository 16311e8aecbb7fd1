# LinuxBLE: build, run, test and benchmark. Every target installs what it needs first.
#
#   make run     the whole stack in one process: blectl demo on the virtual radio (a heart-rate sensor
#                and a central, host mode, no privileges, no Bluetooth hardware), its capture kept in
#                .build/demo.btsnoop (decode it: swift run blectl decode .build/demo.btsnoop)
#   make test    every test lane that runs here (unit, PDU fixtures, real captures vs tshark, the
#                virtual radio, the interop lane against Google Bumble), a short fixed-seed pass of every
#                fuzz harness (make fuzz-check), then the kernel lane (make kernel-test)
#   make kernel-test  the kernel lane alone: a qemu VM with a Debian kernel, BlueZ's virtual
#                controllers and the static blectl (Tests/Kernel/README.md)
#   make kernel-test-loaded  the kernel lane with both host CPUs kept busy by stress-ng the whole
#                time (LANE_STRESS CPU workers, default 2); not part of make test
#   make fuzz    coverage-guided fuzzing (libFuzzer and AddressSanitizer through the toolchain's
#                -sanitize=fuzzer,address) of every decoder and both GATT roles, one target at a time
#                (Fuzz/, docs/fuzzing.md); FUZZ_TIME, FUZZ_RUNS, FUZZ_JOBS, FUZZ_TARGETS, FUZZ_SEEDS_EXTRA below
#   make bench   codec and decoder throughput, the decode time of a real capture vs tshark, and ATT
#                round trips and notifications through the whole host stack, ours against Bumble's
#   make static  blectl linked with the static Swift standard library (for the kernel lane)
#   make static-examples  the Core Bluetooth tutorials (Examples/CoreBluetoothTutorials) linked the
#                same way, for the kernel lane's API scenario
#   make install the static blectl into $(DESTDIR)$(PREFIX)/bin (default /usr/local/bin, through sudo
#                when not root); then setcap it (docs/linux-setup.md)

SWIFT        ?= swift
SUDO         := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
DEB_PACKAGES := libbluetooth-dev libssl-dev tshark
BUILD        := .build
PREFIX       ?= /usr/local
DEMO_CAPTURE := Fixtures/captures/bumble-heart-rate.btsnoop

# bluetooth-sig wheel that carries the SIG's assigned-numbers YAML (see Scripts/generate-assigned-numbers.py)
BLUETOOTH_SIG_VERSION := 0.6.0
PYYAML_VERSION        := 6.0.2
VENV                  := $(BUILD)/venv
# Google Bumble, pinned in Scripts/bumble/requirements.txt: the demo capture, the interop lane, make bench
BUMBLE_VENV           := $(BUILD)/bumble-venv

.PHONY: all deps build run test example-test fuzz fuzz-build fuzz-check bench static static-examples install kernel-deps kernel-pins-test kernel-test kernel-test-loaded assigned-numbers demo-capture clean

all: build

# Debian packages: headers for CBluetoothLinux, libcrypto for AES-CMAC, tshark for cross-checks.
deps:
	@missing=""; for p in $(DEB_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "make: installing Debian packages:$$missing"; \
	  $(SUDO) apt-get update -qq && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi

build: deps
	$(SWIFT) build

run: build
	$(SWIFT) run -q blectl demo --capture $(BUILD)/demo.btsnoop

# LINUXBLE_CAPTURES: the folder of the real captures the capture tests cross-check (default
# ../shared/captures beside the checkout); without them those tests skip and say so.
# The interop lane (Tests/InteropTests) runs Bumble's host from the pinned venv; plain `swift test`
# skips it unless LINUXBLE_BUMBLE_PYTHON names that python.
test: deps $(BUMBLE_VENV)/bin/python
	LINUXBLE_CAPTURES="$(LINUXBLE_CAPTURES)" LINUXBLE_BUMBLE_PYTHON=$(abspath $(BUMBLE_VENV)/bin/python) $(SWIFT) test
	$(MAKE) example-test
	$(MAKE) fuzz-check
	$(MAKE) kernel-test

# README's "Use it as a library": Examples/LibraryQuickStart, a package of its own that depends on
# this checkout by path, built and run as a user's package would be, its output compared.
# Examples/CoreBluetoothTutorials: the scenarios Core Bluetooth tutorials teach, on the BLE API, one
# package (the library is built once for all of them); its run-examples.sh runs each on the virtual
# radio and compares its output with expected/ (a few seconds, after the build).
# SwiftPM keeps the build plan of a package that depends on this checkout by path, and does not
# see a source file added to the checkout after it was made ("cannot find 'X' in scope" in a
# checkout that builds): removing the plan (debug.yaml, release.yaml) makes it plan again; the
# compilation stays incremental.
replan = rm -f $(1)/debug.yaml $(1)/release.yaml

example-test: deps
	$(call replan,Examples/LibraryQuickStart/.build)
	$(call replan,Examples/CoreBluetoothTutorials/.build)
	$(SWIFT) run -q --package-path Examples/LibraryQuickStart > $(BUILD)/library-quickstart.out
	diff -u Examples/LibraryQuickStart/expected-output.txt $(BUILD)/library-quickstart.out
	@echo "example-test: Examples/LibraryQuickStart builds against the checkout and prints what README says"
	SWIFT=$(SWIFT) Examples/CoreBluetoothTutorials/run-examples.sh $(abspath $(BUILD))/core-bluetooth-tutorials

# Fuzz/: a package of its own (like Examples/) with one libFuzzer harness per target, built in release
# with libFuzzer and AddressSanitizer (-sanitize=fuzzer,address; lld links them, gold cannot) under
# $(FUZZ_BUILD), where the seed corpora (from Fixtures/), the growing corpora, the logs and any
# findings also live (docs/fuzzing.md).
#   FUZZ_TARGETS      the harnesses to run, in order (default: all)
#   FUZZ_TIME         seconds per target for make fuzz (libFuzzer -max_total_time; default 600)
#   FUZZ_RUNS         executions per target instead of a time (libFuzzer -runs)
#   FUZZ_JOBS         fuzzing processes per target (libFuzzer -jobs and -workers; default 1)
#   FUZZ_SEEDS_EXTRA  capture files read as extra seeds at fuzz time (for example the real captures
#                     in ../shared/captures); they are never copied into the repository
# make fuzz-check, which make test runs: a short fixed-seed pass of every target on the committed
# seeds (FUZZ_CHECK_SEED, default 1; FUZZ_CHECK_RUNS executions, default 2000, FUZZ_CHECK_ENGINE_RUNS
# for the GATT, dissector and H4 targets, default 500).
FUZZ_BUILD        := $(abspath $(BUILD))/fuzz
FUZZ_SWIFTFLAGS   := -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xswiftc -use-ld=lld
FUZZ_TARGETS      ?= FuzzAdvertisingData FuzzAdvertisementAccumulator FuzzHCIEvent FuzzATTPDU FuzzL2CAPSignaling FuzzSMP \
                     FuzzH4Deframer FuzzBTSnoop FuzzPcap FuzzPcapNG FuzzNRFSniffer FuzzPacketLogger FuzzDissector FuzzGATTServer \
                     FuzzGATTClient
FUZZ_TIME         ?= 600
FUZZ_RUNS         ?=
FUZZ_JOBS         ?= 1
FUZZ_SEEDS_EXTRA  ?=
FUZZ_ENV          = FUZZ_BUILD=$(FUZZ_BUILD) FUZZ_TARGETS="$(FUZZ_TARGETS)"

fuzz-build: deps
	nice -n 19 $(SWIFT) build -c release --package-path Fuzz --scratch-path $(FUZZ_BUILD) $(FUZZ_SWIFTFLAGS)
	SWIFT_BACKTRACE=enable=no $(FUZZ_BUILD)/release/FuzzSeeds $(FUZZ_BUILD)/seeds > $(FUZZ_BUILD)/seeds.txt
	rm -rf $(FUZZ_BUILD)/extra-seeds
	$(if $(FUZZ_SEEDS_EXTRA),SWIFT_BACKTRACE=enable=no $(FUZZ_BUILD)/release/FuzzSeeds $(FUZZ_BUILD)/extra-seeds $(abspath $(FUZZ_SEEDS_EXTRA)) > /dev/null,)

fuzz: fuzz-build
	$(FUZZ_ENV) FUZZ_TIME=$(FUZZ_TIME) FUZZ_RUNS=$(FUZZ_RUNS) FUZZ_JOBS=$(FUZZ_JOBS) Fuzz/run-fuzz.sh fuzz

fuzz-check: fuzz-build
	$(FUZZ_ENV) FUZZ_CHECK_SEED=$(or $(FUZZ_CHECK_SEED),1) FUZZ_CHECK_RUNS=$(or $(FUZZ_CHECK_RUNS),2000) \
	  FUZZ_CHECK_ENGINE_RUNS=$(or $(FUZZ_CHECK_ENGINE_RUNS),500) Fuzz/run-fuzz.sh check

# The host-stack rows compare our client with Bumble's host from the pinned venv, in the same run.
# The decoder rows time the static blectl (what make install installs) and the release build, in turns.
bench: deps static $(BUMBLE_VENV)/bin/python
	$(SWIFT) build -c release --product blectl
	LINUXBLE_BUMBLE_PYTHON=$(abspath $(BUMBLE_VENV)/bin/python) $(SWIFT) run -c release BLEBenchmarks

# Its own build folder, so it never replaces the release blectl that make bench times; stripped.
STATIC_BUILD := $(BUILD)/static
static: deps
	$(SWIFT) build -c release --static-swift-stdlib --product blectl --scratch-path $(STATIC_BUILD) -Xlinker --strip-all
	@echo "static blectl: $$($(SWIFT) build -c release --scratch-path $(STATIC_BUILD) --show-bin-path)/blectl"

# The tutorials, for the kernel lane: the BLE API on real AF_BLUETOOTH sockets in the guest.
STATIC_EXAMPLES := $(BUILD)/static-examples
static-examples: deps
	$(call replan,$(STATIC_EXAMPLES))
	$(SWIFT) build -c release --static-swift-stdlib --package-path Examples/CoreBluetoothTutorials --scratch-path $(STATIC_EXAMPLES) -Xlinker --strip-all

# Installing replaces the file, which drops capabilities set on the old one: setcap again.
install: static
	$(if $(DESTDIR),,$(SUDO)) install -D -m 0755 "$$($(SWIFT) build -c release --scratch-path $(STATIC_BUILD) --show-bin-path)/blectl" "$(DESTDIR)$(PREFIX)/bin/blectl"
	@echo "installed $(DESTDIR)$(PREFIX)/bin/blectl; grant it capabilities: sudo setcap cap_net_raw,cap_net_admin+eip $(DESTDIR)$(PREFIX)/bin/blectl"

# The kernel lane (Tests/Kernel/README.md). Host packages: qemu to boot the guest; busybox-static,
# cpio, kmod and xz-utils to build it; gcc (with deps' libbluetooth-dev) for its static C helpers.
# The guest is built once under .build/kernel from pinned Debian packages (apt-get download, nothing
# installed into /) and rebuilt when its inputs change. Every boot runs the scenarios in
# Tests/Kernel/scenarios (SCENARIOS="NAME ..." picks some); kernel-test.sh's exit status is the
# number of failed scenarios. Under TCG (no usable KVM) a run takes about 30 s while the kernel
# commands skip, about 2 minutes once they run (Tests/Kernel/README.md, "Time").
# stress-ng loads the host for kernel-test-loaded.
KERNEL_DEB_PACKAGES := qemu-system-x86 busybox-static cpio kmod xz-utils gcc stress-ng
KERNEL_BUILD        := $(BUILD)/kernel
KERNEL_GUEST        := $(KERNEL_BUILD)/guest/initrd.img
KERNEL_GUEST_INPUTS := Tests/Kernel/build-guest.sh Tests/Kernel/resolve-pins.sh Tests/Kernel/guest-packages.txt \
                       Tests/Kernel/guest/init Tests/Kernel/guest/pairing-agent.c
SCENARIOS           ?=

kernel-deps: deps
	@missing=""; for p in $(KERNEL_DEB_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "make: installing Debian packages:$$missing"; \
	  $(SUDO) apt-get update -qq && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	fi

$(KERNEL_GUEST): $(KERNEL_GUEST_INPUTS) | kernel-deps
	Tests/Kernel/build-guest.sh $(KERNEL_BUILD)

# A pin the archive no longer serves falls back to its current version (resolve-pins.sh); the test
# proves that on pins that never existed, before the guest is built.
kernel-pins-test: kernel-deps
	Tests/Kernel/resolve-pins-test.sh

kernel-test: kernel-deps kernel-pins-test static static-examples $(KERNEL_GUEST)
	BLECTL=$(STATIC_BUILD)/release/blectl EXAMPLES=$(STATIC_EXAMPLES)/release Tests/Kernel/kernel-test.sh $(SCENARIOS)

# The same lane on a loaded host: kernel-test.sh starts `stress-ng --cpu $(LANE_STRESS)` before the
# VM and stops it after (also on failure or Ctrl-C); the guest measures its speed and scales the
# scenarios' waits (Tests/Kernel/README.md, "A loaded host").
LANE_STRESS ?= 2
kernel-test-loaded: kernel-deps kernel-pins-test static static-examples $(KERNEL_GUEST)
	LANE_STRESS=$(LANE_STRESS) BLECTL=$(STATIC_BUILD)/release/blectl EXAMPLES=$(STATIC_EXAMPLES)/release Tests/Kernel/kernel-test.sh $(SCENARIOS)

# Regenerates Sources/BLECore/AssignedNumbers/AssignedNumbersTables.swift from the pinned wheel.
$(VENV)/bin/python:
	@python3 -c 'import ensurepip' 2>/dev/null || { echo "make: installing python3-venv"; \
	  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv; }
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install -q PyYAML==$(PYYAML_VERSION)

assigned-numbers: $(VENV)/bin/python
	mkdir -p $(BUILD)/assigned-numbers
	$(VENV)/bin/pip download -q --no-deps -d $(BUILD)/assigned-numbers bluetooth-sig==$(BLUETOOTH_SIG_VERSION)
	$(VENV)/bin/python Scripts/generate-assigned-numbers.py \
	  $(BUILD)/assigned-numbers/bluetooth_sig-$(BLUETOOTH_SIG_VERSION)-py3-none-any.whl \
	  Sources/BLECore/AssignedNumbers/AssignedNumbersTables.swift

# Re-records Fixtures/captures/bumble-heart-rate.btsnoop with Google Bumble (see Fixtures/captures/README.md).
# It overwrites the committed capture: the packets come out the same, the timestamps differ.
# The same venv (BUMBLE_VENV) serves the interop lane of make test and the Bumble rows of make bench.
$(BUMBLE_VENV)/bin/python: Scripts/bumble/requirements.txt Scripts/bumble/constraints.txt
	@python3 -c 'import ensurepip' 2>/dev/null || { echo "make: installing python3-venv"; \
	  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv; }
	python3 -m venv $(BUMBLE_VENV)
	$(BUMBLE_VENV)/bin/pip install -q -r Scripts/bumble/requirements.txt -c Scripts/bumble/constraints.txt
	touch $@

demo-capture: $(BUMBLE_VENV)/bin/python
	$(BUMBLE_VENV)/bin/python Scripts/bumble/record_heart_rate.py $(DEMO_CAPTURE)

clean:
	rm -rf $(BUILD)
