//===- Rule.cpp - RuleDecision helpers ------------------------------------===//
#include "flags/Rule.h"

#include "support/EnumNames.h"

namespace linkguard::flags {

const char *insertPositionName(InsertPosition P) {
  return enumName(P, {"end", "before-libraries"});
}

bool RuleDecision::matches() const { return firstFailure() == nullptr; }

const Condition *RuleDecision::firstFailure() const {
  for (const Condition &C : Conditions)
    if (!C.Holds)
      return &C;
  return nullptr;
}

} // namespace linkguard::flags
