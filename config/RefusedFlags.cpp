//===- RefusedFlags.cpp - what a rules file may not add -------------------===//
//
// Why each row is here (clang 19; checked with `clang++-19 -###`):
//  - -B (--prefix), -ccc-install-dir: directories clang runs ld/as from.
//  - --ld-path=, -fuse-ld=<path>: the linker by path. -fuse-ld=lld names a
//    linker that clang looks up as ld.lld on its program paths and PATH.
//  - --gcc-toolchain=, --gcc-install-dir=, --sysroot=: the GCC installation
//    clang finds there puts its bin directory first on clang's program
//    paths (Generic_GCC::PushPPaths), so `--sysroot=/x` runs
//    /x/usr/x86_64-linux-gnu/bin/ld once /x/usr/lib/gcc/x86_64-linux-gnu/12
//    exists. -ccc-gcc-name names the gcc clang runs for some targets.
//  - --cuda-path=, --ptxas-path=, --hip-path=, --amdgpu-arch-tool=,
//    --nvptx-arch-tool=, --dxv-path=: offload tools (ptxas, fatbinary,
//    amdgpu-arch, dxv) and HIPSPV's pass plugin by path.
//  - -fplugin=, -fpass-plugin=, --hipspv-pass-plugin=, cc1's -load: dlopen
//    into the compiler.
//  - --config=, --config-system-dir=, --config-user-dir=: more arguments
//    from a configuration file; an @file likewise.
// Not refused, on purpose: options that read data (-isysroot,
// -resource-dir, --rocm-path=, -fprofile-use=, -include) or write files
// (-fprofile-generate=, -fprofile-instrument-path=, -save-temps,
// -fcrash-diagnostics-dir=) run nothing; -mllvm reaches LLVM's cl::opts,
// and clang 19 registers none that loads code (no PluginLoader); cc1's
// -plugin/-add-plugin only pick among plugins already loaded by -load.
//
//===----------------------------------------------------------------------===//
#include "config/RefusedFlags.h"

#include "flags/ClangOptionTable.h"
#include "flags/OptionRows.h"

#include "clang/Driver/Options.h"

#include "llvm/Option/ArgList.h"
#include "llvm/Option/Option.h"

#include <algorithm>
#include <vector>

using namespace llvm;
using namespace llvm::opt;

namespace linkguard::config {

using namespace flags;

using namespace clang::driver::options;

namespace {

// clang-format off
constexpr RefusedOption Rows[] = {
    {OPT_amdgpu_arch_tool_EQ, Refusal::RunsProgram},
    {OPT_B, Refusal::RunsProgram},
    {OPT_ccc_gcc_name, Refusal::RunsProgram},
    {OPT_ccc_install_dir, Refusal::RunsProgram},
    {OPT_config_system_dir_EQ, Refusal::ReadsConfig},
    {OPT_config_user_dir_EQ, Refusal::ReadsConfig},
    {OPT_config, Refusal::ReadsConfig},
    {OPT_cuda_path_EQ, Refusal::RunsProgram},
    {OPT_dxc_validator_path_EQ, Refusal::RunsProgram},
    {OPT_fpass_plugin_EQ, Refusal::LoadsCode},
    {OPT_fplugin_EQ, Refusal::LoadsCode},
    {OPT_fuse_ld_EQ, Refusal::PathValue},
    {OPT_gcc_install_dir_EQ, Refusal::RunsProgram},
    {OPT_gcc_toolchain, Refusal::RunsProgram},
    {OPT_hip_path_EQ, Refusal::LoadsCode},
    {OPT_hipspv_pass_plugin_EQ, Refusal::LoadsCode},
    {OPT_ld_path_EQ, Refusal::RunsProgram},
    {OPT_load, Refusal::LoadsCode},
    {OPT_nvptx_arch_tool_EQ, Refusal::RunsProgram},
    {OPT_ptxas_path_EQ, Refusal::RunsProgram},
    {OPT__sysroot_EQ, Refusal::RunsProgram},
    {OPT_Wl_COMMA, Refusal::ToLinker},
    {OPT_Wp_COMMA, Refusal::ToCc1},
    {OPT_Xarch_device, Refusal::ToDriver},
    {OPT_Xarch_host, Refusal::ToDriver},
    {OPT_Xarch__, Refusal::ToDriver},
    {OPT_Xclang, Refusal::ToCc1},
    {OPT_Xlinker, Refusal::ToLinker},
    {OPT_Xoffload_linker, Refusal::ToLinker},
    {OPT_Xopenmp_target_EQ, Refusal::ToDriver},
    {OPT_Xopenmp_target, Refusal::ToDriver},
    {OPT_Xpreprocessor, Refusal::ToCc1},
};
// clang-format on

static_assert(sortedById(Rows),
              "RefusedFlags rows must be sorted by option id");

constexpr const char *LinkerRows[] = {"load-pass-plugin", "lto_library",
                                      "plugin"};

std::optional<Refusal> refusalOf(unsigned Id) {
  if (const RefusedOption *R = rowById(Rows, Id))
    return R->Why;
  return std::nullopt;
}

std::string quoted(StringRef S) { return "'" + S.str() + "'"; }

/// "-plugin", "--plugin=x" -> "plugin".
bool loadsIntoLinker(StringRef Arg) {
  if (!Arg.consume_front("-"))
    return false;
  Arg.consume_front("-");
  StringRef Name = Arg.split('=').first;
  return llvm::is_contained(LinkerRows, Name);
}

std::optional<std::string> whyLinkerArg(StringRef Arg, StringRef Spelled) {
  if (Arg.starts_with("@"))
    return quoted(Spelled) +
           " makes the linker read more arguments from a file";
  if (loadsIntoLinker(Arg))
    return quoted(Spelled) + " loads code into the linker";
  return std::nullopt;
}

/// One parsed list, driver or cc1 options.
class Checker {
public:
  explicit Checker(Visibility Vis) : Vis(Vis) {}

