// Option parsing and the reference's argument validation (docs/reference/command-line.md#options to
// #argument-validation).
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "profdiff/cli/options.h"

namespace profdiff::cli {
namespace {

std::vector<std::string> Base(std::vector<std::string> extra = {}) {
  std::vector<std::string> a = {"-d", "cmp.json", "-bp", "base.json"};
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

std::string ErrorOf(const std::vector<std::string>& args) {
  auto r = ParseCompareArgs(args);
  EXPECT_FALSE(r.ok());
  if (r.ok()) return "";
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  return r.status().message();
}

// --format json prints the whole answer on stdout: a workbook only when -o asks for one (issue 34).
TEST(CompareArgs, JsonOnStdoutWritesAWorkbookOnlyWithOutputPath) {
  auto json_only = ParseCompareArgs(Base({"--format", "json"}));
  ASSERT_TRUE(json_only.ok()) << json_only.status().ToString();
  EXPECT_TRUE(json_only->no_xlsx);
  auto with_o = ParseCompareArgs(Base({"--format", "json", "-o", "out"}));
  ASSERT_TRUE(with_o.ok()) << with_o.status().ToString();
  EXPECT_FALSE(with_o->no_xlsx);
  auto text = ParseCompareArgs(Base({"--format", "text"}));
  ASSERT_TRUE(text.ok()) << text.status().ToString();
  EXPECT_FALSE(text->no_xlsx);
}

TEST(CompareArgs, Defaults) {
  auto r = ParseCompareArgs(Base());
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const CompareOptions& o = *r;
  EXPECT_EQ(o.comparison_path, "cmp.json");
  EXPECT_EQ(o.base_path, "base.json");
  EXPECT_EQ(o.output_path, "");
  EXPECT_FALSE(o.requested.any());
  // No --enable_* flag: all six comparisons
  // (docs/reference/command-line.md#default-comparison-set).
  EXPECT_TRUE(o.enabled.profiling && o.enabled.operators && o.enabled.memory && o.enabled.communication &&
              o.enabled.api && o.enabled.kernel);
  EXPECT_FALSE(o.max_kernel_num.has_value());
  EXPECT_TRUE(o.op_name_map.empty());
  EXPECT_EQ(o.gpu_flow_cat, "");
  EXPECT_EQ(o.base_step, kVoidStep);
  EXPECT_EQ(o.comparison_step, kVoidStep);
  EXPECT_FALSE(o.force);
  EXPECT_FALSE(o.disable_details);
  EXPECT_FALSE(o.disable_module);
  EXPECT_FALSE(o.use_input_shape);
  EXPECT_FALSE(o.use_kernel_type);
  EXPECT_EQ(o.format, OutputFormat::kText);
  EXPECT_EQ(o.color, ColorMode::kAuto);
  EXPECT_FALSE(o.any_gate());
  EXPECT_DOUBLE_EQ(o.noise_floor_ms, 0.05);
  EXPECT_FALSE(o.no_xlsx || o.reference_line || o.strict || o.quiet);
  EXPECT_TRUE(o.warnings.empty());
}

TEST(CompareArgs, LongNamesAndAllFlags) {
  auto r = ParseCompareArgs({"--profiling_path", "c", "--benchmark_profiling_path", "b", "--output_path", "o",
                             "--enable_profiling_compare", "--enable_operator_compare", "--disable_details",
                             "--disable_module", "--max_kernel_num", "10", "--use_input_shape",
                             "--gpu_flow_cat", "async", "--use_kernel_type", "--force", "--format", "json",
                             "--json", "r.json", "--no-xlsx", "--csv", "csvdir", "--reference-compat",
                             "--strict", "-q", "--color", "never", "--gate-e2e", "5", "--gate-compute",
                             "1.5", "--gate-comm", "2", "--gate-free", "3", "--noise-floor-ms", "0.2"});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const CompareOptions& o = *r;
  EXPECT_EQ(o.comparison_path, "c");
  EXPECT_EQ(o.base_path, "b");
  EXPECT_EQ(o.output_path, "o");
  EXPECT_TRUE(o.requested.profiling && o.requested.operators);
  EXPECT_FALSE(o.requested.memory || o.requested.communication || o.requested.api || o.requested.kernel);
  EXPECT_TRUE(o.enabled.profiling && o.enabled.operators);
  EXPECT_FALSE(o.enabled.memory || o.enabled.kernel);
  EXPECT_EQ(o.max_kernel_num, 10);
  EXPECT_EQ(o.gpu_flow_cat, "async");
  EXPECT_TRUE(o.disable_details && o.disable_module && o.use_input_shape && o.use_kernel_type && o.force);
  EXPECT_EQ(o.format, OutputFormat::kJson);
  EXPECT_EQ(o.json_path, "r.json");
  EXPECT_EQ(o.csv_dir, "csvdir");
  EXPECT_TRUE(o.no_xlsx && o.reference_line && o.strict && o.quiet);
  EXPECT_EQ(o.color, ColorMode::kNever);
  EXPECT_EQ(o.gate_e2e_pct, 5.0);
  EXPECT_EQ(o.gate_compute_pct, 1.5);
  EXPECT_EQ(o.gate_comm_pct, 2.0);
  EXPECT_EQ(o.gate_free_pct, 3.0);
  EXPECT_DOUBLE_EQ(o.noise_floor_ms, 0.2);
  EXPECT_TRUE(o.any_gate());
  // --use_kernel_type without kernel comparison enabled: the reference's warning (rule 6).
  ASSERT_EQ(o.warnings.size(), 1u);
  EXPECT_NE(o.warnings[0].find("use_kernel_type parameter is invalid"), std::string::npos);
}

TEST(CompareArgs, BpEqualsFormAndPathPreprocessing) {
  auto r = ParseCompareArgs({"-d==/tmp/c", "-bp=/tmp/b", "-o", "==/tmp/o"});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->comparison_path, "/tmp/c");  // leading '=' run stripped
  EXPECT_EQ(r->base_path, "/tmp/b");
  EXPECT_EQ(r->output_path, "/tmp/o");
  EXPECT_EQ(PreprocessPathArg("==x"), "x");
  const char* home = std::getenv("HOME");
  if (home != nullptr && *home != '\0') {
    EXPECT_EQ(PreprocessPathArg("~/p"), std::string(home) + "/p");
  }
  EXPECT_EQ(PreprocessPathArg("a~b"), "a~b");
}

TEST(CompareArgs, KernelEnabledNoUseKernelTypeWarning) {
  auto r = ParseCompareArgs(Base({"--enable_kernel_compare", "--use_kernel_type"}));
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->warnings.empty());
  // With no --enable flag all comparisons run, kernel included: no warning either.
  auto r2 = ParseCompareArgs(Base({"--use_kernel_type"}));
  ASSERT_TRUE(r2.ok());
  EXPECT_TRUE(r2->warnings.empty());
}

TEST(CompareArgs, MissingRequiredAndUnknownOptions) {
  EXPECT_NE(ErrorOf({"-d", "x"}).find("benchmark_profiling_path"), std::string::npos);
  EXPECT_NE(ErrorOf({"-bp", "x"}).find("profiling_path"), std::string::npos);
  EXPECT_FALSE(ParseCompareArgs(Base({"--no_such_flag"})).ok());
  EXPECT_FALSE(ParseCompareArgs(Base({"--max_kernel_num", "ten"})).ok());  // not an integer
  EXPECT_FALSE(ParseCompareArgs(Base({"--format", "xml"})).ok());
  EXPECT_FALSE(ParseCompareArgs(Base({"--color", "sometimes"})).ok());
  EXPECT_FALSE(ParseCompareArgs(Base({"--gate-e2e", "abc"})).ok());
}

TEST(CompareArgs, Rule1MaxKernelNum) {
  EXPECT_EQ(ErrorOf(Base({"--max_kernel_num=3"})), "Invalid param, --max_kernel_num has to be greater than 3");
  EXPECT_EQ(ErrorOf(Base({"--max_kernel_num=-5"})), "Invalid param, --max_kernel_num has to be greater than 3");
  auto r = ParseCompareArgs(Base({"--max_kernel_num=4"}));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->max_kernel_num, 4);
}

