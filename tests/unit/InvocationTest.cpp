// Invocation (driver/Invocation.h): one binary, several names.
#include "commands/Commands.h"
#include "driver/Invocation.h"

#include "tests/unit/support/Catch.h"

using namespace linkguard::driver;

TEST_CASE("linkguard-clang++ and linkguard-clang are drop-in drivers", "[invocation]") {
  Invocation I = parseInvocation("/x/bin/linkguard-clang++", {"-c", "a.cpp"});
  CHECK(I.Kind == InvocationKind::CompilerDriver);
  CHECK(I.Request.Lang == Language::Cxx);
  CHECK(I.Request.WantedName == "clang++");
  CHECK(I.Args == std::vector<std::string>{"-c", "a.cpp"});
  I = parseInvocation("linkguard-clang", {"-c", "a.c"});
  CHECK(I.Request.Lang == Language::C);
  CHECK(I.Request.WantedName == "clang");
}

TEST_CASE("a masquerade symlink looks for its own name", "[invocation]") {
  for (auto [Name, Lang] : std::vector<std::pair<std::string, Language>>{
           {"c++", Language::Cxx}, {"clang++", Language::Cxx}, {"clang", Language::C},
           {"cc", Language::C}, {"g++", Language::Cxx}, {"clang-19", Language::C}}) {
    Invocation I = parseInvocation("/masq/" + Name, {"--version"});
    CHECK(I.Kind == InvocationKind::CompilerDriver);
    CHECK(I.Request.WantedName == Name);
    CHECK(I.Request.Lang == Lang);
  }
}

TEST_CASE("linkguard COMPILER ARGS is the launcher form", "[invocation]") {
  Invocation I = parseInvocation("linkguard", {"/usr/bin/c++", "-shared", "-o", "x.so"});
  CHECK(I.Kind == InvocationKind::CompilerDriver);
  CHECK(I.Request.LauncherCommand == std::vector<std::string>{"/usr/bin/c++"});
  CHECK(I.Args == std::vector<std::string>{"-shared", "-o", "x.so"});
  I = parseInvocation("linkguard", {"--", "clang++", "-v"});
  CHECK(I.Request.LauncherCommand == std::vector<std::string>{"clang++"});
  CHECK(I.Args == std::vector<std::string>{"-v"});
}

TEST_CASE("subcommands, help, version and usage errors", "[invocation]") {
  CHECK(parseInvocation("linkguard", {"inspect", "a.dylib"}).Kind == InvocationKind::Subcommand);
  CHECK(parseInvocation("linkguard", {"explain", "--", "clang++"}).Subcommand == "explain");
  CHECK(parseInvocation("linkguard", {"--help"}).Kind == InvocationKind::TopLevelHelp);
  CHECK(parseInvocation("linkguard", {"--version"}).Kind == InvocationKind::TopLevelVersion);
  CHECK(parseInvocation("linkguard", {}).Kind == InvocationKind::Usage);
  CHECK(parseInvocation("linkguard", {"--frobnicate"}).Kind == InvocationKind::Usage);
  CHECK(parseInvocation("linkguard", {"version"}).Kind == InvocationKind::TopLevelVersion);
}

TEST_CASE("a near miss of a subcommand is a typo, a compiler's name never is", "[invocation]") {
  CHECK(nearestSubcommand("chek") == "check");
  CHECK(nearestSubcommand("inspcet") == "inspect");
  CHECK(nearestSubcommand("tryload") == "try-load");
  for (const char *Compiler : {"cc", "gcc", "c++", "g++", "clang", "clang++", "icc", "cl",
                               "clang-19", "/usr/bin/chek", "-c", ""}) {
    INFO(Compiler);
    CHECK(nearestSubcommand(Compiler).empty());
  }
}

// driver/ decides that argv[1] is a subcommand before commands/ runs it
// (driver cannot depend on commands/): the two lists must be the same, or
// a new subcommand would be taken for a compiler, or a word for a
// subcommand that does not exist.
TEST_CASE("the driver's subcommand words are the commands room's", "[invocation]") {
  std::vector<std::string> Words = linkguard::commands::subcommandNames();
  Words.push_back("help");
  Words.push_back("version");
  for (const std::string &W : Words) {
    INFO(W);
    CHECK(isSubcommand(W));
  }
  // Near misses stay compiler words (the launcher form).
  for (const char *Near : {"inspects", "checks", "tryload", "try_load", "exp", "run-",
                           "envs", "Help", "--help", "versions", "clang++", ""}) {
    INFO(Near);
    CHECK_FALSE(isSubcommand(Near));
  }
}
