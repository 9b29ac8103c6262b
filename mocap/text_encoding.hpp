// Text of Motive CSV headers as UTF-8. Motive writes UTF-8, but files edited or exported on
// Windows may carry names in a legacy code page; every string clothfit keeps from a file is
// valid UTF-8 so that it can always be printed and written as JSON.
#pragma once

#include <string>
#include <string_view>

namespace clothfit::mocap {

// `text` with its valid UTF-8 sequences kept and every other byte read as Latin-1 (ISO 8859-1:
// byte b becomes U+00b). Valid UTF-8 (RFC 3629: no overlong forms, no surrogates, at most
// U+10FFFF) comes back unchanged.
std::string utf8_from_utf8_or_latin1(std::string_view text);

}  // namespace clothfit::mocap
