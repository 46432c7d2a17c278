//===- MachOReader.cpp - dependencies and imports of one Mach-O image -----===//
//
// A linked Mach-O image names the libraries it needs in LC_LOAD_DYLIB,
// LC_LOAD_WEAK_DYLIB, LC_REEXPORT_DYLIB, LC_LAZY_LOAD_DYLIB and
// LC_LOAD_UPWARD_DYLIB commands; the n-th of them, in load-command order, is
// library ordinal n. Under the two-level namespace every imported symbol
// carries the ordinal of the library dyld must bind it from, in up to three
// places:
//
//  - the dyld opcode tables of LC_DYLD_INFO[_ONLY]: bind, lazy-bind and
//    weak-bind (ld64's default before macOS 12, lld's default);
//  - LC_DYLD_CHAINED_FIXUPS: an import table that pointer chains in the data
//    pages index into (Apple ld's default from macOS 12, lld -fixup_chains);
//  - the symbol table: each undefined nlist has the ordinal in n_desc >> 8.
//
// Special ordinals: 0 is the image itself, -1 (nlist 0xff) the main
// executable, -2 (nlist 0xfe) flat "dynamic lookup" as produced by
// -undefined dynamic_lookup, and -3 weak-definition coalescing (tables only).
// The tables are what dyld executes, so they decide where a symbol goes; the
// nlist ordinals only cross-check them, and supply symbols a damaged table
// did not yield.
//
// A library with at least one import is referenced. "Not referenced" is
// claimed only when every table decoded cleanly and the image uses the
// two-level namespace; otherwise the answer is Unknown, so a verifier never
// passes because a table could not be read.
//
//===----------------------------------------------------------------------===//
#include "objlib/FormatReaders.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/BinaryFormat/MachO.h"
#include "llvm/Object/MachO.h"

#include <string>

using namespace llvm;
using namespace llvm::object;

namespace linkguard::objlib {
namespace {

std::string formatVersion(uint32_t V) {
  // Mach-O packs versions as xxxx.yy.zz; printed the way otool -L does.
  return std::to_string((V >> 16) & 0xffff) + "." +
         std::to_string((V >> 8) & 0xff) + "." + std::to_string(V & 0xff);
}

const char *fileTypeName(uint32_t FileType) {
  switch (FileType) {
  case MachO::MH_OBJECT:
    return "object";
  case MachO::MH_EXECUTE:
    return "executable";
  case MachO::MH_DYLIB:
    return "dylib";
  case MachO::MH_BUNDLE:
    return "bundle";
  case MachO::MH_DYLIB_STUB:
    return "dylib_stub";
  case MachO::MH_DYLINKER:
    return "dylinker";
  case MachO::MH_CORE:
    return "core";
  case MachO::MH_PRELOAD:
    return "preload";
  case MachO::MH_DSYM:
    return "dsym";
  case MachO::MH_KEXT_BUNDLE:
    return "kext_bundle";
  case MachO::MH_FILESET:
    return "fileset";
  }
  return nullptr;
}

std::optional<DependencyKind> dependencyKind(uint32_t Cmd) {
  switch (Cmd) {
  case MachO::LC_LOAD_DYLIB:
    return DependencyKind::Load;
  case MachO::LC_LOAD_WEAK_DYLIB:
    return DependencyKind::Weak;
  case MachO::LC_REEXPORT_DYLIB:
    return DependencyKind::Reexport;
  case MachO::LC_LAZY_LOAD_DYLIB:
    return DependencyKind::Lazy;
  case MachO::LC_LOAD_UPWARD_DYLIB:
    return DependencyKind::Upward;
  }
  return std::nullopt;
}

/// The NUL-terminated string at Offset inside one load command. libObject
/// already rejects an offset past cmdsize when it opens the file; this
/// repeats the check so the reader does not depend on that.
std::string commandString(const MachOObjectFile::LoadCommandInfo &Load,
                          uint32_t Offset, unsigned Index, const char *What,
                          std::vector<std::string> &Warnings) {
  if (Offset >= Load.C.cmdsize) {
    Warnings.push_back("load command " + std::to_string(Index) + ": " + What +
                       " offset " + std::to_string(Offset) +
                       " is past the end of the command");
    return "";
  }
  StringRef Raw(Load.Ptr + Offset, Load.C.cmdsize - Offset);
  size_t Nul = Raw.find('\0');
  if (Nul == StringRef::npos)
    Warnings.push_back("load command " + std::to_string(Index) + ": " + What +
                       " is not NUL-terminated");
  return Raw.substr(0, Nul).str();
}

/// Files every import into the list its ordinal names, once per
/// (list, symbol, source), remembering what it could not place.
class ImportSink {
public:
  explicit ImportSink(Slice &S) : S(S) {}

