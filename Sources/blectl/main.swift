// blectl: the LinuxBLE command-line tool.
//
// Exit status: 0 success; 1 the command failed (the message says why and what to do);
// 2 a usage error.

#if canImport(Glibc)
import Glibc
#endif

var standardOutput = OutputBuffer(fileDescriptor: 1)
let status = BlectlCommand.run(arguments: Array(CommandLine.arguments.dropFirst()), output: &standardOutput)
standardOutput.flush()
exit(status)
