//===- Printer.cpp - the JSON and text backends ----------------------------===//
#include "commands/Printer.h"

#include "contract/Contract.h"
#include "support/JsonName.h"

#include "llvm/ADT/StringSwitch.h"

#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <cstdlib>
#include <unistd.h>

using namespace llvm;

namespace linkguard::commands {

namespace {

class JsonPrinter final : public Printer {
public:
  JsonPrinter(raw_ostream &OS, std::string Schema, DocumentShape Shape)
      : OS(OS), Schema(std::move(Schema)), Shape(Shape) {}
  void result(json::Object R) override { Results.push_back(std::move(R)); }
  void error(json::Object E) override { Errors.push_back(std::move(E)); }
  void finish(json::Object Doc) override {
    json::Object Out;
    if (Shape == DocumentShape::Single && !Results.empty()) {
      Out = std::move(*Results.front().getAsObject());
    } else {
      Out["files"] = std::move(Results);
      Out["errors"] = std::move(Errors);
    }
    if (!Schema.empty())
      Out["schema"] = Schema;
    for (auto &KV : Doc)
      Out[KV.first] = std::move(KV.second);
    OS << formatv("{0:2}", json::Value(std::move(Out))) << "\n";
    OS.flush();
  }

private:
  raw_ostream &OS;
  std::string Schema;
  DocumentShape Shape;
  json::Array Results, Errors;
};

class TextPrinter final : public Printer {
public:
  TextPrinter(raw_ostream &OS, TextLayout Layout) : OS(OS), Layout(std::move(Layout)) {}
  void result(json::Object R) override {
    if (Layout.Result)
      Layout.Result(OS, R);
  }
  void error(json::Object) override {} // already one line on stderr
  void finish(json::Object Doc) override {
    if (Layout.Finish)
      Layout.Finish(OS, Doc);
    OS.flush();
  }

private:
  raw_ostream &OS;
  TextLayout Layout;
};

} // namespace

std::unique_ptr<Printer> makePrinter(bool Json, raw_ostream &OS, std::string Schema,
                                     DocumentShape Shape, TextLayout Text) {
  if (Json)
    return std::make_unique<JsonPrinter>(OS, std::move(Schema), Shape);
  return std::make_unique<TextPrinter>(OS, std::move(Text));
}

void putName(json::Object &O, StringRef Key, StringRef Raw) { putJsonName(O, Key, Raw); }

std::string printableName(const json::Object &O, StringRef Key) {
  if (std::optional<StringRef> Exact = O.getString((Key + "Escaped").str()))
    return Exact->str();
  return printable(str(O, Key));
}

void putNames(json::Object &O, StringRef Key, const std::vector<std::string> &Raw) {
  putJsonNames(O, Key, Raw);
}

std::vector<std::string> printableNames(const json::Object &O, StringRef Key) {
  if (O.getArray((Key + "Escaped").str()))
    return stringsOf(O, (Key + "Escaped").str());
  std::vector<std::string> Out;
  for (const std::string &S : stringsOf(O, Key))
    Out.push_back(printable(S));
  return Out;
}

void putTried(json::Object &O, const std::vector<contract::TriedCandidate> &Tried,
              size_t NotListed) {
  json::Array A;
  for (const contract::TriedCandidate &K : Tried) {
    json::Object R{{"reason", contract::tryReasonName(K.Reason)}};
    putName(R, "path", K.Path);
    putName(R, "via", K.Via);
    putName(R, "detail", K.Detail);
    A.push_back(std::move(R));
  }
  O["tried"] = std::move(A);
  O["triedNotListed"] = static_cast<int64_t>(NotListed);
}

void printTried(raw_ostream &OS, const json::Object &O, unsigned Indent) {
  const json::Array *A = O.getArray("tried");
  if (!A)
    return;
  for (const json::Value &V : *A) {
    const json::Object *K = V.getAsObject();
    if (!K)
      continue;
    OS.indent(Indent) << "- " << str(*K, "reason") << ": " << printableName(*K, "path") << " ("
                      << printableName(*K, "via");
    if (std::string D = printableName(*K, "detail"); !D.empty())
      OS << ": " << D;
    OS << ")\n";
  }
  if (int64_t N = O.getInteger("triedNotListed").value_or(0))
    OS.indent(Indent) << "- and " << N << " more not listed (the bound of --why)\n";
}

std::vector<std::string> stringsOf(const json::Object &O, StringRef Key) {
  std::vector<std::string> Out;
  if (const json::Array *A = O.getArray(Key))
    for (const json::Value &V : *A)
      Out.push_back(V.getAsString().value_or("").str());
  return Out;
}

std::string coloured(StringRef Word) {
  static const bool Colour = [] {
    const char *NoColor = std::getenv("NO_COLOR");
    const char *Term = std::getenv("TERM");
    return ::isatty(STDOUT_FILENO) && (!NoColor || !*NoColor) &&
           !(Term && StringRef(Term) == "dumb");
  }();
  if (!Colour)
    return Word.str();
  // Red for what fails, green for what holds, yellow for the rest.
  const char *Code = StringSwitch<const char *>(Word)
                         .Cases("violation", "broken", "incomplete", "load-failed",
                                "\x1b[1;31m")
                         .Case("holds", "\x1b[1;32m")
                         .Default("\x1b[1;33m");
  return Code + Word.str() + "\x1b[0m";
}

std::string str(const json::Object &O, StringRef Key) {
  if (std::optional<StringRef> S = O.getString(Key))
    return S->str();
  return "";
}

} // namespace linkguard::commands
