// RankSummary <-> JSON (summary_codec.h). Each struct's fields are listed once, as a tuple of
// member pointers (Schema<T>::kFields, in declaration order), which both directions walk: a field
// cannot be written and not read. The lists are checked against the structs at compile time (their
// field count everywhere, their size on x86-64 libstdc++), so a field added to a struct breaks the
// build until it is listed here.
#include "profdiff/analysis/cluster/summary_codec.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "profdiff/model/cluster_db_tables.h"
#include "profdiff/model/enums.h"

namespace profdiff::analysis {
namespace {

using J = nlohmann::ordered_json;

// ---- The field lists ---------------------------------------------------------------------------

template <class S, class M>
struct Field {
  const char* name;
  M S::*member;
};
template <class S, class M>
constexpr Field<S, M> F(const char* name, M S::*member) {
  return {name, member};
}

template <class T>
struct Schema;  // kFields: the serialized fields of T, in declaration order

template <>
struct Schema<RankStep> {
  static constexpr auto kFields =
      std::make_tuple(F("step", &RankStep::step), F("values_ns", &RankStep::values_ns),
                      F("values_us_float", &RankStep::values_us_float), F("step_time_ns", &RankStep::step_time_ns));
};
template <>
struct Schema<RankCollective> {
  using C = RankCollective;
  static constexpr auto kFields = std::make_tuple(
      F("group", &C::group), F("name", &C::name), F("start_ns", &C::start_ns), F("end_ns", &C::end_ns),
      F("source_group", &C::source_group), F("seq", &C::seq), F("step", &C::step), F("transport", &C::transport),
      F("size_mb", &C::size_mb), F("bandwidth_gbps", &C::bandwidth_gbps), F("lead_in_busy_ns", &C::lead_in_busy_ns),
      F("lead_in_idle_ns", &C::lead_in_idle_ns), F("lead_in_top", &C::lead_in_top),
      F("lead_in_top_ns", &C::lead_in_top_ns));
};
template <>
struct Schema<CommunicationGroupSplit> {
  using G = CommunicationGroupSplit;
  static constexpr auto kFields =
      std::make_tuple(F("group", &G::group), F("uncovered_ns", &G::uncovered_ns), F("transmit_ns", &G::transmit_ns),
                      F("wait_ns", &G::wait_ns), F("idle_ns", &G::idle_ns));
};
template <>
struct Schema<CommunicationOpRecord> {
  using R = CommunicationOpRecord;
  static constexpr auto kFields = std::make_tuple(F("step", &R::step), F("type", &R::type), F("name", &R::name),
                                                  F("value_json", &R::value_json));
};
template <>
struct Schema<CommunicationOpRecords> {
  using R = CommunicationOpRecords;
  static constexpr auto kFields =
      std::make_tuple(F("present", &R::present), F("ops", &R::ops), F("skipped", &R::skipped));
};
template <>
struct Schema<RankTimeStep> {
  using S = RankTimeStep;
  static constexpr auto kFields =
      std::make_tuple(F("step", &S::step), F("step_time_ns", &S::step_time_ns), F("memory_ns", &S::memory_ns),
                      F("memory_not_overlap_ns", &S::memory_not_overlap_ns));
};
template <>
struct Schema<RankCommOpTime> {
  using O = RankCommOpTime;
  static constexpr auto kFields =
      std::make_tuple(F("group", &O::group), F("name", &O::name), F("step", &O::step), F("dur_ns", &O::dur_ns));
};
template <>
struct Schema<RankTimeInputs> {
  using T = RankTimeInputs;
  static constexpr auto kFields =
      std::make_tuple(F("present", &T::present), F("has_comm_ops", &T::has_comm_ops),
                      F("has_comm_groups", &T::has_comm_groups), F("steps", &T::steps), F("comm_ops", &T::comm_ops));
};
template <>
struct Schema<SqlRows> {
  static constexpr auto kFields =
      std::make_tuple(F("present", &SqlRows::present), F("columns", &SqlRows::columns), F("rows", &SqlRows::rows));
};
template <>
struct Schema<DbParallelGroup> {
  using G = DbParallelGroup;
  static constexpr auto kFields =
      std::make_tuple(F("group_id", &G::group_id), F("pg_name", &G::pg_name), F("global_ranks", &G::global_ranks));
};
template <>
struct Schema<ClusterDbTables> {
  using D = ClusterDbTables;
  static constexpr auto kFields = std::make_tuple(
      F("present", &D::present), F("has_analysis_db", &D::has_analysis_db), F("comm_time", &D::comm_time),
      F("comm_bandwidth", &D::comm_bandwidth), F("comm_matrix", &D::comm_matrix), F("host_info", &D::host_info),
      F("rank_device_map", &D::rank_device_map), F("has_parallel_group_info", &D::has_parallel_group_info),
      F("parallel_groups", &D::parallel_groups), F("distributed_args_json", &D::distributed_args_json),
      F("notes", &D::notes));
};
template <>
struct Schema<RankSummary> {
  using R = RankSummary;
  static constexpr auto kFields = std::make_tuple(
      F("rank", &R::rank), F("world_size", &R::world_size), F("export_kind", &R::export_kind),
      F("source_path", &R::source_path), F("device", &R::device), F("step_source", &R::step_source),
      F("columns", &R::columns), F("steps", &R::steps), F("groups", &R::groups), F("collectives", &R::collectives),
      F("kernel_names", &R::kernel_names), F("communication_ops", &R::communication_ops),
      F("matrix_ops", &R::matrix_ops), F("time", &R::time), F("db_tables", &R::db_tables),
      F("parallel_group_names", &R::parallel_group_names), F("parallel_group_ranks", &R::parallel_group_ranks),
      F("distributed_args_json", &R::distributed_args_json), F("missing", &R::missing), F("notes", &R::notes));
};

template <class T>
concept Listed = requires { Schema<T>::kFields; };

// ---- The lists checked against the structs -----------------------------------------------------

// The number of fields of an aggregate: the most initialisers T{...} takes (each member converts
// from AnyField; none of these structs has a base or a member that brace elision would split).
struct AnyField {
  template <class U>
  operator U() const;  // NOLINT: unevaluated only
};
template <size_t>
using AnyFieldAt = AnyField;
template <class T, size_t... I>
constexpr bool InitializesWith(std::index_sequence<I...>) {
  return requires { T{AnyFieldAt<I>{}...}; };
}
template <class T, size_t N = 0>
constexpr size_t FieldCount() {
  if constexpr (!InitializesWith<T>(std::make_index_sequence<N + 1>{})) {
    return N;
  } else {
    return FieldCount<T, N + 1>();
  }
}

#define PD_FIELD_ADDED_ "a field was added: write it in summary_codec.cc and bump RankSummary::kVersion"
template <class T>
constexpr bool AllListed() {
  return std::tuple_size_v<decltype(Schema<T>::kFields)> == FieldCount<T>();
}
static_assert(AllListed<RankSummary>(), PD_FIELD_ADDED_);
static_assert(AllListed<RankStep>(), PD_FIELD_ADDED_);
static_assert(AllListed<RankCollective>(), PD_FIELD_ADDED_);
static_assert(AllListed<CommunicationGroupSplit>(), PD_FIELD_ADDED_);
static_assert(AllListed<CommunicationOpRecord>(), PD_FIELD_ADDED_);
static_assert(AllListed<CommunicationOpRecords>(), PD_FIELD_ADDED_);
static_assert(AllListed<RankTimeInputs>(), PD_FIELD_ADDED_);
static_assert(AllListed<RankTimeStep>(), PD_FIELD_ADDED_);
static_assert(AllListed<RankCommOpTime>(), PD_FIELD_ADDED_);
static_assert(AllListed<ClusterDbTables>(), PD_FIELD_ADDED_);
static_assert(AllListed<SqlRows>(), PD_FIELD_ADDED_);
static_assert(AllListed<DbParallelGroup>(), PD_FIELD_ADDED_);
static_assert(FieldCount<SqlValue>() == 4, PD_FIELD_ADDED_ " (SqlValue: Encode and Decode of a SqlValue)");
// A member whose type changes keeps the count: the sizes catch most of that (this platform only).
#if defined(__x86_64__) && defined(__GLIBCXX__)
static_assert(sizeof(RankSummary) == 928, PD_FIELD_ADDED_);
static_assert(sizeof(RankStep) == 88, PD_FIELD_ADDED_);
static_assert(sizeof(RankCollective) == 232, PD_FIELD_ADDED_);
static_assert(sizeof(CommunicationGroupSplit) == 64, PD_FIELD_ADDED_);
static_assert(sizeof(CommunicationOpRecord) == 128, PD_FIELD_ADDED_);
static_assert(sizeof(CommunicationOpRecords) == 56, PD_FIELD_ADDED_);
static_assert(sizeof(RankTimeInputs) == 56, PD_FIELD_ADDED_);
static_assert(sizeof(RankTimeStep) == 32, PD_FIELD_ADDED_);
static_assert(sizeof(RankCommOpTime) == 56, PD_FIELD_ADDED_);
static_assert(sizeof(ClusterDbTables) == 376, PD_FIELD_ADDED_);
static_assert(sizeof(SqlRows) == 56, PD_FIELD_ADDED_);
static_assert(sizeof(SqlValue) == 56, PD_FIELD_ADDED_);
static_assert(sizeof(DbParallelGroup) == 88, PD_FIELD_ADDED_);
#endif
#undef PD_FIELD_ADDED_

// ---- Scalars -----------------------------------------------------------------------------------

constexpr std::string_view kBytesHex = "bytes_hex";  // {"bytes_hex": "..."}: a string not UTF-8
constexpr std::string_view kNanBitsPrefix = "nan:0x";  // a NaN other than the default quiet one
constexpr std::string_view kRealKey = "real";  // {"real": ...}: a SqlValue REAL that is not finite
const uint64_t kDefaultNanBits = std::bit_cast<uint64_t>(std::numeric_limits<double>::quiet_NaN());

// Well-formed UTF-8 (Unicode table 3-7: no overlong form, surrogate or code point past U+10FFFF),
// what nlohmann's dump() accepts.
bool IsUtf8(std::string_view s) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  for (size_t i = 0; i < s.size();) {
    const unsigned char b = byte(i);
    if (b < 0x80) {
      ++i;
      continue;
    }
    const size_t len = b >= 0xC2 && b <= 0xDF ? 2 : b >= 0xE0 && b <= 0xEF ? 3 : b >= 0xF0 && b <= 0xF4 ? 4 : 0;
    // The second byte's range: narrower after E0 (overlong), ED (surrogates), F0 (overlong), F4 (> U+10FFFF).
    const unsigned char lo = b == 0xE0 ? 0xA0 : b == 0xF0 ? 0x90 : 0x80;
    const unsigned char hi = b == 0xED ? 0x9F : b == 0xF4 ? 0x8F : 0xBF;
    if (len == 0 || i + len > s.size() || byte(i + 1) < lo || byte(i + 1) > hi) return false;
    for (size_t k = 2; k < len; ++k)
      if ((byte(i + k) & 0xC0) != 0x80) return false;
    i += len;
  }
  return true;
}

std::string Hex(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (const char c : bytes) {
    out.push_back(kDigits[static_cast<unsigned char>(c) >> 4]);
    out.push_back(kDigits[static_cast<unsigned char>(c) & 0xF]);
  }
  return out;
}

J Encode(const std::string& s) {
  if (IsUtf8(s)) return J(s);
  J o = J::object();
  o[std::string(kBytesHex)] = Hex(s);
  return o;
}
J Encode(int64_t v) { return J(v); }
J Encode(int32_t v) { return J(static_cast<int64_t>(v)); }
J Encode(uint64_t v) { return J(v); }
J Encode(bool v) { return J(v); }
J Encode(DeviceKind v) { return J(std::string(Name(v))); }
J Encode(RankStepSource v) { return J(std::string(RankStepSourceName(v))); }
J Encode(double v) {
  if (std::isfinite(v)) return J(v);
  if (std::isinf(v)) return J(v > 0 ? "inf" : "-inf");
  const uint64_t bits = std::bit_cast<uint64_t>(v);
  if (bits == kDefaultNanBits) return J(nullptr);
  return J(fmt::format("{}{:016x}", kNanBitsPrefix, bits));
}

// null, an INTEGER, a finite REAL as a JSON float (3.0 stays a float), a non-finite one as
// {"real": "inf"}, {"real": null}, ...; TEXT as any string. The members a kind does not use are not
// written (SqlValue's factories leave them at their defaults).
J Encode(const SqlValue& v) {
  switch (v.kind) {
    case SqlValue::Kind::kNull: return J(nullptr);
    case SqlValue::Kind::kInt: return J(v.i);
    case SqlValue::Kind::kReal: {
      if (std::isfinite(v.r)) return J(v.r);
      J o = J::object();
      o[std::string(kRealKey)] = Encode(v.r);
      return o;
    }
    case SqlValue::Kind::kText: return Encode(v.text);
  }
  return J(nullptr);
}

// ---- Containers and structs --------------------------------------------------------------------

template <class T>
J Encode(const std::vector<T>& v);
template <class V>
J Encode(const std::map<std::string, V>& m);
template <Listed T>
J Encode(const T& s);

template <class T>
J Encode(const std::vector<T>& v) {
  J a = J::array();
  a.get_ref<J::array_t&>().reserve(v.size());
  for (const T& x : v) a.push_back(Encode(x));
  return a;
}
// A map as [[key, value], ...] in key order (any key, even one that is not UTF-8).
template <class V>
J Encode(const std::map<std::string, V>& m) {
  J a = J::array();
  for (const auto& [key, value] : m) a.push_back(J::array({Encode(key), Encode(value)}));
  return a;
}
template <Listed T>
J Encode(const T& s) {
  J o = J::object();
  std::apply([&](const auto&... f) { ((o[f.name] = Encode(s.*f.member)), ...); }, Schema<T>::kFields);
  return o;
}

// ---- Reading -----------------------------------------------------------------------------------

// Where a value is, built only when an error names it: a chain of keys and indices up to the root.
struct Path {
  const Path* parent = nullptr;
  std::string_view key;  // "" with index >= 0: an array element
  int64_t index = -1;
  std::string Pointer() const {
    if (parent == nullptr) return "";  // the root
    std::string out = parent->Pointer() + "/";
    if (index >= 0) return out + std::to_string(index);
    for (const char c : key) out += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);  // RFC 6901
    return out;
  }
  Path Key(std::string_view k) const { return Path{this, k, -1}; }
  Path Index(size_t i) const { return Path{this, {}, static_cast<int64_t>(i)}; }
};

