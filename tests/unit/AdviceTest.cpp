// contract/Advice: every finding kind, present and future, names its fix
// (issue 35 item 3). The rules are enumerated from the JSON schemas'
// "rule" patterns (what a document may carry) and the placements from the
// enums (contract::Placement, shipment::Outcome) up to their Last: a rule
// or a placement that makes findings cannot be added without a row.
#include "contract/Advice.h"
#include "contract/Portability.h"
#include "shipment/Closure.h"

#include "tests/unit/support/Catch.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <regex>

using namespace linkguard;
using namespace linkguard::contract;

namespace {

/// The rule words a schema's finding "rule" pattern allows: the
/// alternatives of "^(a|b|c P|(d|e) .+)$", each alternative's first word.
std::vector<std::string> schemaRuleWords(const std::string &Schema, const char *Def) {
  auto Buf = llvm::MemoryBuffer::getFile(std::string(LINKGUARD_SOURCE_DIR) + "/docs/schema/" + Schema);
  REQUIRE(Buf);
  llvm::Expected<llvm::json::Value> V = llvm::json::parse((*Buf)->getBuffer());
  REQUIRE(static_cast<bool>(V));
  const llvm::json::Object *F = V->getAsObject()->getObject("$defs")->getObject(Def);
  REQUIRE(F);
  std::optional<llvm::StringRef> P =
      F->getObject("properties")->getObject("rule")->getString("pattern");
  REQUIRE(P);
  // Every run of [a-z-] that starts an alternative: after '(' or '|'.
  std::vector<std::string> Words;
  std::regex Word(R"([(|]([a-z][a-z-]*))");
  std::string S = P->str();
  for (std::sregex_iterator I(S.begin(), S.end(), Word), E; I != E; ++I)
    Words.push_back((*I)[1].str());
  return Words;
}

Finding finding(FindingKind K, std::string Rule, std::string Dep = "libx.so",
                std::string Placement = "") {
  Finding F;
  F.Kind = K;
  F.Rule = std::move(Rule);
  F.Dependency = std::move(Dep);
  F.Placement = std::move(Placement);
  return F;
}

} // namespace

TEST_CASE("advice: every rule a document can carry has a row", "[advice]") {
  std::vector<std::string> Words = schemaRuleWords("check.json", "finding");
  for (const std::string &W : schemaRuleWords("try-load.json", "finding"))
    Words.push_back(W);
  REQUIRE(Words.size() >= 8);
  std::vector<llvm::StringRef> Known = advisedRules();
  for (const std::string &W : Words) {
    INFO("rule " << W);
    CHECK(llvm::is_contained(Known, W));
    for (FindingKind K : {FindingKind::Violation, FindingKind::Kept, FindingKind::Unknown})
      for (Origin O : {Origin::Link, Origin::PyTorchExport, Origin::Process})
        for (objlib::Format Fmt : {objlib::Format::MachO, objlib::Format::ELF}) {
          AdviceContext C;
          C.Fmt = Fmt;
          C.From = O;
          // A portable finding is advised by its placement; the others by rule.
          Finding F = finding(K, W + " x", "libx.so", W == "portable" ? "non-portable" : "");
          CHECK_FALSE(adviceFor(F, C).empty());
        }
  }
}

TEST_CASE("advice: every placement and closure outcome that makes a finding has a row",
          "[advice]") {
  std::vector<llvm::StringRef> Known = advisedPlacements();
  std::vector<std::string> Names;
  for (int I = 0; I <= static_cast<int>(Placement::Last); ++I)
    Names.push_back(placementName(static_cast<Placement>(I)));
  for (int I = 0; I <= static_cast<int>(shipment::Outcome::Last); ++I)
    Names.push_back(shipment::outcomeName(static_cast<shipment::Outcome>(I)));
  for (const std::string &N : Names) {
    INFO("placement " << N);
    if (placementIsFine(N))
      continue;
    CHECK(llvm::is_contained(Known, N));
    for (const char *Dep : {"/opt/x/libx.dylib", "@rpath/libx.dylib", "libx.so.1",
                            "@executable_path/../lib/libx.dylib", "$ORIGIN/$LIB/libx.so"})
      CHECK_FALSE(adviceFor(finding(FindingKind::Violation, "portable", Dep, N), {}).empty());
  }
}

TEST_CASE("advice: a file's fix is its link line, a .pt2 member's is to export again",
          "[advice]") {
  Finding F = finding(FindingKind::Violation, "forbid-unreferenced openmp",
                      "/opt/llvm-openmp/lib/libomp.dylib");
  AdviceContext Link;
  Link.Fmt = objlib::Format::MachO;
  Link.DropFlag = "-Wl,-dead_strip_dylibs";
  CHECK(adviceFor(F, Link) ==
        "link with -Wl,-dead_strip_dylibs or drop it from the link line (a -needed-l / "
        "-needed_library keeps it)");
  AdviceContext Export = Link;
  Export.From = Origin::PyTorchExport;
  std::string A = adviceFor(F, Export);
  CHECK(A.find("export the model again under linkguard.inductor.use()") == 0);
  CHECK(A.find("-Wl,-dead_strip_dylibs") != std::string::npos);
  // An absolute path outside the system: ship it and load it by @rpath.
  std::string Abs = adviceFor(finding(FindingKind::Violation, "portable",
                                      "/opt/vendor/libprov.dylib", "non-portable"),
                              Link);
  CHECK(Abs.find("@rpath/libprov.dylib") != std::string::npos);
  CHECK(Abs.find("--provided /opt/vendor/libprov.dylib") != std::string::npos);
  // An unknown rule gets no invented fix; advise() says so, never empty.
  CHECK(adviceFor(finding(FindingKind::Violation, "frobnicate"), Link).empty());
  Verdict V;
  V.Findings.push_back(finding(FindingKind::Violation, "frobnicate"));
  advise(V, Link);
  CHECK(V.Findings[0].Advice.find("knows no fix") != std::string::npos);
}

TEST_CASE("advice: PyTorch's own libraries are provided to a .pt2", "[advice]") {
  auto provided = [](const std::string &Name) {
    for (const Pattern &P : pytorchProvided())
      if (P.matches(Name))
        return true;
    return false;
  };
  CHECK(provided("libtorch_cpu.so"));
  CHECK(provided("@rpath/libc10.dylib"));
  CHECK(provided("libtorch.so"));
  CHECK_FALSE(provided("libomp.so.5"));
  CHECK_FALSE(provided("libgomp.so.1"));
}
