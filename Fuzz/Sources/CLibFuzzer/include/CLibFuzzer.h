// libFuzzer's entry for programs that keep their own main (compiler-rt's FuzzerInterface.h
// documents it): the harness executables define the `<Module>_main` SwiftPM links as `main` and
// hand their arguments to libFuzzer through this.
#ifndef CLIBFUZZER_H
#define CLIBFUZZER_H

#include <stddef.h>
#include <stdint.h>

/// One input, `size` octets at `data`; the return value must be 0 (other values are reserved).
typedef int (*CLibFuzzerTestOneInput)(const uint8_t *data, size_t size);

/// Runs libFuzzer on `test` with the command line `argc`/`argv` (flags such as -runs=N, -seed=N,
/// then corpus folders or files), and returns its exit status.
int clibfuzzer_run(int argc, char **argv, CLibFuzzerTestOneInput test);

#endif
