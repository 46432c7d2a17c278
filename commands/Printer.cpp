//===- Printer.cpp - the JSON and text backends ----------------------------===//
#include "commands/Printer.h"

#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

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

std::string printable(StringRef Name) {
  std::string Out;
  Out.reserve(Name.size());
  raw_string_ostream OS(Out);
  const auto *P = reinterpret_cast<const UTF8 *>(Name.begin());
  const auto *End = reinterpret_cast<const UTF8 *>(Name.end());
  while (P < End) {
    UTF8 C = *P;
    if (C >= 0x80) {
      unsigned N = getNumBytesForUTF8(C);
      bool C1 = C == 0xC2 && End - P >= 2 && P[1] < 0xA0;
      if (N <= static_cast<size_t>(End - P) && isLegalUTF8Sequence(P, P + N) && !C1) {
        OS << StringRef(reinterpret_cast<const char *>(P), N);
        P += N;
        continue;
      }
    }
    ++P;
    if (C == '\\')
      OS << "\\\\";
    else if (C == '\n')
      OS << "\\n";
    else if (C == '\t')
      OS << "\\t";
    else if (C == '\r')
      OS << "\\r";
    else if (C < 0x20 || C >= 0x7F)
      OS << "\\x" << format_hex_no_prefix(C, 2);
    else
      OS << char(C);
  }
  return Out;
}

void putName(json::Object &O, StringRef Key, StringRef Raw) {
  if (json::isUTF8(Raw)) {
    O[Key] = Raw.str();
    return;
  }
  O[Key] = json::fixUTF8(Raw);
  O[(Key + "Escaped").str()] = printable(Raw);
}

std::string printableName(const json::Object &O, StringRef Key) {
  if (std::optional<StringRef> Exact = O.getString((Key + "Escaped").str()))
    return Exact->str();
  return printable(str(O, Key));
}

std::vector<std::string> stringsOf(const json::Object &O, StringRef Key) {
  std::vector<std::string> Out;
  if (const json::Array *A = O.getArray(Key))
    for (const json::Value &V : *A)
      Out.push_back(V.getAsString().value_or("").str());
  return Out;
}

std::string str(const json::Object &O, StringRef Key) {
  if (std::optional<StringRef> S = O.getString(Key))
    return S->str();
  return "";
}

} // namespace linkguard::commands
