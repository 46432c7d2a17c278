//===- FuzzObjlib.cpp - libFuzzer entry point for objlib::readBinary ------===//
//
// The bytes become a file and objlib::readBinary reads it, as `linkguard
// inspect`, `check` and the driver's verify step do with a link output.
// Seeds are small Mach-O (thin, universal, opcode and chained-fixup) and ELF
// binaries that scripts/fuzz links with the cross-link recipe of
// ../shared/README.md, the yaml2obj fixtures (tests/yaml, the crafted files
// of issue 12 among them) and tests/regression/fuzz_objlib. readBinary must
// return a BinaryInfo or a ReadError (objlib/Reader.h), never crash, hang or
// allocate without bound.
//
// The same bytes are also read from memory (readBinary(MemoryBufferRef)),
// where libObject sees all of them, and the two results must be identical:
// a file is read only in the ranges objlib loads (objlib/Image.h), and a
// byte libObject reads that was not loaded would read as zero. Any
// difference aborts, naming both results. A third read lists the imports
// of some dependencies only (ReadOptions, as check and verify read) and must
// differ from the full read in those lists alone; a fourth, without imports
// (the closure's), must equal the same read from memory. The dump includes the
// Mach-O facts dyld's validation reads and the refusals
// contract/DyldRules.h finds in them.
//
//===----------------------------------------------------------------------===//
#include "FuzzInput.h"

#include "contract/DyldRules.h"
#include "objlib/Reader.h"

#include "llvm/Support/raw_ostream.h"

#include <functional>

using namespace linkguard;
using namespace linkguard::objlib;

namespace {

void dumpImports(llvm::raw_ostream &OS, const char *Title,
                 const std::vector<Import> &Imports) {
  OS << "  " << Title << ":";
  for (const Import &I : Imports)
    OS << " [" << I.Symbol << "|" << bindSourceName(I.Source) << "|" << I.Weak
       << "]";
  OS << "\n";
}

/// A read's error as text. A ReadError is the only documented failure.
std::string dumpError(llvm::Error E) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  llvm::handleAllErrors(std::move(E), [&](const ReadError &R) {
    OS << "error " << readErrorKindName(R.kind()) << ": " << R.message();
  });
  return Out;
}

/// What dyld's validation reads (objlib::MachOLoadFacts), and what
/// contract/DyldRules.h judges from it: bounded on any input, and equal
/// for the file and the memory read.
void dumpMachOFacts(llvm::raw_ostream &OS, const Slice &S) {
  if (!S.MachO)
    return;
  const MachOLoadFacts &F = *S.MachO;
  OS << " macho " << F.CPUType << " " << F.FileType << " " << F.Flags << " "
     << F.SliceSize << " " << F.HeaderAndCommands << " uuid " << F.UUIDs
     << " id " << F.IDDylibs << " main " << F.Mains << " thread "
     << F.UnixThreads << " dylinker " << F.HasDylinker << " split "
     << F.HasSplitSegInfo << F.SplitSegMarker << " linkeropt "
     << F.MalformedLinkerOption << "\n";
  for (const MachOPlatform &P : F.Platforms)
    OS << " platform " << P.Platform << " " << P.MinOS << " " << P.SDK << " "
       << P.VersionMin << "\n";
  for (const std::string &D : F.LinkedDylibs)
    OS << " linked " << D << "\n";
  for (const auto &[Index, Cmd] : F.UnknownRequired)
    OS << " required " << Index << " " << Cmd << "\n";
  for (const MachOSegment &G : F.Segments) {
    OS << " segment " << G.Name << " " << G.VMAddr << " " << G.VMSize << " "
       << G.FileOff << " " << G.FileSize << " " << G.InitProt << " "
       << G.MaxProt << " " << G.Flags << "\n";
    for (const MachOSection &Sc : G.Sections)
      OS << "  section " << Sc.Name << " " << Sc.Addr << " " << Sc.Size << "\n";
  }
  for (const contract::DyldRefusal &R : contract::dyldRefusals(S))
    OS << " dyld " << R.Rule << " " << R.DyldMessage << " | " << R.Releases
       << " | " << R.FileSDK << "\n";
}

