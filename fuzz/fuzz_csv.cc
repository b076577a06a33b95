// Fuzzes the Ascend CSV side-file loaders (kernel_details, op_statistic, operator_memory,
// memory_record, step_trace_time) with arbitrary bytes: every loader reads the same input. Any
// outcome is fine except a crash, a sanitizer report, a hang or an exception escaping.
#include <cstddef>
#include <cstdint>

#include "fuzz_util.h"
#include "profdiff/loaders/ascend_side_files.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string& path = profdiff::fuzz::WriteTempFile(data, size, ".csv");
  const profdiff::FileLoader* loaders[] = {
      &profdiff::KernelDetailsCsvLoader(), &profdiff::OpStatisticCsvLoader(),
      &profdiff::OperatorMemoryCsvLoader(), &profdiff::MemoryRecordCsvLoader(),
      &profdiff::StepTraceTimeCsvLoader(),
  };
  // The file loaders ignore LoadOptions::strict (LoadProfile applies it), so one load each.
  for (const profdiff::FileLoader* loader : loaders) {
    profdiff::Profile profile;
    profdiff::Status s = loader->Load(path, profile, profdiff::LoadOptions{});
    (void)s;
  }
  return 0;
}
