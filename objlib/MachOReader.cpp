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
// Each table has its own file (objlib/MachOImports.h). Only the header,
// the load commands and these tables are read from the file (objlib/Image.h):
// never the contents of __TEXT or __DATA, so the chains themselves are not
// walked (the import table alone decides attribution; dyld checks chains).
//
// Special ordinals: 0 is the image itself, -1 (nlist 0xff) the main
// executable, -2 (nlist 0xfe) flat "dynamic lookup" as produced by
// -undefined dynamic_lookup, and -3 weak-definition coalescing (tables only).
// The tables are what dyld executes, so they decide where a symbol goes; the
// nlist ordinals only cross-check them, and supply symbols a damaged table
// did not yield.
//
// A library with at least one import is referenced, and so is one the
// symbol table names as where a weak-lookup symbol was found. "Not
// referenced" is claimed only when every table decoded cleanly and the image
// uses the two-level namespace; otherwise the answer is Unknown, so a verifier
// never passes because a table could not be read.
//
//===----------------------------------------------------------------------===//
#include "objlib/FormatReaders.h"
#include "objlib/MachOImports.h"

#include "llvm/ADT/bit.h"
#include "llvm/BinaryFormat/MachO.h"
#include "llvm/Object/MachO.h"
#include "llvm/Support/SwapByteOrder.h"

#include <cstdio>
#include <cstring>
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

constexpr FileTypeName MachOFileTypeNames[] = {
    {MachO::MH_OBJECT, "object"},
    {MachO::MH_EXECUTE, "executable"},
    {MachO::MH_DYLIB, "dylib"},
    {MachO::MH_BUNDLE, "bundle"},
    {MachO::MH_DYLIB_STUB, "dylib_stub"},
    {MachO::MH_DYLINKER, "dylinker"},
    {MachO::MH_CORE, "core"},
    {MachO::MH_PRELOAD, "preload"},
    {MachO::MH_DSYM, "dsym"},
    {MachO::MH_KEXT_BUNDLE, "kext_bundle"},
    {MachO::MH_FILESET, "fileset"}};

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

/// Load commands with LC_REQ_DYLD set that dyld's validStructureLoadCommands
/// knows (dyld-1284.13 .. dyld-1378, mach_o/Header.cpp, UnsafeHeader.cpp);
/// any other one is "unknown required load command".
constexpr uint32_t KnownRequiredCommands[] = {
    MachO::LC_LOAD_WEAK_DYLIB, MachO::LC_RPATH,
    MachO::LC_REEXPORT_DYLIB,  MachO::LC_DYLD_INFO_ONLY,
    MachO::LC_LOAD_UPWARD_DYLIB, MachO::LC_MAIN,
    MachO::LC_DYLD_EXPORTS_TRIE, MachO::LC_DYLD_CHAINED_FIXUPS,
    MachO::LC_FILESET_ENTRY};

/// The platform a LC_VERSION_MIN_* command implies (PLATFORM_* values).
uint32_t versionMinPlatform(uint32_t Cmd) {
  switch (Cmd) {
  case MachO::LC_VERSION_MIN_MACOSX:
    return MachO::PLATFORM_MACOS;
  case MachO::LC_VERSION_MIN_IPHONEOS:
    return MachO::PLATFORM_IOS;
  case MachO::LC_VERSION_MIN_TVOS:
    return MachO::PLATFORM_TVOS;
  case MachO::LC_VERSION_MIN_WATCHOS:
    return MachO::PLATFORM_WATCHOS;
  }
  return 0;
}

template <typename Seg, typename Sect>
MachOSegment segmentFacts(const Seg &C, const MachOObjectFile &Obj,
                          const MachOObjectFile::LoadCommandInfo &Load,
                          Sect (MachOObjectFile::*GetSection)(
                              const MachOObjectFile::LoadCommandInfo &,
                              unsigned) const) {
  MachOSegment M;
  M.Name = StringRef(C.segname, strnlen(C.segname, sizeof(C.segname))).str();
  M.VMAddr = C.vmaddr, M.VMSize = C.vmsize;
  M.FileOff = C.fileoff, M.FileSize = C.filesize;
  M.InitProt = C.initprot, M.MaxProt = C.maxprot, M.Flags = C.flags;
  // libObject checked nsects against cmdsize when it opened the file.
  for (unsigned I = 0; I < C.nsects; ++I) {
    Sect X = (Obj.*GetSection)(Load, I);
    M.Sections.push_back(
        {StringRef(X.sectname, strnlen(X.sectname, sizeof(X.sectname))).str(),
         X.addr, X.size});
  }
  return M;
}