  void add(int Ordinal, StringRef Symbol, BindSource Source, bool Weak) {
    std::vector<Import> *List = listFor(Ordinal, Symbol);
    std::string Key = std::to_string(Ordinal) + "\1" + bindSourceName(Source) +
                      "\1" + Symbol.str();
    if (!Seen.insert(Key).second)
      return;
    List->push_back(Import{Symbol.str(), Source, Weak});
  }

  void addWeakLookup(StringRef Symbol, BindSource Source) {
    std::string Key =
        "weak\1" + std::string(bindSourceName(Source)) + "\1" + Symbol.str();
    if (Seen.insert(Key).second)
      S.WeakLookupImports.push_back(Import{Symbol.str(), Source, false});
  }

  /// Something went wrong: an absent import no longer proves anything.
  bool Incomplete = false;

private:
  std::vector<Import> *listFor(int Ordinal, StringRef Symbol) {
    if (Ordinal >= 1 && static_cast<size_t>(Ordinal) <= S.Dependencies.size())
      return &S.Dependencies[Ordinal - 1].Imports;
    switch (Ordinal) {
    case MachO::BIND_SPECIAL_DYLIB_SELF:
    case MachO::BIND_SPECIAL_DYLIB_MAIN_EXECUTABLE:
      return &S.ExecutableImports;
    case MachO::BIND_SPECIAL_DYLIB_FLAT_LOOKUP:
      return &S.DynamicLookupImports;
    case MachO::BIND_SPECIAL_DYLIB_WEAK_LOOKUP:
      return &S.WeakLookupImports;
    }
    S.Warnings.push_back("symbol " + Symbol.str() + " has library ordinal " +
                         std::to_string(Ordinal) + " but the image loads " +
                         std::to_string(S.Dependencies.size()) + " libraries");
    Incomplete = true;
    return &S.UnattributedImports;
  }

