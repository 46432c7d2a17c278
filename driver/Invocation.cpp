//===- Invocation.cpp - decide the mode from argv[0] ----------------------===//
#include "driver/Invocation.h"

#include "support/EnumNames.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <cstddef>
#include <iterator>

namespace linkguard::driver {

const char *invocationFormName(InvocationForm F) {
  return enumName(F, {"wrapper", "masquerade", "launcher"});
}

/// The tools, and the two words that are not tools but read like them
/// (`linkguard help check`, `linkguard version`: git's forms).
constexpr const char *SubcommandWords[] = {"inspect", "check",  "try-load", "explain",
                                           "run",     "env",    "report",   "completion",
                                           "help",    "version"};

bool isSubcommand(const std::string &Name) {
  for (const char *S : SubcommandWords)
    if (Name == S)
      return true;
  return false;
}

std::string nearestSubcommand(const std::string &Word) {
  // git's help.autocorrect idea with a fixed bound: one edit in a short
  // word, two from six letters ("chek", "tryload", "inspcet"), so a
  // compiler's name (cc, gcc, c++, clang) is never taken for a typo.
  llvm::StringRef W(Word);
  if (W.empty() || W.contains('/') || W.starts_with("-"))
    return "";
  unsigned Bound = W.size() >= 6 ? 2 : 1;
  std::string Best;
  unsigned BestDistance = Bound + 1;
  for (const char *S : SubcommandWords) {
    unsigned D = W.edit_distance(S, /*AllowReplacements=*/true, Bound);
    if (D < BestDistance) {
      BestDistance = D;
      Best = S;
    }
  }
  return Best;
}

/// C or C++ from a compiler name: "clang", "cc", "gcc", "x86_64-linux-gnu-gcc"
/// are C; anything with "++" (or "c++") is C++.
static Language languageOf(llvm::StringRef Name) {
  if (Name.contains("++"))
    return Language::Cxx;
  if (Name.ends_with("clang") || Name.ends_with("cc") || Name.ends_with("gcc") ||
      Name.contains("clang-") /* clang-19 */)
    return Language::C;
  return Language::Cxx;
}

Invocation parseInvocation(const std::string &Argv0,
                           const std::vector<std::string> &Args) {
  Invocation Inv;
  llvm::StringRef Name = llvm::sys::path::filename(Argv0);

  if (Name.starts_with("linkguard-")) {
    // linkguard-clang++ -> look for clang++; linkguard-clang -> clang.
    llvm::StringRef Wanted = Name.drop_front(strlen("linkguard-"));
    Inv.Kind = InvocationKind::CompilerDriver;
    Inv.Form = InvocationForm::Wrapper;
    Inv.Request.Lang = languageOf(Wanted);
    Inv.Request.WantedName = Wanted.str();
    Inv.Args = Args;
    return Inv;
  }

  if (Name != "linkguard") {
    // A masquerade symlink: the real compiler has our name, later on PATH.
    Inv.Kind = InvocationKind::CompilerDriver;
    Inv.Form = InvocationForm::Masquerade;
    Inv.Request.Masquerade = true;
    Inv.Request.Lang = languageOf(Name);
    Inv.Request.WantedName = Name.str();
    Inv.Args = Args;
    return Inv;
  }

  if (Args.empty()) {
    Inv.Kind = InvocationKind::Usage;
    return Inv;
  }
  const std::string &First = Args.front();
  if (First == "--help" || First == "-h") {
    Inv.Kind = InvocationKind::TopLevelHelp;
    return Inv;
  }
  if (First == "--version") {
    Inv.Kind = InvocationKind::TopLevelVersion;
    return Inv;
  }
  if (First == "version") {
    Inv.Kind = InvocationKind::TopLevelVersion;
    return Inv;
  }
  if (isSubcommand(First)) {
    Inv.Kind = InvocationKind::Subcommand;
    Inv.Subcommand = First;
    Inv.Args.assign(Args.begin() + 1, Args.end());
    return Inv;
  }
  // Launcher form: linkguard [OPTIONS] [--] /usr/bin/c++ <args>.
  size_t Start = 0;
  for (; Start < Args.size(); ++Start) {
    llvm::StringRef A(Args[Start]);
    if (A == "--") {
      ++Start;
      break;
    }
    if (!A.starts_with("-"))
      break;
    if (A == "--assume-define" || A.starts_with("--assume-define=")) {
      std::string Value;
      if (A == "--assume-define") {
        if (Start + 1 >= Args.size()) {
          Inv.Kind = InvocationKind::Usage;
          Inv.Problem = "--assume-define needs a macro name (--assume-define=USE_MPS)";
          return Inv;
        }
        Value = Args[++Start];
      } else {
        Value = A.drop_front(strlen("--assume-define=")).str();
      }
      auto [Macro, MacroValue] = llvm::StringRef(Value).split('=');
      if (Macro.empty() || Macro.front() == '-') {
        Inv.Kind = InvocationKind::Usage;
        Inv.Problem = "--assume-define needs a macro name, got '" + Value + "'";
        return Inv;
      }
      Inv.AssumedDefines.emplace_back(Macro.str(), MacroValue.str());
      continue;
    }
    if (A == "--assume-aot" || A == "--assume-aot=1") {
      Inv.AssumeAot = true;
      continue;
    }
    if (A == "--assume-aot=0") {
      Inv.AssumeAot = false;
      continue;
    }
    Inv.Kind = InvocationKind::Usage;
    Inv.Args = Args;
    Inv.Problem = "unknown option " + A.str() +
                  "; expected a subcommand (inspect, check, try-load, explain, run, env), "
                  "--help, --version, or launcher options (--assume-define=NAME, "
                  "--assume-aot) before a compiler command";
    return Inv;
  }
  if (Start >= Args.size()) {
    Inv.Kind = InvocationKind::Usage;
    Inv.Problem = "expected a compiler command after the launcher options "
                  "(linkguard --assume-define=USE_MPS -- clang++ ARGS...)";
    return Inv;
  }
  // "linkguard chek foo": a word close to a subcommand that names no
  // program is a typo, not a compiler (git's "did you mean"). A real
  // program of that name on PATH still runs: only then is the PATH read.
  if (Start == 0) {
    std::string Near = nearestSubcommand(First);
    if (!Near.empty() && !llvm::sys::findProgramByName(First)) {
      Inv.Kind = InvocationKind::Usage;
      Inv.Problem = "'" + First + "' is not a linkguard subcommand, and no compiler of that "
                    "name is on PATH; did you mean '" + Near + "'? (see linkguard --help)";
      return Inv;
    }
  }
  Inv.Kind = InvocationKind::CompilerDriver;
  Inv.Form = InvocationForm::Launcher;
  // "linkguard ccache clang++ ARGS": the compiler command is every word up
  // to the compiler word (docs/compiler-resolution.md).
  std::vector<std::string> Rest(std::next(Args.begin(), static_cast<std::ptrdiff_t>(Start)),
                                Args.end());
  size_t Word = compilerWordIndex(Rest);
  if (Word >= Rest.size())
    Word = Rest.size() - 1;
  Inv.Request.LauncherCommand.assign(Rest.begin(),
                                     std::next(Rest.begin(), static_cast<std::ptrdiff_t>(Word) + 1));
  llvm::StringRef Compiler = llvm::sys::path::filename(Rest[Word]);
  Inv.Request.Lang = languageOf(Compiler);
  Inv.Request.WantedName = Compiler.str();
  Inv.Args.assign(std::next(Rest.begin(), static_cast<std::ptrdiff_t>(Word) + 1), Rest.end());
  return Inv;
}

} // namespace linkguard::driver
