//===- ExitCode.h - linkguard's own exit codes -------------------*- C++ -*-===//
//
// The compiler's own status always passes through unchanged; these codes are
// used only when linkguard itself stops or judges. The enum is made from
// driver/ExitCodes.def, the one table of names, values and meanings (also
// `linkguard help exit-codes`, commands/Help.cpp); docs/exit-codes.md says
// more of each.
//
//===----------------------------------------------------------------------===//
#pragma once

namespace linkguard::driver {

enum class ExitCode : int {
#define LINKGUARD_EXIT_CODE(Name, Value, Meaning) Name = (Value),
#include "driver/ExitCodes.def"
};

inline int toInt(ExitCode C) { return static_cast<int>(C); }

} // namespace linkguard::driver
