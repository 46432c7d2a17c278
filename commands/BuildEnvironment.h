//===- BuildEnvironment.h - CXX/CC for a whole build through linkguard -*- C++ -*-===//
//
// What `linkguard run` sets before it execs a build and what `linkguard env`
// prints: CXX/CC point at the linkguard-clang++/linkguard-clang names beside
// the running binary, and the user's previous CXX/CC is recorded as
// LINKGUARD_CXX/LINKGUARD_CC, the way scan-build records CCC_CXX/CCC_CC.
// A process tree that reads CXX (inductor's cpp_builder does) then goes
// through linkguard and linkguard still runs the user's compiler.
//
// It never wraps linkguard in linkguard: a CXX that already runs linkguard
// ("linkguard-clang++", "ccache linkguard-clang++") is left as it is, and so
// is the LINKGUARD_CXX recorded with it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "config/Config.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace linkguard::commands {

struct EnvAssignment {
  std::string Name;
  std::string Value;
};

struct BuildEnvironment {
  /// The variables to set, in a stable order (CXX, LINKGUARD_CXX, CC,
  /// LINKGUARD_CC); absent ones are left as the user has them.
  std::vector<EnvAssignment> Set;
  /// One line per variable left alone and why (logged at info level).
  std::vector<std::string> Notes;
};

/// Computes the environment from Cfg (the variables read at start-up) and
/// the canonical path of the running binary. Errors when the
/// linkguard-clang++/linkguard-clang names are missing beside it, or when
/// CXX/CC cannot be split into words.
llvm::Expected<BuildEnvironment> buildEnvironment(const config::Config &Cfg,
                                                  const std::string &SelfPath);

/// buildEnvironment for this process: its environment and its own path.
llvm::Expected<BuildEnvironment> buildEnvironmentHere();

} // namespace linkguard::commands
