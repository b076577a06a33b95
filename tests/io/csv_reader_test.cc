#include "profdiff/io/csv_reader.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace profdiff {
namespace {

using Rows = std::vector<std::vector<std::string>>;

struct Parsed {
  std::vector<std::string> header;
  Rows rows;
  std::vector<int64_t> lines;
};

// Parses `text` with the given buffer size; fails the test on an error Status.
Parsed ParseAll(const std::string& text, Diagnostics* diag, size_t buffer = CsvReader::kDefaultBufferSize) {
  Parsed out;
  auto r = CsvReader::FromString("t.csv", text, diag, buffer);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  if (!r.ok()) return out;
  out.header = (*r)->header();
  CsvRecord rec;
  for (;;) {
    auto n = (*r)->Next(rec);
    EXPECT_TRUE(n.ok()) << n.status().ToString();
    if (!n.ok() || !*n) break;
    std::vector<std::string> row;
    for (size_t i = 0; i < rec.size(); ++i) row.emplace_back(rec[i]);
    out.rows.push_back(row);
    out.lines.push_back(rec.line());
  }
  return out;
}

TEST(CsvReader, PlainRowsAndLineNumbers) {
  Diagnostics d;
  Parsed p = ParseAll("a,b,c\n1,2,3\n4,5,6\n", &d);
  EXPECT_EQ(p.header, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(p.rows, (Rows{{"1", "2", "3"}, {"4", "5", "6"}}));
  EXPECT_EQ(p.lines, (std::vector<int64_t>{2, 3}));
  EXPECT_TRUE(d.empty());
}

TEST(CsvReader, BomCrlfAndMissingFinalNewline) {
  Diagnostics d;
  Parsed p = ParseAll("\xEF\xBB\xBFStep Id,Name\r\n50,a\r\n51,b", &d);
  EXPECT_EQ(p.header, (std::vector<std::string>{"Step Id", "Name"}));
  EXPECT_EQ(p.rows, (Rows{{"50", "a"}, {"51", "b"}}));
  EXPECT_EQ(p.lines, (std::vector<int64_t>{2, 3}));
}

TEST(CsvReader, LoneCrEndsRecords) {
  Diagnostics d;
  Parsed p = ParseAll("a,b\r1,2\r3,4\r", &d);
  EXPECT_EQ(p.rows, (Rows{{"1", "2"}, {"3", "4"}}));
  EXPECT_EQ(p.lines, (std::vector<int64_t>{2, 3}));
}

TEST(CsvReader, TripleQuotedShapeKeepsLiteralQuotes) {
  Diagnostics d;
  // As kernel_details.csv writes it: the value is "32,3,224,224;64" with its quotes.
  Parsed p = ParseAll("Name,Input Shapes,X\nconv,\"\"\"32,3,224,224;64\"\"\",7\n", &d);
  ASSERT_EQ(p.rows.size(), 1u);
  EXPECT_EQ(p.rows[0][1], "\"32,3,224,224;64\"");
  EXPECT_EQ(p.rows[0][2], "7");
}

TEST(CsvReader, QuotedFieldsEscapesAndEmbeddedNewlines) {
  Diagnostics d;
  Parsed p = ParseAll("a,b,c\n\"x,y\",\"he said \"\"hi\"\"\",\"line1\nline2\"\n\"\",,last\n", &d);
  ASSERT_EQ(p.rows.size(), 2u);
  EXPECT_EQ(p.rows[0], (std::vector<std::string>{"x,y", "he said \"hi\"", "line1\nline2"}));
  EXPECT_EQ(p.rows[1], (std::vector<std::string>{"", "", "last"}));
  // The second record starts after the two physical lines of the first one.
  EXPECT_EQ(p.lines, (std::vector<int64_t>{2, 4}));
}

TEST(CsvReader, TabsEmptyCellsAndNaKeptVerbatim) {
  Diagnostics d;
  Parsed p = ParseAll("t,u,v\n1736408883704643.212\t,,N/A\n\"1736413971558972.912\t\",x,\n", &d);
  ASSERT_EQ(p.rows.size(), 2u);
  EXPECT_EQ(p.rows[0][0], "1736408883704643.212\t");
  EXPECT_EQ(p.rows[0][1], "");
  EXPECT_EQ(p.rows[0][2], "N/A");
  EXPECT_EQ(p.rows[1][0], "1736413971558972.912\t");
  EXPECT_EQ(p.rows[1][2], "");
  EXPECT_TRUE(IsAbsentCell(p.rows[0][1]));
  EXPECT_TRUE(IsAbsentCell(p.rows[0][2]));
  EXPECT_TRUE(IsAbsentCell(" \t"));
  EXPECT_FALSE(IsAbsentCell("0"));
  EXPECT_EQ(TrimCell(p.rows[0][0]), "1736408883704643.212");
}

TEST(CsvReader, QuoteInsideUnquotedAndTextAfterClosingQuoteAreLiteral) {
  Diagnostics d;
  Parsed p = ParseAll("a,b\nab\"c,\"x\"yz\n", &d);
  ASSERT_EQ(p.rows.size(), 1u);
  EXPECT_EQ(p.rows[0][0], "ab\"c");
  EXPECT_EQ(p.rows[0][1], "xyz");
}

TEST(CsvReader, BlankLinesAreSkipped) {
  Diagnostics d;
  Parsed p = ParseAll("\n\r\na,b\n\n1,2\r\n\r\n3,4\n\n", &d);
  EXPECT_EQ(p.rows, (Rows{{"1", "2"}, {"3", "4"}}));
  EXPECT_EQ(p.lines, (std::vector<int64_t>{5, 7}));
  EXPECT_TRUE(d.empty());
}

TEST(CsvReader, WrongWidthRowIsDiagnosedAndSkipped) {
  Diagnostics d;
  Parsed p = ParseAll("a,b,c\n1,2,3\n1,2\n1,2,3,4\n7,8,9\n", &d);
  EXPECT_EQ(p.rows, (Rows{{"1", "2", "3"}, {"7", "8", "9"}}));
  EXPECT_EQ(d.count(DiagId::csv_row_width), 2u);
  EXPECT_EQ(d.entry(DiagId::csv_row_width).examples[0].where.ToString(), "t.csv:3");
  EXPECT_EQ(d.entry(DiagId::csv_row_width).examples[1].where.ToString(), "t.csv:4");
  EXPECT_FALSE(d.CheckStrict().ok());
}

TEST(CsvReader, UnterminatedQuoteAtEofIsDiagnosed) {
  Diagnostics d;
  Parsed p = ParseAll("a,b\n1,2\n3,\"open\n", &d);
  EXPECT_EQ(p.rows, (Rows{{"1", "2"}}));
  EXPECT_EQ(d.count(DiagId::csv_unterminated_quote), 1u);
  EXPECT_EQ(d.entry(DiagId::csv_unterminated_quote).examples[0].where.ToString(), "t.csv:3");
}

TEST(CsvReader, TinyBuffersGiveTheSameResult) {
  const std::string text =
      "\xEF\xBB\xBFName,Input Shapes,Start Time(us)\r\n"
      "a,\"\"\"32,3,224,224\"\"\",1736408883704643.212\t\r\n"
      "b,\"multi\r\nline\",2\r\n"
      "\r\n"
      "c,,N/A\r\n";
  Diagnostics d0;
  Parsed ref = ParseAll(text, &d0);
  ASSERT_EQ(ref.rows.size(), 3u);
  EXPECT_EQ(ref.lines, (std::vector<int64_t>{2, 3, 6}));
  for (size_t buf : {1u, 2u, 3u, 4u, 5u, 7u, 13u}) {
    Diagnostics d;
    Parsed p = ParseAll(text, &d, buf);
    EXPECT_EQ(p.header, ref.header) << "buffer " << buf;
    EXPECT_EQ(p.rows, ref.rows) << "buffer " << buf;
    EXPECT_EQ(p.lines, ref.lines) << "buffer " << buf;
  }
}

TEST(CsvReader, ColumnLookupByName) {
  auto r = CsvReader::FromString("t.csv", "Step ID, Name ,Type\n1,a,b\n", nullptr);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)->ColumnIndex("Name"), 1);  // header names are trimmed
  EXPECT_EQ((*r)->ColumnIndex("Nope"), -1);
  EXPECT_EQ((*r)->ColumnIndexAny({"Step Id", "Step ID"}), 0);
  EXPECT_EQ((*r)->header_line(), 1);
  CsvRecord rec;
  auto n = (*r)->Next(rec);
  ASSERT_TRUE(n.ok() && *n);
  EXPECT_EQ(rec.Get(2), "b");
  EXPECT_EQ(rec.Get(-1), "");
  EXPECT_EQ(rec.Get(9), "");
}

