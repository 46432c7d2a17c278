// flags/RefusedFlags: no rules file may add a flag that makes the compiler
// or the linker run a program named by path, load code, or read more
// arguments from a file -- in any spelling clang 19 accepts -- and the
// error names the file, the line and the key.
#include "config/RefusedFlags.h"
#include "flags/ClangOptionTable.h"
#include "config/RulesFile.h"

#include "clang/Driver/Options.h"

#include "llvm/Option/Option.h"

#include "tests/unit/support/Catch.h"

#include <set>

using namespace linkguard::flags;
using namespace linkguard::config;
namespace copts = clang::driver::options;
using Strings = std::vector<std::string>;

TEST_CASE("RefusedFlags rows are sorted, unique, real and unaliased",
          "[flags][refused]") {
  const llvm::opt::OptTable &T = clangOptTable();
  auto Rows = refusedOptions();
  REQUIRE(Rows.size() > 20);
  for (size_t I = 0; I < Rows.size(); ++I) {
    INFO("row " << I << ": id " << Rows[I].Id);
    if (I > 0)
      CHECK(Rows[I - 1].Id < Rows[I].Id);
    REQUIRE(Rows[I].Id > copts::OPT_UNKNOWN);
    REQUIRE(Rows[I].Id <= T.getNumOptions());
    llvm::opt::Option O = T.getOption(Rows[I].Id);
    INFO("option " << O.getPrefixedName().str());
    CHECK(O.isValid());
    CHECK_FALSE(O.getAlias().isValid()); // libOption hands back the aliased one
  }
  std::set<std::string> Linker(refusedLinkerOptions().begin(),
                               refusedLinkerOptions().end());
  CHECK(Linker.size() == refusedLinkerOptions().size());
}

