// flags/OptionEffects: the table checks itself, as ccache's
// compopt_verify_sortedness_and_flags does for its compopt rows.
#include "flags/OptionEffects.h"
#include "flags/ClangOptionTable.h"
#include "flags/Classify.h"

#include "clang/Driver/Options.h"

#include "llvm/Option/Option.h"

#include "tests/unit/support/Catch.h"

#include <set>

using namespace linkguard::flags;
namespace copts = clang::driver::options;

// Sorted and unique: a static_assert in flags/OptionEffects.cpp checks the
// rows at compile time.

TEST_CASE("OptionEffects ids are real clang driver options",
          "[flags][effects]") {
  const llvm::opt::OptTable &T = clangOptTable();
  for (const OptionEffect &R : optionEffects()) {
    INFO("option id " << R.Id << " (" << effectName(R.Eff) << ")");
    REQUIRE(R.Id > copts::OPT_UNKNOWN);
    REQUIRE(R.Id <= T.getNumOptions());
    llvm::opt::Option O = T.getOption(R.Id);
    INFO("option " << O.getPrefixedName().str());
    CHECK(O.isValid());
    // An alias never reaches classify(): libOption hands back the option it
    // aliases, so a row for an alias would be dead.
    CHECK_FALSE(O.getAlias().isValid());
    // Visible to the clang driver, or the row could never match.
    CHECK(O.hasVisibilityFlag(copts::ClangOption));
  }
}

TEST_CASE("effectOf finds every row and nothing else", "[flags][effects]") {
  for (const OptionEffect &R : optionEffects())
    CHECK(effectOf(R.Id) == R.Eff);
  CHECK(effectOf(copts::OPT_INPUT) == std::nullopt);
  CHECK(effectOf(copts::OPT_UNKNOWN) == std::nullopt);
  CHECK(effectOf(copts::OPT_O) == std::nullopt);
  CHECK(effectOf(copts::OPT_c) == Effect::Assemble);
  CHECK(effectOf(copts::OPT_E) == Effect::Preprocess);
  CHECK(effectOf(copts::OPT__version) == Effect::Probe);
  CHECK(effectOf(copts::OPT_shared) == Effect::SharedOutput);
  CHECK(effectOf(copts::OPT_Wl_COMMA) == Effect::LinkerCommaArgs);
}

// Every -print-* option the clang driver answers itself is a probe. A new
// clang that adds one fails here until the row is added (or the option is
// listed as not being a probe, with the reason).
TEST_CASE("every driver -print-* option is a probe", "[flags][effects]") {
  const llvm::opt::OptTable &T = clangOptTable();
  // -print-ivar-layout is an Objective-C code generation flag passed to cc1.
  const std::set<unsigned> NotProbes = {copts::OPT_print_ivar_layout};
  size_t Seen = 0;
  for (unsigned Id = copts::OPT_UNKNOWN + 1; Id <= T.getNumOptions(); ++Id) {
    llvm::opt::Option O = T.getOption(Id);
    // Unsupported options (-print-multiarch) are rejected by clang before
    // anything runs; classify() lists them in UnknownArgs.
    if (!O.isValid() || O.getAlias().isValid() ||
        !O.hasVisibilityFlag(copts::ClangOption) ||
        O.hasFlag(copts::Unsupported))
      continue;
    if (!O.getName().starts_with("print-"))
      continue;
    if (NotProbes.count(Id))
      continue;
    ++Seen;
    INFO(O.getPrefixedName().str());
    CHECK(effectOf(Id) == Effect::Probe);
  }
  CHECK(Seen >= 15);
}

TEST_CASE("every row's effect has a name", "[flags][effects]") {
  for (const OptionEffect &R : optionEffects())
    CHECK(std::string(effectName(R.Eff)) != "?");
}
