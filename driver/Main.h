//===- Main.h - linkguard's entry point --------------------------*- C++ -*-===//
#pragma once

namespace linkguard::driver {

/// Dispatches on the invocation (driver/Invocation.h); every error ends
/// here as one "linkguard: error: ..." line and a code from ExitCode.h.
int linkguardMain(int Argc, char **Argv);

} // namespace linkguard::driver
