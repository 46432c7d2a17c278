//===- RunCommand.cpp - `linkguard run -- CMD ARGS...` --------------------===//
//
// Runs a whole build with CXX/CC through linkguard (BuildEnvironment.h):
// `linkguard run -- python export.py`, `linkguard run -- cmake --build b`.
// The command is exec'd, with no shell in between, so its exit status, its
// signals and its stdio are its own, as with env(1) or scan-build.
//
//===----------------------------------------------------------------------===//
#include "driver/Commands.h"

#include "driver/BuildEnvironment.h"
#include "config/Config.h"
#include "driver/DriverError.h"
#include "driver/Logging.h"
#include "driver/SelfPath.h"

#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

namespace linkguard::driver {

namespace {

constexpr const char *RunHelp =
    "usage: linkguard run [--] COMMAND ARGS...\n"
    "\n"
    "Runs COMMAND (no shell) with CXX and CC set to the linkguard-clang++ and\n"
    "linkguard-clang beside this linkguard, and the previous CXX/CC recorded\n"
    "as LINKGUARD_CXX/LINKGUARD_CC, the real compilers linkguard runs. Every\n"
    "process that reads CXX/CC (make, cmake at configure time, PyTorch's\n"
    "cpp_builder) then compiles and links through linkguard.\n"
    "\n"
    "  An unset CXX/CC leaves LINKGUARD_CXX/LINKGUARD_CC unset: the compiler\n"
    "  is then found on PATH. A CXX/CC that already runs linkguard is kept as\n"
    "  it is, with its LINKGUARD_CXX/LINKGUARD_CC: linkguard never wraps\n"
    "  itself. An explicit LINKGUARD_CXX/LINKGUARD_CC is kept.\n"
    "\n"
    "The exit status is COMMAND's; 71 when it cannot be started.\n"
    "\n"
    "  --help   this text\n";

} // namespace

int runRun(const std::vector<std::string> &Args) {
  size_t I = 0;
  if (I < Args.size() && (Args[I] == "--help" || Args[I] == "-h")) {
    llvm::outs() << RunHelp;
    return 0;
  }
  if (I < Args.size() && Args[I] == "--")
    ++I;
  else if (I < Args.size() && !Args[I].empty() && Args[I].front() == '-')
    return reportError(makeDriverError(
        ExitCode::Usage, "run: unknown option " + Args[I] +
                             "; expected --help or -- COMMAND ARGS..."));
  if (I >= Args.size())
    return reportError(makeDriverError(
        ExitCode::Usage,
        "run: expected a command (linkguard run -- cmake --build build)"));

  auto Cfg = config::configFromEnvironment();
  if (!Cfg)
    return reportError(Cfg.takeError());
  auto Env = buildEnvironment(*Cfg, selfPath());
  if (!Env)
    return reportError(Env.takeError());
  for (const std::string &Note : Env->Notes)
    logInfo("run: " + Note);
  for (const EnvAssignment &A : Env->Set) {
    logInfo("run: " + A.Name + "=" + A.Value);
    ::setenv(A.Name.c_str(), A.Value.c_str(), 1);
  }

  std::vector<char *> Argv;
  for (size_t J = I; J < Args.size(); ++J)
    Argv.push_back(const_cast<char *>(Args[J].c_str()));
  Argv.push_back(nullptr);
  // execvp: COMMAND is looked up on PATH like a shell would, without one.
  ::execvp(Argv[0], Argv.data());
  int Err = errno;
  return reportError(makeDriverError(ExitCode::SpawnFailed,
                                     "run: cannot run '" + Args[I] +
                                         "': " + std::strerror(Err)));
}

} // namespace linkguard::driver
