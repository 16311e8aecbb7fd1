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

exit(await main())
