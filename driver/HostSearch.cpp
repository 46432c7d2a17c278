//===- HostSearch.cpp -----------------------------------------------------===//
#include "driver/HostSearch.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

namespace linkguard::driver {

const std::vector<std::string> &hostCompilerDirs() {
#ifdef __APPLE__
  static const std::vector<std::string> Dirs = {"/opt/homebrew/bin",
                                                "/usr/local/bin"};
#else
  static const std::vector<std::string> Dirs;
#endif
  return Dirs;
}

std::string fallbackSearchPath(const std::optional<std::string> &PathVar,
                               const std::vector<std::string> &Extra) {
  // What execvp uses when PATH is unset, plus /usr/local/bin.
  std::string Path = PathVar.value_or("/usr/local/bin:/usr/bin:/bin");
  llvm::SmallVector<llvm::StringRef, 16> Have;
  llvm::StringRef(Path).split(Have, ':');
  std::string Out = Path;
  for (const std::string &Dir : Extra) {
    if (llvm::is_contained(Have, Dir))
      continue;
    Out += (Out.empty() ? "" : ":") + Dir;
  }
  return Out;
}

} // namespace linkguard::driver
