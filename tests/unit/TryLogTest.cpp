// shipment/SearchReport.h TryLog: the candidates a search lists for --why
// and a finding's "tried", within the dependency's, the root's and the
// closure's bounds; past them only counted, their text never made. The
// lists themselves are tested against the real ld.so in
// tests/e2e/inspect_why.bash.
#include "shipment/SearchReport.h"

#include "tests/unit/support/Catch.h"

using namespace linkguard;
using namespace linkguard::shipment;

namespace {
contract::TriedCandidate cand(size_t I) {
  return {"/t/lib" + std::to_string(I) + "/libx.so", "DT_RUNPATH $ORIGIN/../lib",
          contract::TryReason::Missing, ""};
}
} // namespace

TEST_CASE("a search lists at most MaxWhyListed candidates and counts the rest", "[shipment]") {
  size_t Root = MaxWhyPerRoot, Closure = MaxWhyPerClosure, Made = 0;
  TryLog L;
  L.RootLeft = &Root;
  L.ClosureLeft = &Closure;
  for (size_t I = 0; I < 1000; ++I)
    L.add([&] { return ++Made, cand(I); });
  CHECK(L.Listed.size() == MaxWhyListed);
  CHECK(L.Left == 1000 - MaxWhyListed);
  CHECK(Made == MaxWhyListed); // a candidate only counted is never formatted
  CHECK(Root == MaxWhyPerRoot - MaxWhyListed);
  CHECK(Closure == MaxWhyPerClosure - MaxWhyListed);
  CHECK(L.Listed.front().Path == "/t/lib0/libx.so");
}

TEST_CASE("the root's bound ends listing across its searches", "[shipment]") {
  size_t Root = 3, Closure = MaxWhyPerClosure;
  TryLog L;
  L.RootLeft = &Root;
  L.ClosureLeft = &Closure;
  for (size_t I = 0; I < 5; ++I)
    L.add(contract::TryReason::Missing, "/p" + std::to_string(I), "via");
  Edge E;
  takeTries(E, L);
  CHECK(E.Tried.size() == 3);
  CHECK(E.TriedNotListed == 2);
  CHECK(L.Listed.empty());
  CHECK(L.Left == 0);
  CHECK(Root == 0);
}

TEST_CASE("an edge that is no finding gives its share back unless --why keeps it", "[shipment]") {
  size_t Root = 10, Closure = 10;
  TryLog L;
  L.RootLeft = &Root;
  L.ClosureLeft = &Closure;
  for (size_t I = 0; I < 4; ++I)
    L.add([&] { return cand(I); });
  Edge Shipped;
  Shipped.Where = Outcome::Shipped;
  takeTries(Shipped, L);
  ClosureOptions O;
  settleTries(Shipped, O, Root, Closure);
  CHECK(Shipped.Tried.empty());
  CHECK(Root == 10);
  CHECK(Closure == 10);

  for (size_t I = 0; I < 4; ++I)
    L.add([&] { return cand(I); });
  Edge Missing;
  Missing.Where = Outcome::Unresolved;
  takeTries(Missing, L);
  settleTries(Missing, O, Root, Closure);
  CHECK(Missing.Tried.size() == 4); // a finding keeps its candidates
  CHECK(Root == 6);

  for (size_t I = 0; I < 2; ++I)
    L.add([&] { return cand(I); });
  Edge Kept;
  Kept.Where = Outcome::System;
  takeTries(Kept, L);
  O.KeepTries = true; // inspect --tree --why
  settleTries(Kept, O, Root, Closure);
  CHECK(Kept.Tried.size() == 2);
  CHECK(Root == 4);
}

TEST_CASE("every reason has its name", "[shipment]") {
  CHECK(std::string(contract::tryReasonName(contract::TryReason::Accepted)) == "accepted");
  CHECK(std::string(contract::tryReasonName(contract::TryReason::MissingDirectory)) ==
        "missing-directory");
  CHECK(std::string(contract::tryReasonName(contract::TryReason::WrongArchitecture)) ==
        "wrong-architecture");
  CHECK(std::string(contract::tryReasonName(contract::TryReason::System)) == "system");
}