TEST(CsvReader, EmptyFileIsAnError) {
  for (const char* text : {"", "\n\n\r\n", "\xEF\xBB\xBF"}) {
    auto r = CsvReader::FromString("e.csv", text, nullptr);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), StatusCode::kParseError);
    EXPECT_NE(r.status().message().find("e.csv:"), std::string::npos) << r.status().message();
    EXPECT_NE(r.status().message().find("no CSV header"), std::string::npos) << r.status().message();
  }
}

TEST(CsvReader, HeaderWithoutNamesIsAnError) {
  auto r = CsvReader::FromString("h.csv", ",,\n1,2,3\n", nullptr);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("h.csv:1"), std::string::npos) << r.status().message();
}

TEST(CsvReader, BinaryGarbageIsAnErrorWithLine) {
  // gzip magic + NUL bytes in the header.
  std::string gz("\x1f\x8b\x08\x00\x00\x00\x00\x00", 8);
  auto r = CsvReader::FromString("g.csv", gz, nullptr);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kParseError);
  EXPECT_NE(r.status().message().find("g.csv:1"), std::string::npos) << r.status().message();

  // Control bytes without NUL in the header.
  auto r2 = CsvReader::FromString("c.csv", "\x01\x02\x03,\x7f\n", nullptr);
  ASSERT_FALSE(r2.ok());

  // A NUL byte in a later row fails the read naming its line.
  auto r3 = CsvReader::FromString("n.csv", std::string("a,b\n1,2\n3,\0\n", 12), nullptr);
  ASSERT_TRUE(r3.ok());
  CsvRecord rec;
  auto n1 = (*r3)->Next(rec);
  ASSERT_TRUE(n1.ok() && *n1);
  auto n2 = (*r3)->Next(rec);
  ASSERT_FALSE(n2.ok());
  EXPECT_NE(n2.status().message().find("n.csv:3"), std::string::npos) << n2.status().message();
}

