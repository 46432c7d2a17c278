//===- VerifyOutput.h - reread a linked output and judge it -------*- C++ -*-===//
#pragma once

#include "driver/StepPlan.h"

namespace linkguard::driver {

/// Rereads Plan.OutputPath, judges it against Plan.Contract and reports on
/// stderr ("linkguard: warning: ..." under verify, "linkguard: error: ..."
/// under enforce). Under enforce a violation removes the output, says so, and
/// returns ContractViolated; otherwise returns 0. An output linkguard cannot
/// read is reported and, under enforce, fails the step too: the proof is
/// missing.
int verifyLinkedOutput(const StepPlan &Plan);

} // namespace linkguard::driver
