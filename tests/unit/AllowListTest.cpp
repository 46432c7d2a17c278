// [[allow]] in linkguard.toml (config/RulesFile) and its matching
// (allow/AllowList): every bad entry is one message naming the file and
// the line; an entry decides only the findings it names (file, kind,
// value), never an unknown one; a runpath entry decides a host-dependent
// finding only when it covers every search entry the finding blames; an
// entry that matched nothing is stale. Failed on a3a5d7e (no [[allow]]:
// "unknown key 'allow'", and no AllowList).
#include "allow/AllowList.h"
#include "config/RulesFile.h"

#include "tests/unit/support/Catch.h"
#include "tests/unit/support/RulesText.h"

using namespace linkguard;
using namespace linkguard::config;
using linkguard::allow::AllowList;
using linkguard::allow::allowMatches;
using linkguard::allow::blamedSearchEntries;

namespace {

using testsupport::rulesError;

std::vector<AllowSpec> allowOf(llvm::StringRef Toml) {
  auto F = parseRulesText(Toml, "/some/dir/lg.toml");
  if (!F) {
    FAIL(llvm::toString(F.takeError()));
    return {};
  }
  return F->Allow;
}

contract::Finding finding(contract::FindingKind K, std::string Rule, std::string Dep,
                          std::string Message = "", std::string Placement = "") {
  contract::Finding F;
  F.Kind = K;
  F.Rule = std::move(Rule);
  F.Dependency = std::move(Dep);
  F.Message = std::move(Message);
  F.Placement = std::move(Placement);
  return F;
}

const std::vector<std::string> App = {"t/bin/app", "bin/app"};

} // namespace

TEST_CASE("[[allow]] tables are read in order, each with its kind, reason and line",
          "[allow]") {
  std::vector<AllowSpec> A = allowOf(R"(
[[allow]]
file = "lib/*.so"
dependency = "libcuda.so.1"
reason = "the driver provides it"

[[allow]]
file = "bin/app"
runpath = "/opt/vendor/lib"
reason = "vendor runtime"

[[allow]]
file = "*"
symbol = "_Z3foov"
reason = "one registry, by design"
)");
  REQUIRE(A.size() == 3);
  CHECK(A[0].File == "lib/*.so");
  CHECK(A[0].Kind == AllowKind::Dependency);
  CHECK(A[0].Value == "libcuda.so.1");
  CHECK(A[0].Reason == "the driver provides it");
  CHECK(A[0].Origin == "lg.toml:2");
  CHECK(A[1].Kind == AllowKind::Runpath);
  CHECK(A[1].Origin == "lg.toml:7");
  CHECK(A[2].Kind == AllowKind::Symbol);
  CHECK(A[2].Value == "_Z3foov");
  CHECK(std::string(allowKindName(AllowKind::Runpath)) == "runpath");
}

