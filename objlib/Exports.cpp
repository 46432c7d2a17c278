//===- Exports.cpp - the strong definitions an image exports --------------===//
//
// ReadOptions::Exports: which names an image defines for other images to
// bind to, for the one-definer check (shipment/Definers.h) and for telling
// an OpenMP runtime by what it defines (libnames::runtimeMarkers). Only a
// strong definition counts: one the loaders would bind every image's
// reference to, so that two of them in one process are two copies of one
// piece of state.
//
//  - ELF: .dynsym entries that are defined (not SHN_UNDEF, not SHN_ABS:
//    GNU ld's version-name symbols are absolute), STB_GLOBAL (not STB_WEAK,
//    not STB_GNU_UNIQUE, the vague linkage ld.so unifies itself), with
//    STV_DEFAULT or STV_PROTECTED visibility, and not a hidden (non-default)
//    symbol version, which only a reference naming that version binds
//    (glibc elf/dl-lookup.c check_match). Symbol versions are otherwise
//    not compared: two copies of a registry are two registries whatever
//    their version names.
//  - Mach-O: the export trie (LC_DYLD_INFO[_ONLY] export_off, or
//    LC_DYLD_EXPORTS_TRIE), walked here (walkTrie), without
//    EXPORT_SYMBOL_FLAGS_WEAK_DEFINITION (dyld coalesces those),
//    EXPORT_SYMBOL_FLAGS_REEXPORT (the definition is another image's) and
//    absolute symbols (no storage). An image with no trie command: its
//    nlist entries that are N_EXT, N_SECT, not N_PEXT and not N_WEAK_DEF.
//
// Bounded by the file: the trie walk (walkTrie) enters each node once; a
// loop or a shared node (a DAG, whose walk would list exponentially many
// names) ends it, and then ExportsProblem says so and no caller may read
// "defines nothing".
//
//===----------------------------------------------------------------------===//
#include "objlib/FormatReaders.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/BinaryFormat/MachO.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/MachO.h"
#include "llvm/Support/Endian.h"

#include <algorithm>
#include <cstring>
#include <optional>

using namespace llvm;
using namespace llvm::object;