Status Error(const Path& at, std::string_view what) {
  const std::string pointer = at.Pointer();
  return ParseError(fmt::format("{}: {}", pointer.empty() ? "the summary" : pointer, what));
}

std::string_view TypeOf(const J& j) {
  switch (j.type()) {
    case J::value_t::null: return "null";
    case J::value_t::boolean: return "a boolean";
    case J::value_t::number_integer:
    case J::value_t::number_unsigned: return "an integer";
    case J::value_t::number_float: return "a float";
    case J::value_t::string: return "a string";
    case J::value_t::array: return "an array";
    case J::value_t::object: return "an object";
    default: return "an unexpected value";
  }
}

Status Expected(const Path& at, std::string_view what, const J& got) {
  if (!got.is_string()) return Error(at, fmt::format("expected {}, got {}", what, TypeOf(got)));
  const std::string& text = got.get_ref<const std::string&>();
  const bool cut = text.size() > 40;
  return Error(at, fmt::format("expected {}, got the string \"{}{}\"", what, text.substr(0, 40), cut ? "..." : ""));
}

Status OutOfRange(const Path& at, const J& got, std::string_view type) {
  return Error(at, fmt::format("{} is out of range ({})", got.dump(), type));
}

Status Decode(const J& j, const Path& at, int64_t& out) {
  if (j.is_number_unsigned()) {
    const auto u = j.get<uint64_t>();
    if (u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return OutOfRange(at, j, "int64");
    out = static_cast<int64_t>(u);
    return Status::Ok();
  }
  if (!j.is_number_integer()) return Expected(at, "an integer", j);
  out = j.get<int64_t>();
  return Status::Ok();
}
Status Decode(const J& j, const Path& at, int32_t& out) {
  int64_t v = 0;
  PD_RETURN_IF_ERROR(Decode(j, at, v));
  if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max())
    return OutOfRange(at, j, "int32");
  out = static_cast<int32_t>(v);
  return Status::Ok();
}
Status Decode(const J& j, const Path& at, uint64_t& out) {
  if (j.is_number_unsigned()) {
    out = j.get<uint64_t>();
    return Status::Ok();
  }
  if (j.is_number_integer()) return OutOfRange(at, j, "uint64");  // negative
  return Expected(at, "an integer", j);
}
Status Decode(const J& j, const Path& at, bool& out) {
  if (!j.is_boolean()) return Expected(at, "a boolean", j);
  out = j.get<bool>();
  return Status::Ok();
}

