// Config (config/Config.h): every LINKGUARD_* value is checked once, and a bad
// one is an error naming the variable (exit 78), before anything runs.
#include "config/Config.h"
#include "config/ConfigError.h"
#include "driver/DriverError.h"

#include "tests/unit/support/Catch.h"

using namespace linkguard::driver;
using namespace linkguard::config;
namespace config = linkguard::config;

TEST_CASE("defaults: rules on, mode by rule, AOT inferred, quiet logging", "[config]") {
  auto C = config::configFromMap({});
  REQUIRE(static_cast<bool>(C));
  CHECK(C->RunMode == config::Mode::Default);
  CHECK(C->RulesEnabled);
  CHECK(C->MpsAotRuleEnabled);
  CHECK(C->Aot == config::AotSetting::Auto);
  CHECK(C->LogLevel == "warn");
  CHECK(C->Depth == 0);
}

TEST_CASE("values are read", "[config]") {
  auto C = config::configFromMap({{"LINKGUARD_MODE", "verify"},
                          {"LINKGUARD_RULES", "off"},
                          {"LINKGUARD_RULE_MPS_AOT", "0"},
                          {"LINKGUARD_AOT", "1"},
                          {"LINKGUARD_LOG", "debug"},
                          {"_LINKGUARD_DEPTH", "2"}});
  REQUIRE(static_cast<bool>(C));
  CHECK(C->RunMode == config::Mode::Verify);
  CHECK_FALSE(C->RulesEnabled);
  CHECK_FALSE(C->MpsAotRuleEnabled);
  CHECK(C->Aot == config::AotSetting::Yes);
  CHECK(C->LogLevel == "debug");
  CHECK(C->Depth == 2);
}

TEST_CASE("a bad value is a BadConfig error naming the variable", "[config]") {
  for (auto [Var, Value] : std::vector<std::pair<std::string, std::string>>{
           {"LINKGUARD_MODE", "loud"},
           {"LINKGUARD_RULES", "maybe"},
           {"LINKGUARD_AOT", "auto-ish"},
           {"LINKGUARD_LOG", "chatty"},
           {"_LINKGUARD_DEPTH", "-3"}}) {
    auto C = config::configFromMap({{Var, Value}});
    REQUIRE_FALSE(static_cast<bool>(C));
    std::string Msg;
    llvm::handleAllErrors(C.takeError(),
                          [&](const config::ConfigError &E) { Msg = E.message(); });
    CHECK(Msg.find(Var) != std::string::npos);
    // The driver reports it as BadConfig (78), one line.
    CHECK(reportError(config::makeConfigError(Msg)) == toInt(ExitCode::BadConfig));
  }
}
