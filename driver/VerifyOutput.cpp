//===- VerifyOutput.cpp - the proof after the link ------------------------===//
#include "driver/VerifyOutput.h"

#include "driver/DriverError.h"
#include "driver/ExitCode.h"
#include "driver/Logging.h"
#include "objlib/Reader.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdio>

namespace linkguard::driver {

static std::string where(const contract::Finding &F) {
  return F.Slice.empty() ? std::string() : " [" + F.Slice + "]";
}

int verifyLinkedOutput(const StepPlan &Plan) {
  // StepPlan gives every SpawnAndVerify step a contract; a plan without one
  // would be a linkguard bug, not something the build did.
  if (!Plan.Contract)
    return reportError(
        makeDriverError(ExitCode::Internal, "verify step planned without a contract"));
  const contract::ContractSpec &Contract = *Plan.Contract;
  const bool Enforce = Plan.EffectiveMode == Mode::Enforce;
  const char *Severity = Enforce ? "error" : "warning";
  const std::string &Out = Plan.OutputPath;

  auto Binary = objlib::readBinary(Out);
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
  if (!Enforce)
    return 0;
  // As a compiler does on error, so make/ninja rebuild it next time.
  if (std::remove(Out.c_str()) == 0)
    llvm::errs() << "linkguard: removed " << Out
                 << " because it broke its contract (LINKGUARD_MODE=verify keeps it)\n";
  return toInt(ExitCode::ContractViolated);
}

} // namespace linkguard::driver
