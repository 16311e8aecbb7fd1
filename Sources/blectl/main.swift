// blectl: the LinuxBLE command-line tool.
//
// Exit status: 0 success; 1 the command failed (the message says why and what to do);
// 2 a usage error.

#if canImport(Glibc)
import Glibc
#endif

// A closed pipe (`blectl decode F | head`) is an EPIPE for OutputBuffer to notice, not a
// signal that kills the process.
signal(SIGPIPE, SIG_IGN)

/// Runs the command line and returns the exit status, with standard output buffered.
func main() async -> Int32 {
    var standardOutput = OutputBuffer(fileDescriptor: 1)
    let status = await BlectlCommand.run(arguments: Array(CommandLine.arguments.dropFirst()), output: &standardOutput)
    standardOutput.flush()
    return status
}

// A command that needs no task (decode, version) or a usage error ends here, on the main thread,
// before the first await: the process then never starts the concurrency runtime's thread pool.
var directOutput = OutputBuffer(fileDescriptor: 1)
if let status = BlectlCommand.runWithoutTask(arguments: Array(CommandLine.arguments.dropFirst()), output: &directOutput) {
    directOutput.flush()
    exit(status)
}

exit(await main())
