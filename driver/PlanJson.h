//===- PlanJson.h - a Job's plan as JSON ---------------------------*- C++ -*-===//
//
// One rendering of a plan, used by `explain --json` and by the run's trace
// log ("plan: {...}"), so a test can check that both planned the same thing
// (tests/e2e/one_truth.bash). docs/classification.md lists the fields.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "driver/Job.h"
#include "driver/Plan.h"

#include "llvm/Support/JSON.h"

#include <string>

namespace linkguard::driver {

/// The plan, and the rules file that was in force (or ignored) for it.
llvm::json::Object planJson(const Job &J, const Plan &P, const config::Config &Cfg);

/// planJson on one line.
std::string planJsonLine(const Job &J, const Plan &P, const config::Config &Cfg);

const char *actionName(Action A);       // "exec", "exec-injected", "spawn-and-verify"
const char *actionText(Action A);       // for the text form of explain
const char *targetSourceName(flags::TargetSource S);

} // namespace linkguard::driver