// "inf", "-inf" or "nan:0x<the 16 hex digits of a NaN's bits>".
bool DoubleOfText(std::string_view text, double& out) {
  if (text == "inf" || text == "-inf") {
    out = text == "inf" ? std::numeric_limits<double>::infinity() : -std::numeric_limits<double>::infinity();
    return true;
  }
  if (!text.starts_with(kNanBitsPrefix) || text.size() != kNanBitsPrefix.size() + 16) return false;
  uint64_t bits = 0;
  for (const char c : text.substr(kNanBitsPrefix.size())) {
    const int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
    if (d < 0) return false;
    bits = bits << 4 | static_cast<uint64_t>(d);
  }
  out = std::bit_cast<double>(bits);
  return std::isnan(out);
}

// A JSON integer as the double of the same value, if there is one.
bool ExactDouble(const J& j, double& out) {
  if (j.is_number_unsigned()) {
    const auto u = j.get<uint64_t>();
    out = static_cast<double>(u);
    return out < 0x1p64 && static_cast<uint64_t>(out) == u;
  }
  const auto i = j.get<int64_t>();
  out = static_cast<double>(i);
  return out < 0x1p63 && static_cast<int64_t>(out) == i;  // >= -2^63 always
}

Status Decode(const J& j, const Path& at, double& out) {
  constexpr std::string_view kWhat = "a number, null (NaN), \"inf\", \"-inf\" or \"nan:0x...\"";
  if (j.is_number_float()) {
    out = j.get<double>();
  } else if (j.is_null()) {
    out = std::bit_cast<double>(kDefaultNanBits);
  } else if (j.is_number_integer()) {  // a tool that rewrote 3.0 as 3: taken when exact
    if (!ExactDouble(j, out)) return Error(at, fmt::format("{} is not exactly a double", j.dump()));
  } else if (!j.is_string() || !DoubleOfText(j.get_ref<const std::string&>(), out)) {
    return Expected(at, kWhat, j);
  }
  return Status::Ok();
}

