//===- VerifyOutput.cpp - the proof after the link ------------------------===//
#include "driver/VerifyOutput.h"

#include "driver/DriverError.h"
#include "driver/ExitCode.h"
#include "driver/Logging.h"
#include "flags/BuiltinRules.h"
#include "objlib/Reader.h"
#include "support/Memory.h"

#include "llvm/Support/raw_ostream.h"


namespace linkguard::driver {

static std::string where(const contract::Finding &F) {
  return F.Slice.empty() ? std::string() : " [" + F.Slice + "]";
}

/// When the MPS rule failed on USE_MPS alone, the link line just did not
/// show it: CMake never passes compile definitions to a link, and
/// AOTInductor's generated CMake project writes none at all. Say how to
/// state it rather than leave the user with "link with -dead_strip_dylibs".
static void printMissingDefineHint(const Plan &Plan, const char *Severity) {
  for (const flags::RuleDecision &D : Plan.Decisions) {
    if (D.RuleName != flags::MpsAotRuleName)
      continue;
    size_t Failed = 0;
    for (const flags::Condition &C : D.Conditions)
      Failed += C.Holds ? 0 : 1;
    const flags::Condition *F = D.firstFailure();
    if (Failed != 1 || !F || F->Name != "MPS build")
      continue;
    llvm::errs()
        << "linkguard: " << Severity << ": " << Plan.OutputPath
        << ": the MPS rule would have dropped it, but USE_MPS is not "
           "defined on this link step; for an MPS model say so: CMake "
           "-DLINKGUARD_LINK_DEFINES=USE_MPS "
           "(cmake/linkguard-toolchain.cmake), "
           "linkguard --assume-define=USE_MPS -- <compiler> as a launcher, "
           "or -DUSE_MPS on the link line (docs/integration.md)\n";
  }
}

OutputBefore recordOutput(const Plan &P) {
  return {identify(P.OutputPath), identify(P.OutputPath + ".dSYM")};
}

void reportNotVerified(const std::string &Why) {
  llvm::errs() << "linkguard: warning: not verified: " << Why << "\n";
}

/// Under enforce: removes what this link wrote, as a compiler does on error
/// (so make/ninja rebuild it next time), and says so.
static void removeBrokenOutput(const Plan &P, const FileIdentity &Judged,
                               const OutputBefore &Before) {
  const std::string &Out = P.OutputPath;
  if (!removeIfStill(Out, Judged)) {
    llvm::errs() << "linkguard: " << Out
                 << " changed while it was being judged; it was left in place\n";
    return;
  }
  llvm::errs() << "linkguard: removed " << Out
               << " because it broke its contract (LINKGUARD_MODE=verify keeps it)\n";
  std::string Dsym = Out + ".dSYM";
  FileIdentity After = identify(Dsym);
  if (!Before.Dsym.Exists && After.Directory && removeTree(Dsym))
    llvm::errs() << "linkguard: removed " << Dsym << ", made by the same link\n";
}

int verifyLinkedOutput(const Plan &Plan, const OutputBefore &Before) {
  // planJob gives every SpawnAndVerify step a contract; a plan without one
  // would be a linkguard bug, not something the build did.
  if (!Plan.Contract)
    return reportError(
        makeDriverError(ExitCode::Internal, "verify step planned without a contract"));
  const contract::ContractSpec &Contract = *Plan.Contract;
  const bool Enforce = Plan.EffectiveMode == config::Mode::Enforce;
  const char *Severity = Enforce ? "error" : "warning";
  const std::string &Out = Plan.OutputPath;

  FileIdentity Judged = identify(Out);
  if (std::string Why = whyNotWrittenByLink(Out, Before.Output, Judged); !Why.empty()) {
    reportNotVerified(Why);
    return 0;
  }
  keepFreedMemoryForReuse();
  auto Binary = objlib::readBinary(Out, contract::readOptionsFor(Contract));
  if (!Binary) {
    // A vanished or unreadable output (66) is not a damaged one (65).
    ExitCode Code = ExitCode::MalformedBinary;
    llvm::Error E = llvm::handleErrors(
        Binary.takeError(), [&](std::unique_ptr<objlib::ReadError> R) -> llvm::Error {
          if (R->kind() == objlib::ReadErrorKind::Unreadable)
            Code = ExitCode::UnreadableInput;
          return {std::move(R)};
        });
    std::string Msg = llvm::toString(std::move(E));
    // The reader's message already names the file.
    llvm::errs() << "linkguard: " << Severity << ": cannot verify the link output: "
                 << Msg << "\n";
    if (!Enforce)
      return 0;
    // Nothing proves the contract held, so the step fails; the output is
    // left alone, since it was not shown to break anything.
    return toInt(Code);
  }

  contract::Verdict V = contract::judge(*Binary, Contract);
  for (const contract::Finding &F : V.Findings) {
    switch (F.Kind) {
    case contract::FindingKind::Violation:
      llvm::errs() << "linkguard: " << Severity << ": " << Out << where(F) << ": "
                   << F.Message << "\n";
      break;
    case contract::FindingKind::Kept:
    case contract::FindingKind::Unknown:
      logInfo(Out + where(F) + ": " + F.Message);
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
                SP.Path + " is recorded (a search path, not a dependency)");
  if (V.ok()) {
    logInfo(Out + ": contract holds");
    return 0;
  }
  printMissingDefineHint(Plan, Severity);
  if (!Enforce)
    return 0;
  removeBrokenOutput(Plan, Judged, Before);
  return toInt(ExitCode::ContractViolated);
}

} // namespace linkguard::driver
