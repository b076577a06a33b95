// The parallel reader of a trace array (`--threads N`): the array's middle is read in rounds of
// N blocks parsed on N threads, each into its own fragment, which the main parser absorbs in file
// order (TraceParser::Absorb). The model is the one a serial pass builds, at any thread count and
// block size.
//
// A block must start at an element. Without scanning every byte serially (which would cost about
// what parsing does), the reader guesses: a block starts at a '{' that follows "}" "," (with white
// space between), which is where one event object ends and the next begins, except inside a string
// or a nested value. The guess is checked afterwards: block j+1 is kept only when block j's last
// element ended and the separator after it led exactly to block j+1's start. A wrong guess costs
// the blocks after it, never a wrong model: the next round starts after the last element kept.
//
// Anything the blocks do not parse cleanly is left to the serial reader (JsonArrayStream::Resume):
// the end of the array, a separator that is not ',', an element larger than the round can hold, a
// truncated input, a read error (met again by the serial reader). Malformed elements between good
// separators are parsed in the blocks, with the serial reader's diagnostics.
#include <algorithm>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "profdiff/io/json_reader.h"
#include "trace_json_parallel.h"
#include "trace_parser.h"

namespace profdiff::trace_json_internal {

namespace {

// Room for `more` elements, growing geometrically (reserving the exact size each time would copy the
// whole array at every block).
template <typename T>
void ReserveMore(std::vector<T>& v, size_t more) {
  if (v.size() + more > v.capacity()) v.reserve(std::max(v.size() + more, v.capacity() * 2));
}

// Room for `more` elements more in `v`, which then holds what the input's first `done` bytes of
// `total` made. When the input's size is known (a plain file), the array is sized for the whole
// input, projected from what it held so far plus 1/32 for the events' sizes to vary along the file:
// one copy of the array at most when the events are alike (doubling copies it at every power of two
// and leaves up to half of it for LoadProfile's final shrink to copy again). A projection that
// falls short grows it by 1/8 at least. Without a size (gzip), it doubles, as it does when the
// projection cannot be had (a first part far denser in events than the rest, on a small machine:
// the reservation is address space, but the system may refuse that much at once).
template <typename T>
void ReserveProjected(std::vector<T>& v, size_t more, uint64_t done, uint64_t total) {
  const size_t need = v.size() + more;
  if (need <= v.capacity()) return;
  if (done > 0 && total > done) {
    const double scale = static_cast<double>(total) / static_cast<double>(done) * (1.0 + 1.0 / 32);
    const double projected = std::min(static_cast<double>(need) * scale, static_cast<double>(v.max_size() / 2));
    try {
      v.reserve(std::max({need, static_cast<size_t>(projected), v.capacity() + v.capacity() / 8}));
      return;
    } catch (const std::bad_alloc&) {
    }
  }
  v.reserve(std::max(need, v.capacity() * 2));
}

}  // namespace

// ---- absorbing a fragment --------------------------------------------------------------------------

void TraceParser::Absorb(TraceParser& block, Profile& fragment, int64_t lines_before) {
  std::vector<StringId> strings(fragment.strings.size());
  for (size_t i = 0; i < strings.size(); ++i)
    strings[i] = p_.strings.Intern(fragment.strings.Get(static_cast<StringId>(i)));
  std::vector<TrackId> tracks;
  AbsorbProcessesAndTracks(block, fragment, strings, tracks);
  const auto slice_base = static_cast<SliceId>(p_.slices.size());
  AbsorbEvents(fragment, strings, tracks);
  AbsorbOpenBegins(block, fragment, tracks, slice_base, lines_before);
  CountNewFlows();  // while the next round is parsed, not all at the end
  if (elements_ == 0 && block.elements_ > 0) first_bad_offset_ = block.first_bad_offset_;
  elements_ += block.elements_;
  events_ += block.events_;
  ascend_signals_ += block.ascend_signals_;
}

void TraceParser::AbsorbProcessesAndTracks(const TraceParser& block, const Profile& fragment,
                                           const std::vector<StringId>& strings,
                                           std::vector<TrackId>& tracks) {
  auto bits_of = [](const std::vector<uint8_t>& bits, size_t i) -> uint8_t {
    return i < bits.size() ? bits[i] : 0;
  };
  // Processes first, in the fragment's order of creation: a track's creation below then finds its
  // process, so processes and tracks get global ids in the order a serial pass creates them.
  for (size_t i = 0; i < fragment.processes.size(); ++i) {
    const Process& from = fragment.processes[i];
    Process& to = p_.processes[p_.GetOrCreateProcess(fragment.str(from.pid_text))];
    const uint8_t bits = bits_of(block.process_meta_, i);
    if (bits & kSetName) to.name = strings[from.name];
    if (bits & kSetLabels) to.labels = strings[from.labels];
    if (bits & kSetSortIndex) to.sort_index = from.sort_index;
  }
  tracks.resize(fragment.tracks.size());
  for (size_t i = 0; i < fragment.tracks.size(); ++i) {
    const Track& from = fragment.tracks[i];
    tracks[i] = p_.GetOrCreateTrack(fragment.str(fragment.processes[from.process].pid_text),
                                    fragment.str(from.tid_text));
    Track& to = p_.tracks[tracks[i]];
    const uint8_t bits = bits_of(block.track_meta_, i);
    if (bits & kSetName) to.name = strings[from.name];
    if (bits & kSetSortIndex) to.sort_index = from.sort_index;
  }
}

void TraceParser::AbsorbEvents(const Profile& fragment, const std::vector<StringId>& strings,
                               const std::vector<TrackId>& tracks) {
  const auto slice_base = static_cast<SliceId>(p_.slices.size());
  const auto args_base = static_cast<uint32_t>(p_.args.size());
  ReserveMore(p_.args, fragment.args.size());
  for (Arg a : fragment.args) {
    a.set_text(strings[a.text()]);
    p_.args.push_back(a);
  }
  // The fragment's categories in its order of first use: global indices as a serial pass gives them.
  std::vector<uint16_t> cats(fragment.slice_cats.size());
  for (size_t i = 0; i < cats.size(); ++i) cats[i] = p_.CatIndex(strings[fragment.slice_cats[i]]);
  ReserveMore(p_.slices, fragment.slices.size());
  for (Slice s : fragment.slices) {
    s.name = strings[s.name];
    s.cat_index = cats[s.cat_index];
    s.track = tracks[s.track];
    if (s.arg_inline == 0) {
      s.args_begin += args_base;
    } else if (Arg a = s.InlineArg(); a.has_text()) {
      a.set_text(strings[a.text()]);
      s.SetInlineArg(a);
    }
    p_.slices.push_back(s);
  }
  for (FlowEvent f : fragment.flows) {
    f.track = tracks[f.track];
    f.cat = strings[f.cat];
    if (f.id_is_string) f.id = strings[static_cast<StringId>(f.id)];
    p_.flows.push_back(f);
  }
  for (CounterEvent c : fragment.counters) {
    c.track = tracks[c.track];
    c.name = strings[c.name];
    c.series = strings[c.series];
    p_.counters.push_back(c);
  }
  for (MemoryEvent m : fragment.memory_events) {
    m.track = tracks[m.track];
    p_.memory_events.push_back(m);
  }
  for (const auto& [slice, us] : fragment.fine_dur_us) p_.fine_dur_us.emplace_back(slice + slice_base, us);
}

// The fragment's 'E's that found no 'B' in it close this parser's open 'B's (earlier blocks'), then
// the fragment's own open 'B's are pushed above them; the diagnostics this yields take their place
// in file order among the fragment's.
void TraceParser::AbsorbOpenBegins(TraceParser& block, Profile& fragment, const std::vector<TrackId>& tracks,
                                   SliceId slice_base, int64_t lines_before) {
  Diagnostics& diag = fragment.diagnostics;
  diag.ShiftLines(lines_before);
  for (DeferredEnd& e : block.deferred_ends_) {
    if (e.where.line > 0) e.where.line += lines_before;
    switch (CloseOpenBegin(tracks[e.track], e.ts_ns)) {
      case EndOutcome::kNoOpenBegin:
        diag.Insert(DiagId::begin_end_unpaired, std::move(e.where), std::string(kEndWithoutBegin));
        break;
      case EndOutcome::kBeforeBegin:
        diag.Insert(DiagId::negative_duration, std::move(e.where), std::string(kEndBeforeBegin));
        break;
      case EndOutcome::kTooLong:
        diag.Insert(DiagId::duration_too_long, std::move(e.where), std::string(kEndTooLate));
        break;
      case EndOutcome::kClosed:
        break;
    }
  }
  block.deferred_ends_.clear();
  for (size_t t = 0; t < block.open_b_.size(); ++t) {
    if (block.open_b_[t].empty()) continue;
    const TrackId to = tracks[t];
    if (to >= open_b_.size()) open_b_.resize(to + 1);
    for (SliceId id : block.open_b_[t]) open_b_[to].push_back(id + slice_base);
  }
  block.open_b_.clear();
  p_.diagnostics.Merge(diag);
}

namespace {

// ---- one block -------------------------------------------------------------------------------------

inline bool IsJsonWs(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

size_t SkipWs(std::string_view text, size_t pos) {
  while (pos < text.size() && IsJsonWs(text[pos])) ++pos;
  return pos;
}

// Line numbers inside a block, counted from its start (Absorb adds the lines before it). Events ask
// in increasing offsets, so the count goes on from the last answer.
class BlockLocator final : public EventLocator {
 public:
  BlockLocator(const std::string& file, std::string_view text, uint64_t text_offset, size_t start)
      : file_(file), text_(text), text_offset_(text_offset), start_(start), counted_to_(start) {}
  SourceLocation Locate(uint64_t offset) const override {
    const size_t pos = static_cast<size_t>(
        std::clamp<uint64_t>(offset - std::min(offset, text_offset_), start_, text_.size()));
    if (pos < counted_to_) {  // out of order: count again from the start
      counted_to_ = start_;
      lines_ = 0;
    }
    lines_ += CountNewlines(text_.data() + counted_to_, pos - counted_to_);
    counted_to_ = pos;
    return SourceLocation{file_, lines_ + 1, static_cast<int64_t>(offset)};
  }

 private:
  const std::string& file_;
  std::string_view text_;
  uint64_t text_offset_;
  size_t start_;
  mutable size_t counted_to_;
  mutable int64_t lines_ = 0;
};

// Why a block stopped: it reached the next block's start (`next`), the round's bytes ended inside
// an element or separator, or it met what only the serial reader handles (']', a bad separator).
enum class BlockStop : uint8_t { kLimit, kCut, kHandOver };

struct Block {
  size_t start = 0;
  size_t limit = 0;
  bool after_element = false;  // starts after an element (before its separator), not at one
  std::unique_ptr<Profile> fragment;
  std::unique_ptr<BlockLocator> locator;
  std::unique_ptr<TraceParser> parser;
  BlockStop stop = BlockStop::kCut;
  size_t end = 0;       // end of the last element parsed (start when none)
  size_t next = 0;      // kLimit: start of the element after it
  int64_t lines_body = 0;  // newlines in [start, end)
  int64_t lines_sep = 0;   // kLimit: newlines in [end, next)
  bool nul_run = false;    // [start, end) holds a run of NULs: the serial reader refuses it
  int64_t lines_before = 0;  // when accepted: newlines in the input before `start`
  uint64_t end_offset = 0;   // when accepted: the input offset of `end`
};

// The smallest block a file's size makes a block (a given block size smaller than this is kept).
constexpr size_t kMinAutoBlock = size_t{1} << 20;

// Moves `pos` over a separator (white space, ',', white space) to the next element.
BlockStop OverSeparator(std::string_view text, size_t* pos) {
  size_t q = SkipWs(text, *pos);
  if (q == text.size()) return BlockStop::kCut;
  if (text[q] != ',') return BlockStop::kHandOver;
  q = SkipWs(text, q + 1);
  if (q == text.size()) return BlockStop::kCut;
  if (text[q] == ']') return BlockStop::kHandOver;  // a trailing comma: the serial reader's case
  *pos = q;
  return BlockStop::kLimit;  // i.e. go on
}

void ParseBlock(Block& b, std::string_view text, uint64_t text_offset) {
  TraceParser& parser = *b.parser;
  size_t pos = b.start;
  b.end = b.start;
  b.stop = BlockStop::kLimit;
  if (b.after_element) b.stop = OverSeparator(text, &pos);
  while (b.stop == BlockStop::kLimit) {
    if (pos >= b.limit) {
      b.next = pos;
      break;
    }
    const std::string_view rest = text.substr(pos);
    const uint64_t offset = text_offset + pos;
    size_t len = 0;
    if (!parser.TryParseInPlace(rest, offset, &len)) {
      if (!ScanJsonValue(rest, &len)) {
        b.stop = BlockStop::kCut;
        break;
      }
      parser.Parse(rest.substr(0, len), offset);
    }
    b.end = pos + len;
    pos = b.end;
    b.stop = OverSeparator(text, &pos);
  }
  b.nul_run = FindNulRun(text.substr(b.start, b.end - b.start)) != std::string_view::npos;
  b.lines_body = CountNewlines(text.data() + b.start, b.end - b.start);
  b.lines_sep = b.stop == BlockStop::kLimit ? CountNewlines(text.data() + b.end, b.next - b.end) : 0;
}

// The start of the first element after `from` that is found by its separator "}" "," "{" (white
// space allowed around the comma), or npos. Only a guess (see the top of the file).
size_t GuessElementStart(std::string_view text, size_t from) {
  while (from < text.size()) {
    const void* hit = std::memchr(text.data() + from, ',', text.size() - from);
    if (hit == nullptr) return std::string_view::npos;
    const size_t comma = static_cast<size_t>(static_cast<const char*>(hit) - text.data());
    size_t before = comma;
    while (before > 0 && IsJsonWs(text[before - 1])) --before;
    const size_t after = SkipWs(text, comma + 1);
    if (before > 0 && text[before - 1] == '}' && after < text.size() && text[after] == '{') return after;
    from = comma + 1;
  }
  return std::string_view::npos;
}

// ---- the rounds ------------------------------------------------------------------------------------

// Bytes without initialisation (a round's megabytes would otherwise be zeroed before each read).
class ByteBuffer {
 public:
  size_t size() const { return size_; }
  char* data() { return data_.get(); }
  const char* data() const { return data_.get(); }
  operator std::string_view() const { return {data_.get(), size_}; }
  // Sets the size, keeping the first min(size, n) bytes; new bytes are uninitialised.
  void Resize(size_t n) {
    if (n > capacity_) {
      const size_t cap = std::max(n, capacity_ * 2);
      std::unique_ptr<char[]> bigger(new char[cap]);
      if (size_ > 0) std::memcpy(bigger.get(), data_.get(), size_);
      data_ = std::move(bigger);
      capacity_ = cap;
    }
    size_ = n;
  }

 private:
  std::unique_ptr<char[]> data_;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

// One round: its bytes `text` (a few bytes of context for messages, then from `head` on, just after
// an element), where they are in the input, and its blocks. A mapped file's round views the file.
// Otherwise `text` views `buf` from `begin`: the next round's new bytes are read behind a gap that
// the bytes carried over from this round then fill, so the two rounds' buffers are reused, never
// copied whole.
struct Round {
  ByteBuffer buf;
  size_t begin = 0;
  std::string_view text;
  size_t head = 0;
  uint64_t offset = 0;       // input offset of text[0]
  int64_t lines_before = 0;  // newlines before text[0]
  std::vector<Block> blocks;
  std::vector<std::thread> threads;
};

// Room left before a round's new bytes for the bytes carried over (an element cut by the end of the
// round, usually a few hundred bytes; more only after a wrong guess): 1 MiB, or the round's size when
// rounds are smaller (small blocks in tests and fuzzing, where a megabyte per round buffer and load
// cost more than the parse). A longer carry makes room for itself (CarryOver).
constexpr size_t kMaxCarryGap = size_t{1} << 20;
constexpr size_t CarryGap(size_t round_bytes) {
  return std::min(kMaxCarryGap, std::max(round_bytes, size_t{4} << 10));
}

// The rounds run as a pipeline: while the blocks of round r are parsed on their threads, the main
// thread absorbs the blocks of round r-1 (and, reading through buffers, reads round r+1's bytes).
class ParallelArrayReader {
 public:
  ParallelArrayReader(JsonArrayStream& stream, TraceParser& parser, const std::string& file,
                      const ParallelReadOptions& options)
      : stream_(stream), parser_(parser), file_(file), options_(options) {}

  Status Run();

 private:
  Status RunMapped(std::string_view file);
  Status RunBuffered();
  // Appends up to `bytes` bytes of the source to `out` (fewer at its end; a read error ends it too:
  // the serial reader meets that error again when it reads on).
  void Read(ByteBuffer& out, size_t bytes);
  void Plan(Round& round);
  void Launch(Round& round);
  // Joins the round's threads and keeps its blocks that chain up (Block::lines_before set), in
  // `accepted`; returns how the last one stopped, and the end of what they consumed.
  BlockStop Settle(Round& round, std::vector<Block>& accepted, size_t* consumed, int64_t* lines_consumed);
  // Makes `next` (its new bytes read from its buf's `gap` on) start with `round`'s bytes from
  // `consumed` on, with the context before them.
  static void CarryOver(const Round& round, size_t consumed, int64_t lines_consumed, size_t gap, Round& next);
  // Absorbs the blocks and keeps their emptied fragments for later blocks (their memory is reused).
  void AbsorbAll(std::vector<Block>& blocks);
  // Makes room in the model's arrays for the blocks' fragments (ReserveProjected).
  void Presize(const std::vector<Block>& blocks);
  std::unique_ptr<Profile> TakeFragment();

  JsonArrayStream& stream_;
  TraceParser& parser_;
  const std::string& file_;
  ParallelReadOptions options_;
  bool source_done_ = false;
  uint64_t input_bytes_ = 0;  // the input's size when known (a plain file), else 0
  std::vector<std::unique_ptr<Profile>> spare_;
};

void ParallelArrayReader::Read(ByteBuffer& out, size_t bytes) {
  ByteSource& source = stream_.source();
  const size_t old = out.size();
  out.Resize(old + bytes);
  size_t got = 0;
  while (!source_done_ && got < bytes) {
    StatusOr<size_t> n = source.Read(out.data() + old + got, bytes - got);
    if (!n.ok() || *n == 0) {
      source_done_ = true;
      break;
    }
    got += *n;
  }
  out.Resize(old + got);
}

void ParallelArrayReader::Plan(Round& round) {
  const size_t n = static_cast<size_t>(options_.threads);
  const std::string_view text = round.text;
  std::vector<size_t> starts = {round.head};
  const size_t bytes = text.size() - round.head;
  for (size_t j = 1; j < n; ++j) {
    const size_t guess = GuessElementStart(text, std::max(starts.back() + 1, round.head + bytes * j / n));
    if (guess == std::string_view::npos) break;
    starts.push_back(guess);
  }
  round.blocks.resize(starts.size());
  for (size_t j = 0; j < starts.size(); ++j) {
    Block& b = round.blocks[j];
    b.start = starts[j];
    b.limit = j + 1 < starts.size() ? starts[j + 1] : text.size();
    b.after_element = j == 0;
    b.fragment = TakeFragment();
    b.locator = std::make_unique<BlockLocator>(file_, text, round.offset, b.start);
    b.parser = std::make_unique<TraceParser>(*b.fragment, *b.locator);
    b.parser->SetBlockMode();
  }
}

void ParallelArrayReader::Launch(Round& round) {
  if (options_.stats != nullptr) {
    ++options_.stats->rounds;
    options_.stats->blocks += round.blocks.size();
  }
  for (Block& block : round.blocks) {
    Block* b = &block;
    const std::string_view text = round.text;
    const uint64_t offset = round.offset;
    try {
      round.threads.emplace_back([b, text, offset] { ParseBlock(*b, text, offset); });
    } catch (const std::system_error&) {
      ParseBlock(*b, text, offset);  // no thread to be had: parse it here
    }
  }
}

BlockStop ParallelArrayReader::Settle(Round& round, std::vector<Block>& accepted, size_t* consumed,
                                      int64_t* lines_consumed) {
  for (std::thread& t : round.threads) t.join();
  round.threads.clear();
  int64_t lines_at_start = CountNewlines(round.text.data(), round.head);  // from text[0] to a block
  *consumed = round.head;
  *lines_consumed = lines_at_start;
  BlockStop stop = BlockStop::kCut;
  std::vector<Block>& blocks = round.blocks;
  for (size_t j = 0; j < blocks.size(); ++j) {
    Block& b = blocks[j];
    if (j > 0 && !(blocks[j - 1].stop == BlockStop::kLimit && blocks[j - 1].next == b.start)) break;
    stop = b.stop;
    if (j > 0 && b.end == b.start) break;  // cut in its first element: the previous block's end stands
    if (b.nul_run) {  // an element of it holds binary data: the serial reader says where, from its start
      stop = BlockStop::kHandOver;
      break;
    }
    b.lines_before = round.lines_before + lines_at_start;
    b.end_offset = round.offset + b.end;
    if (options_.stats != nullptr) {
      ++options_.stats->blocks_absorbed;
      options_.stats->bytes_absorbed += b.end - b.start;
    }
    *consumed = b.end;
    *lines_consumed = lines_at_start + b.lines_body;
    lines_at_start += b.lines_body + b.lines_sep;
    accepted.push_back(std::move(b));
    if (stop != BlockStop::kLimit) break;
  }
  blocks.clear();
  return stop;
}

void ParallelArrayReader::CarryOver(const Round& round, size_t consumed, int64_t lines_consumed, size_t gap,
                                    Round& next) {
  const size_t keep = std::min(consumed, kJsonSnippetRadius);
  const std::string_view carry = round.text.substr(consumed - keep);
  if (carry.size() <= gap) {
    next.begin = gap - carry.size();
    std::memcpy(next.buf.data() + next.begin, carry.data(), carry.size());
  } else {  // a long carry (a wrong guess, or an element longer than a round): make room
    const size_t fresh = next.buf.size() - gap;
    next.buf.Resize(carry.size() + next.buf.size());
    char* data = next.buf.data();
    std::memmove(data + carry.size(), data + gap, fresh);
    std::memcpy(data, carry.data(), carry.size());
    next.buf.Resize(carry.size() + fresh);
    next.begin = 0;
  }
  next.text = std::string_view(next.buf).substr(next.begin);
  next.head = keep;
  next.offset = round.offset + (consumed - keep);
  next.lines_before = round.lines_before + lines_consumed - CountNewlines(carry.data(), keep);
}

void ParallelArrayReader::Presize(const std::vector<Block>& blocks) {
  if (blocks.empty()) return;
  size_t slices = 0, args = 0, flows = 0, counters = 0, memory = 0;
  for (const Block& b : blocks) {
    slices += b.fragment->slices.size();
    args += b.fragment->args.size();
    flows += b.fragment->flows.size();
    counters += b.fragment->counters.size();
    memory += b.fragment->memory_events.size();
  }
  Profile& p = parser_.profile();
  const uint64_t done = blocks.back().end_offset;
  ReserveProjected(p.slices, slices, done, input_bytes_);
  ReserveProjected(p.args, args, done, input_bytes_);
  ReserveProjected(p.flows, flows, done, input_bytes_);
  ReserveProjected(p.counters, counters, done, input_bytes_);
  ReserveProjected(p.memory_events, memory, done, input_bytes_);
}

void ParallelArrayReader::AbsorbAll(std::vector<Block>& blocks) {
  Presize(blocks);
  for (Block& b : blocks) {
    parser_.Absorb(*b.parser, *b.fragment, b.lines_before);
    b.parser.reset();
    b.fragment->Clear();
    spare_.push_back(std::move(b.fragment));
  }
  blocks.clear();
}

std::unique_ptr<Profile> ParallelArrayReader::TakeFragment() {
  if (spare_.empty()) return std::make_unique<Profile>();
  std::unique_ptr<Profile> f = std::move(spare_.back());
  spare_.pop_back();
  return f;
}

Status ParallelArrayReader::Run() {
  const std::string_view file = options_.map_file ? stream_.source().Map() : std::string_view();
  return file.empty() ? RunBuffered() : RunMapped(file);
}

// A plain file is parsed where it is mapped: a round views the file, and carries nothing over.
Status ParallelArrayReader::RunMapped(std::string_view file) {
  ByteSource& source = stream_.source();
  input_bytes_ = file.size();
  // A smaller file gets smaller blocks, four rounds at least: the fragments of a round, absorbed
  // while the next is parsed, then hold a quarter of the model, not all of it.
  const size_t threads = static_cast<size_t>(options_.threads);
  options_.block_bytes = std::clamp(file.size() / (4 * threads), std::min(options_.block_bytes, kMinAutoBlock),
                                    options_.block_bytes);
  uint64_t pos = stream_.buffered_offset() + stream_.buffered_head();  // just after an element
  int64_t lines_at_pos = stream_.lines_before_buffered() +
                         CountNewlines(stream_.Buffered().data(), stream_.buffered_head());
  const size_t round_bytes = options_.block_bytes * static_cast<size_t>(options_.threads);
  uint64_t counted = source.offset();  // bytes the progress counter has seen
  auto round = std::make_unique<Round>();
  auto next = std::make_unique<Round>();
  // Sets up `r` over [pos - context, pos + bytes), launches its blocks.
  auto start_round = [&](Round& r, size_t bytes) {
    const size_t keep = static_cast<size_t>(std::min<uint64_t>(pos, kJsonSnippetRadius));
    const uint64_t end = std::min<uint64_t>(file.size(), pos + bytes);
    r.text = file.substr(pos - keep, end - (pos - keep));
    r.head = keep;
    r.offset = pos - keep;
    r.lines_before = lines_at_pos - CountNewlines(r.text.data(), keep);
    if (end > counted) {
      source.CountProgress(end - counted);
      counted = end;
    }
    Plan(r);
    Launch(r);
  };
  start_round(*round, round_bytes);
  std::vector<Block> to_absorb;
  for (;;) {
    AbsorbAll(to_absorb);  // while this round is parsed
    size_t consumed = 0;
    int64_t lines_consumed = 0;
    const BlockStop stop = Settle(*round, to_absorb, &consumed, &lines_consumed);
    const bool at_end = round->offset + round->text.size() == file.size();
    const bool stuck = consumed == round->head && stop == BlockStop::kCut;
    pos = round->offset + consumed;
    lines_at_pos = round->lines_before + lines_consumed;
    source.ReleaseBefore(pos - std::min<uint64_t>(pos, kJsonSnippetRadius));  // parsed: not kept
    // A huge element that holds a run of NULs is binary data: the serial reader says so at once.
    if (stop == BlockStop::kHandOver || (stop == BlockStop::kCut && at_end) ||
        (stuck && (round->text.size() >= options_.max_round_bytes ||
                   FindNulRun(round->text.substr(consumed)) != std::string_view::npos))) {
      AbsorbAll(to_absorb);
      // The serial reader goes on from `pos` with the bytes of a round, then reads the file.
      const size_t keep = static_cast<size_t>(std::min<uint64_t>(pos, kJsonSnippetRadius));
      const uint64_t end = std::min<uint64_t>(file.size(), pos + std::max(round_bytes, round->text.size()));
      PD_RETURN_IF_ERROR(source.SeekTo(end));
      if (end > counted) source.CountProgress(end - counted);  // the stream reads on from `end`
      const std::string_view bytes = file.substr(pos - keep, end - (pos - keep));
      stream_.Resume(bytes, keep, pos - keep, lines_at_pos - CountNewlines(bytes.data(), keep));
      return Status::Ok();
    }
    std::swap(round, next);
    start_round(*round, stuck ? next->text.size() * 2 : round_bytes);  // a huge element: double it
  }
}

// A gzip file (or one that cannot be mapped) is read into two buffers of a round each, reused: their
// blocks are kept smaller (decompressing is serial and as slow as parsing, bigger blocks gain little).
constexpr size_t kMaxBufferedBlock = size_t{8} << 20;

Status ParallelArrayReader::RunBuffered() {
  options_.block_bytes = std::min(options_.block_bytes, kMaxBufferedBlock);
  input_bytes_ = stream_.source().gzipped() ? 0 : stream_.source().file_bytes();
  auto round = std::make_unique<Round>();
  auto next = std::make_unique<Round>();
  {
    const std::string_view buffered = stream_.Buffered();
    const size_t head = stream_.buffered_head();
    const size_t skip = head - std::min(head, kJsonSnippetRadius);  // context kept for messages
    round->buf.Resize(buffered.size() - skip);
    std::memcpy(round->buf.data(), buffered.data() + skip, buffered.size() - skip);
    round->head = head - skip;
    round->offset = stream_.buffered_offset() + skip;
    round->lines_before = stream_.lines_before_buffered() + CountNewlines(buffered.data(), skip);
  }
  const size_t round_bytes = options_.block_bytes * static_cast<size_t>(options_.threads);
  Read(round->buf, round_bytes);
  round->text = round->buf;
  Plan(*round);
  Launch(*round);
  std::vector<Block> to_absorb;
  size_t next_bytes = round_bytes;
  const size_t gap = CarryGap(round_bytes);
  for (;;) {
    next->buf.Resize(gap);        // the carried bytes go at its end
    Read(next->buf, next_bytes);  // while this round is parsed
    const bool fresh = next->buf.size() > gap;
    AbsorbAll(to_absorb);
    size_t consumed = 0;
    int64_t lines_consumed = 0;  // newlines in text[0, consumed)
    const BlockStop stop = Settle(*round, to_absorb, &consumed, &lines_consumed);
    CarryOver(*round, consumed, lines_consumed, gap, *next);
    const bool stuck = consumed == round->head && stop == BlockStop::kCut;  // an element fills the round
    if (stop == BlockStop::kHandOver || (stop == BlockStop::kCut && !fresh) ||
        (stuck && (next->text.size() >= options_.max_round_bytes ||
                   FindNulRun(next->text.substr(next->head)) != std::string_view::npos))) {
      AbsorbAll(to_absorb);
      stream_.Resume(next->text, next->head, next->offset, next->lines_before);
      return Status::Ok();
    }
    next_bytes = stuck ? next->text.size() : round_bytes;  // a huge element: double the round
    std::swap(round, next);
    Plan(*round);
    Launch(*round);
  }
}

}  // namespace

Status ReadArrayInParallel(JsonArrayStream& stream, TraceParser& parser, const std::string& file,
                           const ParallelReadOptions& options) {
  return ParallelArrayReader(stream, parser, file, options).Run();
}

}  // namespace profdiff::trace_json_internal