namespace linkguard::objlib {
namespace {

void keep(const ReadOptions &O, StringRef Name, Slice &S) {
  if (!Name.empty() && (O.ExportsAmong.empty() || llvm::is_contained(O.ExportsAmong, Name)))
    S.Exports.push_back(Name.str());
}

/// A ULEB128 at At within Trie (at most 64 bits), At moved past it; false
/// when it runs off the end or past 64 bits.
bool readUleb(ArrayRef<uint8_t> Trie, uint64_t &At, uint64_t &V) {
  V = 0;
  for (unsigned Shift = 0; At < Trie.size() && Shift < 64; Shift += 7) {
    uint8_t Byte = Trie[At++];
    V |= uint64_t(Byte & 0x7f) << Shift;
    if (!(Byte & 0x80))
      return true;
  }
  return false;
}

/// The trie's bytes read on demand (ReadOptions::ExportsAmong): a lookup
/// follows one path from the root, so it reads the pages that path
/// crosses, not the whole trie (a big library's trie is hundreds of
/// kilobytes; a lookup crosses a few pages).
class TrieBytes {
public:
  TrieBytes(ArrayRef<uint8_t> Trie, const SliceBytes &B, uint64_t Off)
      : Trie(Trie), B(B), Off(Off), Read((Trie.size() + Page - 1) / Page) {}
  /// Makes Trie[At, At + Len) (clipped to the trie) readable, a page of
  /// the trie at a time, each page read once; false when the file could
  /// not be read (takeError()).
  bool need(uint64_t At, uint64_t Len) {
    if (Err)
      return false;
    const uint64_t End = std::min<uint64_t>(Trie.size(), At + Len);
    for (uint64_t P = At / Page; P * Page < End; ++P) {
      if (Read.test(unsigned(P)))
        continue;
      if (Error E = B.load(Off + P * Page, Page)) {
        Err = std::move(E);
        return false;
      }
      Read.set(unsigned(P));
    }
    return true;
  }
  bool ok() const { return !Err; }
  Error takeError() {
    if (!Err)
      return Error::success();
    Error E = std::move(*Err);
    Err.reset();
    return E;
  }

private:
  static constexpr uint64_t Page = 4096;
  ArrayRef<uint8_t> Trie;
  const SliceBytes &B;
  uint64_t Off;
  BitVector Read; // the trie's pages read so far
  std::optional<Error> Err;
};

/// Whether the trie has Name as a strong export: one path from the root,
/// each edge consuming at least one byte of the name (so at most as many
/// nodes as the name has bytes), each node's edges read within the trie.
/// False, with ExportsProblem, when the trie is malformed on the way; false
/// too when Bytes could not read it (its error()).
bool lookupTrie(ArrayRef<uint8_t> Trie, TrieBytes &Bytes, StringRef Name, Slice &S) {
  const uint64_t Size = Trie.size();
  // A ULEB128 is at most 10 bytes (readUleb stops at 64 bits).
  auto uleb = [&](uint64_t &At, uint64_t &V) {
    return Bytes.need(At, 10) && readUleb(Trie, At, V);
  };
  auto fail = [&](const char *Why) {
    S.ExportsProblem = std::string("export trie: ") + Why;
    return false;
  };
  uint64_t Node = 0;
  const size_t MaxSteps = Name.size() + 1;
  SmallVector<uint64_t, 32> Entered; // a node on the path again: a loop
  for (size_t Steps = 0; Steps < MaxSteps; ++Steps) {
    if (llvm::is_contained(Entered, Node))
      return fail("a node reached twice (a loop or a shared node)");
    Entered.push_back(Node);
    uint64_t At = Node, TerminalSize = 0;
    if (At >= Size || !uleb(At, TerminalSize) || TerminalSize > Size - At)
      return Bytes.ok() && fail("a node past the end of the trie");
    if (Name.empty()) {
      uint64_t P = At, Flags = 0;
      if (!TerminalSize)
        return false;
      if (!uleb(P, Flags))
        return Bytes.ok() && fail("malformed flags");
      return !(Flags & MachO::EXPORT_SYMBOL_FLAGS_REEXPORT) &&
             !(Flags & MachO::EXPORT_SYMBOL_FLAGS_WEAK_DEFINITION) &&
             (Flags & MachO::EXPORT_SYMBOL_FLAGS_KIND_MASK) !=
                 MachO::EXPORT_SYMBOL_FLAGS_KIND_ABSOLUTE;
    }
    At += TerminalSize;
    if (At >= Size)
      return fail("a child count past the end of the trie");
    if (!Bytes.need(At, 1))
      return false;
    unsigned Children = Trie[At++];
    bool Found = false;
    for (unsigned C = 0; C < Children && !Found; ++C) {
      const uint64_t LabelStart = At;
      while (At < Size && Bytes.need(At, 1) && Trie[At])
        ++At;
      if (!Bytes.ok())
        return false;
      if (At >= Size)
        return fail("an edge label past the end of the trie");
      StringRef Label(reinterpret_cast<const char *>(Trie.data()) + LabelStart, At - LabelStart);
      ++At;
      uint64_t Child = 0;
      if (!uleb(At, Child))
        return Bytes.ok() && fail("an edge's child offset past the end of the trie");
      if (!Label.empty() && Name.starts_with(Label)) {
        Name = Name.drop_front(Label.size());
        Node = Child;
        Found = true;
      }
    }
    if (!Found)
      return false;
  }
  return false;
}

void finish(Slice &S) {
  // A linker's trie lists its names in order already (lld sorts them).
  if (!llvm::is_sorted(S.Exports))
    llvm::sort(S.Exports);
  S.Exports.erase(std::unique(S.Exports.begin(), S.Exports.end()), S.Exports.end());
  S.ExportsRead = true;
}

/// nlist entries, for an image without an export trie (an old or hand-made
/// one; ld64 and lld always write a trie).
Error readNlistExports(const MachOObjectFile &Obj, const SliceBytes &B, const ReadOptions &O,
                       Slice &S) {
  const MachO::symtab_command ST = Obj.getSymtabLoadCommand();
  if (ST.nsyms == 0)
    return Error::success();
  const uint64_t Size = Obj.is64Bit() ? sizeof(MachO::nlist_64) : sizeof(MachO::nlist);
  // libObject checked both ranges against the file.
  if (Error E = B.load(ST.symoff, uint64_t(ST.nsyms) * Size))
    return E;
  if (Error E = B.load(ST.stroff, ST.strsize))
    return E;
  const bool Little = Obj.isLittleEndian();
  const char *Str = reinterpret_cast<const char *>(B.data()) + ST.stroff;
  for (uint64_t I = 0; I < ST.nsyms; ++I) {
    const uint8_t *P = B.data() + ST.symoff + I * Size;
    if (ST.symoff + (I + 1) * Size > B.Size)
      break;
    uint32_t StrX = Little ? support::endian::read32le(P) : support::endian::read32be(P);
    uint8_t Type = P[4];
    uint16_t Desc = Little ? support::endian::read16le(P + 6) : support::endian::read16be(P + 6);
    if ((Type & MachO::N_STAB) || !(Type & MachO::N_EXT) || (Type & MachO::N_PEXT) ||
        (Type & MachO::N_TYPE) != MachO::N_SECT || (Desc & MachO::N_WEAK_DEF))
      continue;
    if (StrX >= ST.strsize || ST.stroff + uint64_t(ST.strsize) > B.Size) {
      S.ExportsProblem = "symbol table: string index " + std::to_string(StrX) +
                         " is past the end of the string table";
      continue;
    }
    keep(O, StringRef(Str + StrX, strnlen(Str + StrX, ST.strsize - StrX)), S);
  }
  return Error::success();
}

template <class ELFT> void readELFExportsAs(const ELFFile<ELFT> &F, const ReadOptions &O,
                                            const Slice &Info, Slice &S) {
  using Elf_Shdr = typename ELFT::Shdr;
  Expected<typename ELFT::ShdrRange> Sections = F.sections();
  if (!Sections) {
    S.ExportsProblem = "section headers: " + toString(Sections.takeError());
    return;
  }
  const Elf_Shdr *DynSym = nullptr, *Versym = nullptr;
  for (const Elf_Shdr &Sec : *Sections) {
    if (Sec.sh_type == ELF::SHT_DYNSYM && !DynSym)
      DynSym = &Sec;
    else if (Sec.sh_type == ELF::SHT_GNU_versym && !Versym)
      Versym = &Sec;
  }
  if (!DynSym) {
    // A dynamic image's table is found through its section headers; one
    // without them (sstrip) cannot be listed here: say so.
    if (Info.ELFDynamic)
      S.ExportsProblem = "no .dynsym section header: its exports cannot be read";
    return;
  }
  Expected<typename ELFT::SymRange> Syms = F.symbols(DynSym);
  Expected<StringRef> Str = F.getStringTableForSymtab(*DynSym);
  if (!Syms || !Str) {
    S.ExportsProblem = ".dynsym: " + (!Syms ? toString(Syms.takeError()) : std::string()) +
                       (!Str ? toString(Str.takeError()) : std::string());
    if (Syms)
      consumeError(Str.takeError());
    return;
  }
  // Which definitions are of a hidden version: without them every one
  // would count (a false second definer, a runtime's marker that binds
  // nothing), so a .gnu.version that cannot be read (past the file, the
  // wrong entsize, not one entry per .dynsym symbol) is a problem.
  ArrayRef<typename ELFT::Versym> Versions;
  if (Versym) {
    Expected<ArrayRef<typename ELFT::Versym>> V =
        F.template getSectionContentsAsArray<typename ELFT::Versym>(*Versym);
    if (!V) {
      S.ExportsProblem = ".gnu.version: " + toString(V.takeError());
      return;
    }
    if (V->size() != Syms->size()) {
      S.ExportsProblem = ".gnu.version: " + std::to_string(V->size()) + " entries for the " +
                         std::to_string(Syms->size()) + " symbols of .dynsym";
      return;
    }
    Versions = *V;
  }
  for (size_t I = 1; I < Syms->size(); ++I) {
    const typename ELFT::Sym &Sym = (*Syms)[I];
    if (Sym.st_shndx == ELF::SHN_UNDEF || Sym.st_shndx == ELF::SHN_ABS ||
        Sym.getBinding() != ELF::STB_GLOBAL)
      continue;
    const unsigned Vis = Sym.getVisibility();
    if (Vis != ELF::STV_DEFAULT && Vis != ELF::STV_PROTECTED)
      continue;
    const unsigned Type = Sym.getType();
    if (Type == ELF::STT_SECTION || Type == ELF::STT_FILE)
      continue;
    if (I < Versions.size() && (Versions[I].vs_index & ELF::VERSYM_HIDDEN))
      continue;
    Expected<StringRef> Name = Sym.getName(*Str);
    if (!Name) {
      S.ExportsProblem = ".dynsym: " + toString(Name.takeError());
      continue;
    }
    keep(O, *Name, S);
  }
}

/// dyld's export trie (mach-o/loader.h, dyld's MachOLoaded::trieWalk):
/// a node is a ULEB128 terminal size, that many bytes of terminal info
/// (flags, then the address or, for a re-export, the ordinal and a name),
/// a child count byte, and per child an edge label (a C string) and the
/// child's ULEB128 offset. Walked depth first with one name buffer: each
/// node is entered once (in a trie every node has one parent; a node
/// reached twice, a loop or a shared node, is malformed and ends the walk
/// with ExportsProblem), so the walk is linear in the trie's bytes and its
/// names' lengths. libObject's ExportEntry checks loops only against the
/// nodes above, so a trie of shared nodes lists 2^depth names with it.
void walkTrie(ArrayRef<uint8_t> Trie, const ReadOptions &O, Slice &S) {
  const uint64_t Size = Trie.size();
  auto uleb = [&](uint64_t &At, uint64_t &V) { return readUleb(Trie, At, V); };
  auto fail = [&](const std::string &Why) { S.ExportsProblem = "export trie: " + Why; };
  std::vector<bool> Entered(Size, false);
  struct Frame {
    uint64_t Next;      // where the next child edge is read
    unsigned Children;  // child edges still to read
    size_t NameLength;  // the name buffer's length at this node
  };
  std::string Name;
  std::vector<Frame> Stack;
  // Enters the node at At: records its export, pushes its children.
  auto enter = [&](uint64_t At) {
    if (At >= Size)
      return fail("a child offset past the end of the trie"), false;
    if (Entered[At])
      return fail("a node reached twice (a loop or a shared node)"), false;
    Entered[At] = true;
    uint64_t TerminalSize = 0;
    if (!uleb(At, TerminalSize) || TerminalSize > Size - At)
      return fail("a node's terminal information past the end of the trie"), false;
    if (TerminalSize) {
      uint64_t P = At, Flags = 0;
      if (!uleb(P, Flags))
        return fail("malformed flags"), false;
      if (!(Flags & MachO::EXPORT_SYMBOL_FLAGS_REEXPORT) &&
          !(Flags & MachO::EXPORT_SYMBOL_FLAGS_WEAK_DEFINITION) &&
          (Flags & MachO::EXPORT_SYMBOL_FLAGS_KIND_MASK) !=
              MachO::EXPORT_SYMBOL_FLAGS_KIND_ABSOLUTE)
        keep(O, Name, S);
    }
    At += TerminalSize;
    if (At >= Size)
      return fail("a node's child count past the end of the trie"), false;
    Stack.push_back({At + 1, Trie[At], Name.size()});
    return true;
  };
  if (!enter(0))
    return;
  while (!Stack.empty()) {
    Frame &F = Stack.back();
    Name.resize(F.NameLength);
    if (F.Children == 0) {
      Stack.pop_back();
      continue;
    }
    --F.Children;
    uint64_t At = F.Next;
    const uint64_t LabelStart = At;
    while (At < Size && Trie[At])
      ++At;
    if (At >= Size)
      return fail("an edge label past the end of the trie");
    Name.append(reinterpret_cast<const char *>(Trie.data()) + LabelStart, At - LabelStart);
    ++At;
    uint64_t Child = 0;
    if (!uleb(At, Child))
      return fail("an edge's child offset past the end of the trie");
    F.Next = At;
    if (!enter(Child))
      return;
  }
}

} // namespace

Error readMachOExports(const MachOObjectFile &Obj, const SliceBytes &B, const ReadOptions &O,
                       Slice &S) {
  bool TrieCommand = false;
  for (const MachOObjectFile::LoadCommandInfo &L : Obj.load_commands())
    TrieCommand |= L.C.cmd == MachO::LC_DYLD_INFO || L.C.cmd == MachO::LC_DYLD_INFO_ONLY ||
                   L.C.cmd == MachO::LC_DYLD_EXPORTS_TRIE;
  if (!TrieCommand) {
    if (Error E = readNlistExports(Obj, B, O, S))
      return E;
    finish(S);
    return Error::success();
  }
  ArrayRef<uint8_t> Trie = Obj.getDyldInfoExportsTrie();
  if (Trie.empty())
    Trie = Obj.getDyldExportsTrie();
  if (Trie.empty()) {
    finish(S);
    return Error::success();
  }
  // libObject checked the range against the slice.
  const auto Off = static_cast<uint64_t>(Trie.data() - B.data());
  if (O.ExportsAmong.empty()) {
    if (Error E = B.load(Off, Trie.size()))
      return E;
    walkTrie(Trie, O, S);
  } else {
    TrieBytes Bytes(Trie, B, Off);
    for (const std::string &Name : O.ExportsAmong) {
      if (lookupTrie(Trie, Bytes, Name, S))
        S.Exports.push_back(Name);
      if (Error E = Bytes.takeError())
        return E;
    }
  }
  finish(S);
  return Error::success();
}

void readELFExports(const ELFObjectFileBase &Obj, const ReadOptions &O, Slice &S) {
  const Slice &Info = S;
  if (auto *E = dyn_cast<ELF64LEObjectFile>(&Obj))
    readELFExportsAs(E->getELFFile(), O, Info, S);
  else if (auto *E = dyn_cast<ELF64BEObjectFile>(&Obj))
    readELFExportsAs(E->getELFFile(), O, Info, S);
  else if (auto *E = dyn_cast<ELF32LEObjectFile>(&Obj))
    readELFExportsAs(E->getELFFile(), O, Info, S);
  else if (auto *E = dyn_cast<ELF32BEObjectFile>(&Obj))
    readELFExportsAs(E->getELFFile(), O, Info, S);
  finish(S);
}

} // namespace linkguard::objlib