TEST(CompareArgs, Rules2To4OpNameMap) {
  const std::string not_dict =
      "Invalid param, --op_name_map must be dict, for example: --op_name_map={'name1':'name2'}";
  const std::string not_str = "Invalid param, key/value in --op_name_map must be string";
  const std::string too_long =
      "Invalid param, the length of key/value in --op_name_map exceeded the maximum value 200";
  EXPECT_EQ(ErrorOf(Base({"--op_name_map=[1]"})), not_dict);
  EXPECT_EQ(ErrorOf(Base({"--op_name_map='a'"})), not_dict);
  EXPECT_EQ(ErrorOf(Base({"--op_name_map=1"})), not_dict);
  EXPECT_EQ(ErrorOf(Base({"--op_name_map={'a', 'b'}"})), not_dict);  // a set
  EXPECT_EQ(ErrorOf(Base({"--op_name_map={'a':1}"})), not_str);
  EXPECT_EQ(ErrorOf(Base({"--op_name_map={1:'a'}"})), not_str);
  EXPECT_EQ(ErrorOf(Base({"--op_name_map={\"a\": null}"})), not_str);
  EXPECT_EQ(ErrorOf(Base({"--op_name_map={'a':'" + std::string(201, 'x') + "'}"})), too_long);
  // A non-string is reported before a too-long string (rule 3 before rule 4).
  EXPECT_EQ(ErrorOf(Base({"--op_name_map={'" + std::string(201, 'x') + "':'b', 'c': 2}"})), not_str);
  // Not a literal at all: a parse error naming the option.
  EXPECT_NE(ErrorOf(Base({"--op_name_map=abc"})).find("Invalid value for '--op_name_map': abc"),
            std::string::npos);
  EXPECT_FALSE(ParseOpNameMap("{'a':'b'").ok());
  EXPECT_FALSE(ParseOpNameMap("{'a' 'b'}").ok());
  EXPECT_FALSE(ParseOpNameMap("").ok());

  // Accepted forms: JSON and the Python dict form, escapes, 200 characters exactly (code points).
  auto py = ParseOpNameMap("{'Optimizer.step#SGD.step':'Optimizer.step#NpuFusedSGD.step', }");
  ASSERT_TRUE(py.ok());
  EXPECT_EQ(py->at("Optimizer.step#SGD.step"), "Optimizer.step#NpuFusedSGD.step");
  auto js = ParseOpNameMap(R"( {"a": "b", "c\n": "\u00e9"} )");
  ASSERT_TRUE(js.ok());
  EXPECT_EQ(js->at("a"), "b");
  EXPECT_EQ(js->at("c\n"), "\xc3\xa9");
  auto max = ParseOpNameMap("{'k':'" + std::string(200, 'y') + "'}");
  EXPECT_TRUE(max.ok());
  std::string e200;
  for (int i = 0; i < 200; ++i) e200 += "\xc3\xa9";  // 200 characters, 400 bytes
  EXPECT_TRUE(ParseOpNameMap("{'k':'" + e200 + "'}").ok());
  auto empty = ParseOpNameMap("{}");
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->empty());
  auto r = ParseCompareArgs(Base({"--op_name_map", "{'x':'y', \"p\": 'q'}"}));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->op_name_map.size(), 2u);
  EXPECT_EQ(r->op_name_map.at("p"), "q");
}

