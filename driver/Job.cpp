//===- Job.cpp - assemble the command that runs ----------------------------===//
#include "driver/Job.h"

#include "llvm/Support/Path.h"

#include <iterator>

namespace linkguard::driver {

std::vector<std::string> Job::argv(const std::vector<std::string> &CompilerArgs) const {
  std::vector<std::string> Argv = Launch.Prefix;
  Argv.insert(Argv.end(), CompilerArgs.begin(), CompilerArgs.end());
  return Argv;
}

llvm::Expected<Job> makeJob(const Invocation &Inv, const config::Config &Cfg,
                            const std::string &SelfPath) {
  ResolveRequest Req = Inv.Request;
  Req.SelfPath = SelfPath;
  auto Resolved = resolveCompiler(Req, Cfg);
  if (!Resolved)
    return Resolved.takeError();

  Job J;
  J.Form = Inv.Form;
  J.AssumedDefines = Inv.AssumedDefines;
  J.AssumeAot = Inv.AssumeAot;
  // Split the resolved words at the compiler word: "ccache clang++ -target
  // X" runs ccache, compiles with clang++, and clang++ receives "-target X"
  // before the user's arguments.
  std::vector<std::string> &Words = Resolved->Prefix;
  size_t Word = compilerWordIndex(Words);
  J.CompilerName = llvm::sys::path::filename(Words[Word]).str();
  auto AfterWord = std::next(Words.begin(), static_cast<std::ptrdiff_t>(Word) + 1);
  J.Args.assign(AfterWord, Words.end());
  J.UserArgsStart = J.Args.size();
  J.Args.insert(J.Args.end(), Inv.Args.begin(), Inv.Args.end());
  Words.erase(AfterWord, Words.end());
  J.Launch = std::move(*Resolved);
  return J;
}

/// The words of a compiler variable that resolution would use, if any.
static std::vector<std::string> variableWords(const config::Config &Cfg, const char *Name) {
  auto V = Cfg.env(Name);
  if (!V || llvm::StringRef(*V).trim().empty())
    return {};
  auto Words = splitCommandWords(*V);
  if (!Words) {
    llvm::consumeError(Words.takeError());
    return {};
  }
  return std::move(*Words);
}

Job jobWithoutCompiler(const Invocation &Inv, const config::Config &Cfg,
                       const std::string &SelfPath) {
  const ResolveRequest &Req = Inv.Request;
  const bool Cxx = Req.Lang == Language::Cxx;
  std::vector<std::string> Words = Req.LauncherCommand;
  // The order of resolveCompiler (docs/compiler-resolution.md); a
  // masquerade name reads neither variable here.
  if (Words.empty() && !Req.Masquerade)
    Words = variableWords(Cfg, Cxx ? "LINKGUARD_CXX" : "LINKGUARD_CC");
  if (Words.empty() && !Req.Masquerade) {
    Words = variableWords(Cfg, Cxx ? "CXX" : "CC");
    if (!Words.empty() && anyWordIsLinkguard(Words, Cfg, SelfPath))
      Words.clear();
  }
  if (Words.empty())
    Words = {Req.WantedName};
  Job J;
  J.Form = Inv.Form;
  J.AssumedDefines = Inv.AssumedDefines;
  J.AssumeAot = Inv.AssumeAot;
  size_t Word = compilerWordIndex(Words);
  J.CompilerName = llvm::sys::path::filename(Words[Word]).str();
  // As makeJob: the words after the compiler word are its arguments.
  auto AfterWord = std::next(Words.begin(), static_cast<std::ptrdiff_t>(Word) + 1);
  J.Args.assign(AfterWord, Words.end());
  J.UserArgsStart = J.Args.size();
  J.Args.insert(J.Args.end(), Inv.Args.begin(), Inv.Args.end());
  Words.erase(AfterWord, Words.end());
  J.Launch.Executable = Words.front();
  J.Launch.Prefix = std::move(Words);
  J.Launch.Origin = "not found here";
  return J;
}

Invocation invocationForCommand(const std::vector<std::string> &Command,
                                const config::Config &Cfg, const std::string &SelfPath) {
  // "ccache linkguard-clang++ ARGS": ccache runs linkguard-clang++ with ARGS
  // (and runs a link step as it is), so that is the invocation to plan.
  size_t Word = compilerWordIndex(Command);
  const std::string &First = Command[Word];
  bool ThroughLinkguard = llvm::sys::path::filename(First).starts_with("linkguard") ||
                          anyWordIsLinkguard({First}, Cfg, SelfPath);
  if (ThroughLinkguard)
    return parseInvocation(
        First, std::vector<std::string>(
                   std::next(Command.begin(), static_cast<std::ptrdiff_t>(Word) + 1),
                   Command.end()));
  std::vector<std::string> Launcher = {"--"};
  Launcher.insert(Launcher.end(), Command.begin(), Command.end());
  return parseInvocation("linkguard", Launcher);
}

} // namespace linkguard::driver
