# cmake -P script: writes linkguard.1 from the binary's own --help texts, so
# the man page can never say something --help does not.
#   -DLINKGUARD=<built linkguard> -DOUTPUT=<file> -DVERSION=<x.y.z>
# The texts go into .nf (no-fill) blocks verbatim, escaped for roff:
# backslashes become \e, and a line starting with "." or "'" gets a
# leading \& so roff does not read it as a request.
if(NOT LINKGUARD OR NOT OUTPUT)
  message(FATAL_ERROR "GenerateManPage.cmake: set LINKGUARD and OUTPUT")
endif()

function(_linkguard_roff_block text out)
  string(REPLACE "\\" "\\e" text "${text}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
  set(${out} ".nf\n${text}.fi\n" PARENT_SCOPE)
endfunction()

execute_process(COMMAND "${LINKGUARD}" --help
  OUTPUT_VARIABLE top RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${LINKGUARD} --help failed (${rc})")
endif()
_linkguard_roff_block("${top}" top_roff)

set(page ".TH LINKGUARD 1 \"\" \"linkguard ${VERSION}\" \"User Commands\"\n")
string(APPEND page ".SH NAME\nlinkguard, linkguard-clang++, linkguard-clang, linkguard-g++, linkguard-gcc \\- ")
string(APPEND page "a compiler-driver wrapper that adds link flags only where they belong\n")
string(APPEND page ".SH DESCRIPTION\n${top_roff}")
string(APPEND page ".SH SUBCOMMANDS\n")
foreach(sub run env explain inspect check try-load report completion)
  execute_process(COMMAND "${LINKGUARD}" ${sub} --help
    OUTPUT_VARIABLE text RESULT_VARIABLE rc)
  if(rc EQUAL 0 AND text)
    _linkguard_roff_block("${text}" roff)
    string(APPEND page ".SS linkguard ${sub}\n${roff}")
  endif()
endforeach()
# EXIT STATUS and ENVIRONMENT come from the tables the binary itself uses
# (commands/Help.cpp: `linkguard help exit-codes`, `help environment`).
foreach(topic "exit-codes;EXIT STATUS" "environment;ENVIRONMENT")
  list(GET topic 0 name)
  list(GET topic 1 title)
  execute_process(COMMAND "${LINKGUARD}" help ${name}
    OUTPUT_VARIABLE text RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR NOT text)
    message(FATAL_ERROR "${LINKGUARD} help ${name} failed (${rc})")
  endif()
  _linkguard_roff_block("${text}" roff)
  string(APPEND page ".SH ${title}\n${roff}")
endforeach()
string(APPEND page ".SH FILES\n.nf\n"
  "share/doc/linkguard/          the documentation (exit-codes.md says more of each code)\n"
  "share/doc/linkguard/schema/   a JSON Schema for each --json document\n"
  "share/linkguard/cmake/linkguard-toolchain.cmake   the CMake toolchain file\n"
  "share/bash-completion/completions/linkguard, share/zsh/site-functions/_linkguard,\n"
  "share/fish/vendor_completions.d/linkguard.fish   shell completions\n.fi\n")
string(APPEND page ".SH SEE ALSO\nThe CMake toolchain file: share/linkguard/cmake/linkguard-toolchain.cmake.\n")
file(WRITE "${OUTPUT}" "${page}")
