//===- LibraryNames.cpp - library file names -------------------------------===//
#include "flags/LibraryNames.h"

#include "llvm/Support/Path.h"

namespace linkguard::flags {

std::string sharedLibraryName(llvm::StringRef Path) {
  llvm::StringRef File = llvm::sys::path::filename(Path);
  // ELF: libfoo.so or libfoo.so.1.2 (the soname's version follows ".so.").
  size_t End = File.find(".so");
  bool Shared = End != llvm::StringRef::npos &&
                (End + 3 == File.size() || File[End + 3] == '.');
  if (!Shared) {
    for (llvm::StringRef Suffix : {".dylib", ".tbd"})
      if (File.ends_with(Suffix)) {
        End = File.size() - Suffix.size();
        Shared = true;
        break;
      }
  }
  if (!Shared)
    return "";
  llvm::StringRef Stem = File.take_front(End);
  Stem.consume_front("lib");
  return Stem.str();
}

bool isLibraryFileName(llvm::StringRef Path) {
  return !sharedLibraryName(Path).empty() ||
         llvm::sys::path::filename(Path).ends_with(".a");
}

} // namespace linkguard::flags
