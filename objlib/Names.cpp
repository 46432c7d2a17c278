//===- Names.cpp - printable names of objlib's enums ----------------------===//
#include "objlib/BinaryInfo.h"
#include "objlib/Reader.h"

namespace linkguard::objlib {

const char *dependencyKindName(DependencyKind K) {
  switch (K) {
  case DependencyKind::Load: return "LC_LOAD_DYLIB";
  case DependencyKind::Weak: return "LC_LOAD_WEAK_DYLIB";
  case DependencyKind::Reexport: return "LC_REEXPORT_DYLIB";
  case DependencyKind::Lazy: return "LC_LAZY_LOAD_DYLIB";
  case DependencyKind::Upward: return "LC_LOAD_UPWARD_DYLIB";
  case DependencyKind::Needed: return "DT_NEEDED";
  }
  return "?";
}

const char *referencedName(Referenced R) {
  switch (R) {
  case Referenced::Yes: return "yes";
  case Referenced::No: return "no";
  case Referenced::Unknown: return "unknown";
  }
  return "?";
}

const char *bindSourceName(BindSource S) {
  switch (S) {
  case BindSource::Bind: return "bind";
  case BindSource::WeakBind: return "weak-bind";
  case BindSource::LazyBind: return "lazy-bind";
  case BindSource::ChainedFixup: return "chained-fixup";
  case BindSource::Nlist: return "nlist";
  case BindSource::ELFVersion: return "elf-version";
  case BindSource::ELFSymbol: return "elf-symbol";
  }
  return "?";
}

const char *readErrorKindName(ReadErrorKind K) {
  switch (K) {
  case ReadErrorKind::Unreadable: return "unreadable";
  case ReadErrorKind::Malformed: return "malformed";
  case ReadErrorKind::Unsupported: return "unsupported";
  }
  return "malformed";
}

} // namespace linkguard::objlib
