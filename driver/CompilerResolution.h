//===- CompilerResolution.h - which real compiler to run ---------*- C++ -*-===//
//
// The order (docs/compiler-resolution.md):
//   1. LINKGUARD_CXX (C mode: LINKGUARD_CC);
//   2. the user's CXX (CC) unless any of its words is linkguard itself -
//      cpp_builder already runs $CXX, so the user's compiler is honoured;
//   3. the next executable on PATH with the wanted name that is not linkguard
//      (canonical paths compared, like ccache's find_non_ccache_executable);
//   4. clang++ (clang) on PATH.
// A launcher call (`linkguard <compiler> args...`) names the compiler itself.
// Variables may hold a command with arguments ("ccache clang++"): they are
// split like a shell word list, without running a shell.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "config/Config.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace linkguard::driver {

enum class Language { Cxx, C };

/// The resolved compiler: an absolute executable plus leading arguments
/// ("ccache" + {"clang++"} for CXX="ccache clang++").
struct CompilerCommand {
  std::string Executable;          // absolute path, for execv
  std::vector<std::string> Prefix; // argv[0] and the arguments from CXX
  std::string Origin;              // "LINKGUARD_CXX", "CXX", "PATH", "launcher"
};

struct ResolveRequest {
  Language Lang = Language::Cxx;
  /// The name to look for on PATH: "clang++" for linkguard-clang++, the
  /// invoked name for a masquerade symlink ("c++"), or the launcher's
  /// compiler word.
  std::string WantedName = "clang++";
  /// Set for the launcher form: the compiler words came from argv.
  std::vector<std::string> LauncherCommand;
  /// Invoked through a masquerade link: the name decides (CXX is not read,
  /// LINKGUARD_CXX only for the same target prefix).
  bool Masquerade = false;
  /// Canonical path of the running linkguard binary.
  std::string SelfPath;
};

/// Programs that run the compiler named by their next word (ccache,
/// sccache, distcc, icecc, buildcache): "ccache clang++ -c a.cpp" compiles
/// with clang++. Matched by file name.
bool isCompilerLauncher(llvm::StringRef Word);

/// The index of the compiler word in a compiler command: the first word
/// that is not a compiler launcher ("ccache distcc clang++" -> 2). A launcher
/// with nothing after it (distcc alone picks "cc") is its own compiler word.
size_t compilerWordIndex(const std::vector<std::string> &Words);

/// Splits a shell-like word list: whitespace separates, single and double
/// quotes and backslash escapes group. No expansion of any kind.
llvm::Expected<std::vector<std::string>> splitCommandWords(const std::string &S);

/// True when Path (resolved through symlinks) is the linkguard binary, or
/// its file name marks it as linkguard.
bool isLinkguard(const std::string &Path, const std::string &SelfPath);

/// When Exe is a compiler cache's masquerade link (/usr/lib/ccache/clang++,
/// a link to ccache under a compiler's name): the compiler the cache runs
/// for it, the first of that name on PATH that is neither a cache nor
/// linkguard (ccache's find_executable_in_path). Empty otherwise, or when
/// PATH holds none. `linkguard --version` names it.
std::string compilerPastCacheMasquerade(const std::string &Exe, const std::string &PathVar,
                                        const std::string &SelfPath);

/// Finds Name on PATH (or as given when it contains a slash), skipping
/// linkguard itself. Empty when none.
std::string findExecutable(const std::string &Name, const std::string &PathVar,
                           const std::string &SelfPath);

/// True when any word of a compiler command (CXX="ccache linkguard-clang++")
/// is linkguard: by name, by path, or as the first hit of a bare name on
/// PATH (a masquerade directory). Then the command says nothing about the
/// real compiler.
bool anyWordIsLinkguard(const std::vector<std::string> &Words, const config::Config &Cfg,
                        const std::string &SelfPath);

llvm::Expected<CompilerCommand> resolveCompiler(const ResolveRequest &Req,
                                                const config::Config &Cfg);

} // namespace linkguard::driver
