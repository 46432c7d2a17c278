// flags/ClangArgParser: the shortcut parse is clang's own ParseArgs, argument
// for argument, over every spelling in clang 19's table; and classify() over
// a long command line (the shortcut path) reads macros, include paths and
// warnings as over a short one.
#include "flags/ClangArgParser.h"
#include "flags/ClangOptionTable.h"
#include "flags/Classify.h"
#include "flags/ClassifyState.h"

#include "tests/fuzz/ParseCompare.h"

#include "tests/unit/support/Catch.h"

#include "clang/Driver/Options.h"

#include <string>
#include <vector>

using namespace linkguard;
using namespace linkguard::flags;

namespace {

std::vector<const char *> cstrs(const std::vector<std::string> &S) {
  std::vector<const char *> Out;
  for (const std::string &A : S)
    Out.push_back(A.c_str());
  return Out;
}

} // namespace

TEST_CASE("the shortcut parse equals ParseArgs over every spelling of the table",
          "[classify][shortcut]") {
  std::vector<std::string> Spellings = clangSpellingsExtending("");
  REQUIRE(Spellings.size() > 3000); // clang 19: every option, every prefix
  // Each spelling joined to values that extend it in the ways that matter
  // (a letter, '=', '-', ',', nothing), twice over: the first round teaches
  // the shortcuts, the second is read by them.
  std::vector<std::string> Words;
  for (int Round = 0; Round < 2; ++Round)
    for (const std::string &S : Spellings)
      for (const char *Tail : {"x", "=1", "-y", ",z", "", "v.o"})
        Words.push_back(S + Tail);
  std::vector<const char *> Argv = cstrs(Words);
  auto [Want, Got] = fuzz::bothParses(Argv, needsOnlyValue);
  REQUIRE(Want.size() > 10000);
  CHECK(Got.size() == Want.size());
  size_t Differ = 0;
  for (size_t I = 0; I < std::min(Want.size(), Got.size()); ++I)
    if (Want[I] != Got[I] && Differ++ < 5)
      FAIL_CHECK("argument " << Want[I].first << ": ParseArgs " << Want[I].second
                             << ", shortcut " << Got[I].second);
  CHECK(Differ == 0);
}

TEST_CASE("the shortcut parse keeps -D, -U and -I light and the rest as Args",
          "[classify][shortcut]") {
  std::vector<std::string> Words;
  for (int I = 0; I < 300; ++I) {
    Words.push_back("-DM" + std::to_string(I) + "=1");
    Words.push_back("-I/inc/" + std::to_string(I));
    Words.push_back("-Wno-x" + std::to_string(I));
  }
  Words.insert(Words.end(), {"-UM7", "-Wl,-dead_strip_dylibs", "-I-", "-D", "SEP"});
  std::vector<const char *> Argv = cstrs(Words);
  unsigned MI = 0, MC = 0;
  ParsedArgs P = parseClangArgs(Argv, MI, MC, needsOnlyValue);
  CHECK(MC == 0);
  // The first of each is parsed by the table (and teaches the shortcut);
  // -Wno-* and -Wl, stay Args (they reach DriverFlags and LinkerArgs); the
  // separate "-D SEP" and "-I-" are the table's too.
  CHECK(P.Light.size() == 299 + 299);
  size_t Warnings = 0;
  for (const llvm::opt::Arg *A : P.List)
    Warnings += llvm::StringRef(A->getSpelling()).starts_with("-W");
  CHECK(Warnings >= 301);
  auto [Want, Got] = fuzz::bothParses(Argv, needsOnlyValue);
  CHECK(Got == Want);
}

TEST_CASE("classify reads a long command line as clang does: macro order, -U, warnings",
          "[classify][shortcut]") {
  std::vector<std::string> Args;
  for (int I = 0; I < 400; ++I)
    Args.push_back("-DM" + std::to_string(I));
  // Overrides and removals in order, in both spellings (joined goes through
  // the shortcut, separate through the table).
  Args.insert(Args.end(), {"-DUSE_MPS=0", "-U", "M3", "-UM4", "-D", "USE_MPS=1", "-DM5=late",
                           "-Wall", "-isystem", "/sys", "-I/x", "-c", "k.cpp"});
  auto Long = classify(Args, ClassifyOptions{});
  REQUIRE(static_cast<bool>(Long));
  CHECK(Long->Ph == Phase::Compile);
  CHECK(Long->Defines.size() == 400 - 2 + 1);
  CHECK(!Long->isDefined("M3"));
  CHECK(!Long->isDefined("M4"));
  CHECK(Long->Defines[0].first == "M0");
  CHECK(Long->Defines[3].first == "M5"); // M3, M4 gone, order kept
  CHECK(Long->Defines[3].second == "late");
  CHECK(Long->Defines.back() == std::make_pair(std::string("USE_MPS"), std::string("1")));
  // -isystem is not in I_Group: it is a driver flag, as on a short line.
  CHECK(Long->DriverFlags == std::vector<std::string>{"-Wall", "-isystem /sys", "-c"});
}
