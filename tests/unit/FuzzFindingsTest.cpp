//===- FuzzFindingsTest.cpp - what the fuzzers found, pinned as unit tests ===//
//
// Each case is a bug found by tests/fuzz (docs/reliability.md lists them)
// or by tests/e2e/faults.bash, with a control that shows the fixed code
// still accepts the valid neighbour of the bad input. The raw crash inputs
// are replayed as well, by the regression.* ctests over tests/regression/.
//
//===----------------------------------------------------------------------===//
#include "flags/Classify.h"
#include "config/RulesFile.h"
#include "objlib/Reader.h"

#include "tests/unit/support/Catch.h"

#include <string>
#include <vector>

using namespace linkguard;

TEST_CASE("rules file: non-ASCII outside strings is an error, not toml++ UB",
          "[fuzz][rulesfile]") {
  // toml++ 3.3 reaches __builtin_unreachable() on these (tomlplusplus#190,
  // #295); the scan in RulesFile.cpp must reject them with the line.
  for (const char *Bad : {"[rul\xc3\xa9]\n", "\n\n[builtin]\nmps-aot = true\xc3\xa9\n",
                          "a\xd2\x8f = 1\n", "s = \"\"\"\\\n   \xc2\xa7\"\"\"\n"}) {
    auto F = config::parseRulesText(Bad, "fuzz.toml");
    REQUIRE_FALSE(static_cast<bool>(F));
    std::string Msg = llvm::toString(F.takeError());
    CHECK_THAT(Msg, Catch::Contains("fuzz.toml:") && Catch::Contains("non-ASCII"));
  }
  auto Line = config::parseRulesText("\n\n[builtin]\nmps-aot = true\xc3\xa9\n", "f.toml");
  REQUIRE_FALSE(static_cast<bool>(Line));
  CHECK_THAT(llvm::toString(Line.takeError()), Catch::StartsWith("f.toml:4: "));
}

TEST_CASE("rules file: non-ASCII in comments and strings is still accepted",
          "[fuzz][rulesfile]") {
  auto F = config::parseRulesText("\xEF\xBB\xBF# caf\xc3\xa9 \xd2\x8f\n"
                                 "[builtin] # r\xc3\xa9gle\n"
                                 "mps-aot = true\n"
                                 "[[rule]]\n"
                                 "name = \"omp\"\n"
                                 "description = \"caf\xc3\xa9 \\\" '''\"\n"
                                 "[rule.match]\n"
                                 "libraries = ['\xc3\xa9t\xc3\xa9', \"\"\"x\xc3\xa9\"\"\"]\n"
                                 "[rule.add]\n"
                                 "flags = ['''-Wl,\xc3\xa9''']\n",
                                 "ok.toml");
  if (!F)
    FAIL(llvm::toString(F.takeError()));
  REQUIRE(F->Rules.size() == 1);
  CHECK(F->Rules[0].Name == "omp");
}

TEST_CASE("objlib: a PT_DYNAMIC past the end of the file is Malformed",
          "[fuzz][objlib]") {
  // LLVM 19's ELFFile::dynamicEntries() does not bounds-check PT_DYNAMIC;
  // before the fix this input was an out-of-bounds read (SEGV under ASan).
  const std::string Input = std::string(LINKGUARD_SOURCE_DIR) +
                            "/tests/regression/fuzz_objlib/elf-pt-dynamic-past-eof";
  auto Info = objlib::readBinary(Input);
  REQUIRE_FALSE(static_cast<bool>(Info));
  bool Malformed = false;
  std::string Msg;
  llvm::handleAllErrors(Info.takeError(), [&](const objlib::ReadError &E) {
    Malformed = E.kind() == objlib::ReadErrorKind::Malformed;
    Msg = E.message();
  });
  CHECK(Malformed);
  CHECK_THAT(Msg, Catch::Contains("elf-pt-dynamic-past-eof"));
}

TEST_CASE("classify: 200k -D arguments are linear, and -U still removes",
          "[fuzz][classify]") {
  // A linear search per -D made one 200k-argument @file take minutes
  // (found by tests/e2e/faults.bash, "200k arguments").
  std::vector<std::string> Args;
  for (int I = 0; I < 200000; ++I)
    Args.push_back("-DM" + std::to_string(I));
  Args.insert(Args.end(), {"-DA=1", "-DB", "-UA", "-DA=2", "-UM5", "-c", "x.cpp"});
  // (What this costs is measured by scripts/bench, 100,000-argument @file,
  // not asserted here: no clocks in unit tests.)
  auto C = flags::classify(Args, flags::ClassifyOptions());
  REQUIRE(static_cast<bool>(C));
  REQUIRE(C->Defines.size() == 200000 - 1 + 2);
  CHECK(C->Defines[4].first == "M4");
  CHECK(C->Defines[5].first == "M6"); // M5 removed, order kept
  CHECK(C->Defines[C->Defines.size() - 2] == std::make_pair(std::string("B"), std::string()));
  CHECK(C->Defines.back() == std::make_pair(std::string("A"), std::string("2")));
  CHECK(C->isDefined("A"));
  CHECK_FALSE(C->isDefined("M5"));
}
