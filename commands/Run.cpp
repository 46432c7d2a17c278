//===- Run.cpp - `linkguard run -- CMD ARGS...` ---------------------------===//
//
// Runs a whole build with CXX/CC through linkguard (BuildEnvironment.h):
// `linkguard run -- python export.py`, `linkguard run -- cmake --build b`.
// The command is exec'd, with no shell in between, so its exit status, its
// signals and its stdio are its own, as with env(1) or scan-build.
//
//===----------------------------------------------------------------------===//
#include "commands/Commands.h"

#include "commands/BuildEnvironment.h"
#include "commands/CommandLine.h"
#include "config/Config.h"
#include "driver/DriverError.h"
#include "driver/Logging.h"
#include "driver/SelfPath.h"

#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

namespace linkguard::commands {

namespace {

const CommandSpec Spec = {
    "run", RunVis, "linkguard run [--] COMMAND ARGS...",
    "Runs COMMAND (no shell) with CXX and CC set to the drop-ins beside this\n"
    "linkguard named for the real compiler's family: linkguard-g++ and\n"
    "linkguard-gcc for GCC, linkguard-clang++ and linkguard-clang for clang (builds\n"
    "such as PyTorch's cpp_builder choose flags by that name). The previous CXX/CC\n"
    "is recorded as LINKGUARD_CXX/LINKGUARD_CC, the real compilers linkguard runs.\n"
    "Every process that reads CXX/CC (make, cmake at configure time, PyTorch's\n"
    "cpp_builder) then compiles and links through linkguard. An unset CXX/CC leaves\n"
    "LINKGUARD_CXX/LINKGUARD_CC unset and keeps the compiler a build without it\n"
    "runs: g++/gcc on Linux, clang++/clang on macOS (the other family's when only it\n"
    "is on PATH), found on PATH. A CXX/CC that already runs linkguard is kept as it\n"
    "is: linkguard never wraps itself. An explicit LINKGUARD_CXX/LINKGUARD_CC is\n"
    "kept, and names the family.",
    "The exit status is COMMAND's; 71 when it cannot be started.\n",
    "expected a command (linkguard run -- cmake --build build)",
    /*TakesCommand=*/true};

} // namespace

int runRun(const std::vector<std::string> &Args) {
  ParsedCommandLine CL;
  if (std::optional<int> Stop = parseCommandLine(Spec, Args, CL))
    return *Stop;
  auto Env = buildEnvironmentHere();
  if (!Env)
    return driver::reportError(Env.takeError());
  for (const std::string &Note : Env->Notes)
    driver::logInfo("run: " + Note);
  for (const EnvAssignment &A : Env->Set) {
    driver::logInfo("run: " + A.Name + "=" + A.Value);
    ::setenv(A.Name.c_str(), A.Value.c_str(), 1);
  }

  std::vector<char *> Argv;
  Argv.reserve(CL.Positionals.size() + 1);
  for (const std::string &W : CL.Positionals)
    Argv.push_back(const_cast<char *>(W.c_str()));
  Argv.push_back(nullptr);
  // execvp: COMMAND is looked up on PATH like a shell would, without one.
  ::execvp(Argv[0], Argv.data());
  int Err = errno;
  return driver::reportError(driver::makeDriverError(driver::ExitCode::SpawnFailed,
                                     "run: cannot run '" + CL.Positionals.front() +
                                         "': " + std::strerror(Err)));
}

} // namespace linkguard::commands
