//===- Environment.h - the variables linkguard reads ---------------*- C++ -*-===//
//
// A view of the environment. In a run it reads the process's own variables
// with getenv, one at a time, when asked (no copy of environ is made: a step
// reads a dozen variables of hundreds). Tests give it a map instead.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/StringRef.h"

#include <map>
#include <memory>
#include <optional>
#include <string>

namespace linkguard::config {

class Environment {
public:
  /// The process environment, read lazily.
  static Environment process();
  /// A fixed set of variables (tests); every other variable is unset.
  static Environment fromMap(std::map<std::string, std::string> Vars);

  /// The value of Name, or nothing when it is unset.
  std::optional<std::string> get(llvm::StringRef Name) const;

private:
  std::shared_ptr<const std::map<std::string, std::string>> Fixed;
};

} // namespace linkguard::config
