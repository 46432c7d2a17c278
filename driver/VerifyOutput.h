//===- VerifyOutput.h - reread a linked output and judge it -------*- C++ -*-===//
#pragma once

#include "driver/OutputIdentity.h"
#include "driver/Plan.h"

namespace linkguard::driver {

/// What was at the output paths before the compiler started.
struct OutputBefore {
  FileIdentity Output;
  FileIdentity Dsym; // OutputPath + ".dSYM", written by dsymutil on Darwin
};

OutputBefore recordOutput(const Plan &P);

/// Rereads Plan.OutputPath if this link wrote it (OutputIdentity.h), judges
/// it against Plan.Contract and reports on stderr ("linkguard: warning:
/// ..." under verify, "linkguard: error: ..." under enforce). Under enforce a
/// violation removes the output (and a .dSYM this link created), says so,
/// and returns ContractViolated; otherwise returns 0. A file this link did
/// not write is never judged nor removed: "not verified: WHY", once, and 0.
/// An output linkguard cannot read is reported and, under enforce, fails the
/// step: the proof is missing.
int verifyLinkedOutput(const Plan &P, const OutputBefore &Before);

/// The one line for a step whose output cannot be verified.
void reportNotVerified(const std::string &Why);

} // namespace linkguard::driver
