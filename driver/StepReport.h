//===- StepReport.h - LINKGUARD_REPORT, the build's record -------*- C++ -*-===//
//
// cpp_builder captures a step's stdout and stderr and shows them only when
// the step fails; a wall-clock pair of builds is too noisy to read
// linkguard's cost from (zstd `make -j2` pairs range 0.95-1.24). With
// LINKGUARD_REPORT=FILE each step appends one JSON line (schema
// linkguard-report/1, docs/report.md): what ran, the rules' decision, the
// verdict, and linkguard's own CPU time (CLOCK_PROCESS_CPUTIME_ID) before
// it handed over to the compiler, plus the verify time after a link.
// `linkguard report FILE` sums them, as `ccache -s` does for a cache.
//
// One write(2) of the whole line to a descriptor opened with O_APPEND:
// parallel steps append whole lines. Unset, nothing of this runs.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "config/Config.h"
#include "driver/Job.h"
#include "driver/Plan.h"
#include "driver/VerifyOutput.h"

#include <optional>

namespace linkguard::driver {

/// linkguard's own CPU time so far, in microseconds (CLOCK_PROCESS_CPUTIME_ID:
/// this process only, never the compiler it waits for).
long long processCpuMicros();

struct StepRecord {
  long long CpuMicros = 0;             // before the exec or the spawn
  std::optional<long long> VerifyCpuMicros; // reading and judging the output
  std::optional<int> CompilerStatus;   // the compiler's status (spawned steps)
  std::optional<VerifyResult> Verify;  // a spawned link that finished
  std::optional<int> Status;           // linkguard's exit status, when known
};

/// The record's line for one step (no newline).
std::string stepRecordLine(const Job &J, const Plan &P, const StepRecord &R);

/// Appends the line for one step to Cfg.ReportFile (nothing when unset). A
/// file that cannot be written is said once on stderr; the step goes on.
void appendStepRecord(const config::Config &Cfg, const Job &J, const Plan &P,
                      const StepRecord &R);

} // namespace linkguard::driver
