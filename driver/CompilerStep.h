//===- CompilerStep.h - linkguard as the compiler ----------------*- C++ -*-===//
//
// resolve compiler -> classify -> (non-link, or no rule and nothing to
// verify) execv of the original argv byte-for-byte -> (link) spawn with the
// rule's flags appended, wait, reread the output, judge it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "config/Config.h"
#include "driver/Invocation.h"

namespace linkguard::driver {

int runCompilerStep(const Invocation &Inv, const config::Config &Cfg,
                    const std::string &SelfPath);

} // namespace linkguard::driver