Status Unhex(const J& j, const Path& at, std::string& out) {
  if (!j.is_string()) return Expected(at, "a string of hexadecimal digits", j);
  const std::string& hex = j.get_ref<const std::string&>();
  auto digit = [](char c) { return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1; };
  out.clear();
  out.reserve(hex.size() / 2);
  for (size_t i = 0; i < hex.size(); i += 2) {
    const int hi = digit(hex[i]), lo = i + 1 < hex.size() ? digit(hex[i + 1]) : -1;
    if (hi < 0 || lo < 0) return Expected(at, "an even number of lowercase hexadecimal digits", j);
    out.push_back(static_cast<char>(hi << 4 | lo));
  }
  return Status::Ok();
}

// The object {"<key>": value} alone, or nullptr.
const J* OnlyMember(const J& j, std::string_view key) {
  if (!j.is_object() || j.size() != 1 || j.begin().key() != key) return nullptr;
  return &j.begin().value();
}

Status Decode(const J& j, const Path& at, std::string& out) {
  if (j.is_string()) {
    out = j.get_ref<const std::string&>();
    return Status::Ok();
  }
  if (const J* hex = OnlyMember(j, kBytesHex)) return Unhex(*hex, at.Key(kBytesHex), out);
  return Expected(at, "a string or {\"bytes_hex\": ...}", j);
}

