//===- Environment.cpp - getenv, or a map ---------------------------------===//
#include "config/Environment.h"

#include <cstdlib>

namespace linkguard::config {

Environment Environment::process() { return {}; }

Environment Environment::fromMap(std::map<std::string, std::string> Vars) {
  Environment E;
  E.Fixed = std::make_shared<const std::map<std::string, std::string>>(std::move(Vars));
  return E;
}

std::optional<std::string> Environment::get(llvm::StringRef Name) const {
  if (Fixed) {
    auto It = Fixed->find(Name.str());
    if (It == Fixed->end())
      return std::nullopt;
    return It->second;
  }
  if (const char *V = std::getenv(Name.str().c_str()))
    return std::string(V);
  return std::nullopt;
}

} // namespace linkguard::config