TEST(CompareArgs, Rule5GpuFlowCat) {
  EXPECT_EQ(ErrorOf(Base({"--gpu_flow_cat=" + std::string(21, 'a')})),
            "Invalid param, --gpu_flow_cat exceeded the maximum value 20");
  EXPECT_TRUE(ParseCompareArgs(Base({"--gpu_flow_cat=" + std::string(20, 'a')})).ok());
}

TEST(CompareArgs, Rule7Steps) {
  const std::string number = "Invalid param, base_step and comparison_step must be a number.";
  const std::string together = "Invalid param, base_step and comparison_step must be set at the same time.";
  EXPECT_EQ(ErrorOf(Base({"--base_step=a", "--comparison_step=1"})), number);
  EXPECT_EQ(ErrorOf(Base({"--base_step=1", "--comparison_step=-1"})), number);  // negatives rejected
  EXPECT_EQ(ErrorOf(Base({"--base_step=1.5", "--comparison_step=1"})), number);
  EXPECT_EQ(ErrorOf(Base({"--base_step=9"})), together);
  EXPECT_EQ(ErrorOf(Base({"--comparison_step=9"})), together);
  EXPECT_FALSE(ParseCompareArgs(Base({"--base_step=99999999999999999999999", "--comparison_step=1"})).ok());
  auto r = ParseCompareArgs(Base({"--base_step=50", "--comparison_step", "7"}));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->base_step, 50);
  EXPECT_EQ(r->comparison_step, 7);
}

