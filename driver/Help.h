//===- Help.h - top-level --help and --version -------------------*- C++ -*-===//
#pragma once

#include <string>

namespace linkguard::driver {

std::string topLevelHelp();

/// linkguard's version, and the real compiler it would use from here.
int printVersion();

} // namespace linkguard::driver