/// Whether LC_LINKER_OPTION's count strings fit in the command, as dyld's
/// validSemanticsLinkerOptions walks them.
bool linkerOptionFits(const MachOObjectFile::LoadCommandInfo &Load,
                      uint32_t Count) {
  const char *P = Load.Ptr + sizeof(MachO::linker_option_command);
  const char *End = Load.Ptr + Load.C.cmdsize;
  for (uint32_t I = 0; I < Count; ++I) {
    if (P >= End)
      return false;
    size_t Len = strnlen(P, End - P);
    if (P + Len + 1 > End)
      return false;
    P += Len + 1;
  }
  return true;
}

void readLoadCommands(const MachOObjectFile &Obj, Slice &S, uint32_t CPUType,
                      uint32_t FileType, uint32_t Flags) {
  MachOLoadFacts F;
  F.CPUType = CPUType, F.FileType = FileType, F.Flags = Flags;
  F.SliceSize = Obj.getData().size();
  F.HeaderAndCommands =
      (Obj.is64Bit() ? sizeof(MachO::mach_header_64)
                     : sizeof(MachO::mach_header)) +
      (Obj.is64Bit() ? Obj.getHeader64().sizeofcmds
                     : Obj.getHeader().sizeofcmds);
  {
    // dyld's forEachLoadCommand (mach_o/Header.cpp, UnsafeHeader.cpp at the
    // three tags) bounds each command by sizeofcmds, not by the file. At
    // most ncmds steps, each at least 8 bytes.
    llvm::StringRef Data = Obj.getData();
    const uint64_t Start = Obj.is64Bit() ? sizeof(MachO::mach_header_64)
                                         : sizeof(MachO::mach_header);
    const uint64_t End = F.HeaderAndCommands;
    const uint32_t NCmds =
        Obj.is64Bit() ? Obj.getHeader64().ncmds : Obj.getHeader().ncmds;
    uint64_t Off = Start;
    for (uint32_t I = 1; I <= NCmds; ++I) {
      auto which = [&] {
        return "(" + std::to_string(I) + " of " + std::to_string(NCmds) + ")";
      };
      auto hex = [](uint64_t V) {
        char Buf[24];
        snprintf(Buf, sizeof(Buf), "0x%llX", static_cast<unsigned long long>(V));
        return std::string(Buf);
      };
      if (Off >= End) {
        F.MalformedCommand = {I, which() + ", off end of load commands"};
        break;
      }
      if (Off + 8 > Data.size()) {
        F.MalformedCommand = {I, which() + ", past the end of the file"};
        break;
      }
      uint32_t Size;
      memcpy(&Size, Data.data() + Off + 4, 4);
      if (Obj.isLittleEndian() != llvm::sys::IsLittleEndianHost)
        Size = llvm::byteswap(Size);
      if (Size < 8) {
        F.MalformedCommand = {I, which() + ", size (" + hex(Size) + ") too small"};
        break;
      }
      if (Off + Size > End) {
        F.MalformedCommand = {I, which() + ", size (" + hex(Size) +
                                     ") is too large, load commands end at " +
                                     hex(End)};
        break;
      }
      Off += Size;
    }
  }
  unsigned Index = 0;
  for (const MachOObjectFile::LoadCommandInfo &Load : Obj.load_commands()) {
    uint32_t Cmd = Load.C.cmd;
    if (Cmd == MachO::LC_ID_DYLIB) {
      ++F.IDDylibs;
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
      if (*Kind != DependencyKind::Lazy)
        F.LinkedDylibs.push_back(D.Name);
      S.Dependencies.push_back(std::move(D));
    } else if (Cmd == MachO::LC_RPATH) {
      MachO::rpath_command RP = Obj.getRpathCommand(Load);
      S.SearchPaths.push_back(SearchPath{
          commandString(Load, RP.path, Index, "LC_RPATH path", S.Warnings),
          SearchPathKind::RPath});
    } else if (Cmd == MachO::LC_BUILD_VERSION) {
      MachO::build_version_command B = Obj.getBuildVersionLoadCommand(Load);
      F.Platforms.push_back({B.platform, B.minos, B.sdk});
    } else if (uint32_t P = versionMinPlatform(Cmd)) {
      MachO::version_min_command V = Obj.getVersionMinLoadCommand(Load);
      F.Platforms.push_back({P, V.version, V.sdk, true});
    } else if (Cmd == MachO::LC_UUID) {
      ++F.UUIDs;
    } else if (Cmd == MachO::LC_MAIN) {
      ++F.Mains;
    } else if (Cmd == MachO::LC_UNIXTHREAD) {
      ++F.UnixThreads;
    } else if (Cmd == MachO::LC_LOAD_DYLINKER) {
      F.HasDylinker = true;
    } else if (Cmd == MachO::LC_SEGMENT_SPLIT_INFO && !F.HasSplitSegInfo) {
      F.HasSplitSegInfo = true;
      F.SplitSegMarker = Obj.getLinkeditDataLoadCommand(Load).datasize == 0;
    } else if (Cmd == MachO::LC_LINKER_OPTION) {
      F.MalformedLinkerOption |= !linkerOptionFits(
          Load, Obj.getLinkerOptionLoadCommand(Load).count);
    } else if (Cmd == MachO::LC_SEGMENT_64) {
      F.Segments.push_back(segmentFacts(Obj.getSegment64LoadCommand(Load), Obj,
                                        Load, &MachOObjectFile::getSection64));
    } else if (Cmd == MachO::LC_SEGMENT) {
      F.Segments.push_back(segmentFacts(Obj.getSegmentLoadCommand(Load), Obj,
                                        Load, &MachOObjectFile::getSection));
    } else if ((Cmd & MachO::LC_REQ_DYLD) &&
               !llvm::is_contained(KnownRequiredCommands, Cmd)) {
      F.UnknownRequired.push_back({Index + 1, Cmd});
    }
    ++Index;
  }
  S.MachO = std::move(F);
}

} // namespace