  /// Why Args may not be added; Where(I) names argument I for messages.
  std::optional<RefusedFlag> check(ArrayRef<std::string> Args, unsigned Depth) {
    std::vector<const char *> Argv;
    Argv.reserve(Args.size());
    for (const std::string &A : Args)
      Argv.push_back(A.c_str());
    unsigned MissingIndex = 0, MissingCount = 0;
    InputArgList L =
        clangOptTable().ParseArgs(Argv, MissingIndex, MissingCount, Vis);
    std::vector<const Arg *> Parsed(L.begin(), L.end());
    for (size_t K = 0; K < Parsed.size(); ++K) {
      // As written: the strings from this option up to the next one.
      size_t I = Parsed[K]->getIndex();
      size_t End =
          K + 1 < Parsed.size() ? Parsed[K + 1]->getIndex() : Args.size();
      std::string Spelled = Args[I];
      for (size_t J = I + 1; J < End; ++J)
        Spelled += " " + Args[J];
      if (auto Why = whyArg(*Parsed[K], Spelled, I, Depth))
        return RefusedFlag{I, *Why};
    }
    if (MissingCount)
      return RefusedFlag{MissingIndex,
                         quoted(Args[MissingIndex]) +
                             " is missing its value (a rule's flags must be "
                             "whole options)"};
    if (Cc1.empty())
      return std::nullopt;
    // The values of -Xclang/-Wp,/-Xpreprocessor, read as clang -cc1 reads them.
    Checker Inner{Visibility(CC1Option)};
    std::optional<RefusedFlag> R = Inner.check(Cc1, Depth + 1);
    if (!R)
      return std::nullopt;
    return RefusedFlag{Cc1From[R->Index], R->Why + " (given to clang -cc1 by " +
                                              Cc1By[R->Index] + ")"};
  }

private:
  std::optional<std::string> whyArg(const Arg &A, const std::string &Spelled,
                                    size_t I, unsigned Depth) {
    unsigned Id = A.getOption().getID();
    if (Id == OPT_INPUT) {
      if (StringRef(A.getValue()).starts_with("@"))
        return quoted(Spelled) + " reads more arguments from a file";
      return std::nullopt;
    }
    if (Id == OPT_UNKNOWN)
      return quoted(Spelled) + " is not an option clang 19 knows, so linkguard "
                               "cannot tell what it does";
    std::optional<Refusal> R = refusalOf(Id);
    if (!R)
      return std::nullopt;
    switch (*R) {
    case Refusal::RunsProgram:
      return quoted(Spelled) +
             " makes the compiler run a program named by path";
    case Refusal::PathValue:
      if (StringRef(A.getValue()).contains('/'))
        return quoted(Spelled) + " names the linker by path (a name such as "
                                 "-fuse-ld=lld is fine)";
      return std::nullopt;
    case Refusal::LoadsCode:
      return quoted(Spelled) + " loads code into the compiler";
    case Refusal::ReadsConfig:
      return quoted(Spelled) +
             " makes the compiler read another configuration file";
    case Refusal::ToCc1:
      for (const char *V : A.getValues()) {
        Cc1.emplace_back(V);
        Cc1From.push_back(I);
        Cc1By.push_back(A.getOption().getPrefixedName().str());
      }
      return std::nullopt;
    case Refusal::ToDriver: {
      // -Xarch_<arch> <arg>, -Xopenmp-target=<triple> <arg>: the last value
      // is one driver argument, which clang parses again.
      if (Depth > 4)
        return quoted(Spelled) + " nests forwarding options too deeply";
      std::string Value = A.getValues().back();
      Checker Inner(Vis);
      if (std::optional<RefusedFlag> F = Inner.check({Value}, Depth + 1))
        return F->Why + " (forwarded by " + quoted(Spelled) + ")";
      return std::nullopt;
    }
    case Refusal::ToLinker:
      for (const char *V : A.getValues())
        if (auto Why = whyLinkerArg(V, Spelled))
          return Why;
      return std::nullopt;
    }
    return std::nullopt;
  }

  Visibility Vis;
  // What -Xclang, -Wp, and -Xpreprocessor hand to clang -cc1, with the
  // index and the name of the option that carried each value.
  std::vector<std::string> Cc1;
  std::vector<size_t> Cc1From;
  std::vector<std::string> Cc1By;
};

} // namespace

ArrayRef<RefusedOption> refusedOptions() { return Rows; }

ArrayRef<const char *> refusedLinkerOptions() { return LinkerRows; }

std::optional<RefusedFlag> refusedRuleFlag(ArrayRef<std::string> Flags) {
  Checker C(clangDriverVisibility());
  return C.check(Flags, 0);
}

} // namespace linkguard::config
