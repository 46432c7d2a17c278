//===- VerifyOutput.cpp - the proof after the link ------------------------===//
#include "driver/VerifyOutput.h"

#include "driver/DriverError.h"
#include "driver/ExitCode.h"
#include "driver/Logging.h"
#include "flags/BuiltinRules.h"
#include "objlib/Reader.h"
#include "support/EnumNames.h"
#include "support/Memory.h"
#include "support/Printable.h"

#include "llvm/Support/raw_ostream.h"

namespace linkguard::driver {

static std::string where(const contract::Finding &F) {
  return F.Slice.empty() ? std::string() : " [" + printable(F.Slice) + "]";
}

/// When the MPS rule failed on USE_MPS alone, the link line just did not
/// show it: CMake never passes compile definitions to a link, and
/// AOTInductor's generated CMake project writes none at all. Say how to
/// state it rather than leave the user with "link with -dead_strip_dylibs"
/// ("" when the rule failed for another reason). Said on the finding's own
/// line: one line per link, not two, in a 300-target build.
static std::string missingDefineHint(const Plan &Plan) {
  for (const flags::RuleDecision &D : Plan.Decisions) {
    if (D.RuleName != flags::MpsAotRuleName)
      continue;
    size_t Failed = 0;
    for (const flags::Condition &C : D.Conditions)
      Failed += C.Holds ? 0 : 1;
    const flags::Condition *F = D.firstFailure();
    if (Failed != 1 || !F || F->Name != "MPS build")
      continue;
    return "the MPS rule would have dropped it, but USE_MPS is not "
           "defined on this link step; for an MPS model say so: CMake "
           "-DLINKGUARD_LINK_DEFINES=USE_MPS "
           "(cmake/linkguard-toolchain.cmake), "
           "linkguard --assume-define=USE_MPS -- <compiler> as a launcher, "
           "or -DUSE_MPS on the link line (docs/integration.md)";
  }
  return "";
}

/// Whether a finding is an OpenMP runtime linked but used by no symbol.
static bool unusedOpenMp(const contract::Finding &F) {
  return F.Kind == contract::FindingKind::Violation &&
         F.Rule == "forbid-unreferenced openmp";
}

const char *verdictName(VerdictKind K) {
  return enumName(K, {"holds", "broken", "not-verified", "unreadable"});
}

OutputBefore recordOutput(const Plan &P) {
  return {recordOutputState(P.OutputPath), identify(P.OutputPath + ".dSYM")};
}

void reportNotVerified(const std::string &Why) {
  printDiagnostic("warning", "not verified: " + printable(Why));
}

/// Under enforce: removes what this link wrote, as a compiler does on error
/// (so make/ninja rebuild it next time), and says so. Written through a
/// symbolic link at -o, that is the link's target; the symbolic link, which
/// the link did not write, stays.
static void removeBrokenOutput(const Plan &P, const WrittenFile &Judged,
                               const OutputBefore &Before) {
  const std::string Out = printable(P.OutputPath);
  const std::string File = printable(Judged.Path);
  if (!removeIfStill(Judged.Path, Judged.Id)) {
    printDiagnostic("error", File + " changed while it was being judged; it was left in place");
    return;
  }
  printDiagnostic("error", "removed " + File +
                               (Judged.ThroughSymlink
                                    ? " (the file the link wrote through the symbolic link " +
                                          Out + ", which stays)"
                                    : std::string()) +
                               " because it broke its contract (LINKGUARD_MODE=verify keeps it)");
  std::string Dsym = P.OutputPath + ".dSYM";
  FileIdentity After = identify(Dsym);
  if (!Before.Dsym.Exists && After.Directory && removeTree(Dsym))
    printDiagnostic("error", "removed " + printable(Dsym) + ", made by the same link");
}

VerifyResult verifyLinkedOutput(const Plan &Plan, const OutputBefore &Before) {
  VerifyResult R;
  // planJob gives every SpawnAndVerify step a contract; a plan without one
  // would be a linkguard bug, not something the build did.
  if (!Plan.Contract) {
    R.Status = reportError(
        makeDriverError(ExitCode::Internal, "verify step planned without a contract"));
    return R;
  }
  const contract::ContractSpec &Contract = *Plan.Contract;
  const bool Enforce = Plan.EffectiveMode == config::Mode::Enforce;
  const char *Severity = Enforce ? "error" : "warning";

  WrittenFile Judged = writtenByLink(Plan.OutputPath, Before.Output);
  if (!Judged.Why.empty()) {
    reportNotVerified(Judged.Why);
    R.Why = Judged.Why;
    return R;
  }
  R.Judged = Judged.Path;
  // The name the verdict lines use: the -o path, and the file behind it
  // when the link wrote through a symbolic link.
  const std::string Out =
      printable(Plan.OutputPath) +
      (Judged.ThroughSymlink ? " (-> " + printable(Judged.Path) + ")" : std::string());
  keepFreedMemoryForReuse();
  auto Binary = objlib::readBinary(Judged.Path, contract::readOptionsFor(Contract));
  if (!Binary) {
    // A vanished or unreadable output (66) is not a damaged one (65).
    ExitCode Code = ExitCode::MalformedBinary;
    llvm::Error E = llvm::handleErrors(
        Binary.takeError(), [&](std::unique_ptr<objlib::ReadError> RE) -> llvm::Error {
          if (RE->kind() == objlib::ReadErrorKind::Unreadable)
            Code = ExitCode::UnreadableInput;
          return {std::move(RE)};
        });
    // The reader's message already names the file.
    R.Why = llvm::toString(std::move(E));
    R.Verdict = VerdictKind::Unreadable;
    printDiagnostic(Severity, "cannot verify the link output: " + printable(R.Why));
    // Nothing proves the contract held, so the step fails under enforce;
    // the output is left alone, since it was not shown to break anything.
    R.Status = Enforce ? toInt(Code) : 0;
    return R;
  }

  contract::Verdict V = contract::judge(*Binary, Contract);
  // Under enforce, cpp_builder (torch/_inductor/cpp_builder.py,
  // run_compile_cmd) appends "OpenMP support not found ... brew install
  // libomp" to a failed step's output that mentions libomp: say first, in
  // words that survive that advice, that OpenMP is there and unused.
  if (auto F = llvm::find_if(V.Findings, unusedOpenMp); Enforce && F != V.Findings.end())
    printDiagnostic("error", Out +
                                 ": OpenMP is linked but unused (present, not missing): "
                                 "nothing in this library calls it, yet it would load " +
                                 printable(F->Dependency) +
                                 " at run time; linkguard fails the step and removes "
                                 "it. Do not install OpenMP for this: any \"OpenMP support "
                                 "not found\" advice printed after this does not apply");
  std::string Hint = V.ok() ? std::string() : missingDefineHint(Plan);
  size_t Violations = V.violations(), Said = 0;
  for (const contract::Finding &F : V.Findings) {
    switch (F.Kind) {
    case contract::FindingKind::Violation: {
      std::string Line = Out + where(F) + ": " + printable(F.Message);
      if (!F.Advice.empty())
        Line += "; " + printable(F.Advice);
      if (++Said == Violations && !Hint.empty())
        Line += "; " + Hint;
      printDiagnostic(Severity, Line);
      break;
    }
    case contract::FindingKind::Kept:
    case contract::FindingKind::Unknown:
    case contract::FindingKind::Allowed: // check's [[allow]]; a link has none
      logInfo(Out + where(F) + ": " + printable(F.Message));
      break;
    }
  }
  // A note, never a violation: clang's -fopenmp records RUNPATH
  // /usr/lib/llvm-N/lib even when --as-needed dropped the NEEDED it served.
  if (Plan.ReportSearchPaths)
    for (const objlib::Slice &S : Binary->Slices)
      for (const objlib::SearchPath &SP : S.SearchPaths)
        logInfo(Out + ": note: " +
                (SP.Kind == objlib::SearchPathKind::RunPath ? "RUNPATH " : "RPATH ") +
                printable(SP.Path) + " is recorded (a search path, not a dependency)");
  if (V.ok()) {
    R.Verdict = VerdictKind::Holds;
    logAlways("info", Out + ": contract holds");
    return R;
  }
  R.Verdict = VerdictKind::Broken;
  if (!Enforce)
    return R;
  removeBrokenOutput(Plan, Judged, Before);
  R.Status = toInt(ExitCode::ContractViolated);
  return R;
}

} // namespace linkguard::driver