TEST(CompareArgs, ValidationOrderFollowsTheReference) {
  // Every rule broken at once: rule 1 is reported; then remove one violation at a time.
  std::vector<std::string> all = {"--max_kernel_num=1", "--op_name_map=[1]", "--gpu_flow_cat=" + std::string(30, 'c'),
                                  "--base_step=x"};
  EXPECT_EQ(ErrorOf(Base(all)), "Invalid param, --max_kernel_num has to be greater than 3");
  all.erase(all.begin());
  EXPECT_NE(ErrorOf(Base(all)).find("--op_name_map must be dict"), std::string::npos);
  all.erase(all.begin());
  EXPECT_NE(ErrorOf(Base(all)).find("--gpu_flow_cat exceeded"), std::string::npos);
  all.erase(all.begin());
  EXPECT_NE(ErrorOf(Base(all)).find("must be set at the same time"), std::string::npos);
}

TEST(CompareArgs, GateValues) {
  EXPECT_FALSE(ParseCompareArgs(Base({"--gate-e2e=-1"})).ok());
  EXPECT_FALSE(ParseCompareArgs(Base({"--noise-floor-ms=-0.1"})).ok());
  auto r = ParseCompareArgs(Base({"--gate-e2e=0"}));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->gate_e2e_pct, 0.0);
  EXPECT_FALSE(r->gate_comm_pct.has_value());
}

TEST(CompareArgs, ReferenceCompatLine) {
  using analysis::ReferenceLine;
  EXPECT_FALSE(ParseCompareArgs(Base())->reference_line.has_value());  // exact
  const std::pair<std::vector<std::string>, ReferenceLine> cases[] = {
      {{"--reference-compat"}, ReferenceLine::k26_1},  // the bare flag: the current line
      {{"--reference-compat=26.1"}, ReferenceLine::k26_1},
      {{"--reference-compat=8.2"}, ReferenceLine::k8_2},
      {{"--reference-compat=8.2.0"}, ReferenceLine::k8_2},
      {{"--reference-compat", "8.2"}, ReferenceLine::k8_2},
  };
  for (const auto& [args, line] : cases) {
    auto r = ParseCompareArgs(Base(args));
    ASSERT_TRUE(r.ok()) << args[0] << ": " << r.status().ToString();
    EXPECT_EQ(r->reference_line, line) << args[0];
  }
}

TEST(CompareArgs, ReferenceCompatDoesNotTakeTheNextFlagAsItsLine) {
  auto r = ParseCompareArgs({"-d", "c", "--reference-compat", "-bp", "b", "--reference-compat", "--force"});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->reference_line, analysis::ReferenceLine::k26_1);
  EXPECT_EQ(r->base_path, "b");
  EXPECT_TRUE(r->force);
  // Given twice, the last one counts.
  r = ParseCompareArgs(Base({"--reference-compat=8.2", "--reference-compat"}));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->reference_line, analysis::ReferenceLine::k26_1);
}

TEST(CompareArgs, ReferenceCompatUnknownLineNamesTheValidLines) {
  for (const char* line : {"9.0", "26", "8.2.1", "latest"}) {
    std::string msg = ErrorOf(Base({std::string("--reference-compat=") + line}));
    EXPECT_NE(msg.find(std::string("--reference-compat=") + line), std::string::npos) << msg;
    EXPECT_NE(msg.find("valid lines: 26.1"), std::string::npos) << msg;
    EXPECT_NE(msg.find("and 8.2"), std::string::npos) << msg;
  }
  EXPECT_EQ(ParseReferenceCompatLine("").value(), analysis::ReferenceLine::k26_1);
  EXPECT_FALSE(ParseReferenceCompatLine("8").ok());
}

}  // namespace
}  // namespace profdiff::cli
