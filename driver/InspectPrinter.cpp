//===- InspectPrinter.cpp - text and JSON output of `linkguard inspect` ---===//
//
// The text layout copies llvm-otool -L (llvm-objdump's PrintDylibs): a
// "FILE:" line, the dylib's own LC_ID_DYLIB first, then one tab-indented
// line per dependency with ", weak" / ", reexport" / ", lazy" / ", upward"
// before the closing parenthesis. Extras (--symbols, --rpaths) only add
// lines, so the default output stays diffable against otool.
//
// Every name comes from the file (or the command line) and goes through
// printable(): a newline in an install name must not forge a dependency
// line, nor an escape sequence recolour or retitle the terminal.
//
//===----------------------------------------------------------------------===//
#include "driver/InspectPrinter.h"

#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/Format.h"

using namespace llvm;
using namespace linkguard::objlib;

namespace linkguard::driver {
namespace {

/// Name as text that cannot break a line or reach the terminal: C0 controls,
/// DEL, C1 controls (U+0080-U+009F) and bytes that are not UTF-8 become \n,
/// \t, \r or \xHH, and a backslash is doubled so the escaping can be undone.
/// Ordinary names, UTF-8 ones included, print as stored (otool's bytes).
std::string printable(StringRef Name) {
  std::string Out;
  Out.reserve(Name.size());
  raw_string_ostream OS(Out);
  const auto *P = reinterpret_cast<const UTF8 *>(Name.begin());
  const auto *End = reinterpret_cast<const UTF8 *>(Name.end());
  while (P < End) {
    UTF8 C = *P;
    if (C >= 0x80) {
      unsigned N = getNumBytesForUTF8(C);
      bool C1 = C == 0xC2 && End - P >= 2 && P[1] < 0xA0;
      if (N <= static_cast<size_t>(End - P) && isLegalUTF8Sequence(P, P + N) &&
          !C1) {
        OS << StringRef(reinterpret_cast<const char *>(P), N);
        P += N;
        continue;
      }
    }
    ++P;
    if (C == '\\')
      OS << "\\\\";
    else if (C == '\n')
      OS << "\\n";
    else if (C == '\t')
      OS << "\\t";
    else if (C == '\r')
      OS << "\\r";
    else if (C < 0x20 || C >= 0x7F)
      OS << "\\x" << format_hex_no_prefix(C, 2);
    else
      OS << char(C);
  }
  return Out;
}

const char *kindSuffix(DependencyKind K) {
  switch (K) {
  case DependencyKind::Weak:
    return ", weak";
  case DependencyKind::Reexport:
    return ", reexport";
  case DependencyKind::Lazy:
    return ", lazy";
  case DependencyKind::Upward:
    return ", upward";
  case DependencyKind::Load:
  case DependencyKind::Needed:
    return "";
  }
  return "";
}

const char *searchPathKindName(Format F, SearchPathKind K) {
  if (F == Format::MachO)
    return "LC_RPATH";
  return K == SearchPathKind::RPath ? "DT_RPATH" : "DT_RUNPATH";
}

void printImports(raw_ostream &OS, const std::vector<Import> &Imports) {
  for (const Import &I : Imports) {
    OS << "\t\t" << printable(I.Symbol) << " (" << bindSourceName(I.Source);
    if (I.Weak)
      OS << ", weak import";
    OS << ")\n";
  }
}

void printImportGroup(raw_ostream &OS, const char *Title,
                      const std::vector<Import> &Imports) {
  if (Imports.empty())
    return;
  OS << "\t" << Title << ":\n";
  printImports(OS, Imports);
}

json::Value importsToJSON(const std::vector<Import> &Imports) {
  json::Array A;
  for (const Import &I : Imports)
    A.push_back(json::Object{{"symbol", I.Symbol},
                             {"source", bindSourceName(I.Source)},
                             {"weak", I.Weak}});
  return A;
}

json::Value optionalString(const std::string &S) {
  if (S.empty())
    return nullptr;
  return S;
}

} // namespace

std::string sliceTitle(const BinaryInfo &Info, const Slice &S) {
  if (Info.Universal)
    return printable(Info.Path) + " (architecture " + printable(S.Arch) + ")";
  return printable(Info.Path);
}

void printInspectText(raw_ostream &OS, const BinaryInfo &Info,
                      const InspectOptions &Opts) {
  for (const Slice &S : Info.Slices) {
    OS << sliceTitle(Info, S) << ":\n";
    // otool -L lists LC_ID_DYLIB among the dependencies; ELF's DT_SONAME
    // is not a dependency and is not printed.
    if (Info.Fmt == Format::MachO && S.InstallName)
      OS << "\t" << printable(*S.InstallName) << " (compatibility version "
         << S.CompatibilityVersion << ", current version " << S.CurrentVersion
         << ")\n";
    for (const Dependency &D : S.Dependencies) {
      OS << "\t" << printable(D.Name);
      if (Info.Fmt == Format::MachO)
        OS << " (compatibility version " << D.CompatibilityVersion
           << ", current version " << D.CurrentVersion << kindSuffix(D.Kind)
           << ")";
      OS << "\n";
      if (Opts.Symbols) {
        OS << "\t\treferenced: " << referencedName(D.IsReferenced) << "\n";
        printImports(OS, D.Imports);
      }
    }
    if (Opts.Symbols) {
      printImportGroup(OS, "dynamic lookup", S.DynamicLookupImports);
      printImportGroup(OS, "executable", S.ExecutableImports);
      printImportGroup(OS, "weak lookup", S.WeakLookupImports);
      printImportGroup(OS, "unattributed", S.UnattributedImports);
    }
    if (Opts.RPaths)
      for (const SearchPath &P : S.SearchPaths)
        OS << "\t" << searchPathKindName(Info.Fmt, P.Kind) << " "
           << printable(P.Path) << "\n";
  }
}

json::Value inspectToJSON(const BinaryInfo &Info) {
  json::Array Slices;
  for (const Slice &S : Info.Slices) {
    json::Array Deps;
    for (const Dependency &D : S.Dependencies)
      Deps.push_back(json::Object{
          {"name", D.Name},
          {"kind", dependencyKindName(D.Kind)},
          {"ordinal", D.Ordinal},
          {"currentVersion", optionalString(D.CurrentVersion)},
          {"compatibilityVersion", optionalString(D.CompatibilityVersion)},
          {"referenced", referencedName(D.IsReferenced)},
          {"imports", importsToJSON(D.Imports)},
      });
    json::Array Paths;
    for (const SearchPath &P : S.SearchPaths)
      Paths.push_back(json::Object{
          {"path", P.Path}, {"kind", searchPathKindName(Info.Fmt, P.Kind)}});
    json::Array Warnings;
    for (const std::string &W : S.Warnings)
      Warnings.push_back(W);
    json::Value Install = nullptr;
    if (S.InstallName)
      Install = *S.InstallName;
    Slices.push_back(json::Object{
        {"arch", S.Arch},
        {"fileType", S.FileType},
        {"installName", std::move(Install)},
        {"currentVersion", optionalString(S.CurrentVersion)},
        {"compatibilityVersion", optionalString(S.CompatibilityVersion)},
        {"dependencies", std::move(Deps)},
        {"searchPaths", std::move(Paths)},
        {"dynamicLookupImports", importsToJSON(S.DynamicLookupImports)},
        {"executableImports", importsToJSON(S.ExecutableImports)},
        {"weakLookupImports", importsToJSON(S.WeakLookupImports)},
        {"unattributedImports", importsToJSON(S.UnattributedImports)},
        {"warnings", std::move(Warnings)},
    });
  }
  return json::Object{
      {"path", Info.Path},
      {"format", Info.Fmt == Format::MachO ? "mach-o" : "elf"},
      {"universal", Info.Universal},
      {"slices", std::move(Slices)},
  };
}

} // namespace linkguard::driver
