//===- Job.h - the one command a step runs ------------------------*- C++ -*-===//
//
// A Job is made once, from argv, the invocation form and the environment, and
// everything after reads it: the run, `explain`, the logs. It holds the exact
// words that will execute — the words of CXX / LINKGUARD_CXX ("ccache
// clang++ -target arm64-apple-macos11") are part of the command, not a
// detail of how it is started — and the compiler word among them, whose
// name clang reads for its mode and target prefix.
//
//   argv ─► Job ─► classify ─► plan ─► run ─► read ─► judge ─► verdict
//
//===----------------------------------------------------------------------===//
#pragma once

#include "driver/CompilerResolution.h"
#include "config/Config.h"
#include "driver/Invocation.h"

#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace linkguard::driver {

struct Job {
  InvocationForm Form = InvocationForm::Wrapper;
  /// What starts the compiler: the executable, and the words up to and
  /// including the compiler word ({"/usr/bin/ccache", "clang++"}).
  CompilerCommand Launch;
  /// The file name of the compiler word ("arm64-apple-darwin-clang++-19"):
  /// clang's mode and target prefix come from it.
  std::string CompilerName;
  /// What the compiler word receives: the words that followed it in CXX /
  /// LINKGUARD_CXX, then the user's arguments. Classification reads exactly
  /// these, and positions in the plan index into them.
  std::vector<std::string> Args;
  /// Where the user's own arguments start in Args.
  size_t UserArgsStart = 0;
  /// Launcher options (--assume-define, --assume-aot).
  std::vector<std::pair<std::string, std::string>> AssumedDefines;
  std::optional<bool> AssumeAot;

  /// The argv that runs with the given compiler arguments.
  std::vector<std::string> argv(const std::vector<std::string> &CompilerArgs) const;
};

/// Resolves the compiler and assembles the Job. Errors carry the exit code
/// the run reports (no compiler 69, recursion 68, bad CXX quoting 78).
llvm::Expected<Job> makeJob(const Invocation &Inv, const config::Config &Cfg,
                            const std::string &SelfPath);

/// The Job Inv would make if its compiler were found: the words that name
/// it (the launcher's; else LINKGUARD_CXX's or CXX's, as resolution reads
/// them; else the wanted name) as given, unresolved. `explain` of a command
/// line copied from another machine (arm64-apple-darwin-clang++ ...) plans
/// it to show the classification and the rules' decision; it is never run.
Job jobWithoutCompiler(const Invocation &Inv, const config::Config &Cfg,
                       const std::string &SelfPath);

/// How `linkguard explain -- COMMAND...` reads COMMAND: as linkguard would
/// be invoked with it. A first word that is linkguard (by name, or a
/// masquerade link found on PATH) keeps its own form; any other first word
/// names the compiler, as `linkguard COMMAND...` (the launcher form) does.
Invocation invocationForCommand(const std::vector<std::string> &Command,
                                const config::Config &Cfg, const std::string &SelfPath);

} // namespace linkguard::driver
