// The options of linkguard's subcommands, one table (llvm-readobj's Opts.td
// pattern): llvm-tblgen -gen-opt-parser-defs turns it into Opts.inc, and
// commands/CommandLine.cpp builds one OptTable from it. Each option is
// visible to the subcommands that take it; help, "did you mean" and the
// parse come from the table.
include "llvm/Option/OptParser.td"

def InspectVis : OptionVisibility;
def CheckVis : OptionVisibility;
def TryLoadVis : OptionVisibility;
def ExplainVis : OptionVisibility;
def RunVis : OptionVisibility;
def EnvVis : OptionVisibility;
def CompletionVis : OptionVisibility;
def ReportVis : OptionVisibility;

class F<string name, string help, list<OptionVisibility> vis>
    : Flag<["--"], name>, HelpText<help>, Visibility<vis>;

// "--name VALUE" and "--name=VALUE".
multiclass Eq<string name, string meta, string help, list<OptionVisibility> vis> {
  def NAME #_EQ : Joined<["--"], name #"=">, HelpText<help>, MetaVarName<meta>,
                  Visibility<vis>;
  def : Separate<["--"], name>, Alias<!cast<Joined>(NAME #_EQ)>, Visibility<vis>;
}

def help : F<"help", "Print this help", [InspectVis, CheckVis, TryLoadVis,
                                          ExplainVis, RunVis, EnvVis, CompletionVis,
                                          ReportVis]>;
def : Flag<["-"], "h">, Alias<help>, Flags<[HelpHidden]>,
      Visibility<[InspectVis, CheckVis, TryLoadVis, ExplainVis, RunVis, EnvVis,
                  CompletionVis, ReportVis]>;
def json : F<"json", "One JSON document (its JSON Schema: docs/schema/COMMAND.json, "
                     "installed in share/doc/linkguard/schema)",
             [InspectVis, CheckVis, TryLoadVis, ExplainVis, ReportVis]>;
def scan : F<"scan", "Find Mach-O and ELF images embedded in any other file "
                     "(a .pte, a blob): FILE@0xOFFSET", [InspectVis, CheckVis, TryLoadVis]>;
defm max_inflated : Eq<"max-inflated", "<size>", "Refuse a zip archive whose members declare more "
                      "than SIZE bytes in all (K, M, G, T: powers of 1024; default: 2G or "
                      "100 times the archive's size, whichever is more)",
                      [InspectVis, CheckVis, TryLoadVis]>;

def quiet : F<"quiet", "Print the verdict alone: the summary line (ctest's --quiet); "
                       "the exit status is the same", [CheckVis]>;
def : Flag<["-"], "q">, Alias<quiet>, Flags<[HelpHidden]>, Visibility<[CheckVis]>;

// inspect
def symbols : F<"symbols", "Under each library, the imported symbols bound to it; "
                           "then dynamic-lookup, executable, weak-lookup and "
                           "unattributed imports", [InspectVis]>;
def rpaths : F<"rpaths", "LC_RPATH / DT_RPATH / DT_RUNPATH search paths", [InspectVis]>;
defm arch : Eq<"arch", "<arch>", "Only the slice for ARCH (arm64, x86_64, ...)", [InspectVis]>;

// contracts: check, and (forbid, require) try-load
defm forbid : Eq<"forbid", "<pattern>", "No dependency (check) or mapped image (try-load) may match "
                 "the pattern: a glob, or a group (openmp, libsystem)",
                 [CheckVis, TryLoadVis]>;
defm require : Eq<"require", "<pattern>", "Some dependency (check) or mapped image (try-load) must "
                  "match the pattern",
                  [CheckVis, TryLoadVis]>;
defm forbid_unreferenced : Eq<"forbid-unreferenced", "<pattern>",
    "A dependency matching the pattern may stay only if an imported symbol binds to it",
    [CheckVis]>;
def unused : F<"unused", "No dependency that no imported symbol binds to (ELF: unknown "
                         "without symbol versions)", [CheckVis]>;
def mps_aot : F<"mps-aot", "The contract the MPS AOT rule verifies after a link: "
                           "--forbid-unreferenced openmp, and (Mach-O) --require libsystem",
                [CheckVis]>;
def portable : F<"portable", "Every dependency is a system library, shipped under the "
                             "bundle root, or --provided; an absolute path outside the "
                             "system prefixes is non-portable even when the file exists "
                             "on this machine", [CheckVis]>;
def no_one_definer : F<"no-one-definer", "Under --portable, do not check that each strong "
                                         "exported name has one definer per load closure "
                                         "(rule one-definer; on by default)", [CheckVis]>;
def no_signatures : F<"no-signatures", "Under --portable, do not check Mach-O code signatures "
                                       "(rule code-signature; on for arm64 slices)", [CheckVis]>;
defm signatures : Eq<"signatures", "<arm64|all>", "Under --portable, the slices whose code "
                     "signature is checked: arm64 (Apple silicon refuses them unsigned or "
                     "changed after signing; the default) or all", [CheckVis]>;
defm macos_min : Eq<"macos-min", "<version>", "Under --portable, no slice needs a macOS newer "
                    "than VERSION (default: MACOSX_DEPLOYMENT_TARGET; a wheel: its tag's)",
                    [CheckVis]>;
defm platform_tag : Eq<"platform-tag", "<tag>", "Under --portable, judge the inputs as a wheel "
                       "tagged TAG is (macosx_11_0_arm64, manylinux_2_17_x86_64, ...; a set "
                       "with '.'): a tree or a file given a target", [CheckVis]>;
defm bundle_root : Eq<"bundle-root", "<dir>", "What ships (default: each binary's directory)",
                      [CheckVis]>;
defm search : Eq<"search", "<dir>", "An application library directory where @rpath names "
                                    "are also looked up, relative to the bundle root "
                                    "(repeatable)", [CheckVis, InspectVis]>;
defm executable : Eq<"executable", "<file>", "The program that loads a checked library, or the "
                      "tree's images no executable of the tree loads: its directory is "
                      "@executable_path",
                      [CheckVis, InspectVis]>;
defm root : Eq<"root", "<path>", "Also judge this file of the tree (its path under the tree, or a "
                              "glob) as a root of its own, as a process that dlopens it loads "
                              "it (repeatable; also [roots] in linkguard.toml)",
                [CheckVis, InspectVis]>;
defm unique : Eq<"unique", "<group>", "At most one library of the family in one load closure "
                 "(openmp: on under --portable); repeatable", [CheckVis]>;
def tree : F<"tree", "The load closure of a tree or file, like lddtree: every dependency "
                     "resolved as dyld / ld.so will, with the path that decided it", [InspectVis]>;
def why : F<"why", "With --tree (inspect) or --portable (check): under each dependency (each "
                   "finding), every path the loader tried, in its order, with why it was "
                   "passed over or taken (bounded; docs/inspect.md)", [InspectVis, CheckVis]>;
defm provided : Eq<"provided", "<pattern>", "A library the application provides (repeatable)",
                   [CheckVis]>;
defm system_list : Eq<"system-list", "<file>", "More system libraries, one pattern a line",
                      [CheckVis]>;

// try-load
defm call : Eq<"call", "<symbol>", "Call `int SYMBOL(void)` after loading; 0 is success",
               [TryLoadVis]>;
defm hide : Eq<"hide", "<path>", "Make PATH absent for the child only (Linux: a private "
                                 "mount namespace); repeatable", [TryLoadVis]>;
def keep_env : F<"keep-env", "Keep the loader variables in the child's environment",
                 [TryLoadVis]>;
def lazy : F<"lazy", "dlopen with RTLD_LAZY instead of RTLD_NOW", [TryLoadVis]>;
defm timeout : Eq<"timeout", "<seconds>", "Kill the loader after SECONDS (default 300; 0: "
                                          "never)", [TryLoadVis]>;

// env
defm shell : Eq<"shell", "<sh|bash|zsh|fish>", "The shell the lines are for (default: sh; bash, "
                "zsh, dash and ksh read sh's lines)", [EnvVis]>;
