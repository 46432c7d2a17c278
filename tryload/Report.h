//===- Report.h - what linkguard-loader said, as plain data ------*- C++
//-*-===//
//
// linkguard-loader (loader/Loader.c) writes one record per line on file
// descriptor 3, each field "LENGTH:BYTES" so that a path may hold any byte.
// parseLoaderReport turns that text into a LoaderReport; a report cut short
// (the loader died in a constructor or in the called function) parses up to
// where it stops, and says so (Complete == false).
//
// The library under test runs in the process that writes this report and
// can write to the same descriptor: the report is that process's word, a
// cross-check of what the parent reads itself (tryload/Outcome.h), never
// the verdict's only ground.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "contract/LoadedImages.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace linkguard::tryload {

enum class HideState { NotAsked, Hidden, Unavailable, Failed };
enum class LoadState { NotReached, Loaded, Failed };
enum class CallState { NotAsked, Returned, Missing };

struct LoaderReport {
  HideState Hide = HideState::NotAsked;
  std::vector<std::string> Hidden; // paths hidden, in order
  std::string HideProblem;         // unavailable / failed: why
  std::string HideFailedPath;      // failed: which path

  /// Images mapped before dlopen: the loader's own, and anything the
  /// environment preloaded.
  std::vector<contract::LoadedImage> Baseline;
  LoadState Load = LoadState::NotReached;
  std::string LoadError; // dlerror(), the loader's own words
  /// Images mapped after dlopen, and after the call when there was one.
  std::vector<contract::LoadedImage> AfterLoad, AfterCall;
  CallState Call = CallState::NotAsked;
  int CallStatus = 0;
  std::string CallError;
  bool Complete = false; // the "end" record was seen

  /// The last list: after the call if it returned (and the loader lived
  /// to list them), else after the load.
  const std::vector<contract::LoadedImage> &finalImages() const {
    return Call == CallState::Returned && !AfterCall.empty() ? AfterCall
                                                             : AfterLoad;
  }
};

/// Parses the loader's report. A malformed record, a record out of order
/// (an image before the load, a second load, anything after "end") is an
/// error: the caller fails closed. A missing tail is not an error.
llvm::Expected<LoaderReport> parseLoaderReport(llvm::StringRef Text);

} // namespace linkguard::tryload
