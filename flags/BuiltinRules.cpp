//===- BuiltinRules.cpp - the MPS AOT rule written as data ----------------===//
#include "flags/BuiltinRules.h"


namespace linkguard::flags {

RuleSpec mpsAotRuleSpec() {
  RuleSpec S;
  S.Name = MpsAotRuleName;
  S.Origin = "built-in";
  S.Description = "drop an unused libomp from PyTorch AOTInductor MPS dylibs "
                  "(upstream pytorch#198232)";
  RuleMatch &M = S.Match;
  M.Phases = {Phase::Link};
  M.Format = ObjectFormat::MachO;
  M.Outputs = {OutputKind::SharedLibrary, OutputKind::Bundle};
  M.Defined = {"USE_MPS"};
  M.Aot = true;
  // AOT and JIT links look alike: objects only. What tells them apart is the
  // names codecache.py gives the objects. AotCodeCompiler.compile links
  // <key>.wrapper.o, <key>.kernel.o and the constants object; the JIT
  // CppCodeCache.load_async with cpp_wrapper_build_separate links
  // <key>.main.o and <key>.optimized.o (write(main_code, "main.cpp"),
  // write(optimized_code, "optimized.cpp")). Upstream adds the flag only
  // for aot_mode (pytorch#198232), so the JIT shape declines.
  M.JitInputs = {"*.main.o", "*.optimized.o"};
  // The libtorch libraries cpp_builder links by name
  // (_get_torch_related_args, get_cpp_torch_device_options): exact names,
  // so a custom-op library such as -ltorchvision
  // (aot_inductor.custom_op_libs) is not taken for libtorch. On macOS
  // cpp_builder names libtorch only through -L .../torch/lib; a -L
  // directory that holds a libtorch counts too.
  M.NotLinked = {"torch", "torch_cpu", "torch_cuda", "torch_hip", "torch_xpu",
                 "torch_python", "torch_global_deps"};
  M.NotLinkedDirs = {"*torch/lib"};
  M.NotLinkedProbe = {"libtorch_cpu.dylib", "libtorch.dylib", "libtorch.so",
                      "libtorch_cpu.so"};
  M.AlreadyPresent = {"-dead_strip_dylibs"};
  // ld64 has no "undo" for -dead_strip_dylibs; a user who writes one of
  // these spellings is telling us to keep every dylib, and that wins.
  M.OptOut = {"-no_dead_strip_dylibs", "-no-dead_strip_dylibs"};
  S.Add = {DeadStripDylibsFlag};
  S.Position = InsertPosition::End;
  S.Contract.ForbidUnreferenced = {"openmp"};
  // ld64 keeps libSystem under -dead_strip_dylibs; losing it would mean the
  // linker dropped more than it should have.
  S.Contract.Require = {"libsystem"};
  S.Contract.RequireOnlyForMachO = true;
  // The names explain has always shown for this rule.
  S.ConditionLabels = {
      {"USE_MPS defined", "MPS build"},
      {"not linked: torch, torch_cpu, torch_cuda, torch_hip, torch_xpu, torch_python, "
       "torch_global_deps, *torch/lib",
       "libtorch not linked"},
  };
  return S;
}

std::vector<RuleSpec> builtinRules() { return {mpsAotRuleSpec()}; }

} // namespace linkguard::flags
