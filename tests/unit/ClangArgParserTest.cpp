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

#include <optional>
#include <string>
#include <vector>

using namespace linkguard;
using namespace linkguard::flags;

namespace {

/// What the table finds for \p S joined to a value, when it is a joined
/// option spelled S (what a shortcut could learn from, unless an alias).
struct JoinedOption {
  llvm::opt::Option Opt;
  bool Alias;
};

std::optional<JoinedOption> joinedOptionSpelled(const std::string &S) {
  std::string First = S + "x";
  const char *One[] = {First.c_str()};
  unsigned MI = 0, MC = 0;
  llvm::opt::InputArgList L = clangOptTable().ParseArgs(One, MI, MC, clangDriverVisibility());
  if (L.size() != 1)
    return std::nullopt;
  const llvm::opt::Arg &A = **L.begin();
  auto Kind = A.getOption().getKind();
  if (A.getSpelling() != S || (Kind != llvm::opt::Option::JoinedClass &&
                               Kind != llvm::opt::Option::JoinedOrSeparateClass))
    return std::nullopt;
  return JoinedOption{A.getOption(), A.getAlias() != nullptr};
}

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
  // One command per spelling S, so that every joined option gets its
  // shortcut (a command keeps 16): S joined to a value (which teaches the
  // shortcut when S is joined), then S followed by every byte, and by every
  // longer spelling with values -- what the shortcut must leave to the table.
  size_t Commands = 0, Lines = 0, Differ = 0;
  for (const std::string &S : Spellings) {
    // Only a joined option's spelling becomes a shortcut: the others make
    // commands both paths parse with the table alone.
    if (!joinedOptionSpelled(S))
      continue;
    std::string First = S + "x";
    std::vector<std::string> Words{First};
    for (int B = 1; B < 256; ++B)
      Words.push_back(S + static_cast<char>(B) + "v");
    for (const std::string &L : clangSpellingsExtending(S))
      for (const char *Tail : {"", "x", "=1"})
        Words.push_back(L + Tail);
    std::vector<const char *> Argv = cstrs(Words);
    auto [Want, Got] = fuzz::bothParses(Argv, needsOnlyValue);
    ++Commands;
    Lines += Want.size();
    if (Got != Want && Differ++ < 5) {
      for (size_t I = 0; I < std::min(Want.size(), Got.size()); ++I)
        if (Want[I] != Got[I]) {
          FAIL_CHECK("after " << S << "x, argument " << Want[I].first << ": ParseArgs "
                              << Want[I].second << ", shortcut " << Got[I].second);
          break;
        }
    }
  }
  CHECK(Differ == 0);
  CHECK(Commands > 300); // clang 19: ~420 joined spellings
  CHECK(Lines > 100000);
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

TEST_CASE("a light argument parsed by the sixteenth shortcut keeps its option",
          "[classify][shortcut]") {
  // Fifteen joined options that stay Args teach the first fifteen
  // shortcuts; -D is the sixteenth (LightArg::Cut 15, its highest value).
  std::vector<std::string> Words;
  for (const std::string &S : clangSpellingsExtending("")) {
    if (Words.size() == 15)
      break;
    std::optional<JoinedOption> J = joinedOptionSpelled(S);
    if (!J || J->Alias || needsOnlyValue(J->Opt) || S.rfind("-D", 0) == 0)
      continue;
    Words.push_back(S + "x");
  }
  REQUIRE(Words.size() == 15);
  for (int I = 0; I < 20; ++I)
    Words.push_back("-DM" + std::to_string(I));
  std::vector<const char *> Argv = cstrs(Words);
  unsigned MI = 0, MC = 0;
  ParsedArgs P = parseClangArgs(Argv, MI, MC, needsOnlyValue, /*Threshold=*/0);
  REQUIRE(P.Light.size() == 19); // the first -D is the table's
  for (LightArg L : P.Light) {
    CHECK(L.Cut == 15);
    CHECK(P.optionId(L) == clang::driver::options::OPT_D);
    CHECK(P.spelling(L) == "-D");
  }
  CHECK(std::string(P.value(P.Light.back())) == "M19");
  auto [Want, Got] = fuzz::bothParses(Argv, needsOnlyValue);
  CHECK(Got == Want);
}

TEST_CASE("the parse borrows the caller's strings and, below the threshold, is ParseArgs",
          "[classify][shortcut]") {
  // nullptr and "" are skipped, "-o" at the end is a missing value.
  std::vector<const char *> Argv = {"-DA=1", nullptr, "", "-I", "/x", "-Wl,-lomp",
                                    "-std=c++17", "-DB", "k.cpp", "-o"};
  unsigned MI = 0, MC = 0;
  ParsedArgs P = parseClangArgs(Argv, MI, MC, needsOnlyValue); // below the threshold
  CHECK(P.Light.empty()); // the table parsed every argument
  CHECK(MI == Argv.size() - 1);
  CHECK(MC == 1);
  REQUIRE(P.List.getNumInputArgStrings() == Argv.size());
  for (unsigned I = 0; I < Argv.size(); ++I)
    CHECK(P.List.getArgString(I) == Argv[I]);
  // It reads the caller's vector, not a copy of it.
  const char *Other = "other.cpp";
  std::swap(Argv[8], Other);
  CHECK(P.List.getArgString(8) == Argv[8]);
  std::swap(Argv[8], Other);
  // A joined value points into the caller's string.
  const llvm::opt::Arg *D = P.List.getLastArg(clang::driver::options::OPT_D);
  REQUIRE(D != nullptr);
  CHECK(D->getValue() == Argv[7] + 2);
  // Strings the list makes (Arg::getAsString renders through them) are its own.
  llvm::StringRef Made = P.List.MakeArgString("-DMADE=1");
  CHECK(Made == "-DMADE=1");
  CHECK(Made.data()[Made.size()] == '\0');
  for (const llvm::opt::Arg *A : P.List)
    CHECK_FALSE(A->getAsString(P.List).empty());
  auto [Want, Got] = fuzz::bothParses(Argv, needsOnlyValue, ShortcutThreshold);
  CHECK(Got == Want);
  // The same words from the first argument on through the shortcuts.
  auto [Want0, Got0] = fuzz::bothParses(Argv, needsOnlyValue);
  CHECK(Got0 == Want0);
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

TEST_CASE("classify gives the same result with and without the shortcuts",
          "[classify][shortcut]") {
  // Light arguments (-D, -U, -I) between everything the walk counts:
  // inputs, libraries (FirstLibraryArg), linker arguments, "--"
  // (EndOfOptions), a missing "@name", a value missing at the end.
  std::vector<std::string> Tail[] = {
      {"-c", "k.cpp", "-o", "k.o"},
      {"a.o", "-lomp", "-Wl,-rpath,/x", "-L/l", "-shared", "-o", "m.dylib", "--", "-DNOT"},
      {"-x", "c++", "k.cpp", "@missing-linkguard-rsp", "-framework", "Metal", "-o"},
      {"-U", "M1", "-I", "/sep", "-Xclang", "-DX", "-Xlinker", "-lq", "-Wno-x", "-c", "a.c"},
  };
  for (const std::vector<std::string> &T : Tail) {
    std::vector<std::string> Args;
    for (int I = 0; I < 300; ++I) {
      Args.push_back("-DM" + std::to_string(I % 7) + "=" + std::to_string(I));
      if (I % 5 == 0)
        Args.push_back("-UM" + std::to_string(I % 3));
      if (I % 11 == 0)
        Args.push_back("-I/inc" + std::to_string(I));
      if (I == 150)
        Args.insert(Args.end(), T.begin(), T.end() - 1);
    }
    Args.push_back(T.back());
    ClassifyOptions Fast, Slow;
    Fast.HostFormat = Slow.HostFormat = ObjectFormat::MachO;
    Fast.ParseShortcutThreshold = 0;
    Slow.ParseShortcutThreshold = static_cast<size_t>(-1);
    auto F = classify(Args, Fast);
    auto S = classify(Args, Slow);
    REQUIRE(static_cast<bool>(F));
    REQUIRE(static_cast<bool>(S));
    CHECK(fuzz::render(*F) == fuzz::render(*S));
    CHECK(!F->Defines.empty());
  }
}

TEST_CASE("the table facts the shortcut relies on hold for this LLVM", "[classify][shortcut]") {
  // The search lower_bounds the argument with every leading prefix
  // character stripped: an option whose name began with one could be
  // skipped by the search yet claimed by a shortcut. (Matching is also
  // case-sensitive: ClangOptionTable builds the table with IgnoreCase off.)
  const llvm::opt::OptTable &T = clangOptTable();
  size_t Named = 0;
  for (unsigned Id = 1; Id <= T.getNumOptions(); ++Id) {
    llvm::StringRef Name = T.getOption(Id).getName();
    if (Name.empty())
      continue;
    ++Named;
    INFO("option " << Id << " named " << Name.str());
    CHECK(Name.front() != '-');
    CHECK(Name.front() != '/');
  }
  CHECK(Named > 3000);
}