  Slice &S;
  StringSet<> Seen;
};

/// The first table ordinal seen for each symbol, for the nlist cross-check.
using OrdinalMap = StringMap<int>;

void readLoadCommands(const MachOObjectFile &Obj, Slice &S) {
  unsigned Index = 0;
  for (const MachOObjectFile::LoadCommandInfo &Load : Obj.load_commands()) {
    uint32_t Cmd = Load.C.cmd;
    if (Cmd == MachO::LC_ID_DYLIB) {
      MachO::dylib_command DL = Obj.getDylibIDLoadCommand(Load);
      if (S.InstallName)
        S.Warnings.push_back("load command " + std::to_string(Index) +
                             ": a second LC_ID_DYLIB");
      else {
        S.InstallName = commandString(Load, DL.dylib.name, Index,
                                      "LC_ID_DYLIB name", S.Warnings);
        S.CurrentVersion = formatVersion(DL.dylib.current_version);
        S.CompatibilityVersion = formatVersion(DL.dylib.compatibility_version);
      }
    } else if (std::optional<DependencyKind> Kind = dependencyKind(Cmd)) {
      MachO::dylib_command DL = Obj.getDylibIDLoadCommand(Load);
      Dependency D;
      D.Name =
          commandString(Load, DL.dylib.name, Index, "dylib name", S.Warnings);
      D.Kind = *Kind;
      D.CurrentVersion = formatVersion(DL.dylib.current_version);
      D.CompatibilityVersion = formatVersion(DL.dylib.compatibility_version);
      D.Ordinal = S.Dependencies.size() + 1;
      S.Dependencies.push_back(std::move(D));
    } else if (Cmd == MachO::LC_RPATH) {
      MachO::rpath_command RP = Obj.getRpathCommand(Load);
      S.SearchPaths.push_back(SearchPath{
          commandString(Load, RP.path, Index, "LC_RPATH path", S.Warnings),
          SearchPathKind::RPath});
    }
    ++Index;
  }
}

/// A bind table can encode a loop of any count in a few bytes; each real
/// entry binds one pointer stored in the file, so more entries than the file
/// has bytes means the table is damaged.
uint64_t entryCap(const MachOObjectFile &Obj) {
  return Obj.getData().size() + 1024;
}

void readOpcodeTable(MachOObjectFile &Obj, MachOBindEntry::Kind Kind,
                     ImportSink &Sink, OrdinalMap &TableOrdinals, Slice &S) {
  const char *Name = Kind == MachOBindEntry::Kind::Regular ? "bind"
                     : Kind == MachOBindEntry::Kind::Lazy  ? "lazy-bind"
                                                           : "weak-bind";
  BindSource Source = Kind == MachOBindEntry::Kind::Regular ? BindSource::Bind
                      : Kind == MachOBindEntry::Kind::Lazy
                          ? BindSource::LazyBind
                          : BindSource::WeakBind;
  Error Err = Error::success();
  auto Table = Kind == MachOBindEntry::Kind::Regular ? Obj.bindTable(Err)
               : Kind == MachOBindEntry::Kind::Lazy  ? Obj.lazyBindTable(Err)
                                                     : Obj.weakBindTable(Err);
  uint64_t Count = 0, Cap = entryCap(Obj);
  for (const MachOBindEntry &E : Table) {
    if (++Count > Cap) {
      S.Warnings.push_back(std::string(Name) + " table has more entries than "
                                               "the file can hold; stopped");
      Sink.Incomplete = true;
      break;
    }
    if (Kind == MachOBindEntry::Kind::Weak) {
      // A weak-bind entry flagged NON_WEAK_DEFINITION announces a strong
      // definition in this image, not an import.
      if (!(E.flags() & MachO::BIND_SYMBOL_FLAGS_NON_WEAK_DEFINITION))
        Sink.addWeakLookup(E.symbolName(), Source);
      continue;
    }
    bool Weak = E.flags() & MachO::BIND_SYMBOL_FLAGS_WEAK_IMPORT;
    Sink.add(E.ordinal(), E.symbolName(), Source, Weak);
    TableOrdinals.try_emplace(E.symbolName(), E.ordinal());
  }
  if (Err) {
    S.Warnings.push_back(std::string(Name) +
                         " table: " + toString(std::move(Err)));
    Sink.Incomplete = true;
  }
}

/// Returns whether the image has LC_DYLD_CHAINED_FIXUPS.
bool readChainedFixups(MachOObjectFile &Obj, ImportSink &Sink,
                       OrdinalMap &TableOrdinals, Slice &S) {
  Expected<std::optional<MachO::dyld_chained_fixups_header>> Header =
      Obj.getChainedFixupsHeader();
  if (!Header) {
    S.Warnings.push_back("LC_DYLD_CHAINED_FIXUPS: " +
                         toString(Header.takeError()));
    Sink.Incomplete = true;
    return true;
  }
  if (!*Header)
    return false;

  // The import table is what dyld resolves at load time, every entry of it,
  // whether or not a chain points at it: so it alone decides attribution.
  Expected<std::vector<ChainedFixupTarget>> Targets =
      Obj.getDyldChainedFixupTargets();
  if (!Targets) {
    S.Warnings.push_back("chained fixups imports: " +
                         toString(Targets.takeError()));
    Sink.Incomplete = true;
    return true;
  }
  for (ChainedFixupTarget &T : *Targets) {
    if (T.weakBind()) {
      Sink.addWeakLookup(T.symbolName(), BindSource::ChainedFixup);
      continue;
    }
    Sink.add(T.libOrdinal(), T.symbolName(), BindSource::ChainedFixup,
             T.weakImport());
    TableOrdinals.try_emplace(T.symbolName(), T.libOrdinal());
  }

  // Walk the chains too: a broken chain means dyld would refuse the image,
  // which the caller should hear about even though imports are complete.
  Error Err = Error::success();
  uint64_t Count = 0, Cap = entryCap(Obj);
  for (const MachOChainedFixupEntry &E : Obj.fixupTable(Err)) {
    (void)E;
    if (++Count > Cap) {
      S.Warnings.push_back("chained fixups have more entries than the file "
                           "can hold; stopped");
      break;
    }
  }
  if (Err)
    S.Warnings.push_back("chained fixups: " + toString(std::move(Err)));
  return true;
}

/// nlist n_desc ordinals use 8 bits: 0xfe and 0xff are the special values
/// the tables spell -2 and -1.
int nlistOrdinal(uint16_t Desc) {
  uint8_t Ord = MachO::GET_LIBRARY_ORDINAL(Desc);
  if (Ord == MachO::DYNAMIC_LOOKUP_ORDINAL)
    return MachO::BIND_SPECIAL_DYLIB_FLAT_LOOKUP;
  if (Ord == MachO::EXECUTABLE_ORDINAL)
    return MachO::BIND_SPECIAL_DYLIB_MAIN_EXECUTABLE;
  return Ord;
}

void crossCheckSymbolTable(const MachOObjectFile &Obj, ImportSink &Sink,
                           const OrdinalMap &TableOrdinals, bool Chained,
                           Slice &S) {
  unsigned Mismatches = 0;
  for (const SymbolRef &Sym : Obj.symbols()) {
    DataRefImpl Ref = Sym.getRawDataRefImpl();
    uint8_t Type;
    uint16_t Desc;
    if (Obj.is64Bit()) {
      MachO::nlist_64 N = Obj.getSymbol64TableEntry(Ref);
      Type = N.n_type;
      Desc = N.n_desc;
    } else {
      MachO::nlist N = Obj.getSymbolTableEntry(Ref);
      Type = N.n_type;
      Desc = N.n_desc;
    }
    if ((Type & MachO::N_STAB) || (Type & MachO::N_TYPE) != MachO::N_UNDF ||
        !(Type & MachO::N_EXT))
      continue;
    Expected<StringRef> Name = Sym.getName();
    if (!Name) {
      S.Warnings.push_back("symbol table: " + toString(Name.takeError()));
      Sink.Incomplete = true;
      continue;
    }
    int Ordinal = nlistOrdinal(Desc);
    auto It = TableOrdinals.find(*Name);
    if (It == TableOrdinals.end()) {
      // lld keeps dyld_stub_binder undefined in the symbol table of
      // -fixup_chains images, where nothing binds it (there are no lazy
      // stubs): not an import.
      if (Chained && *Name == "dyld_stub_binder")
        continue;
      // Otherwise the linker recorded a binding the tables do not show:
      // trust it rather than claim the library is unused.
      Sink.add(Ordinal, *Name, BindSource::Nlist, Desc & MachO::N_WEAK_REF);
      continue;
    }
    if (It->second != Ordinal && ++Mismatches <= 16)
      S.Warnings.push_back("symbol " + Name->str() +
                           ": symbol table gives library ordinal " +
                           std::to_string(Ordinal) + ", bind tables give " +
                           std::to_string(It->second));
  }
  if (Mismatches)
    Sink.Incomplete = true;
}

} // namespace

Expected<Slice> readMachOSlice(MachOObjectFile &Obj, StringRef FileName) {
  (void)FileName; // Errors below are recoverable and go to Warnings.
  Slice S;
  uint32_t CPUType, CPUSubType, FileType, Flags;
  if (Obj.is64Bit()) {
    const MachO::mach_header_64 &H = Obj.getHeader64();
    CPUType = H.cputype, CPUSubType = H.cpusubtype, FileType = H.filetype,
    Flags = H.flags;
  } else {
    const MachO::mach_header &H = Obj.getHeader();
    CPUType = H.cputype, CPUSubType = H.cpusubtype, FileType = H.filetype,
    Flags = H.flags;
  }
  const char *ArchFlag = nullptr;
  MachOObjectFile::getArchTriple(CPUType, CPUSubType, nullptr, &ArchFlag);
  S.Arch = ArchFlag ? ArchFlag : "cputype " + std::to_string(CPUType);
  const char *TypeName = fileTypeName(FileType);
  S.FileType = TypeName ? TypeName : "filetype " + std::to_string(FileType);

  readLoadCommands(Obj, S);

  ImportSink Sink(S);
  OrdinalMap TableOrdinals;
  readOpcodeTable(Obj, MachOBindEntry::Kind::Regular, Sink, TableOrdinals, S);
  readOpcodeTable(Obj, MachOBindEntry::Kind::Lazy, Sink, TableOrdinals, S);
  readOpcodeTable(Obj, MachOBindEntry::Kind::Weak, Sink, TableOrdinals, S);
  bool Chained = readChainedFixups(Obj, Sink, TableOrdinals, S);

  // Only linked images have meaningful ordinals in n_desc; a relocatable
  // object's undefined symbols are resolved by the static linker instead.
  bool TwoLevel = Flags & MachO::MH_TWOLEVEL;
  if (FileType != MachO::MH_OBJECT && TwoLevel)
    crossCheckSymbolTable(Obj, Sink, TableOrdinals, Chained, S);
  // In a flat-namespace image every import is looked up by name in every
  // library, so no library can be proven unused.
  if (FileType != MachO::MH_OBJECT && !TwoLevel && !S.Dependencies.empty()) {
    S.Warnings.push_back("image uses the flat namespace: imports are not "
                         "bound to particular libraries");
    Sink.Incomplete = true;
  }

  for (Dependency &D : S.Dependencies)
    D.IsReferenced = !D.Imports.empty() ? Referenced::Yes
                     : Sink.Incomplete  ? Referenced::Unknown
                                        : Referenced::No;
  return S;
}

} // namespace linkguard::objlib
