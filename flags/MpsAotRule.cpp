//===- MpsAotRule.cpp - the built-in rule through the rule engine ---------===//
#include "flags/MpsAotRule.h"

#include "flags/BuiltinRules.h"
#include "flags/RuleEngine.h"

namespace linkguard::flags {

RuleDecision decideMpsAotRule(const Classification &C, const RuleContext &Ctx) {
  return evaluateRule(mpsAotRuleSpec(), C, Ctx);
}

} // namespace linkguard::flags
