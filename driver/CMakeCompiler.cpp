//===- CMakeCompiler.cpp - linkguard as CMake's compiler, said once -------===//
#include "driver/CMakeCompiler.h"

#include "driver/Logging.h"
#include "support/Printable.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <unistd.h>

namespace linkguard::driver {

bool isCMakeTargetObject(const std::string &Path) {
  llvm::StringRef P(Path);
  size_t At = P.find("CMakeFiles/");
  if (At == llvm::StringRef::npos || (At != 0 && P[At - 1] != '/'))
    return false;
  llvm::StringRef Rest = P.drop_front(At + llvm::StringRef("CMakeFiles/").size());
  size_t Dir = Rest.find(".dir/");
  return Dir != llvm::StringRef::npos && Dir != 0 && !Rest.take_front(Dir).contains('/');
}

/// The nearest directory at or above the working directory that holds
/// CMakeCache.txt, at most 64 levels up; "" when none, or when it is a
/// try_compile project inside a build's CMakeFiles/ (CMake shows none of
/// its output).
static std::string cmakeBuildDir() {
  llvm::SmallString<256> Dir;
  if (llvm::sys::fs::current_path(Dir))
    return {};
  for (int Level = 0; Level < 64 && !Dir.empty(); ++Level) {
    llvm::SmallString<256> Cache(Dir);
    llvm::sys::path::append(Cache, "CMakeCache.txt");
    if (llvm::sys::fs::is_regular_file(Cache)) {
      if (llvm::StringRef(Dir).contains("/CMakeFiles/"))
        return {};
      return std::string(Dir);
    }
    llvm::StringRef Parent = llvm::sys::path::parent_path(Dir);
    if (Parent == Dir)
      break;
    Dir = Parent.str();
  }
  return {};
}

/// The toolchain file beside this linkguard when installed
/// (<prefix>/bin/linkguard, <prefix>/share/linkguard/cmake/...), else the
/// placeholder the README uses.
static std::string toolchainFile(const std::string &SelfPath) {
  llvm::SmallString<256> F(llvm::sys::path::parent_path(llvm::sys::path::parent_path(SelfPath)));
  llvm::sys::path::append(F, "share", "linkguard", "cmake", "linkguard-toolchain.cmake");
  if (!SelfPath.empty() && llvm::sys::fs::is_regular_file(F))
    return std::string(F);
  return "<prefix>/share/linkguard/cmake/linkguard-toolchain.cmake";
}

void noteCMakeCompiler(const Job &J, const Plan &P, const config::Config &Cfg,
                       const std::string &SelfPath, const std::string &WantedName) {
  if (J.Form != InvocationForm::Wrapper || P.Cls.Ph != flags::Phase::Link ||
      Cfg.RunMode == config::Mode::Off)
    return;
  bool CMakeLink = false;
  for (const flags::Input &I : P.Cls.Inputs)
    if (isCMakeTargetObject(I.Path)) {
      CMakeLink = true;
      break;
    }
  if (!CMakeLink)
    return;
  const std::string Build = cmakeBuildDir();
  if (Build.empty())
    return;
  llvm::SmallString<256> Marker(Build);
  llvm::sys::path::append(Marker, "CMakeFiles", CMakeCompilerMarker);
  if (llvm::sys::fs::exists(Marker))
    return;
  int FD = -1;
  if (llvm::sys::fs::openFileForWrite(Marker, FD, llvm::sys::fs::CD_CreateNew))
    return; // another link said it, or the build directory is not writable
  static const char Text[] = "said by the first link run as linkguard-clang++ "
                             "(driver/CMakeCompiler.h)\n";
  (void)!::write(FD, Text, sizeof(Text) - 1);
  ::close(FD);
  const std::string Name = "linkguard-" + WantedName;
  printDiagnostic(
      "warning",
      "this CMake build runs " + printable(Name) +
          " as its compiler (CXX, CC or CMAKE_<LANG>_COMPILER at configure): CMake derived "
          "ar, ranlib and the LTO tools from that name, not the real compiler's (IPO off), "
          "and its link lines carry no compile definitions, so the rules see USE_MPS only "
          "where you add it to the link. Keep your compiler and put linkguard on the "
          "links: in a fresh build directory, unset CXX and CC and configure with "
          "-DCMAKE_TOOLCHAIN_FILE=" +
          printable(toolchainFile(SelfPath)) + " (docs/integration.md). Said once for " +
          printable(Build) + ".");
}

} // namespace linkguard::driver
