//===- EnvCommand.cpp - `linkguard env`: export lines for a shell ---------===//
//
// Prints what `linkguard run` would set, as POSIX shell `export` lines with
// single-quoted values, for `eval "$(linkguard env)"` or a CI step's
// environment. Nothing is changed in linkguard's own environment.
//
//===----------------------------------------------------------------------===//
#include "driver/Commands.h"

#include "driver/BuildEnvironment.h"
#include "driver/Config.h"
#include "driver/DriverError.h"
#include "driver/SelfPath.h"

#include "llvm/Support/raw_ostream.h"

namespace linkguard::driver {

namespace {

constexpr const char *EnvHelp =
    "usage: linkguard env\n"
    "\n"
    "Prints the shell `export` lines that `linkguard run` applies: CXX and\n"
    "CC set to linkguard-clang++ and linkguard-clang beside this linkguard,\n"
    "and the previous CXX/CC recorded as LINKGUARD_CXX/LINKGUARD_CC.\n"
    "Use it as:  eval \"$(linkguard env)\"\n"
    "A CXX/CC that already runs linkguard is left out (never wrapped twice).\n"
    "Values are single-quoted for POSIX shells.\n"
    "\n"
    "  --help   this text\n";

/// POSIX single quoting: 'it'\''s' - nothing inside single quotes expands.
std::string shellQuote(const std::string &S) {
  std::string Out = "'";
  for (char C : S) {
    if (C == '\'')
      Out += "'\\''";
    else
      Out += C;
  }
  return Out + "'";
}

} // namespace

int runEnv(const std::vector<std::string> &Args) {
  if (!Args.empty()) {
    if (Args.front() == "--help" || Args.front() == "-h") {
      llvm::outs() << EnvHelp;
      return 0;
    }
    return reportError(makeDriverError(
        ExitCode::Usage, "env: unexpected argument " + Args.front() +
                             "; expected no arguments or --help"));
  }
  auto Cfg = configFromEnvironment();
  if (!Cfg)
    return reportError(Cfg.takeError());
  auto Env = buildEnvironment(*Cfg, selfPath());
  if (!Env)
    return reportError(Env.takeError());
  // Why a variable is left out, as shell comments: eval ignores them.
  for (const std::string &Note : Env->Notes)
    llvm::outs() << "# " << Note << "\n";
  for (const EnvAssignment &A : Env->Set)
    llvm::outs() << "export " << A.Name << "=" << shellQuote(A.Value) << "\n";
  return 0;
}

} // namespace linkguard::driver
