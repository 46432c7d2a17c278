//===- Report.cpp - parse linkguard-loader's records ----------------------===//
#include "tryload/Report.h"

using namespace llvm;

namespace linkguard::tryload {
namespace {

Error bad(const Twine &Why) {
  return createStringError(inconvertibleErrorCode(),
                           "linkguard-loader's report: " + Why);
}

/// Splits one record ("4:load 2:ok") into its fields.
Expected<std::vector<std::string>> fields(StringRef &Text) {
  std::vector<std::string> Out;
  while (!Text.empty()) {
    size_t Colon = Text.find(':');
    size_t Len = 0;
    if (Colon == StringRef::npos ||
        Text.take_front(Colon).getAsInteger(10, Len))
      return bad("a field without a length");
    if (Len > Text.size() - Colon - 1)
      return bad("a field longer than the report");
    Out.push_back(Text.substr(Colon + 1, Len).str());
    Text = Text.drop_front(Colon + 1 + Len);
    if (Text.empty())
      return bad("a record without its end");
    char Sep = Text.front();
    Text = Text.drop_front();
    if (Sep == '\n')
      return Out;
    if (Sep != ' ')
      return bad("a field followed by '" + Twine(Sep) + "'");
  }
  return Out;
}

} // namespace

Expected<LoaderReport> parseLoaderReport(StringRef Text) {
  LoaderReport R;
  while (!Text.empty()) {
    if (R.Complete)
      return bad("records after its end");
    // A record the loader had no time to finish (it died) ends the report.
    if (!Text.contains('\n'))
      break;
    Expected<std::vector<std::string>> F = fields(Text);
    if (!F)
      return F.takeError();
    const std::vector<std::string> &V = *F;
    auto need = [&](size_t N) -> Error {
      if (V.size() != N)
        return bad("'" + V[0] + "' with " + Twine(V.size()) + " fields");
      return Error::success();
    };
    if (V.empty())
      return bad("an empty record");
    StringRef Kind = V[0];
    if (Kind == "end") {
      if (Error E = need(1))
        return std::move(E);
      R.Complete = true;
    } else if (Kind == "baseline") {
      if (Error E = need(3))
        return std::move(E);
      if (R.Load != LoadState::NotReached)
        return bad("a baseline image after the load");
      R.Baseline.push_back({V[1], V[2]});
    } else if (Kind == "image") {
      if (Error E = need(4))
        return std::move(E);
      if (R.Load != LoadState::Loaded ||
          (V[1] == "called") != (R.Call == CallState::Returned) ||
          (V[1] != "called" && V[1] != "loaded"))
        return bad("an image '" + V[1] + "' out of place");
      (V[1] == "called" ? R.AfterCall : R.AfterLoad).push_back({V[2], V[3]});
    } else if (Kind == "load" && R.Load != LoadState::NotReached) {
      return bad("a second load");
    } else if (Kind == "load" && V.size() == 2 && V[1] == "ok") {
      R.Load = LoadState::Loaded;
    } else if (Kind == "load") {
      if (Error E = need(3))
        return std::move(E);
      R.Load = LoadState::Failed;
      R.LoadError = V[2];
    } else if (Kind == "call") {
      if (Error E = need(3))
        return std::move(E);
      if (R.Load != LoadState::Loaded || R.Call != CallState::NotAsked)
        return bad("a call record out of place");
      if (V[1] == "ok") {
        R.Call = CallState::Returned;
        if (StringRef(V[2]).getAsInteger(10, R.CallStatus))
          return bad("a call status '" + V[2] + "'");
      } else {
        R.Call = CallState::Missing;
        R.CallError = V[2];
      }
    } else if (Kind == "hide" && V.size() >= 3) {
      if (R.Load != LoadState::NotReached || !R.Baseline.empty())
        return bad("a hide record after the load began");
      StringRef State = V[1];
      if (State == "ok") {
        R.Hide = HideState::Hidden;
        R.Hidden.push_back(V[2]);
      } else if (State == "unavailable") {
        R.Hide = HideState::Unavailable;
        R.HideProblem = V[2];
      } else {
        if (Error E = need(4))
          return std::move(E);
        R.Hide = HideState::Failed;
        R.HideFailedPath = V[2];
        R.HideProblem = V[3];
      }
    } else {
      return bad("an unknown record '" + Kind + "'");
    }
  }
  return R;
}

} // namespace linkguard::tryload
