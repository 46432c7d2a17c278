//===- Printer.h - one output path, a text and a JSON backend ------*- C++ -*-===//
//
// llvm-readobj's ScopedPrinter/JSONScopedPrinter idea, for linkguard's
// subcommands: a command describes each result once, as a JSON object (one
// routine per concept, e.g. inspectRecord), and hands it to a Printer. The
// JSON backend collects the results into the command's document; the text
// backend renders each with the command's layout as it arrives. Text is a
// view of the same object, so it can show nothing the JSON does not hold
// (names with bytes that are not UTF-8 read as U+FFFD in both).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "support/Printable.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace linkguard::contract {
struct TriedCandidate;
}

namespace linkguard::commands {

class Printer {
public:
  virtual ~Printer() = default;
  /// One result: a file, a member, a loaded library, a plan.
  virtual void result(llvm::json::Object R) = 0;
  /// An input that could not be read ({"path", "kind", "message"}); the
  /// command also says so on stderr, one line.
  virtual void error(llvm::json::Object E) = 0;
  /// The end: document-level fields (a summary, the contract) are added.
  virtual void finish(llvm::json::Object Doc) = 0;
};

using Render = std::function<void(llvm::raw_ostream &, const llvm::json::Object &)>;

/// How a command's text looks: each result, and the end (either may be
/// empty).
struct TextLayout {
  Render Result;
  Render Finish;
};

enum class DocumentShape {
  /// {"schema", "files": [results], "errors": [...], ...document fields}
  Files,
  /// The single result itself, with the document fields added (explain,
  /// try-load).
  Single,
};

std::unique_ptr<Printer> makePrinter(bool Json, llvm::raw_ostream &OS, std::string Schema,
                                     DocumentShape Shape, TextLayout Text);


/// Sets O[Key] to a name read from a file or a command line. JSON strings
/// are UTF-8: a name that is not gets U+FFFD for each bad sequence at Key
/// and, beside it at Key + "Escaped", its exact bytes as printable() text.
void putName(llvm::json::Object &O, llvm::StringRef Key, llvm::StringRef Raw);

/// The name at Key as text for a terminal: the exact bytes when the record
/// has them (putName), escaped by printable().
std::string printableName(const llvm::json::Object &O, llvm::StringRef Key);

/// A list of names at Key by putName's rule (support/JsonName.h), and the
/// list as text for a terminal.
void putNames(llvm::json::Object &O, llvm::StringRef Key, const std::vector<std::string> &Raw);
std::vector<std::string> printableNames(const llvm::json::Object &O, llvm::StringRef Key);

/// A search's candidates, in the loader's order (shipment::Edge::Tried,
/// contract::Finding::Tried): O["tried"], each {"path", "via", "reason",
/// "detail"} (names by putName's rule), and O["triedNotListed"], how many
/// more the bound left out (shipment::MaxWhyListed).
void putTried(llvm::json::Object &O, const std::vector<contract::TriedCandidate> &Tried,
              size_t NotListed);
/// Their text, one line each at Indent: "- REASON: PATH (VIA: DETAIL)",
/// then "- and N more not listed"; nothing when O has no "tried".
void printTried(llvm::raw_ostream &OS, const llvm::json::Object &O, unsigned Indent);

/// The strings of the array at Key (a non-string as ""); none when absent.
std::vector<std::string> stringsOf(const llvm::json::Object &O, llvm::StringRef Key);

/// Word (a verdict: "holds", "broken", "violation", ...) in colour when
/// standard output is a terminal, NO_COLOR is unset or empty
/// (no-color.org) and TERM is not "dumb"; Word unchanged otherwise.
std::string coloured(llvm::StringRef Word);

/// The string at Key, "" when absent or not a string.
std::string str(const llvm::json::Object &O, llvm::StringRef Key);

} // namespace linkguard::commands
