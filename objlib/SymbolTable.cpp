//===- SymbolTable.cpp - undefined nlist entries against the bind tables --===//
//
// Under the two-level namespace each undefined external nlist carries the
// ordinal of the library the static linker found it in (n_desc >> 8; 0xfe
// dynamic lookup, 0xff the executable). The bind tables decide where dyld
// binds a symbol; this cross-check warns when the two disagree and files a
// symbol no table binds under its nlist library (source "nlist"), so that a
// damaged table cannot make a library look unused.
//
// A symbol the tables bind by weak lookup (weak-bind, chained ordinal -3) is
// resolved by name across every image, and is already listed under "weak
// lookup": its nlist library is not another import, and not a disagreement.
// That library is still where the definition was found, so it counts as
// referenced (ImportSink::noteWeakSupplier).
//
// ld64 and lld keep the undefined symbols in one run that LC_DYSYMTAB names
// (iundefsym, nundefsym); only that run, and the names it points at, are
// read, in windows. Without a usable LC_DYSYMTAB every entry is looked at.
//
//===----------------------------------------------------------------------===//
#include "objlib/MachOImports.h"

#include "llvm/BinaryFormat/MachO.h"
#include "llvm/Object/MachO.h"
#include "llvm/Support/Endian.h"

using namespace llvm;
using namespace llvm::object;

namespace linkguard::objlib {
namespace {

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

/// Entries are read this many at a time, then released.
constexpr uint64_t WindowEntries = 4096;

struct Entry {
  uint32_t StrX;
  uint8_t Type;
  uint16_t Desc;
};

class UndefinedSymbols {
public:
  UndefinedSymbols(const MachOObjectFile &Obj, const SliceBytes &B,
                   NameReader &Names, ImportSink &Sink, bool Chained, Slice &S)
      : Obj(Obj), B(B), Names(Names), Sink(Sink), Chained(Chained), S(S) {}

  Error read();

private:
  Entry entry(const uint8_t *P) const {
    // nlist and nlist_64 share the first 8 bytes: n_strx, n_type, n_sect,
    // n_desc.
    bool Little = Obj.isLittleEndian();
    return {Little ? support::endian::read32le(P)
                   : support::endian::read32be(P),
            P[4],
            Little ? support::endian::read16le(P + 6)
                   : support::endian::read16be(P + 6)};
  }
  /// Returns false when the names budget is spent.
  Expected<bool> check(const Entry &E, const MachO::symtab_command &Symtab);

  const MachOObjectFile &Obj;
  const SliceBytes &B;
  NameReader &Names;
  ImportSink &Sink;
  bool Chained;
  Slice &S;
  unsigned Mismatches = 0;
};

Expected<bool> UndefinedSymbols::check(const Entry &E,
                                       const MachO::symtab_command &Symtab) {
  if ((E.Type & MachO::N_STAB) || (E.Type & MachO::N_TYPE) != MachO::N_UNDF ||
      !(E.Type & MachO::N_EXT))
    return true;
  if (E.StrX >= Symtab.strsize) {
    S.Warnings.push_back("symbol table: string index " +
                         std::to_string(E.StrX) +
                         " is past the end of the string table");
    Sink.Incomplete = true;
    return true;
  }
  uint64_t StrTab = Symtab.stroff;
  Expected<StringRef> Name =
      Names.read(StrTab + E.StrX, StrTab + Symtab.strsize);
  if (!Name)
    return Name.takeError();
  if (Names.spent())
    return false;
  int Ordinal = nlistOrdinal(E.Desc);
  std::optional<int> TableOrdinal = Sink.tableOrdinal(*Name);
  if (!TableOrdinal) {
    // lld keeps dyld_stub_binder undefined in the symbol table of
    // -fixup_chains images, where nothing binds it (there are no lazy
    // stubs): not an import.
    if (Chained && *Name == "dyld_stub_binder")
      return true;
    // Otherwise the linker recorded a binding the tables do not show:
    // trust it rather than claim the library is unused.
    Sink.addFromSymbolTable(Ordinal, *Name, E.Desc & MachO::N_WEAK_REF);
    return true;
  }
  if (*TableOrdinal == MachO::BIND_SPECIAL_DYLIB_WEAK_LOOKUP) {
    Sink.noteWeakSupplier(Ordinal);
    return true;
  }
  if (*TableOrdinal != Ordinal && ++Mismatches <= 16)
    S.Warnings.push_back("symbol " + Name->str() +
                         ": symbol table gives library ordinal " +
                         std::to_string(Ordinal) + ", bind tables give " +
                         std::to_string(*TableOrdinal));
  return true;
}

Error UndefinedSymbols::read() {
  MachO::symtab_command Symtab = Obj.getSymtabLoadCommand();
  uint64_t First = 0, Count = Symtab.nsyms;
  for (const MachOObjectFile::LoadCommandInfo &Load : Obj.load_commands())
    if (Load.C.cmd == MachO::LC_DYSYMTAB) {
      MachO::dysymtab_command D = Obj.getDysymtabLoadCommand();
      if (D.iundefsym <= Symtab.nsyms &&
          D.nundefsym <= Symtab.nsyms - D.iundefsym)
        First = D.iundefsym, Count = D.nundefsym;
    }
  // MachOObjectFile::create checked the table and the strings against the
  // file; check again rather than depend on it.
  const uint64_t Size =
      Obj.is64Bit() ? sizeof(MachO::nlist_64) : sizeof(MachO::nlist);
  if (Symtab.symoff > B.Size ||
      (First + Count) * Size > B.Size - Symtab.symoff ||
      Symtab.stroff > B.Size || Symtab.strsize > B.Size - Symtab.stroff) {
    S.Warnings.push_back("symbol table extends past the end of the file");
    Sink.Incomplete = true;
    return Error::success();
  }
  uint64_t ReleaseFrom = Symtab.symoff + First * Size;
  for (uint64_t I = 0; I < Count; I += WindowEntries) {
    uint64_t N = std::min(WindowEntries, Count - I);
    uint64_t At = Symtab.symoff + (First + I) * Size;
    if (Error E = B.load(At, N * Size))
      return E;
    for (uint64_t J = 0; J < N; ++J) {
      Expected<bool> More = check(entry(B.data() + At + J * Size), Symtab);
      if (!More)
        return More.takeError();
      if (!*More) {
        S.Warnings.push_back("symbol table: the names are more than the file "
                             "can hold; stopped");
        Sink.Incomplete = true;
        return Error::success();
      }
    }
    B.releaseRead(ReleaseFrom, At + N * Size);
  }
  if (Mismatches)
    Sink.Incomplete = true;
  return Error::success();
}

} // namespace

Error crossCheckSymbolTable(const MachOObjectFile &Obj, const SliceBytes &Bytes,
                            NameReader &Names, ImportSink &Sink, bool Chained,
                            Slice &S) {
  return UndefinedSymbols(Obj, Bytes, Names, Sink, Chained, S).read();
}

} // namespace linkguard::objlib
