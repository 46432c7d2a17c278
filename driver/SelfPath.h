//===- SelfPath.h - where the running linkguard binary is --------*- C++ -*-===//
#pragma once

#include <string>

namespace linkguard::driver {

/// Canonical path of the running executable (/proc/self/exe on Linux,
/// _NSGetExecutablePath on macOS), used to never resolve the "real"
/// compiler to ourselves.
std::string selfPath();

} // namespace linkguard::driver