Status Decode(const J& j, const Path& at, DeviceKind& out) {
  if (!j.is_string()) return Expected(at, "a device kind name", j);
  const std::string& name = j.get_ref<const std::string&>();
  for (size_t k = 0; k < kDeviceKindNames.size(); ++k) {
    if (kDeviceKindNames[k] != name) continue;
    out = static_cast<DeviceKind>(k);
    return Status::Ok();
  }
  return Error(at, fmt::format("unknown device kind \"{}\" (known: {})", name, fmt::join(kDeviceKindNames, ", ")));
}
Status Decode(const J& j, const Path& at, RankStepSource& out) {
  if (!j.is_string()) return Expected(at, "a step source name", j);
  const std::string& name = j.get_ref<const std::string&>();
  // Every value of the enum's type, so that a new enumerator is read once RankStepSourceName names it
  // (the first match: RankStepSourceName says "none" for a value that is no enumerator).
  for (int v = 0; v <= std::numeric_limits<uint8_t>::max(); ++v) {
    if (RankStepSourceName(static_cast<RankStepSource>(v)) != name) continue;
    out = static_cast<RankStepSource>(v);
    return Status::Ok();
  }
  return Error(at, fmt::format("unknown step source \"{}\"", name));
}

Status Decode(const J& j, const Path& at, SqlValue& out) {
  if (j.is_null()) {
    out = SqlValue::Null();
  } else if (j.is_number_float()) {
    out = SqlValue::Real(j.get<double>());
  } else if (j.is_number_integer()) {
    int64_t i = 0;
    PD_RETURN_IF_ERROR(Decode(j, at, i));
    out = SqlValue::Int(i);
  } else if (const J* real = OnlyMember(j, kRealKey)) {
    double r = 0;
    PD_RETURN_IF_ERROR(Decode(*real, at.Key(kRealKey), r));
    out = SqlValue::Real(r);
  } else if (j.is_string() || OnlyMember(j, kBytesHex) != nullptr) {
    std::string text;
    PD_RETURN_IF_ERROR(Decode(j, at, text));
    out = SqlValue::Text(std::move(text));
  } else {
    return Expected(at, "a cell (null, a number, a string, {\"real\": ...} or {\"bytes_hex\": ...})", j);
  }
  return Status::Ok();
}

