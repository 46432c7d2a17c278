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
//    LC_DYLD_EXPORTS_TRIE), walked by libObject's ExportEntry, without
//    EXPORT_SYMBOL_FLAGS_WEAK_DEFINITION (dyld coalesces those),
//    EXPORT_SYMBOL_FLAGS_REEXPORT (the definition is another image's) and
//    absolute symbols (no storage). An image with no trie command: its
//    nlist entries that are N_EXT, N_SECT, not N_PEXT and not N_WEAK_DEF.
//
// Bounded by the file: the trie walk rejects a child loop (libObject's
// "loop in children"), and a trie whose nodes are shared (a DAG, whose
// walk can list exponentially many names) is cut after as many names as
// the trie has bytes, or after 256 name bytes per trie byte: then
// ExportsProblem says so and no caller may read "defines nothing".
//
//===----------------------------------------------------------------------===//
#include "objlib/FormatReaders.h"

#include "llvm/BinaryFormat/MachO.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/MachO.h"
#include "llvm/Support/Endian.h"

#include <algorithm>
#include <cstring>

using namespace llvm;
using namespace llvm::object;

namespace linkguard::objlib {
namespace {

void keep(const ReadOptions &O, StringRef Name, Slice &S) {
  if (!Name.empty() && (!O.KeepExport || O.KeepExport(Name)))
    S.Exports.push_back(Name.str());
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
  ArrayRef<typename ELFT::Versym> Versions;
  if (Versym) {
    Expected<ArrayRef<typename ELFT::Versym>> V =
        F.template getSectionContentsAsArray<typename ELFT::Versym>(*Versym);
    if (V)
      Versions = *V;
    else
      consumeError(V.takeError());
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
  const uint64_t Off = static_cast<uint64_t>(Trie.data() - B.data());
  if (Error E = B.load(Off, Trie.size()))
    return E;
  const uint64_t MaxNames = Trie.size(), MaxNameBytes = 256 * uint64_t(Trie.size());
  uint64_t Names = 0, NameBytes = 0;
  Error Err = Error::success();
  for (const ExportEntry &E : MachOObjectFile::exports(Err, Trie, &Obj)) {
    if (++Names > MaxNames || (NameBytes += E.name().size()) > MaxNameBytes) {
      S.ExportsProblem = "export trie: more names than a trie of " +
                         std::to_string(Trie.size()) +
                         " bytes holds (its nodes are shared): not read further";
      break;
    }
    const uint64_t Flags = E.flags();
    if ((Flags & MachO::EXPORT_SYMBOL_FLAGS_REEXPORT) ||
        (Flags & MachO::EXPORT_SYMBOL_FLAGS_WEAK_DEFINITION) ||
        (Flags & MachO::EXPORT_SYMBOL_FLAGS_KIND_MASK) ==
            MachO::EXPORT_SYMBOL_FLAGS_KIND_ABSOLUTE)
      continue;
    keep(O, E.name(), S);
  }
  if (Err)
    S.ExportsProblem = "export trie: " + toString(std::move(Err));
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
