//===- FuzzJob.cpp - libFuzzer entry point for the Job and its plan -------===//
//
// The wrapper path from argv to the argv that executes: parseInvocation,
// makeJob (the words of CXX / LINKGUARD_CXX split and resolved), classify
// (with a response file when asked) and planJob, as the run and `explain`
// call them. Byte 0 chooses the variant:
//   bits 0-1: argv[0]: linkguard-clang++, clang++ (masquerade), linkguard
//             (launcher form), arm64-apple-darwin-clang++;
//   bit 2:    the last word becomes the content of an @response file;
//   bits 3-4: the first word is the value of none / LINKGUARD_CXX / CXX /
//             both;
//   bit 5:    LINKGUARD_MODE=verify (else the default);
//   bit 6:    LINKGUARD_AOT=1.
// The rest, split on NUL bytes, is those words. The compilers the words
// can name are empty executables in a private PATH directory; nothing is
// run. Besides never crashing, hanging or leaking, the plan must keep the
// promises the driver makes: the argv starts with the compiler's words,
// the user's words all reach the compiler in order, a plan that adds
// nothing runs the command byte-identical, and only a link gets flags.
//
//===----------------------------------------------------------------------===//
#include "FuzzInput.h"

#include "config/Config.h"
#include "driver/DriverError.h"
#include "driver/Invocation.h"
#include "driver/Job.h"
#include "driver/Plan.h"

#include "llvm/Support/Error.h"

#include <cstdlib>
#include <fcntl.h>
#include <map>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

using namespace linkguard;

namespace {

void check(bool Holds, const char *Promise) {
  if (!Holds) {
    std::fprintf(stderr, "fuzz_job: broken promise: %s\n", Promise);
    std::abort();
  }
}

/// A directory of empty executables named like the compilers and the
/// launchers a CXX can hold, used as PATH and HOME. (The working directory
/// is left alone: libFuzzer's and the replay's paths are relative to it.)
const std::string &compilerDir() {
  static const std::string Dir = [] {
    const char *Tmp = std::getenv("TMPDIR");
    std::string D = std::string(Tmp && *Tmp ? Tmp : "/tmp") + "/linkguard-fuzz-job-XXXXXX";
    if (!::mkdtemp(D.data()))
      std::abort();
    for (const char *Name : {"clang++", "clang", "clang++-19", "arm64-apple-darwin-clang++",
                             "x86_64-linux-gnu-clang", "ccache", "distcc", "sccache"}) {
      std::string P = D + "/" + Name;
      int Fd = ::open(P.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
      if (Fd < 0)
        std::abort();
      ::close(Fd);
    }
    return D;
  }();
  return Dir;
}

bool isSubsequence(const std::vector<std::string> &Small, const std::vector<std::string> &Big) {
  size_t J = 0;
  for (size_t I = 0; I < Big.size() && J < Small.size(); ++I)
    J += Big[I] == Small[J];
  return J == Small.size();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (Size == 0)
    return 0;
  static fuzz::ScratchFile Rsp(".rsp");
  const std::string &Dir = compilerDir();
  const uint8_t Mode = Data[0];

  std::vector<std::string> Words(1);
  for (size_t I = 1; I < Size; ++I) {
    if (Data[I] == '\0')
      Words.emplace_back();
    else
      Words.back() += static_cast<char>(Data[I]);
  }

  std::map<std::string, std::string> Env = {{"PATH", Dir}, {"HOME", Dir}};
  const unsigned CompilerVars = (Mode >> 3) & 3;
  if (CompilerVars && !Words.empty()) {
    if (CompilerVars & 1)
      Env["LINKGUARD_CXX"] = Words.front();
    if (CompilerVars & 2)
      Env["CXX"] = Words.front();
    Words.erase(Words.begin());
  }
  if (Mode & 32)
    Env["LINKGUARD_MODE"] = "verify";
  if (Mode & 64)
    Env["LINKGUARD_AOT"] = "1";
  if ((Mode & 4) && !Words.empty()) {
    const std::string &Text = Words.back();
    Rsp.write(reinterpret_cast<const uint8_t *>(Text.data()), Text.size());
    Words.back() = "@" + Rsp.path();
  }

  auto Cfg = config::configFromMap(Env);
  if (!Cfg) {
    llvm::consumeError(Cfg.takeError());
    return 0;
  }
  static const char *const Argv0[] = {"linkguard-clang++", "clang++", "linkguard",
                                      "arm64-apple-darwin-clang++"};
  driver::Invocation Inv = driver::parseInvocation(Argv0[Mode & 3], Words);
  if (Inv.Kind != driver::InvocationKind::CompilerDriver)
    return 0;
  const std::string Self = "/nonexistent-linkguard-fuzz/linkguard";
  auto J = driver::makeJob(Inv, *Cfg, Self);
  if (!J) {
    llvm::consumeError(J.takeError()); // no compiler, recursion, bad quoting
    return 0;
  }
  auto P = driver::planJob(*J, *Cfg);
  if (!P) {
    llvm::consumeError(P.takeError()); // a response file it cannot read
    return 0;
  }

  check(P->Argv == J->argv(P->CompilerArgs), "the argv is the compiler's words + its arguments");
  check(isSubsequence(J->Args, P->CompilerArgs), "every word reaches the compiler, in order");
  const bool Adds = !P->Appended.empty() || !P->InsertedBeforeLibraries.empty();
  check(Adds || P->CompilerArgs == J->Args, "a plan that adds nothing runs the command as given");
  check(!Adds || P->Cls.Ph == flags::Phase::Link, "only a link gets flags");
  check(P->CompilerArgs.size() ==
            J->Args.size() + P->Appended.size() + P->InsertedBeforeLibraries.size(),
        "the added flags are all that is added");
  return 0;
}