template <class T>
Status Decode(const J& j, const Path& at, std::vector<T>& out);
template <class V>
Status Decode(const J& j, const Path& at, std::map<std::string, V>& out);
template <Listed T>
Status Decode(const J& j, const Path& at, T& out);

template <class T>
Status Decode(const J& j, const Path& at, std::vector<T>& out) {
  if (!j.is_array()) return Expected(at, "an array", j);
  out.clear();
  out.reserve(j.size());
  for (size_t i = 0; i < j.size(); ++i) PD_RETURN_IF_ERROR(Decode(j[i], at.Index(i), out.emplace_back()));
  return Status::Ok();
}
template <class V>
Status Decode(const J& j, const Path& at, std::map<std::string, V>& out) {
  if (!j.is_array()) return Expected(at, "an array of [key, value] pairs", j);
  out.clear();
  for (size_t i = 0; i < j.size(); ++i) {
    const Path item = at.Index(i);
    if (!j[i].is_array() || j[i].size() != 2) return Expected(item, "a [key, value] pair", j[i]);
    std::string key;
    PD_RETURN_IF_ERROR(Decode(j[i][0], item.Index(0), key));
    V value{};
    PD_RETURN_IF_ERROR(Decode(j[i][1], item.Index(1), value));
    if (!out.emplace(std::move(key), std::move(value)).second) return Error(item.Index(0), "the key is repeated");
  }
  return Status::Ok();
}

template <class S, class M>
Status DecodeField(const J& object, const Path& at, const Field<S, M>& field, S& out) {
  const auto it = object.find(field.name);
  if (it == object.end()) return Error(at.Key(field.name), "missing");
  return Decode(*it, at.Key(field.name), out.*field.member);
}

template <Listed T>
Status Decode(const J& j, const Path& at, T& out) {
  if (!j.is_object()) return Expected(at, "an object", j);
  constexpr auto& fields = Schema<T>::kFields;
  Status status;
  std::apply([&](const auto&... f) { (... && (status = DecodeField(j, at, f, out)).ok()); }, fields);
  PD_RETURN_IF_ERROR(status);
  if (j.size() == std::tuple_size_v<std::remove_cvref_t<decltype(fields)>>) return Status::Ok();
  // Every listed key is there (and object keys are unique): one more is not a field.
  const auto names = std::apply([](const auto&... f) { return std::array<std::string_view, sizeof...(f)>{f.name...}; },
                                fields);
  for (auto it = j.begin(); it != j.end(); ++it)
    if (std::find(names.begin(), names.end(), it.key()) == names.end()) return Error(at.Key(it.key()), "not a field");
  return Status::Ok();
}

}  // namespace

J RankSummaryToJson(const RankSummary& summary) { return Encode(summary); }

StatusOr<RankSummary> RankSummaryFromJson(const J& json) {
  RankSummary summary;
  PD_RETURN_IF_ERROR(Decode(json, Path{}, summary));
  return summary;
}

J BytesToJson(std::string_view bytes) { return Encode(std::string(bytes)); }

StatusOr<std::string> BytesFromJson(const J& json, std::string_view pointer) {
  std::string out;
  if (Status s = Decode(json, Path{}, out); !s.ok()) {
    constexpr std::string_view kRoot = "the summary";
    std::string_view m = s.message();
    if (m.starts_with(kRoot)) m.remove_prefix(kRoot.size());
    return ParseError(fmt::format("{}{}", pointer, m));
  }
  return out;
}

}  // namespace profdiff::analysis
