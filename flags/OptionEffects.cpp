//===- OptionEffects.cpp - linkguard's sorted option meanings ------------===//
//
// Rows are sorted by clang's option id, which is the order of the OPTION
// rows in clang/Driver/Options.inc (the generator sorts them by name, with
// case folded). Keep them that way: a static_assert below and
// OptionEffectsTest check the order. effectOf() reads an index built from
// them at compile time (one byte per clang option id): it runs once per
// argument, 100,000 times for a big @file.
//
// Aliases need no rows of their own: libOption hands back the aliased
// option (--output= is OPT_o, -target is OPT_target, --verbose is OPT_v).
//
//===----------------------------------------------------------------------===//
#include "flags/OptionEffects.h"

#include "flags/OptionRows.h"
#include "support/EnumNames.h"

#include "clang/Driver/Options.h"

#include <array>
#include <cstdint>

namespace linkguard::flags {

using namespace clang::driver::options;

namespace {

// clang-format off
constexpr OptionEffect Rows[] = {
    {OPT__HASH_HASH_HASH, Effect::DryRun},
    {OPT__analyze, Effect::CompileOnly},
    {OPT_arch, Effect::Arch},
    {OPT_bundle, Effect::BundleOutput},
    {OPT_ccc_print_bindings, Effect::DryRun},
    {OPT_ccc_print_phases, Effect::DryRun},
    {OPT_config_system_dir_EQ, Effect::ConfigFile},
    {OPT_config_user_dir_EQ, Effect::ConfigFile},
    {OPT_config, Effect::ConfigFile},
    {OPT_c, Effect::Assemble},
    {OPT_driver_mode, Effect::DriverMode},
    {OPT_dumpmachine, Effect::Probe},
    {OPT_dumpversion, Effect::Probe},
    {OPT_dynamiclib, Effect::SharedOutput},
    {OPT_D, Effect::Define},
    {OPT_emit_ast, Effect::CompileOnly},
    {OPT_emit_interface_stubs, Effect::InterfaceStubs},
    {OPT_emit_llvm, Effect::EmitLlvm},
    {OPT_emit_static_lib, Effect::StaticLibOutput},
    {OPT_extract_api, Effect::Precompile},
    {OPT_E, Effect::Preprocess},
    {OPT_fdriver_only, Effect::DryRun},
    {OPT_fmodule_header_EQ, Effect::Precompile},
    {OPT_fmodule_header, Effect::Precompile},
    {OPT_fsyntax_only, Effect::CompileOnly},
    {OPT__help_hidden, Effect::Probe},
    {OPT_help, Effect::Probe},
    {OPT_L, Effect::LibraryDir},
    {OPT_l, Effect::Library},
    {OPT__migrate, Effect::CompileOnly},
    {OPT_MM, Effect::Dependencies},
    {OPT_module_file_info, Effect::CompileOnly},
    {OPT_M, Effect::Dependencies},
    {OPT_ObjCXX, Effect::LanguageObjCXX},
    {OPT_ObjC, Effect::LanguageObjC},
    {OPT_offload_device_only, Effect::CompileOnly},
    {OPT_o, Effect::Output},
    {OPT__precompile, Effect::Precompile},
    {OPT__print_diagnostic_categories, Effect::Probe},
    {OPT_print_diagnostic_options, Effect::Probe},
    {OPT_print_effective_triple, Effect::Probe},
    {OPT_print_enabled_extensions, Effect::Probe},
    {OPT_print_file_name_EQ, Effect::Probe},
    {OPT_print_libgcc_file_name, Effect::Probe},
    {OPT_print_std_module_manifest_path, Effect::Probe},
    {OPT_print_multi_directory, Effect::Probe},
    {OPT_print_multi_flags, Effect::Probe},
    {OPT_print_multi_lib, Effect::Probe},
    {OPT_print_multi_os_directory, Effect::Probe},
    {OPT_print_prog_name_EQ, Effect::Probe},
    {OPT_print_resource_dir, Effect::Probe},
    {OPT_print_rocm_search_dirs, Effect::Probe},
    {OPT_print_runtime_dir, Effect::Probe},
    {OPT_print_search_dirs, Effect::Probe},
    {OPT_print_supported_cpus, Effect::Probe},
    {OPT_print_supported_extensions, Effect::Probe},
    {OPT_print_target_triple, Effect::Probe},
    {OPT_print_targets, Effect::Probe},
    {OPT_reexport_l, Effect::ReexportLibrary},
    {OPT_rewrite_legacy_objc, Effect::CompileOnly},
    {OPT_rewrite_objc, Effect::CompileOnly},
    {OPT_rsp_quoting, Effect::RspQuoting},
    {OPT_r, Effect::RelocatableOutput},
    {OPT_shared, Effect::SharedOutput},
    {OPT_S, Effect::Backend},
    {OPT_target, Effect::Target},
    {OPT_U, Effect::Undefine},
    {OPT_verify_pch, Effect::CompileOnly},
    {OPT__version, Effect::Probe},
    {OPT_v, Effect::VerboseProbe},
    {OPT_weak_l, Effect::WeakLibrary},
    {OPT_Wl_COMMA, Effect::LinkerCommaArgs},
    {OPT_working_directory, Effect::WorkingDirectory},
    {OPT_Xarch_device, Effect::PerArchArg},
    {OPT_Xarch_host, Effect::PerArchArg},
    {OPT_Xarch__, Effect::PerArchArg},
    {OPT_Xlinker, Effect::LinkerArg},
    {OPT_x, Effect::Language},
    {OPT_z, Effect::LinkerZ},
    {OPT__DASH_DASH, Effect::EndOfOptions},
};
// clang-format on

static_assert(sortedById(Rows), "OptionEffects rows must be sorted by id "
                                "and unique");

} // namespace

llvm::ArrayRef<OptionEffect> optionEffects() { return Rows; }

// Effect + 1 by option id; 0 for an option with no row.
constexpr auto EffectById = [] {
  std::array<uint8_t, LastOption> Index{};
  for (const OptionEffect &R : Rows)
    Index[R.Id] = static_cast<uint8_t>(static_cast<unsigned>(R.Eff) + 1);
  return Index;
}();
static_assert(static_cast<unsigned>(Effect::Last) < 255,
              "EffectById stores an Effect in a byte");

std::optional<Effect> effectOf(unsigned OptId) {
  if (OptId >= EffectById.size() || EffectById[OptId] == 0)
    return std::nullopt;
  return static_cast<Effect>(EffectById[OptId] - 1);
}

// In Effect's declaration order, grouped as there (OptionEffects.h).
// clang-format off
constexpr const char *EffectNames[] = {
    "dry-run", "probe", "verbose-probe",
    "preprocess", "dependencies", "precompile", "compile-only", "backend",
    "assemble", "interface-stubs", "emit-llvm",
    "shared-output", "bundle-output", "relocatable-output",
    "output", "language", "language-objc", "language-objcxx", "define",
    "undefine", "library", "weak-library", "reexport-library", "library-dir",
    "linker-comma-args", "linker-arg", "linker-z", "target", "arch",
    "working-directory", "end-of-options",
    "static-lib-output", "driver-mode", "per-arch-arg",
    "config-file", "rsp-quoting",
};
// clang-format on

const char *effectName(Effect E) { return enumName(E, EffectNames); }

} // namespace linkguard::flags
