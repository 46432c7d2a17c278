//===- Names.cpp - printable names of objlib's enums ----------------------===//
#include "objlib/BinaryInfo.h"
#include "objlib/FormatReaders.h"
#include "objlib/Reader.h"
#include "support/EnumNames.h"

namespace linkguard::objlib {

const char *dependencyKindName(DependencyKind K) {
  return enumName(K,
                  {"LC_LOAD_DYLIB", "LC_LOAD_WEAK_DYLIB", "LC_REEXPORT_DYLIB",
                   "LC_LAZY_LOAD_DYLIB", "LC_LOAD_UPWARD_DYLIB", "DT_NEEDED"});
}

const char *referencedName(Referenced R) {
  return enumName(R, {"yes", "no", "unknown"});
}

const char *bindSourceName(BindSource S) {
  return enumName(S, {"bind", "weak-bind", "lazy-bind", "chained-fixup",
                      "nlist", "elf-version", "elf-symbol"});
}

const char *readErrorKindName(ReadErrorKind K) {
  return enumName(K, {"unreadable", "malformed", "unsupported"});
}

std::string fileTypeName(llvm::ArrayRef<FileTypeName> Names, uint32_t Value,
                         const char *Field) {
  for (const FileTypeName &N : Names)
    if (N.Value == Value)
      return N.Name;
  return std::string(Field) + " " + std::to_string(Value);
}

} // namespace linkguard::objlib