TEST(CsvReader, OpenMissingFileIsNotFound) {
  auto r = CsvReader::Open("/nonexistent/dir/kernel_details.csv", nullptr);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kNotFound);
  EXPECT_NE(r.status().message().find("/nonexistent/dir/kernel_details.csv"), std::string::npos);
}

TEST(CsvReader, OpenReadsAFileThroughTheFixedBuffer) {
  const std::filesystem::path dir = std::filesystem::path(PROFDIFF_BINARY_DIR) / "csv_reader_test_tmp";
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "big.csv").string();
  {
    std::ofstream f(path, std::ios::binary);
    f << "id,name,shape\r\n";
    for (int i = 0; i < 5000; ++i) f << i << ",op" << i << ",\"\"\"" << i << ",1\"\"\"\r\n";
  }
  Diagnostics d;
  auto r = CsvReader::Open(path, &d, 100);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  CsvRecord rec;
  int n = 0;
  for (;;) {
    auto more = (*r)->Next(rec);
    ASSERT_TRUE(more.ok());
    if (!*more) break;
    ASSERT_EQ(rec[0], std::to_string(n));
    ASSERT_EQ(rec[2], "\"" + std::to_string(n) + ",1\"");
    ASSERT_EQ(rec.line(), n + 2);
    ++n;
  }
  EXPECT_EQ(n, 5000);
  EXPECT_EQ((*r)->rows_read(), 5000u);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace profdiff
