//===- Rule.cpp - RuleDecision helpers ------------------------------------===//
#include "flags/Rule.h"

namespace linkguard::flags {

bool RuleDecision::matches() const { return firstFailure() == nullptr; }

const Condition *RuleDecision::firstFailure() const {
  for (const Condition &C : Conditions)
    if (!C.Holds)
      return &C;
  return nullptr;
}

} // namespace linkguard::flags