TEST_CASE("a bad [[allow]] is one message naming the file, the line and the fault",
          "[allow]") {
  const char *Head = "[[allow]]\nfile = \"x\"\n";
  CHECK(rulesError(std::string(Head) + "dependency = \"d\"\n") ==
        "lg.toml:1: 'allow[0].reason' is required and may not be blank: say why this "
        "dependency is accepted (check prints it)");
  CHECK(rulesError(std::string(Head) + "dependency = \"d\"\nreason = \" \\t\"\n") ==
        "lg.toml:4: 'allow[0].reason' is required and may not be blank: say why this "
        "dependency is accepted (check prints it)");
  CHECK(rulesError(std::string(Head) + "dependency = \"d\"\nrunpath = \"/r\"\nreason = \"r\"\n") ==
        "lg.toml:1: allow[0] gives both 'dependency' and 'runpath': give exactly one of "
        "dependency, runpath, symbol (one [[allow]] each)");
  CHECK(rulesError(std::string(Head) + "reason = \"r\"\n") ==
        "lg.toml:1: allow[0] names no finding: give one of dependency, runpath, symbol");
  CHECK(rulesError(std::string(Head) + "dependancy = \"d\"\nreason = \"r\"\n") ==
        "lg.toml:3: unknown key 'allow[0].dependancy' (expected one of: file, dependency, "
        "runpath, symbol, reason)");
  CHECK(rulesError("[[allow]]\ndependency = \"d\"\nreason = \"r\"\n") ==
        "lg.toml:1: 'allow[0].file' is required (a glob over the file's path in the tree or "
        "package; \"*\" for every file)");
  CHECK(rulesError("[[allow]]\nfile = \"\"\ndependency = \"d\"\nreason = \"r\"\n") ==
        "lg.toml:2: 'allow[0].file' is empty");
  CHECK(rulesError(std::string(Head) + "symbol = \"\"\nreason = \"r\"\n") ==
        "lg.toml:3: 'allow[0].symbol' is empty");
  CHECK(rulesError(std::string(Head) + "runpath = \"[/opt\"\nreason = \"r\"\n") ==
        "lg.toml:3: 'allow[0].runpath': bad pattern '[/opt': invalid glob pattern, unmatched "
        "'['");
  CHECK(rulesError("[[allow]]\nfile = 1\ndependency = \"d\"\nreason = \"r\"\n") ==
        "lg.toml:2: 'allow[0].file' must be a string");
  CHECK(rulesError(std::string(Head) + "dependency = [\"d\"]\nreason = \"r\"\n") ==
        "lg.toml:3: 'allow[0].dependency' must be a string");
  CHECK(rulesError(std::string(Head) + "dependency = \"d\"\nreason = true\n") ==
        "lg.toml:4: 'allow[0].reason' must be a string");
  CHECK(rulesError("allow = \"x\"\n") == "lg.toml:1: 'allow' must be an array of tables ([[allow]])");
  CHECK(rulesError("[allow]\nfile = \"x\"\n") ==
        "lg.toml:1: 'allow' must be an array of tables ([[allow]])");
  // The second table's fault names the second table.
  CHECK(rulesError("[[allow]]\nfile = \"x\"\ndependency = \"d\"\nreason = \"r\"\n"
                "[[allow]]\nfile = \"y\"\nsymbol = \"s\"\n") ==
        "lg.toml:5: 'allow[1].reason' is required and may not be blank: say why this symbol "
        "is accepted (check prints it)");
}

TEST_CASE("an entry matches (file, kind, value): the file by any of its names, a "
          "dependency by check's pattern rule",
          "[allow]") {
  AllowSpec Dep{"bin/*", AllowKind::Dependency, "libfoo", "r", "lg.toml:1"};
  CHECK(allowMatches(Dep, App, AllowKind::Dependency, "libfoo.so.1"));        // a stem
  CHECK(allowMatches(Dep, App, AllowKind::Dependency, "@rpath/libfoo.dylib")); // file name
  CHECK_FALSE(allowMatches(Dep, App, AllowKind::Dependency, "libfoobar.so"));
  CHECK_FALSE(allowMatches(Dep, App, AllowKind::Runpath, "libfoo.so.1")); // another kind
  CHECK_FALSE(allowMatches(Dep, {"t/lib/x.so", "lib/x.so"}, AllowKind::Dependency, "libfoo.so"));
  // An absolute name only by its whole name, as --provided: a file-name
  // glob does not vouch for one absolute location.
  AllowSpec Glob{"*", AllowKind::Dependency, "libfoo*", "r", "lg.toml:1"};
  CHECK(allowMatches(Glob, App, AllowKind::Dependency, "@rpath/libfoo.dylib"));
  CHECK_FALSE(allowMatches(Glob, App, AllowKind::Dependency, "/opt/x/libfoo.dylib"));
  AllowSpec Abs{"*", AllowKind::Dependency, "/opt/x/*", "r", "lg.toml:1"};
  CHECK(allowMatches(Abs, App, AllowKind::Dependency, "/opt/x/libfoo.dylib"));
  // A group, as everywhere a pattern is taken.
  AllowSpec Omp{"*", AllowKind::Dependency, "openmp", "r", "lg.toml:1"};
  CHECK(allowMatches(Omp, App, AllowKind::Dependency, "libgomp.so.1"));
  // Runpath and symbol: a glob over the whole string.
  AllowSpec Run{"bin/app", AllowKind::Runpath, "/opt/*/lib", "r", "lg.toml:1"};
  CHECK(allowMatches(Run, App, AllowKind::Runpath, "/opt/vendor/lib"));
  CHECK_FALSE(allowMatches(Run, App, AllowKind::Runpath, "/opt/vendor/lib64"));
  AllowSpec Sym{"lib/libreg*.so", AllowKind::Symbol, "_ZN3reg*", "r", "lg.toml:1"};
  CHECK(allowMatches(Sym, {"t/lib/libreg2.so", "lib/libreg2.so"}, AllowKind::Symbol,
                     "_ZN3reg8registryE"));
  CHECK_FALSE(allowMatches(Sym, {"t/lib/libreg2.so", "lib/libreg2.so"}, AllowKind::Symbol,
                           "_ZN4other8registryE"));
  CHECK_FALSE(allowMatches(Sym, App, AllowKind::Symbol, "_ZN3reg8registryE"));
}

