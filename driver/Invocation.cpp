//===- Invocation.cpp - decide the mode from argv[0] ----------------------===//
#include "driver/Invocation.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Path.h"

namespace linkguard::driver {

bool isSubcommand(const std::string &Name) {
  for (const char *S : {"inspect", "check", "explain", "help"})
    if (Name == S)
      return true;
  return false;
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
    Inv.Request.Lang = languageOf(Wanted);
    Inv.Request.WantedName = Wanted.str();
    Inv.Args = Args;
    return Inv;
  }

  if (Name != "linkguard") {
    // A masquerade symlink: the real compiler has our name, later on PATH.
    Inv.Kind = InvocationKind::CompilerDriver;
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
  if (isSubcommand(First)) {
    Inv.Kind = InvocationKind::Subcommand;
    Inv.Subcommand = First;
    Inv.Args.assign(Args.begin() + 1, Args.end());
    return Inv;
  }
  if (First.front() == '-') {
    Inv.Kind = InvocationKind::Usage;
    Inv.Args = Args;
    return Inv;
  }
  // Launcher form: linkguard /usr/bin/c++ <args>. "--" may separate.
  size_t Start = First == "--" ? 1 : 0;
  if (Start >= Args.size()) {
    Inv.Kind = InvocationKind::Usage;
    return Inv;
  }
  Inv.Kind = InvocationKind::CompilerDriver;
  Inv.Request.LauncherCommand = {Args[Start]};
  llvm::StringRef Compiler = llvm::sys::path::filename(Args[Start]);
  Inv.Request.Lang = languageOf(Compiler);
  Inv.Request.WantedName = Compiler.str();
  Inv.Args.assign(Args.begin() + Start + 1, Args.end());
  return Inv;
}

} // namespace linkguard::driver
