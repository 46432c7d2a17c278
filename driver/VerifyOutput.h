//===- VerifyOutput.h - reread a linked output and judge it -------*- C++ -*-===//
#pragma once

#include "driver/OutputIdentity.h"
#include "driver/Plan.h"

namespace linkguard::driver {

/// What was at the output paths before the compiler started.
struct OutputBefore {
  OutputState Output;
  FileIdentity Dsym; // OutputPath + ".dSYM", written by dsymutil on Darwin
};

OutputBefore recordOutput(const Plan &P);

/// How a verified step ended (the build record, driver/StepReport.h).
enum class VerdictKind {
  Holds,       // judged, the contract holds
  Broken,      // judged, the contract is broken (enforce: removed, 86)
  NotVerified, // the link wrote nothing linkguard may judge
  Unreadable,  // written, but linkguard could not read it
  Last = Unreadable,
};
const char *verdictName(VerdictKind K);

struct VerifyResult {
  int Status = 0;
  VerdictKind Verdict = VerdictKind::NotVerified;
  std::string Judged; // the file judged ("" when none)
  std::string Why;    // for NotVerified and Unreadable
};

/// Decides from what the link left at Plan.OutputPath which file it wrote
/// (OutputIdentity.h: the file at -o, or the target a symbolic link at -o
/// was written through), judges it against Plan.Contract and reports on
/// stderr ("linkguard: warning: ..." under verify, "linkguard: error: ..."
/// under enforce), and in LINKGUARD_LOG_FILE. Under enforce a violation
/// removes the file judged (and a .dSYM this link created), says so, and
/// returns ContractViolated; otherwise 0. A file this link did not write is
/// never judged nor removed: "not verified: WHY", once, and 0. An output
/// linkguard cannot read is reported and, under enforce, fails the step:
/// the proof is missing. Every path is printed escaped (printable()).
VerifyResult verifyLinkedOutput(const Plan &P, const OutputBefore &Before);

/// The one line for a step whose output cannot be verified.
void reportNotVerified(const std::string &Why);

} // namespace linkguard::driver