ImportSink::ImportSink(Slice &S, unsigned ExpectedSymbols,
                       const ReadOptions &Options)
    : S(S), Symbols(ExpectedSymbols, Arena),
      WeakSupplier(S.Dependencies.size()) {
  Listed.reserve(S.Dependencies.size());
  for (const Dependency &D : S.Dependencies)
    Listed.push_back(Options.listsImportsOf(D.Name));
}

void ImportSink::file(int Ordinal, StringMapEntry<SymbolState> &Entry,
                      BindSource Source, bool Weak) {
  // Once per (ordinal, source): the first inline, others on the side.
  SymbolState &State = Entry.getValue();
  const Filing This(Ordinal, Source);
  if (!State.Filed) {
    State.Filed = true;
    State.FirstOrdinal = Ordinal, State.FirstSource = Source;
  } else if (Filing(State.FirstOrdinal, State.FirstSource) == This) {
    return;
  } else if (State.More == 0) {
    MoreFiled.push_back({This});
    State.More = static_cast<uint32_t>(MoreFiled.size());
  } else {
    SmallVector<Filing, 2> &More = MoreFiled[State.More - 1];
    if (llvm::is_contained(More, This))
      return;
    More.push_back(This);
  }
  if (Ordinal >= 1 && static_cast<size_t>(Ordinal) <= S.Dependencies.size()) {
    Dependency &D = S.Dependencies[Ordinal - 1];
    ++D.ImportCount;
    if (Listed[Ordinal - 1])
      D.Imports.push_back(Import{Entry.getKey().str(), Source, Weak});
    return;
  }
  std::vector<Import> *List = Ordinal == WeakList
                                  ? &S.WeakLookupImports
                                  : specialList(Ordinal, Entry.getKey());
  List->push_back(Import{Entry.getKey().str(), Source, Weak});
}

void ImportSink::addBound(int Ordinal, StringRef Symbol, BindSource Source,
                          bool Weak) {
  StringMapEntry<SymbolState> &Entry = *Symbols.try_emplace(Symbol).first;
  if (!Entry.getValue().TableOrdinal)
    Entry.getValue().TableOrdinal = Ordinal;
  file(Ordinal, Entry, Source, Weak);
}

void ImportSink::addWeakLookup(StringRef Symbol, BindSource Source) {
  StringMapEntry<SymbolState> &Entry = *Symbols.try_emplace(Symbol).first;
  if (!Entry.getValue().TableOrdinal)
    Entry.getValue().TableOrdinal = MachO::BIND_SPECIAL_DYLIB_WEAK_LOOKUP;
  file(WeakList, Entry, Source, false);
}

void ImportSink::addFromSymbolTable(int Ordinal, StringRef Symbol, bool Weak) {
  file(Ordinal, *Symbols.try_emplace(Symbol).first, BindSource::Nlist, Weak);
}

std::optional<int> ImportSink::tableOrdinal(StringRef Symbol) const {
  auto It = Symbols.find(Symbol);
  if (It == Symbols.end())
    return std::nullopt;
  return It->getValue().TableOrdinal;
}

void ImportSink::noteWeakSupplier(int Ordinal) {
  if (Ordinal >= 1 && static_cast<size_t>(Ordinal) <= WeakSupplier.size())
    WeakSupplier[Ordinal - 1] = true;
}

