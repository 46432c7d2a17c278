//===- MacroTable.cpp - the macro state after every -D and -U ------------===//
#include "flags/MacroTable.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>

using namespace llvm;

namespace linkguard::flags {

namespace {

/// StringRef::trim() without its per-call character-set table.
StringRef trimBlanks(StringRef S) {
  auto Blank = [](char Ch) { return Ch == ' ' || (Ch >= '\t' && Ch <= '\r'); };
  while (!S.empty() && Blank(S.front()))
    S = S.drop_front();
  while (!S.empty() && Blank(S.back()))
    S = S.drop_back();
  return S;
}

uint64_t hashOf(StringRef Name) { return xxh3_64bits(arrayRefFromStringRef(Name)); }

constexpr size_t MinSlots = 64;

} // namespace

void MacroTable::reserve(size_t N) {
  Defined.reserve(N);
  Dead.reserve(N);
  // At most half full, so a probe ends after a few slots.
  size_t Want = MinSlots;
  while (Want < 2 * N)
    Want *= 2;
  if (Want > Slots.size()) {
    Slots.assign(Want, 0);
    for (size_t I = 0; I < Defined.size(); ++I)
      slotFor(Defined[I].first) = static_cast<uint32_t>(I + 1);
  }
}

void MacroTable::track(std::vector<std::string> Names) {
  std::sort(Names.begin(), Names.end());
  Names.erase(std::unique(Names.begin(), Names.end()), Names.end());
  Tracked = std::move(Names);
}

bool MacroTable::tracked(StringRef Name) const {
  if (!Tracked)
    return true;
  auto It = std::lower_bound(Tracked->begin(), Tracked->end(), Name,
                             [](const std::string &A, StringRef B) { return StringRef(A) < B; });
  return It != Tracked->end() && *It == Name;
}

void MacroTable::grow() { reserve(std::max(MinSlots, Slots.size())); }

uint32_t &MacroTable::slotFor(StringRef Name) {
  const size_t Mask = Slots.size() - 1;
  for (size_t I = hashOf(Name) & Mask;; I = (I + 1) & Mask) {
    uint32_t &Slot = Slots[I];
    if (Slot == 0 || Defined[Slot - 1].first == Name)
      return Slot;
  }
}

void MacroTable::define(StringRef Value) {
  size_t Eq = Value.find('=');
  // -D'F(x)=x' defines the function-like macro F.
  StringRef Name = trimBlanks(Value.take_front(std::min(Eq, Value.find('('))));
  if (Name.empty() || !tracked(Name))
    return;
  std::string V = Eq == StringRef::npos ? std::string() : Value.substr(Eq + 1).str();
  if (2 * (Used + 1) > Slots.size())
    grow();
  uint32_t &Slot = slotFor(Name);
  if (Slot != 0 && !Dead[Slot - 1]) {
    Defined[Slot - 1].second = std::move(V);
    return;
  }
  // New, or defined again after a -U: it goes to the end.
  if (Slot == 0)
    ++Used;
  Slot = static_cast<uint32_t>(Defined.size() + 1);
  Defined.emplace_back(Name.str(), std::move(V));
  Dead.push_back(false);
}

void MacroTable::undefine(StringRef Value) {
  StringRef Name = trimBlanks(Value);
  if (Slots.empty() || !tracked(Name))
    return;
  uint32_t &Slot = slotFor(Name);
  if (Slot == 0 || Dead[Slot - 1])
    return;
  Dead[Slot - 1] = true;
  ++DeadCount;
}

MacroTable::Entries MacroTable::finish() {
  Entries Out = std::move(Defined);
  if (DeadCount) {
    size_t Kept = 0;
    for (size_t I = 0; I < Out.size(); ++I) {
      if (Dead[I])
        continue;
      if (Kept != I) // a string moved onto itself is left empty
        Out[Kept] = std::move(Out[I]);
      ++Kept;
    }
    Out.resize(Kept);
  }
  std::optional<std::vector<std::string>> KeepTracked = std::move(Tracked);
  *this = MacroTable();
  Tracked = std::move(KeepTracked);
  return Out;
}

} // namespace linkguard::flags
