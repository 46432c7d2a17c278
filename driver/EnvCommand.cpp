//===- EnvCommand.cpp - `linkguard env`: export lines for a shell ---------===//
//
// Prints what `linkguard run` would set, as POSIX shell `export` lines (or
// fish `set -gx` lines) for `eval "$(linkguard env)"` or a CI step's
// environment. The values are the user's CXX/CC, so they are data: quoted
// so that nothing in them expands, and never a raw newline or other control
// character (a CXX of $'clang++\ntouch /tmp/p #' must not become a second
// command). Nothing is changed in linkguard's own environment.
//
//===----------------------------------------------------------------------===//
#include "driver/Commands.h"

#include "driver/BuildEnvironment.h"
#include "config/Config.h"
#include "driver/DriverError.h"
#include "driver/SelfPath.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <optional>

namespace linkguard::driver {

namespace {

constexpr const char *EnvHelp =
    "usage: linkguard env [--shell sh|fish]\n"
    "\n"
    "Prints the shell lines that set what `linkguard run` applies: CXX and\n"
    "CC set to linkguard-clang++ and linkguard-clang beside this linkguard,\n"
    "and the previous CXX/CC recorded as LINKGUARD_CXX/LINKGUARD_CC.\n"
    "Use it as:  eval \"$(linkguard env)\"\n"
    "      fish:  linkguard env --shell fish | source\n"
    "A CXX/CC that already runs linkguard is left out (never wrapped twice).\n"
    "Every value is quoted so that nothing in it is expanded or run; a value\n"
    "with a newline or another control character is spelled with escapes,\n"
    "never printed raw.\n"
    "\n"
    "  --shell sh    POSIX sh, dash, bash, zsh (the default)\n"
    "  --shell fish  fish\n"
    "  --help        this text\n";

enum class Shell { Sh, Fish };

bool isControl(char C) {
  auto U = static_cast<unsigned char>(C);
  return U < 0x20 || U == 0x7f;
}

/// "\012" for a newline (POSIX printf format escapes).
std::string octalEscape(char C) {
  auto U = static_cast<unsigned char>(C);
  return {'\\', static_cast<char>('0' + (U >> 6)),
          static_cast<char>('0' + ((U >> 3) & 7)),
          static_cast<char>('0' + (U & 7))};
}

/// "\x0a" for a newline (fish escapes; also how comments show them).
std::string hexEscape(char C) {
  auto U = static_cast<unsigned char>(C);
  const char *Digits = "0123456789abcdef";
  return {'\\', 'x', Digits[U >> 4], Digits[U & 15]};
}

/// POSIX single quoting: 'it'\''s' - nothing inside single quotes expands.
std::string shQuote(const std::string &S) {
  std::string Out = "'";
  for (char C : S)
    Out += C == '\'' ? std::string("'\\''") : std::string(1, C);
  return Out + "'";
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

/// fish: single-quoted runs ('\'' and '\\' are its only escapes there),
/// control characters as \xHH between them, all one word.
std::string fishLine(const std::string &Name, const std::string &Value) {
  std::string Word;
  bool InQuote = false;
  for (char C : Value) {
    if (isControl(C)) {
      if (InQuote)
        Word += '\'';
      InQuote = false;
      Word += hexEscape(C);
      continue;
    }
    if (!InQuote)
      Word += '\'';
    InQuote = true;
    if (C == '\'' || C == '\\')
      Word += '\\';
    Word += C;
  }
  if (InQuote)
    Word += '\'';
  if (Word.empty())
    Word = "''";
  return "set -gx " + Name + " " + Word;
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
  Shell Sh = Shell::Sh;
  for (size_t I = 0; I < Args.size(); ++I) {
    llvm::StringRef A = Args[I];
    if (A == "--help" || A == "-h") {
      llvm::outs() << EnvHelp;
      return 0;
    }
    std::optional<std::string> Name;
    if (A == "--shell" && I + 1 < Args.size())
      Name = Args[++I];
    else if (A.consume_front("--shell="))
      Name = A.str();
    if (Name && (*Name == "sh" || *Name == "fish")) {
      Sh = *Name == "fish" ? Shell::Fish : Shell::Sh;
      continue;
    }
    return reportError(makeDriverError(
        ExitCode::Usage,
        Name ? "env: unknown shell '" + *Name + "'; expected sh or fish"
             : "env: unexpected argument " + Args[I] +
                   "; expected --shell sh|fish or --help"));
  }
  auto Cfg = config::configFromEnvironment();
  if (!Cfg)
    return reportError(Cfg.takeError());
  auto Env = buildEnvironment(*Cfg, selfPath());
  if (!Env)
    return reportError(Env.takeError());
  // Why a variable is left out, as comments: the shell ignores them.
  for (const std::string &Note : Env->Notes)
    llvm::outs() << comment(Note) << "\n";
  for (const EnvAssignment &A : Env->Set)
    llvm::outs() << (Sh == Shell::Fish ? fishLine(A.Name, A.Value)
                                       : shLine(A.Name, A.Value))
                 << "\n";
  return 0;
}

} // namespace linkguard::driver
