//===- Env.cpp - `linkguard env`: export lines for a shell -----------------===//
//
// Prints what `linkguard run` would set, as POSIX shell `export` lines (or
// fish `set -gx` lines) for `eval "$(linkguard env)"` or a CI step's
// environment. The values are the user's CXX/CC, so they are data: quoted
// so that nothing in them expands, and never a raw newline or other control
// character (a CXX of $'clang++\ntouch /tmp/p #' must not become a second
// command). Nothing is changed in linkguard's own environment.
//
//===----------------------------------------------------------------------===//
#include "commands/Commands.h"

#include "commands/BuildEnvironment.h"
#include "commands/CommandLine.h"
#include "commands/ShellQuote.h"
#include "config/Config.h"
#include "driver/DriverError.h"
#include "driver/SelfPath.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <optional>

namespace linkguard::commands {

namespace {

const CommandSpec Spec = {
    "env", EnvVis, "linkguard env [--shell sh|bash|zsh|fish]",
    "Prints the shell lines that set what `linkguard run` applies: CXX and CC set to\n"
    "the drop-ins beside this linkguard named for the real compiler's family\n"
    "(linkguard-g++/linkguard-gcc for GCC, linkguard-clang++/linkguard-clang for\n"
    "clang; unset CXX/CC: g++/gcc on Linux, clang++/clang on macOS), and the\n"
    "previous CXX/CC recorded as LINKGUARD_CXX/LINKGUARD_CC. Use it as:\n"
    "  eval \"$(linkguard env)\"           (POSIX sh, dash, bash, zsh)\n"
    "  linkguard env --shell fish | source\n"
    "A CXX/CC that already runs linkguard is left out (never wrapped twice). Every\n"
    "value is quoted so that nothing in it is expanded or run; a value with a\n"
    "newline or another control character is spelled with escapes, never printed\n"
    "raw.",
    ""};

enum class Shell { Sh, Fish };

/// "\012" for a newline (POSIX printf format escapes).
std::string octalEscape(char C) {
  auto U = static_cast<unsigned char>(C);
  return {'\\', static_cast<char>('0' + (U >> 6)),
          static_cast<char>('0' + ((U >> 3) & 7)),
          static_cast<char>('0' + (U & 7))};
}

/// One line that sets Name to Value in a POSIX shell. A value with a
/// control character goes through printf, whose format spells each such
/// byte as an octal escape (POSIX printf: \ddd); the trailing '_' keeps the
/// command substitution from eating trailing newlines and is removed again.
std::string shLine(const std::string &Name, const std::string &Value) {
  if (std::none_of(Value.begin(), Value.end(), isControl))
    return "export " + Name + "=" + shQuote(Value);
  std::string Fmt;
  for (char C : Value) {
    if (C == '%')
      Fmt += "%%";
    else if (C == '\\')
      Fmt += "\\\\";
    else if (isControl(C))
      Fmt += octalEscape(C);
    else
      Fmt += C;
  }
  return Name + "=$(printf " + shQuote(Fmt + "_") + "); export " + Name +
         "=\"${" + Name + "%_}\"";
}

/// fish: the value as one word, control characters as \xHH (fishWord).
std::string fishLine(const std::string &Name, const std::string &Value) {
  return "set -gx " + Name + " " + fishWord(Value);
}

/// A note as a comment: control characters shown as \xHH, so a newline in
/// a value cannot end the comment and start a command.
std::string comment(const std::string &Note) {
  std::string Out = "# ";
  for (char C : Note)
    Out += isControl(C) ? hexEscape(C) : std::string(1, C);
  return Out;
}

} // namespace

int runEnv(const std::vector<std::string> &Args) {
  ParsedCommandLine CL;
  if (std::optional<int> Stop = parseCommandLine(Spec, Args, CL))
    return *Stop;
  if (!CL.Positionals.empty())
    return usageError(Spec, "unexpected argument " + CL.Positionals.front() +
                                "; expected --shell sh|bash|zsh|fish or --help");
  Shell Sh = Shell::Sh;
  if (const llvm::opt::Arg *A = CL.Args.getLastArg(OPT_shell_EQ)) {
    llvm::StringRef Name = A->getValue();
    // bash, zsh, dash and ksh read POSIX sh's lines (shLine uses only
    // export, printf and ${X%_}).
    if (Name == "fish")
      Sh = Shell::Fish;
    else if (!llvm::is_contained({"sh", "bash", "zsh", "dash", "ksh"}, Name))
      return usageError(Spec, "unknown shell '" + Name.str() +
                                  "'; expected sh, bash, zsh, dash, ksh or fish");
  }
  auto Env = buildEnvironmentHere();
  if (!Env)
    return driver::reportError(Env.takeError());
  // Why a variable is left out, as comments: the shell ignores them.
  for (const std::string &Note : Env->Notes)
    llvm::outs() << comment(Note) << "\n";
  for (const EnvAssignment &A : Env->Set)
    llvm::outs() << (Sh == Shell::Fish ? fishLine(A.Name, A.Value)
                                       : shLine(A.Name, A.Value))
                 << "\n";
  return 0;
}

} // namespace linkguard::commands
