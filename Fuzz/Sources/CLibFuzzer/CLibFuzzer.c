#include "CLibFuzzer.h"

// Provided by libFuzzer, which `-sanitize=fuzzer` links into every harness executable.
extern int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*test)(const uint8_t *data, size_t size));

int clibfuzzer_run(int argc, char **argv, CLibFuzzerTestOneInput test) {
    // libFuzzer may rewrite its view of the command line; give it copies of ours to rewrite.
    int count = argc;
    char **arguments = argv;
    return LLVMFuzzerRunDriver(&count, &arguments, test);
}
