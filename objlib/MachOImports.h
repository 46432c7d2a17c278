//===- MachOImports.h - where a Mach-O image's imports go -------*- C++ -*-===//
//
// Private to objlib's Mach-O reader, which is split by table:
// MachOReader.cpp (load commands, and the order everything runs in),
// BindOpcodes.cpp (dyld opcode tables), ChainedFixups.cpp
// (LC_DYLD_CHAINED_FIXUPS imports) and SymbolTable.cpp (the nlist
// cross-check). They share the sink every import is filed through and the
// budget every name is read under.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "objlib/BinaryInfo.h"
#include "objlib/Image.h"
#include "objlib/Reader.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/Error.h"

#include <climits>
#include <optional>

namespace llvm::object {
class MachOObjectFile;
} // namespace llvm::object

namespace linkguard::objlib {

/// Files every import into the list its ordinal names, once per
/// (list, symbol, source), remembering what it could not place, and, per
/// symbol, the first ordinal a table bound it with (for the nlist
/// cross-check; weak lookup is BIND_SPECIAL_DYLIB_WEAK_LOOKUP). One map
/// lookup per import.
class ImportSink {
public:
  /// ExpectedSymbols sizes the symbol map once (growing it a doubling at a
  /// time rehashes it a dozen times); it must be bounded by the file.
  /// Options says which dependencies' imports are listed (S.Dependencies
  /// are read already); every one is counted.
  ImportSink(Slice &S, unsigned ExpectedSymbols, const ReadOptions &Options);
  // The map holds a reference to Arena: a moved sink's map would allocate
  // from the old one.
  ImportSink(const ImportSink &) = delete;
  ImportSink &operator=(const ImportSink &) = delete;

  /// A binding from a table (bind, lazy-bind, chained fixups).
  void addBound(int Ordinal, llvm::StringRef Symbol, BindSource Source,
                bool Weak);
  /// A weak-lookup binding (weak-bind, chained ordinal -3).
  void addWeakLookup(llvm::StringRef Symbol, BindSource Source);
  /// A binding only the symbol table shows.
  void addFromSymbolTable(int Ordinal, llvm::StringRef Symbol, bool Weak);
  /// The ordinal a table bound Symbol with, if one did.
  std::optional<int> tableOrdinal(llvm::StringRef Symbol) const;
  /// The symbol table says library Ordinal is where the static linker found
  /// the definition of a symbol the tables bind by weak lookup: dyld may
  /// take it from there, so the library counts as referenced.
  void noteWeakSupplier(int Ordinal);
  bool suppliesWeak(size_t DependencyIndex) const {
    return WeakSupplier[DependencyIndex];
  }

  /// Adds the warnings that summarise (call once, at the end).
  void finish();

  /// Something went wrong: an absent import no longer proves anything.
  bool Incomplete = false;

private:
  /// 20 bytes, so an entry with a short name is 40 (it was 64 with a
  /// SmallVector of filings): one per imported symbol, the largest memory
  /// of a read.
  struct SymbolState {
    std::optional<int> TableOrdinal;
    /// The first (ordinal, source) filed (ordinal WeakList for
    /// addWeakLookup); any others, rare (a symbol bound by two tables, or to
    /// two libraries), are MoreFiled[More - 1].
    int FirstOrdinal = 0;
    BindSource FirstSource = BindSource::Bind;
    bool Filed = false;
    uint32_t More = 0;
  };
  using Filing = std::pair<int, BindSource>;
  static constexpr int WeakList = INT32_MIN;

  void file(int Ordinal, llvm::StringMapEntry<SymbolState> &Entry,
            BindSource Source, bool Weak);
  /// The list of a special ordinal, or of one past the last library (then
  /// the image is damaged: a warning, and answers become unknown).
  std::vector<Import> *specialList(int Ordinal, llvm::StringRef Symbol);

  Slice &S;
  /// One arena for every symbol's entry: a malloc'd (and aligned) entry
  /// per import was a quarter of reading 10,000 imports.
  llvm::BumpPtrAllocator Arena;
  llvm::StringMap<SymbolState, llvm::BumpPtrAllocator &> Symbols;
  std::vector<llvm::SmallVector<Filing, 2>> MoreFiled;
  std::vector<bool> Listed; // per dependency: ReadOptions::ListImportsOf
  std::vector<bool> WeakSupplier;
  uint64_t BadOrdinals = 0;
};

/// Reads NUL-terminated names out of link-edit tables, loading their pages
/// as it goes, under one budget for the whole image: damaged tables can
/// point every entry at a long string, or into the middle of one, and make
/// the bytes scanned grow with the square of the table.
class NameReader {
public:
  explicit NameReader(const SliceBytes &B)
      : B(B), Budget(16 * B.Size + (uint64_t(16) << 20)) {}

  /// The string at Offset, ending at its NUL or at End (both relative to
  /// the slice), valid until the next read; "" once the budget is spent
  /// (then spent() says so). Errors only when the file cannot be read.
  llvm::Expected<llvm::StringRef> read(uint64_t Offset, uint64_t End);
  bool spent() const { return Spent; }

private:
  const SliceBytes &B;
  uint64_t Budget;
  bool Spent = false;
  std::string Long; // a name longer than one chunk
};

/// BindOpcodes.cpp: the bind, lazy-bind and weak-bind tables of
/// LC_DYLD_INFO[_ONLY], checked for bounds and cost before libObject decodes
/// them.
llvm::Error readOpcodeTables(llvm::object::MachOObjectFile &Obj,
                             const SliceBytes &Bytes, ImportSink &Sink,
                             Slice &S);

/// ChainedFixups.cpp: the import table of LC_DYLD_CHAINED_FIXUPS. Sets
/// Chained when the image has one.
llvm::Error readChainedFixups(const llvm::object::MachOObjectFile &Obj,
                              const SliceBytes &Bytes, NameReader &Names,
                              ImportSink &Sink, Slice &S, bool &Chained);

/// SymbolTable.cpp: the undefined nlist entries, against the tables.
llvm::Error crossCheckSymbolTable(const llvm::object::MachOObjectFile &Obj,
                                  const SliceBytes &Bytes, NameReader &Names,
                                  ImportSink &Sink, bool Chained, Slice &S);

} // namespace linkguard::objlib