std::vector<Import> *ImportSink::specialList(int Ordinal, StringRef Symbol) {
  switch (Ordinal) {
  case MachO::BIND_SPECIAL_DYLIB_SELF:
  case MachO::BIND_SPECIAL_DYLIB_MAIN_EXECUTABLE:
    return &S.ExecutableImports;
  case MachO::BIND_SPECIAL_DYLIB_FLAT_LOOKUP:
    return &S.DynamicLookupImports;
  case MachO::BIND_SPECIAL_DYLIB_WEAK_LOOKUP:
    return &S.WeakLookupImports;
  }
  // A damaged table can do this for every symbol: the first few are named.
  if (++BadOrdinals <= 16)
    S.Warnings.push_back("symbol " + Symbol.str() + " has library ordinal " +
                         std::to_string(Ordinal) + " but the image loads " +
                         std::to_string(S.Dependencies.size()) + " libraries");
  Incomplete = true;
  return &S.UnattributedImports;
}

void ImportSink::finish() {
  if (BadOrdinals > 16)
    S.Warnings.push_back(std::to_string(BadOrdinals) +
                         " symbols have a library ordinal past the last "
                         "library (16 named above)");
}

Expected<StringRef> NameReader::read(uint64_t Offset, uint64_t End) {
  End = std::min(End, B.Size);
  Long.clear();
  constexpr uint64_t Chunk = 256;
  for (uint64_t At = Offset; At < End;) {
    uint64_t N = std::min(Chunk, End - At);
    if (N > Budget) {
      Spent = true;
      return StringRef();
    }
    Budget -= N;
    if (Error E = B.load(At, N))
      return std::move(E);
    StringRef Part(reinterpret_cast<const char *>(B.data() + At), N);
    size_t Nul = Part.find('\0');
    if (At == Offset && Nul != StringRef::npos)
      return Part.take_front(Nul); // the usual short name: no copy
    Long += Part.substr(0, Nul);
    if (Nul != StringRef::npos)
      break;
    At += N;
  }
  return StringRef(Long);
}

Expected<Slice> readMachOSlice(MachOObjectFile &Obj, const SliceBytes &Bytes,
                               StringRef FileName, const ReadOptions &Options) {
  (void)FileName; // Damage below is recoverable and goes to Warnings.
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
  S.FileType = fileTypeName(MachOFileTypeNames, FileType, "filetype");
  S.MainProgram = FileType == MachO::MH_EXECUTE;

  readLoadCommands(Obj, S, CPUType, FileType, Flags);
  if (Options.Exports)
    if (Error E = readMachOExports(Obj, Bytes, Options, S))
      return std::move(E);
  if (!Options.Imports)
    return S; // every dependency stays Referenced::Unknown

  // Errors from here on mean the file could not be read (it shrank);
  // damage is a warning.
  // Imports are about as many as the undefined symbols LC_DYSYMTAB counts
  // (zero without one). libObject checked that count against the symbol
  // table, and the symbol table against the file.
  const uint32_t Undefined = Obj.getDysymtabLoadCommand().nundefsym;
  ImportSink Sink(S, std::min<uint32_t>(Undefined, 1u << 20), Options);
  NameReader Names(Bytes);
  if (Error E = readOpcodeTables(Obj, Bytes, Sink, S))
    return std::move(E);
  bool Chained = false;
  if (Error E = readChainedFixups(Obj, Bytes, Names, Sink, S, Chained))
    return std::move(E);

  // Only linked images have meaningful ordinals in n_desc; a relocatable
  // object's undefined symbols are resolved by the static linker instead.
  bool TwoLevel = Flags & MachO::MH_TWOLEVEL;
  if (FileType != MachO::MH_OBJECT && TwoLevel)
    if (Error E = crossCheckSymbolTable(Obj, Bytes, Names, Sink, Chained, S))
      return std::move(E);
  // In a flat-namespace image every import is looked up by name in every
  // library, so no library can be proven unused.
  if (FileType != MachO::MH_OBJECT && !TwoLevel && !S.Dependencies.empty()) {
    S.Warnings.push_back("image uses the flat namespace: imports are not "
                         "bound to particular libraries");
    Sink.Incomplete = true;
  }

  Sink.finish();
  for (size_t I = 0; I < S.Dependencies.size(); ++I) {
    Dependency &D = S.Dependencies[I];
    D.IsReferenced = D.ImportCount || Sink.suppliesWeak(I)
                         ? Referenced::Yes
                     : Sink.Incomplete ? Referenced::Unknown
                                       : Referenced::No;
  }
  return S;
}

} // namespace linkguard::objlib
