// Text from an input (an operator or process name, a path, bytes an error quotes) made safe to show
// on a terminal or in a log: a crafted trace must not be able to move the cursor, retitle the
// window or clear the screen of the user who inspects it.
#pragma once

#include <string>
#include <string_view>

namespace profdiff {

// `text` with every control character escaped as \xNN: C0 (NUL, BEL, ESC, CR, ...; newline and tab
// kept when `keep_newlines`), DEL, the C1 controls U+0080-U+009F, and each byte that is not part of
// valid UTF-8 (a lone 0x9B is CSI on an 8-bit terminal). A backslash is kept as it is. Text without
// such bytes comes back unchanged.
std::string EscapeForTerminal(std::string_view text, bool keep_newlines = true);

}  // namespace profdiff