TEST_CASE("find: (file, kind, value) -> the first entry, every matching entry used, "
          "the others stale",
          "[allow]") {
  AllowList L({{"bin/app", AllowKind::Symbol, "reg_*", "first", "lg.toml:1"},
               {"*", AllowKind::Symbol, "reg_init", "second", "lg.toml:5"},
               {"*", AllowKind::Symbol, "other", "never", "lg.toml:9"}});
  const AllowSpec *S = L.find(App, AllowKind::Symbol, "reg_init");
  REQUIRE(S);
  CHECK(S->Reason == "first");
  CHECK_FALSE(L.find(App, AllowKind::Dependency, "reg_init"));
  std::vector<const AllowSpec *> Stale = L.stale();
  REQUIRE(Stale.size() == 1);
  CHECK(Stale[0]->Origin == "lg.toml:9");
}

TEST_CASE("apply: a violation an entry decides is allowed with the entry, the others, "
          "unknown findings and rules about no dependency stay",
          "[allow]") {
  using contract::FindingKind;
  AllowList L({{"bin/*", AllowKind::Dependency, "libcuda.so.1", "driver", "lg.toml:1"},
               {"*", AllowKind::Dependency, "libstale.so", "gone", "lg.toml:5"}});
  contract::Verdict V;
  V.Findings = {finding(FindingKind::Violation, "portable", "libcuda.so.1", "m", "unresolved"),
                finding(FindingKind::Violation, "portable", "libother.so", "m", "unresolved"),
                finding(FindingKind::Violation, "forbid libcuda*", "libcuda.so.1"),
                finding(FindingKind::Unknown, "forbid-unreferenced libcuda*", "libcuda.so.1"),
                finding(FindingKind::Violation, "install-name", "libcuda.so.1"),
                finding(FindingKind::Violation, "unique openmp", "libcuda.so.1")};
  CHECK(L.apply(App, V) == 2);
  CHECK(V.Findings[0].Kind == FindingKind::Allowed);
  REQUIRE(V.Findings[0].AllowedBy.size() == 1);
  CHECK(V.Findings[0].AllowedBy[0].Reason == "driver");
  CHECK(V.Findings[0].AllowedBy[0].Origin == "lg.toml:1");
  CHECK(V.Findings[0].AllowedBy[0].Key == "dependency");
  CHECK(V.Findings[1].Kind == FindingKind::Violation);
  CHECK(V.Findings[2].Kind == FindingKind::Allowed);
  CHECK(V.Findings[3].Kind == FindingKind::Unknown); // fail closed
  CHECK(V.Findings[4].Kind == FindingKind::Violation);
  CHECK(V.Findings[5].Kind == FindingKind::Violation);
  CHECK(V.ok() == false);
  CHECK(V.violations() == 3);
  // Another file's findings: not this entry's.
  contract::Verdict W;
  W.Findings = {finding(FindingKind::Violation, "portable", "libcuda.so.1", "m", "unresolved")};
  CHECK(L.apply({"t/lib/x.so", "lib/x.so"}, W) == 0);
  REQUIRE(L.stale().size() == 1);
  CHECK(L.stale()[0]->Origin == "lg.toml:5");
}

namespace {
contract::TriedCandidate tried(std::string Via, contract::TryReason R) {
  contract::TriedCandidate T;
  T.Path = "/p";
  T.Via = std::move(Via);
  T.Reason = R;
  return T;
}
} // namespace

