//===- Definers.cpp - one definer per symbol in each load closure ---------===//
#include "shipment/Definers.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

using namespace llvm;

namespace linkguard::shipment {

namespace {

/// ELF: GNU ld's and lld's default linker scripts and symbol tables define
/// _edata, _end and __bss_start in every shared object (binutils
/// ld/scripttempl/elf.sc; lld ELF/Writer.cpp addReservedSymbols, which also
/// names the ARM spellings __bss_start__, __bss_end__, _bss_end__,
/// __end__), and glibc's crti.o / crtn.o give every image _init and _fini
/// (sysdeps/x86_64/crti.S). Mach-O: ld64's header symbols
/// (<mach-o/ldsyms.h>), one in each image of its type.
constexpr ReservedName Reserved[] = {
    {"__bss_end__", "lld ELF/Writer.cpp (ARM)"},
    {"__bss_start", "binutils ld/scripttempl/elf.sc"},
    {"__bss_start__", "lld ELF/Writer.cpp (ARM)"},
    {"__end__", "lld ELF/Writer.cpp (ARM)"},
    {"__mh_bundle_header", "mach-o/ldsyms.h"},
    {"__mh_dylib_header", "mach-o/ldsyms.h"},
    {"__mh_execute_header", "mach-o/ldsyms.h"},
    {"_bss_end__", "lld ELF/Writer.cpp (ARM)"},
    {"_edata", "binutils ld/scripttempl/elf.sc"},
    {"_end", "binutils ld/scripttempl/elf.sc"},
    {"_fini", "glibc sysdeps/x86_64/crti.S (crtn.o)"},
    {"_init", "glibc sysdeps/x86_64/crti.S"},
};

const objlib::Slice *sliceFor(const Shipment &S, size_t Img, const Root &R) {
  const objlib::BinaryInfo &B = S.images()[Img].Info;
  if (B.Fmt == objlib::Format::ELF)
    return B.Slices.size() == 1 ? &B.Slices[0] : nullptr;
  for (const objlib::Slice &Sl : B.Slices)
    if (Sl.Arch == R.Arch)
      return &Sl;
  for (const std::string &A : R.Grading) // the slice dyld maps for this process
    for (const objlib::Slice &Sl : B.Slices)
      if (Sl.Arch == A)
        return &Sl;
  return nullptr;
}

} // namespace

ArrayRef<ReservedName> reservedNames() { return Reserved; }

bool isReservedName(StringRef Name) {
  return llvm::any_of(Reserved, [&](const ReservedName &R) { return Name == R.Name; });
}

Definers findDuplicateDefinitions(const Shipment &S, const Closure &C) {
  Definers Out;
  // Only a name two images define can have two definers in a closure: one
  // index over every image's exports first (linear in all the names), then
  // each root walks only the names defined more than once (usually none),
  // not every name of its closure again.
  using Definer = std::pair<size_t, const objlib::Slice *>;
  // Every name as a 64-bit hash with its definer: equal hashes of two
  // images are the only candidates (no allocation per name; a hash
  // collision only costs a string comparison below).
  std::vector<Definer> Definers_;
  std::vector<std::tuple<uint64_t, uint32_t, uint32_t>> All; // hash, definer, name index
  for (size_t I = 0; I < S.images().size(); ++I)
    for (const objlib::Slice &Sl : S.images()[I].Info.Slices) {
      if (Sl.Exports.empty())
        continue;
      const auto D = static_cast<uint32_t>(Definers_.size());
      Definers_.push_back({I, &Sl});
      for (size_t N = 0; N < Sl.Exports.size(); ++N)
        All.emplace_back(xxh3_64bits(Sl.Exports[N]), D, static_cast<uint32_t>(N));
    }
  // A hash two images define (a DenseMap pass, no sort); then the names
  // of those hashes, grouped.
  DenseMap<uint64_t, std::pair<uint32_t, bool>> Seen; // hash -> (first entry, two images)
  Seen.reserve(static_cast<unsigned>(All.size()));
  for (uint32_t X = 0; X < All.size(); ++X) {
    auto [It, New] = Seen.try_emplace(std::get<0>(All[X]), X, false);
    if (!New && Definers_[std::get<1>(All[It->second.first])].first !=
                    Definers_[std::get<1>(All[X])].first)
      It->second.second = true;
  }
  DenseMap<uint64_t, SmallVector<uint32_t, 2>> Groups;
  for (uint32_t X = 0; X < All.size(); ++X) {
    auto It = Seen.find(std::get<0>(All[X]));
    if (It->second.second)
      Groups[std::get<0>(All[X])].push_back(X);
  }
  // Each (image, slice) and the names it shares with another image.
  std::map<Definer, std::vector<StringRef>> Shared;
  for (const auto &G : Groups) {
    const SmallVector<uint32_t, 2> &Members = G.second;
    for (uint32_t X : Members) {
      const Definer &DX = Definers_[std::get<1>(All[X])];
      StringRef NX = DX.second->Exports[std::get<2>(All[X])];
      if (isReservedName(NX))
        continue;
      // Another image defines the same name (not only the same hash).
      bool Twice = false;
      for (uint32_t Y : Members) {
        const Definer &DY = Definers_[std::get<1>(All[Y])];
        Twice |= DY.first != DX.first && DY.second->Exports[std::get<2>(All[Y])] == NX;
      }
      if (Twice)
        Shared[DX].push_back(NX);
    }
  }
  // (first, second, slice) -> index into Out.Duplicates.
  std::map<std::tuple<size_t, size_t, std::string>, size_t> Pairs;
  std::set<std::pair<size_t, std::string>> Unreadable;
  // A root whose (image, slice) sequence was walked already adds nothing.
  std::set<std::vector<Definer>> Walked;
  for (size_t RI = 0; RI < C.Roots.size(); ++RI) {
    const Root &R = C.Roots[RI];
    std::vector<Definer> Images;
    for (size_t I : R.Loaded)
      if (I < S.images().size())
        Images.emplace_back(I, sliceFor(S, I, R));
    if (!Walked.insert(Images).second)
      continue;
    StringMap<size_t> Owner; // name -> the first image defining it
    for (const Definer &D : Images) {
      const auto &[I, Sl] = D;
      if (!Sl)
        continue;
      if ((!Sl->ExportsRead || !Sl->ExportsProblem.empty()) && Images.size() > 1) {
        if (Unreadable.insert({I, Sl->Arch}).second)
          Out.Unreadable.push_back({RI, I, Sl->Arch,
                                    Sl->ExportsRead ? Sl->ExportsProblem
                                                    : "its exports were not read"});
      }
      auto It = Shared.find(D);
      if (It == Shared.end())
        continue;
      for (StringRef Name : It->second) {
        auto [O, New] = Owner.try_emplace(Name, I);
        if (New || O->second == I)
          continue;
        auto [P, NewPair] = Pairs.try_emplace({O->second, I, Sl->Arch}, Out.Duplicates.size());
        if (NewPair)
          Out.Duplicates.push_back({RI, O->second, I, Sl->Arch, {}});
        Out.Duplicates[P->second].Symbols.push_back(Name.str());
      }
    }
  }
  for (DuplicateDefinitions &D : Out.Duplicates) {
    llvm::sort(D.Symbols);
    D.Symbols.erase(std::unique(D.Symbols.begin(), D.Symbols.end()), D.Symbols.end());
  }
  return Out;
}

} // namespace linkguard::shipment
