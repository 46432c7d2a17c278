//===- LibraryGroups.cpp - named families of libraries --------------------===//
#include "contract/LibraryGroups.h"

#include "llvm/ADT/StringRef.h"

namespace linkguard::contract {

std::string fileNameOf(const std::string &InstallName) {
  auto Slash = InstallName.find_last_of('/');
  return Slash == std::string::npos ? InstallName
                                    : InstallName.substr(Slash + 1);
}

// A shared-library suffix: ".dylib", ".so", or ".so.<anything>".
static bool hasSharedSuffix(llvm::StringRef Rest) {
  return Rest.ends_with(".dylib") || Rest.ends_with(".so") ||
         Rest.contains(".so.");
}

bool isOpenMPLibrary(const std::string &InstallName) {
  // Keep the file name alive: a StringRef over the temporary would dangle
  // (found by the ASan run of the unit tests).
  const std::string File = fileNameOf(InstallName);
  llvm::StringRef Name(File);
  // libomp.dylib, libomp.5.dylib, libomp.so.5, libiomp5.dylib, libgomp.so.1;
  // "libompstuff" would match too, which is intended: every spelling counts.
  for (llvm::StringRef Prefix : {"libomp", "libiomp5", "libgomp"})
    if (Name.starts_with(Prefix) && hasSharedSuffix(Name))
      return true;
  return false;
}

bool isLibSystem(const std::string &InstallName) {
  return fileNameOf(InstallName) == "libSystem.B.dylib";
}

} // namespace linkguard::contract
