// Escaping for the HTML page (docs/html-report.md#security). Every name that comes from a trace
// (operator, module, kernel, group, path) is untrusted text and goes through one of these for the
// context it lands in; nothing from a trace is ever written raw.
#pragma once

#include <string>
#include <string_view>

#include "profdiff/report/json_values.h"

namespace profdiff::report::html {

// Text for an HTML element's content or a double-quoted attribute value: & < > " ' become
// character references. Invalid UTF-8 and control characters (other than tab and newline) become
// U+FFFD, so a byte sequence cannot change how a browser decodes what follows.
std::string EscapeText(std::string_view text);

// The same rules; a separate name so each call says which context it serves.
inline std::string EscapeAttribute(std::string_view text) { return EscapeText(text); }

// A JSON value for an inline <script type="application/json"> block: compact JSON whose <, >, & and
// U+2028/U+2029 are written as \uXXXX escapes, so no "</script>" or "<!--" can end or change the
// block and the text is also a valid JavaScript literal. Invalid UTF-8 is replaced.
std::string EscapeScriptJson(const OrderedJson& value);

}  // namespace profdiff::report::html
