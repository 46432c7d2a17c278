// flags/MacroTable against the plain reading of -D/-U (a vector searched
// from the front, erased from the middle), over random commands that make
// the table grow, rehash, kill and revive names; and a -U-heavy command that
// the old erase-per--U code took quadratic time on.
#include "flags/Classify.h"
#include "flags/MacroTable.h"

#include "tests/unit/support/Catch.h"

#include <algorithm>
#include <random>
#include <string>
#include <unistd.h>
#include <vector>

using namespace linkguard::flags;
using Entries = MacroTable::Entries;

namespace {

/// The definition in words: what clang's -D/-U leave, in the order macros
/// were first (re)defined.
struct Reference {
  Entries E;
  void define(const std::string &Name, const std::string &Value) {
    auto It = std::find_if(E.begin(), E.end(), [&](auto &P) { return P.first == Name; });
    if (It != E.end())
      It->second = Value;
    else
      E.emplace_back(Name, Value);
  }
  void undefine(const std::string &Name) {
    E.erase(std::remove_if(E.begin(), E.end(), [&](auto &P) { return P.first == Name; }),
            E.end());
  }
};

struct HangGuard {
  HangGuard() { ::alarm(60); }
  ~HangGuard() { ::alarm(0); }
};

} // namespace

TEST_CASE("macro table: the same state as the plain reading, growing from empty",
          "[flags][classify]") {
  std::mt19937 Rng(20261203);
  for (int Round = 0; Round < 50; ++Round) {
    MacroTable T;
    Reference R;
    const int Names = 1 + static_cast<int>(Rng() % 400);
    const int Ops = static_cast<int>(Rng() % 3000);
    if (Round % 2)
      T.reserve(Rng() % 200); // sometimes too small: it must still grow
    for (int I = 0; I < Ops; ++I) {
      std::string Name = "M" + std::to_string(Rng() % Names);
      std::string Value = std::to_string(I);
      switch (Rng() % 4) {
      case 0:
        T.undefine(Name);
        R.undefine(Name);
        break;
      case 1: // the value-less spelling, with blanks round the name
        T.define(" " + Name + "\t");
        R.define(Name, "");
        break;
      default:
        T.define(Name + "=" + Value);
        R.define(Name, Value);
      }
    }
    Entries Got = T.finish();
    REQUIRE(Got == R.E);
    CHECK(T.finish().empty()); // finish() empties the table
  }
}

TEST_CASE("macro table: names are read as clang reads -D", "[flags][classify]") {
  MacroTable T;
  T.define("F(x)=x");    // function-like: the name is F
  T.define("G=a(b)");    // a '(' in the value is the value's
  T.define("=1");        // no name: ignored
  T.define("H");
  T.undefine(" H ");
  T.undefine("NEVER");
  CHECK(T.finish() == Entries{{"F", "x"}, {"G", "a(b)"}});
}

TEST_CASE("classify: 100,000 -D then a -U for each is linear", "[flags][classify]") {
  HangGuard G; // erasing from the front once per -U took minutes
  std::vector<std::string> Args;
  for (int I = 0; I < 100000; ++I)
    Args.push_back("-DM" + std::to_string(I));
  for (int I = 0; I < 100000; ++I)
    if (I != 77777)
      Args.push_back("-UM" + std::to_string(I));
  Args.insert(Args.end(), {"-DM5=again", "-c", "x.cpp"});
  auto C = classify(Args, ClassifyOptions());
  REQUIRE(static_cast<bool>(C));
  CHECK(C->Defines == Entries{{"M77777", ""}, {"M5", "again"}});
}

TEST_CASE("macro table: tracking keeps the plain reading of the tracked names only",
          "[flags][classify]") {
  std::mt19937 Rng(20261204);
  for (int Round = 0; Round < 50; ++Round) {
    const int Names = 1 + static_cast<int>(Rng() % 200);
    std::vector<std::string> Tracked;
    for (int I = 0; I < Names; ++I)
      if (Rng() % 4 == 0)
        Tracked.push_back("M" + std::to_string(I));
    MacroTable T;
    T.track(Tracked);
    Reference R;
    for (int I = 0, Ops = static_cast<int>(Rng() % 3000); I < Ops; ++I) {
      std::string Name = "M" + std::to_string(Rng() % Names);
      if (Rng() % 3 == 0) {
        T.undefine(" " + Name);
        R.undefine(Name);
      } else {
        T.define(Name + "=" + std::to_string(I));
        R.define(Name, std::to_string(I));
      }
    }
    Entries Want;
    for (const auto &E : R.E)
      if (std::find(Tracked.begin(), Tracked.end(), E.first) != Tracked.end())
        Want.push_back(E);
    REQUIRE(T.finish() == Want);
  }
}

TEST_CASE("classify: MacrosRead records only the macros the rules read, -U included",
          "[flags][classify]") {
  std::vector<std::string> Args;
  for (int I = 0; I < 1000; ++I)
    Args.push_back("-DM" + std::to_string(I));
  Args.insert(Args.end(), {"-D", " USE_MPS", "-DNDEBUG=1", "-UNDEBUG", "-DF(x)=x", "-c", "x.cpp"});
  ClassifyOptions All, Read;
  Read.MacrosRead = std::vector<std::string>{"NDEBUG", "USE_MPS", "F", "NEVER"};
  auto Full = classify(Args, All);
  auto Filtered = classify(Args, Read);
  REQUIRE(static_cast<bool>(Full));
  REQUIRE(static_cast<bool>(Filtered));
  CHECK(Full->Defines.size() == 1002);
  CHECK(Filtered->Defines == Entries{{"USE_MPS", ""}, {"F", "x"}});
  CHECK_FALSE(Filtered->isDefined("NDEBUG"));
  CHECK(Filtered->Ph == Full->Ph);
  CHECK(Filtered->Inputs.size() == Full->Inputs.size());
  // An empty list: no macro at all.
  Read.MacrosRead = std::vector<std::string>{};
  auto None = classify(Args, Read);
  REQUIRE(static_cast<bool>(None));
  CHECK(None->Defines.empty());
}

TEST_CASE("macro table: 200,000 tracked names cost a lookup per -D, not a scan",
          "[flags][classify]") {
  HangGuard G; // a linear search of the names per -D took hours here
  std::vector<std::string> Names;
  for (int I = 200000; I-- > 0;)
    Names.push_back("N" + std::to_string(I));
  Names.push_back("N7"); // a repeat
  MacroTable T;
  T.track(Names);
  for (int I = 0; I < 200000; ++I)
    T.define("N" + std::to_string(I) + "=1");
  for (int I = 0; I < 200000; ++I)
    if (I != 7)
      T.undefine("N" + std::to_string(I));
  T.define("UNTRACKED");
  CHECK(T.finish() == Entries{{"N7", "1"}});
}