TEST_CASE("every spelling of a flag that runs, loads or reads is refused",
          "[flags][refused]") {
  struct Case {
    Strings Flags;
    std::string Why; // part of the reason
  };
  for (const Case &K : std::vector<Case>{
           {{"--ld-path=/tmp/x/evil.sh"}, "run a program named by path"},
           {{"-fuse-ld=/tmp/ld"}, "names the linker by path"},
           {{"-fuse-ld=./ld"}, "names the linker by path"},
           {{"-B/tmp/x"}, "run a program named by path"},
           {{"-B", "/tmp/x"}, "run a program named by path"},
           {{"--prefix=/tmp/x"}, "run a program named by path"},
           {{"--prefix", "/tmp/x"}, "run a program named by path"},
           {{"--gcc-install-dir=/x"}, "run a program named by path"},
           {{"--gcc-toolchain=/x"}, "run a program named by path"},
           {{"--sysroot=/x"}, "run a program named by path"},
           {{"--sysroot", "/x"}, "run a program named by path"},
           {{"-ccc-install-dir", "/x"}, "run a program named by path"},
           {{"-ccc-gcc-name", "/x/gcc"}, "run a program named by path"},
           {{"--ptxas-path=/x"}, "run a program named by path"},
           {{"--cuda-path=/x"}, "run a program named by path"},
           {{"--amdgpu-arch-tool=/x"}, "run a program named by path"},
           {{"--config=/x.cfg"}, "read another configuration file"},
           {{"--config", "/x.cfg"}, "read another configuration file"},
           {{"--config-user-dir=/x"}, "read another configuration file"},
           {{"--config-system-dir=/x"}, "read another configuration file"},
           {{"-fplugin=/x.so"}, "loads code into the compiler"},
           {{"-fpass-plugin=/x.so"}, "loads code into the compiler"},
           {{"--hipspv-pass-plugin=/x.so"}, "loads code into the compiler"},
           {{"-Xclang", "-load", "-Xclang", "/x.so"},
            "'-load /x.so' loads code into the compiler (given to clang -cc1 "
            "by -Xclang)"},
           {{"-Xclang=-load", "-Xclang=/x.so"}, "loads code into the compiler"},
           {{"-Xclang", "-fpass-plugin=/x.so"}, "loads code into the compiler"},
           {{"-Wp,-load,/x.so"}, "loads code into the compiler"},
           {{"-Xpreprocessor", "-load", "-Xpreprocessor", "/x.so"},
            "loads code"},
           {{"-Xclang", "@/tmp/more"}, "reads more arguments from a file"},
           {{"-Xarch_arm64", "-fplugin=/x.so"}, "(forwarded by '-Xarch_arm64"},
           {{"-Xarch_host", "-B/x"}, "run a program named by path"},
           {{"-Xopenmp-target=nvptx64", "--ld-path=/x"}, "run a program"},
           {{"-Wl,-plugin,/x.so"}, "loads code into the linker"},
           {{"-Wl,--plugin=/x.so"}, "loads code into the linker"},
           {{"-Xlinker", "--load-pass-plugin=/x.so"},
            "loads code into the linker"},
           {{"-Wl,-lto_library,/x.dylib"}, "loads code into the linker"},
           {{"-Wl,@/tmp/more"}, "linker read more arguments from a file"},
           {{"@/tmp/more.rsp"}, "reads more arguments from a file"},
           {{"--no-such-option"}, "not an option clang 19 knows"},
           {{"-Xclang"}, "is missing its value"},
           {{"-Wl,--as-needed", "-z"}, "'-z' is missing its value"},
           {{"-Xclang", "-load"}, "is missing its value"},
       }) {
    INFO(K.Flags.front() << " (" << K.Flags.size() << " strings)");
    std::optional<RefusedFlag> R = refusedRuleFlag(K.Flags);
    REQUIRE(R);
    CHECK_THAT(R->Why, Catch::Contains(K.Why));
  }
  // The controls: what rules are for, and what reads or writes data only.
  for (const Strings &Ok : std::vector<Strings>{
           {"-Wl,--as-needed"},
           {"-Wl,-dead_strip_dylibs"},
           {"-fuse-ld=lld"},
           {"-Xlinker", "-rpath", "-Xlinker", "/opt/lib"},
           {"-Wl,--plugin-opt=O2"},
           {"-z", "defs"},
           {"-lomp", "extra.o"},
           {"-Xclang", "-fopenmp"},
           {"-fprofile-generate=/tmp/prof"},
           {"-isysroot", "/sdk"},
           {"-resource-dir=/x"},
           {"-Xarch_arm64", "-O2"},
       }) {
    INFO(Ok.front());
    std::optional<RefusedFlag> R = refusedRuleFlag(Ok);
    CHECK_FALSE(R);
    if (R)
      WARN(R->Why);
  }
}

TEST_CASE("a refused flag in a rules file names the file, the line and the key",
          "[flags][refused][rulesfile]") {
  auto F = parseRulesText("[[rule]]\n"
                          "name = \"evil\"\n"
                          "[rule.add]\n"
                          "flags = [\n"
                          "  \"-Wl,--as-needed\",\n"
                          "  \"--ld-path=/tmp/x/evil.sh\",\n"
                          "]\n",
                          "/p/linkguard.toml");
  REQUIRE_FALSE(bool(F));
  CHECK(llvm::toString(F.takeError()) ==
        "/p/linkguard.toml:6: 'rule[0].add.flags': '--ld-path=/tmp/x/evil.sh' "
        "makes the compiler run a program named by path; a rules file may not "
        "add it (rule 'evil')");
  // A disabled rule is checked too: the file is refused as a whole.
  auto Off = parseRulesText("[[rule]]\nname = \"off\"\nenabled = false\n"
                            "[rule.add]\nflags = \"-B/tmp\"\n",
                            "lg.toml");
  REQUIRE_FALSE(bool(Off));
  CHECK_THAT(
      llvm::toString(Off.takeError()),
      Catch::StartsWith("lg.toml:5: 'rule[0].add.flags': '-B/tmp' makes"));
}