/// Everything a BinaryInfo holds, as text; with Listed, the import lists of
/// the dependencies it rejects print empty (as a read with
/// ReadOptions::ListImportsOf = Listed leaves them).
std::string dumpInfo(const BinaryInfo &Info,
                     const std::function<bool(llvm::StringRef)> &Listed = {}) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  OS << Info.Path << " fmt " << int(Info.Fmt) << " universal "
     << Info.Universal << "\n";
  for (const Slice &S : Info.Slices) {
    OS << "slice " << S.Arch << " " << S.FileType << " id "
       << S.InstallName.value_or("<none>") << " " << S.CurrentVersion << " "
       << S.CompatibilityVersion << "\n";
    for (const Dependency &D : S.Dependencies) {
      OS << " dep " << D.Ordinal << " " << D.Name << " "
         << dependencyKindName(D.Kind) << " " << D.CurrentVersion << " "
         << D.CompatibilityVersion << " " << referencedName(D.IsReferenced)
         << " count " << D.ImportCount << "\n";
      dumpImports(OS, "imports",
                  !Listed || Listed(D.Name) ? D.Imports : std::vector<Import>());
    }
    for (const SearchPath &P : S.SearchPaths)
      OS << " path " << int(P.Kind) << " " << P.Path << "\n";
    dumpImports(OS, "dynamic", S.DynamicLookupImports);
    dumpImports(OS, "executable", S.ExecutableImports);
    dumpImports(OS, "weak", S.WeakLookupImports);
    dumpImports(OS, "unattributed", S.UnattributedImports);
    for (const std::string &W : S.Warnings)
      OS << " warning " << W << "\n";
    dumpMachOFacts(OS, S);
  }
  return Out;
}

std::string dump(llvm::Expected<BinaryInfo> Info) {
  return Info ? dumpInfo(*Info) : dumpError(Info.takeError());
}

/// Two results that must be equal; otherwise both are printed and the
/// fuzzer stops.
void mustAgree(const char *Why, const char *NameA, const std::string &A,
               const char *NameB, const std::string &B) {
  if (A == B)
    return;
  llvm::errs() << "objlib: " << Why << "\n--- " << NameA << "\n"
               << A << "\n--- " << NameB << "\n"
               << B << "\n";
  std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  static fuzz::ScratchFile File(".bin");
  const std::string &Path = File.write(Data, Size);
  // A read that lists the imports of some dependencies only (what check and
  // verify do) must differ from the full read in those lists alone.
  ReadOptions Some;
  Some.ListImportsOf = [](llvm::StringRef Name) { return Name.size() % 2; };
  llvm::MemoryBufferRef Buffer(
      llvm::StringRef(reinterpret_cast<const char *>(Data), Size), Path);
  // The full read from memory is dumped twice: whole, and as the partial
  // read should see it.
  std::string FromMemory, FromMemoryListed;
  if (llvm::Expected<BinaryInfo> Memory = readBinary(Buffer, Path)) {
    FromMemory = dumpInfo(*Memory);
    FromMemoryListed = dumpInfo(*Memory, Some.ListImportsOf);
  } else {
    FromMemory = FromMemoryListed = dumpError(Memory.takeError());
  }
  mustAgree("reading the file and reading the same bytes from memory disagree",
            "file", dump(readBinary(Path)), "memory", FromMemory);
  mustAgree("a read without some import lists differs from the full read "
            "elsewhere",
            "full", FromMemoryListed, "partial",
            dump(readBinary(Buffer, Path, Some)));
  // The closure's read (no import table, .gnu.version_r for a wheel's
  // tree) loads less of the file (objlib/ELFLoad.cpp): what it then reads
  // must all be loaded too.
  ReadOptions Names;
  Names.Imports = false;
  Names.VersionNeeds = true;
  mustAgree("reading the file without imports and reading the same bytes from memory disagree",
            "file", dump(readBinary(Path, Names)), "memory", dump(readBinary(Buffer, Path, Names)));
  return 0;
}
