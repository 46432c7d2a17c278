//===- Rule.cpp - RuleDecision helpers ------------------------------------===//
#include "flags/Rule.h"

namespace linkguard::flags {

const char *insertPositionName(InsertPosition P) {
  switch (P) {
  case InsertPosition::End: return "end";
  case InsertPosition::BeforeLibraries: return "before-libraries";
  }
  return "end";
}

bool RuleDecision::matches() const { return firstFailure() == nullptr; }

const Condition *RuleDecision::firstFailure() const {
  for (const Condition &C : Conditions)
    if (!C.Holds)
      return &C;
  return nullptr;
}

} // namespace linkguard::flags
