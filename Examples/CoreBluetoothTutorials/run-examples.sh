#!/bin/sh
# Builds this package once, runs every example on the virtual radio (at once: they wait on the
# radio's paced time far more than they compute), and compares each one's output, standard error
# included, with expected/NAME.txt. `make example-test` (and so `make test`) runs it.
#
#   run-examples.sh [OUTPUT-DIRECTORY]     # default .build/example-output beside this script
#
# Exit status: 0 when every output is as expected; 1 otherwise (each difference is printed).

set -u
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/.build/example-output}
swift=${SWIFT:-swift}

# NAME, then the command line (the executable and its arguments).
runs='ScanAndConnect ScanAndConnect
PublishService PublishService
DiscoverEverything DiscoverEverything
SubscribeToAll SubscribeToAll
AsyncConnection AsyncConnection
PickRole-central PickRole --role central
PickRole-peripheral PickRole --role peripheral
RestoreAcrossRestart RestoreAcrossRestart'

"$swift" build -q --package-path "$here" || exit 1
bin=$("$swift" build --package-path "$here" --show-bin-path) || exit 1
mkdir -p "$out"

while read -r name executable arguments; do
    # shellcheck disable=SC2086 # the arguments are words
    timeout 120 "$bin/$executable" $arguments < /dev/null > "$out/$name.txt" 2>&1 &
done <<RUNS
$runs
RUNS
wait

failed=0
while read -r name executable arguments; do
    if diff -u "$here/expected/$name.txt" "$out/$name.txt"; then
        echo "example-test: $executable${arguments:+ $arguments}: as expected"
    else
        echo "example-test: $executable${arguments:+ $arguments}: differs from expected/$name.txt (above)"
        failed=1
    fi
done <<RUNS
$runs
RUNS
exit $failed
