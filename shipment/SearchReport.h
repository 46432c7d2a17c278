//===- SearchReport.h - what a loader's search tried, bounded ----*- C++ -*-===//
//
// Shared by the two resolvers (LdSo.cpp, Dyld.cpp): the paths a search
// tried, of which a message names at most MaxTriedListed and counts the
// rest (issue 37 part 5: one message, a bounded size, whatever the file
// holds), and how an edge is placed with its reason and advice.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "shipment/Closure.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <string>
#include <vector>

namespace linkguard::shipment {

/// What both resolvers hold for one root while they walk: the shipment,
/// the options, the closure they fill, and the bound they share (issue 37
/// part 5: every candidate, directory and link charged).
struct ResolverState {
  ResolverState(Shipment &S, const ClosureOptions &O, Closure &C, size_t &Budget, size_t RI)
      : S(S), O(O), C(C), Budget(Budget), RI(RI) {}
  Shipment &S;
  const ClosureOptions &O;
  Closure &C;
  size_t &Budget;
  size_t RI;
  bool Exhausted = false;

  Root &root() { return C.Roots[RI]; }

  /// Takes Cost from the bound; past it the closure is Truncated
  /// (undecided, never "holds").
  bool charge(size_t Cost = 1) {
    if (Budget < Cost) {
      Budget = 0;
      Exhausted = true;
      C.Truncated = true;
      return false;
    }
    Budget -= Cost;
    return true;
  }
};

/// At most this many tried paths are named in one message.
constexpr size_t MaxTriedListed = 8;

/// The paths a search tried: the first MaxTriedListed kept, the rest
/// counted (a path past them is never formatted: Make is not called).
struct TriedPaths {
  std::vector<std::string> Listed;
  size_t Left = 0;
  template <class MakeText> void add(MakeText &&Make) {
    if (Listed.size() < MaxTriedListed)
      Listed.push_back(Make());
    else
      ++Left;
  }
  void add(std::string T) {
    add([&] { return std::move(T); });
  }
  bool empty() const { return Listed.empty(); }
  /// " (tried A, B, and N more)", or "" when nothing was tried.
  std::string text() const {
    if (Listed.empty())
      return "";
    std::string T = " (tried " + llvm::join(Listed, ", ");
    if (Left)
      T += ", and " + std::to_string(Left) + " more";
    return T + ")";
  }
};

/// Every candidate one search tried, in the loader's order, each with its
/// reason (contract::TriedCandidate): listed while the dependency's
/// (MaxWhyListed), the root's and the closure's bounds allow, else counted;
/// Make (the candidate) is called only when it is listed. What --why and
/// a finding's "tried" print: the search that placed the edge, recorded
/// where it took or passed over each path, not a search of its own.
struct TryLog {
  std::vector<contract::TriedCandidate> Listed;
  size_t Left = 0;
  size_t *RootLeft = nullptr, *ClosureLeft = nullptr; // the shared bounds
  template <class MakeCandidate> void add(MakeCandidate &&Make) {
    if (Listed.size() < MaxWhyListed && RootLeft && *RootLeft && ClosureLeft && *ClosureLeft) {
      Listed.push_back(Make());
      --*RootLeft;
      --*ClosureLeft;
    } else {
      ++Left;
    }
  }
  void add(contract::TryReason R, std::string Path, std::string Via, std::string Detail = "") {
    add([&] {
      return contract::TriedCandidate{std::move(Path), std::move(Via), R, std::move(Detail)};
    });
  }
};

/// The edge takes the search's list.
inline void takeTries(Edge &E, TryLog &Log) {
  E.Tried = std::move(Log.Listed);
  E.TriedNotListed = Log.Left;
  Log.Listed.clear();
  Log.Left = 0;
}

/// Once the edge is placed (--provided, a weak dylib allowed): its list
/// is kept when O.KeepTries or E is a finding (a violation, or unknown),
/// else dropped and its share of the bounds given back.
inline void settleTries(Edge &E, const ClosureOptions &O, size_t &RootLeft, size_t &ClosureLeft) {
  if (O.KeepTries || E.violation() || E.Where == Outcome::Unknown)
    return;
  RootLeft += E.Tried.size();
  ClosureLeft += E.Tried.size();
  E.Tried.clear();
  E.Tried.shrink_to_fit();
  E.TriedNotListed = 0;
}

/// "A, B, and N more": at most MaxTriedListed of L.
inline std::string listedUpTo(const std::vector<std::string> &L) {
  std::vector<std::string> Head(L.begin(), L.begin() + std::min(L.size(), MaxTriedListed));
  std::string T = llvm::join(Head, ", ");
  if (L.size() > MaxTriedListed)
    T += ", and " + std::to_string(L.size() - MaxTriedListed) + " more";
  return T;
}

/// An edge's outcome, with why and (for a finding) what to do; an empty
/// advice leaves it to contract/Advice's tables.
inline void placeEdge(Edge &E, Outcome W, std::string Reason, std::string Advice = "") {
  E.Where = W;
  E.Reason = std::move(Reason);
  E.Advice = std::move(Advice);
}

} // namespace linkguard::shipment
