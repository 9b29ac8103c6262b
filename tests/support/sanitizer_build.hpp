// Whether this test binary was built with AddressSanitizer (scripts/sanitize.sh), for the few
// tests whose set-up it cannot run under (an address-space limit: ASan reserves terabytes of
// shadow memory at start).
#pragma once

namespace clothfit::testing {

constexpr bool address_sanitizer_build() {
#if defined(__SANITIZE_ADDRESS__)
  return true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  return true;
#else
  return false;
#endif
#else
  return false;
#endif
}

}  // namespace clothfit::testing
