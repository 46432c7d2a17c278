//===- Run.h - start linkguard-loader in a clean process ---------*- C++
//-*-===//
//
// A fresh child with a scrubbed environment: the variables that make the
// dynamic loader map something the library did not ask for (ld.so(8):
// LD_PRELOAD, LD_LIBRARY_PATH, LD_AUDIT; dyld(1): DYLD_INSERT_LIBRARIES,
// DYLD_LIBRARY_PATH, DYLD_FALLBACK_LIBRARY_PATH and their framework and
// versioned kin) are removed unless the caller keeps them. Its stdin is
// /dev/null, its stdout goes to linkguard's stderr (it belongs to the
// library), its report comes back on a pipe as file descriptor 3.
//
// That report is written inside the process that runs the library under
// test, which can write there too. On Linux the loader stops itself
// (SIGSTOP) before dlopen, after dlopen returned and after the call, and the
// parent reads /proc/PID/maps itself at each stop (waitpid(WUNTRACED)): what
// the kernel says is mapped is the truth, the report only a cross-check
// (tryload/Outcome.h).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tryload/Report.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace linkguard::tryload {

/// The loader variables, one row each: what the variable does.
struct LoaderVariable {
  const char *Name;
  const char *Effect;
};
llvm::ArrayRef<LoaderVariable> loaderVariables();

struct TryLoadRequest {
  std::string LoaderPath; // linkguard-loader
  std::string Library;    // absolute
  std::optional<std::string> Call;
  std::vector<std::string> Hide;
  bool KeepEnv = false;
  bool Lazy = false;
  /// The loader is killed (SIGKILL) when it has not ended after this many
  /// seconds: a constructor or a called function that never returns, or a
  /// process the library keeps stopped, must not hang linkguard. 0: none.
  unsigned TimeoutSeconds = 0;
};

/// One file mapped in the child, as /proc/PID/maps shows it.
struct MappedFile {
  std::string Path; // as the kernel prints it ("\012" read back as '\n')
  uint64_t Major = 0, Minor = 0, Inode = 0;
  bool Executable = false; // some mapping of it may run code
  bool sameFile(uint64_t Maj, uint64_t Min, uint64_t Ino) const {
    return Major == Maj && Minor == Min && Inode == Ino;
  }
};

/// The child's mappings at one stop: its files, each once, in address
/// order (anonymous memory and [vdso]/[stack]-like entries left out).
struct MapsSnapshot {
  std::vector<MappedFile> Files;
  std::string Problem; // the maps could not be read: why
};

/// Parses the text of /proc/PID/maps (proc(5)).
std::vector<MappedFile> parseMaps(llvm::StringRef Text);

/// A file mapped with code in the child, seen as it was mapped (Linux,
/// traced): the seccomp filter stopped the mmap/mprotect, and linkguard read
/// the maps at its return.
struct TracedMapping {
  MappedFile File;
  size_t StopsBefore = 0; // the stops the child had made by then
};

struct LoaderRun {
  LoaderReport Report;
  std::string ReportProblem; // the report could not be parsed: why
  /// The parent stopped the child and read its maps itself (Linux).
  bool Watched = false;
  std::vector<MapsSnapshot> Stops; // one per stop, in order
  /// linkguard traced the child and saw its filter's probe: every mapping
  /// with code was seen as it was made (Mapped), not only at the stops.
  bool Traced = false;
  std::vector<TracedMapping> Mapped;
  std::string TraceProblem; // a mapping with code that could not be read
  /// A thread or process of the library asked to run where linkguard does
  /// not trace it (clone with CLONE_UNTRACED; refused), one that could not
  /// be kept traced (killed), or one seen running untraced at a stop or at
  /// the end: what, in one sentence. The run is then undecided
  /// (tryload/Outcome.h).
  std::string Untraced;
  unsigned MappingsRead = 0; // the mappings followed one by one
  int ExitStatus = 0; // when it exited
  int Signal = 0;     // when it died by a signal
  /// It outlived TryLoadRequest::TimeoutSeconds and was killed (Signal is
  /// then SIGKILL).
  unsigned TimedOutAfter = 0;
  /// Processes the library left behind (its forks and theirs, daemons
  /// included), killed when the loader had ended.
  unsigned Leftovers = 0;
};

/// Called at each stop of the child, after its maps were read and before it
/// is continued (the child is stopped meanwhile).
using StopFn = llvm::function_ref<void(const LoaderRun &)>;

/// Env (NAME=VALUE strings) without the loader variables, unless KeepEnv.
/// Removed receives the names taken out, in order.
std::vector<std::string> scrubEnvironment(const std::vector<std::string> &Env,
                                          bool KeepEnv,
                                          std::vector<std::string> &Removed);

/// Why the loader could not be run at all: the system refused a pipe, a
/// spawn or a wait (not a bug in linkguard, not the library's doing).
class SpawnError : public llvm::ErrorInfo<SpawnError> {
public:
  static char ID;
  explicit SpawnError(std::string Message) : Message(std::move(Message)) {}
  void log(llvm::raw_ostream &OS) const override { OS << Message; }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }

private:
  std::string Message;
};

/// For a signal handler (async-signal-safe): SIGKILLs the children of this
/// process and reaps them, round by round as their children are reparented
/// here (runLoader makes linkguard their subreaper), for at most ~0.2 s.
/// Linux; elsewhere nothing.
void killChildrenNow();

/// Starts the loader with Env, reads its report, waits for it. Started is
/// called with the child's pid as soon as it runs (so a signal handler can
/// forward a signal to it), and with 0 once it is reaped; Stopped at each of its stops (Linux). Errors:
/// SpawnError.
llvm::Expected<LoaderRun> runLoader(const TryLoadRequest &Request,
                                    const std::vector<std::string> &Env,
                                    llvm::function_ref<void(pid_t)> Started,
                                    StopFn Stopped);

} // namespace linkguard::tryload