TEST_CASE("the search entries a host-dependent finding blames: its tried paths' entries",
          "[allow]") {
  using V = std::vector<std::string>;
  using contract::TryReason;
  contract::Finding F;
  F.HostEntriesOnly = true;
  // ld.so: a machine's entries, an empty one, one above the tree; the
  // shipped directory's tries are no one's fault.
  F.Tried = {tried("DT_RUNPATH /opt/a", TryReason::HostDependent),
             tried("DT_RPATH ''", TryReason::HostDependent),
             tried("DT_RUNPATH $ORIGIN/..", TryReason::OutsideRoot),
             tried("DT_RUNPATH $ORIGIN/lib", TryReason::Missing),
             tried("DT_RUNPATH /opt/a", TryReason::HostDependent),
             tried("DT_RUNPATH $ORIGIN/../lib", TryReason::Accepted)};
  CHECK(blamedSearchEntries(F) == V{"/opt/a", "''", "$ORIGIN/.."});
  // dyld.
  F.Tried = {tried("LC_RPATH /opt/homebrew/lib", TryReason::HostDependent),
             tried("LC_RPATH @loader_path", TryReason::Accepted)};
  CHECK(blamedSearchEntries(F) == V{"/opt/homebrew/lib"});
  // A list cut short: who else is to blame is not known.
  F.TriedNotListed = 3;
  CHECK_FALSE(blamedSearchEntries(F));
  F.TriedNotListed = 0;
  // No entry to blame: a glibc-hwcaps copy, an absolute link.
  F.Tried = {tried("DT_RUNPATH $ORIGIN", TryReason::Accepted)};
  CHECK_FALSE(blamedSearchEntries(F));
  F.Tried.clear();
  CHECK_FALSE(blamedSearchEntries(F));
  // Blamed on what no search entry names: no runpath allow decides it.
  F.Tried = {tried("DT_NEEDED /opt/x/libm.so", TryReason::HostDependent)};
  CHECK_FALSE(blamedSearchEntries(F));
  // Host-dependent for another reason too (a glibc-hwcaps copy, an
  // absolute link): the resolver did not blame the entries alone.
  F.Tried = {tried("DT_RUNPATH /opt/a", TryReason::HostDependent)};
  CHECK(blamedSearchEntries(F) == V{"/opt/a"});
  F.HostEntriesOnly = false;
  CHECK_FALSE(blamedSearchEntries(F));
  F.HostEntriesOnly = true;
  // A candidate that cannot be decided, read or loaded: never allowed.
  for (TryReason R : {TryReason::Undecided, TryReason::Unreadable, TryReason::NotLoadable}) {
    F.Tried = {tried("DT_RUNPATH /opt/a", TryReason::HostDependent),
               tried("DT_RUNPATH $LIB", R)};
    CHECK_FALSE(blamedSearchEntries(F));
  }
}

TEST_CASE("apply: a host-dependent finding is allowed only when every entry it blames is",
          "[allow]") {
  using contract::FindingKind;
  const std::string Two =
      "DT_NEEDED libm.so (x86_64) is a DT_NEEDED name that resolves to no file of the tree; "
      "ld.so also tries DT_RUNPATH /opt/a, DT_RUNPATH /opt/b: it loads only where the machine "
      "has it there";
  AllowList One({{"bin/app", AllowKind::Runpath, "/opt/a", "a", "lg.toml:1"}});
  contract::Verdict V;
  V.Findings = {finding(FindingKind::Violation, "portable", "libm.so", Two, "host-dependent")};
  V.Findings[0].Tried = {tried("DT_RUNPATH /opt/a", contract::TryReason::HostDependent),
                         tried("DT_RUNPATH /opt/b", contract::TryReason::HostDependent)};
  V.Findings[0].HostEntriesOnly = true;
  CHECK(One.apply(App, V) == 0);
  CHECK(V.Findings[0].Kind == FindingKind::Violation);
  CHECK(One.stale().empty()); // it matched, though it did not decide

  AllowList Both({{"bin/app", AllowKind::Runpath, "/opt/a", "a", "lg.toml:1"},
                  {"bin/*", AllowKind::Runpath, "/opt/b", "b", "lg.toml:5"}});
  CHECK(Both.apply(App, V) == 1);
  CHECK(V.Findings[0].Kind == FindingKind::Allowed);
  REQUIRE(V.Findings[0].AllowedBy.size() == 2);
  CHECK(V.Findings[0].AllowedBy[0].Origin == "lg.toml:1");
  CHECK(V.Findings[0].AllowedBy[1].Origin == "lg.toml:5");
  CHECK(V.Findings[0].AllowedBy[1].Key == "runpath");

  // A runpath entry decides nothing but a host-dependent finding.
  AllowList Run({{"*", AllowKind::Runpath, "/opt/a", "a", "lg.toml:1"}});
  contract::Verdict U;
  U.Findings = {finding(FindingKind::Violation, "portable", "libm.so",
                        "is a DT_NEEDED name that resolves to no file of the tree (tried "
                        "DT_RUNPATH /opt/a -> /opt/a/libm.so)",
                        "unresolved")};
  CHECK(Run.apply(App, U) == 0);
  CHECK(Run.stale().size() == 1);
}
