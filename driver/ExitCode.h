//===- ExitCode.h - linkguard's own exit codes -------------------*- C++ -*-===//
//
// The compiler's own status always passes through unchanged; these codes are
// used only when linkguard itself stops or judges. Documented in
// docs/exit-codes.md; the values follow sysexits.h where one fits.
//
//===----------------------------------------------------------------------===//
#pragma once

namespace linkguard::driver {

enum class ExitCode : int {
  Success = 0,
  Violation = 1,        // `check`: the binary breaks its contract
  Usage = 64,           // EX_USAGE: bad command line for linkguard itself
  MalformedBinary = 65, // EX_DATAERR: not an object file / damaged
  UnreadableInput = 66, // EX_NOINPUT: missing, unreadable, a directory
  BadResponseFile = 67, // an @file that cannot be read
  Recursion = 68,       // linkguard would call itself
  NoCompiler = 69,      // EX_UNAVAILABLE: no real compiler found
  LoaderMissing =
      69,        // EX_UNAVAILABLE: try-load's linkguard-loader is not installed
  Internal = 70, // EX_SOFTWARE: a bug in linkguard
  SpawnFailed = 71,      // EX_OSERR: the compiler could not be started
  CantCreate = 73,       // EX_CANTCREAT: try-load's private directory or file
  OutputFailed = 74,     // EX_IOERR: a tool's output could not be written
  BadConfig = 78,        // EX_CONFIG: bad LINKGUARD_* value or rules file
  ContractViolated = 86, // enforce mode: the link output broke its contract
  LoadFailed = 87,       // try-load: the library did not load
  HideUnavailable = 88,  // try-load: --hide cannot be done here, or failed
  CallFailed =
      89, // try-load: --call's symbol is missing, returned non-zero or crashed
  ReportIncomplete = 90, // try-load: what the process mapped cannot be known
  NotLoadableHere = 91,  // try-load: a Mach-O on Linux, an ELF on macOS
  Undecided = 92, // check: a tree's closure verdict cannot be decided here
};

inline int toInt(ExitCode C) { return static_cast<int>(C); }

} // namespace linkguard::driver
