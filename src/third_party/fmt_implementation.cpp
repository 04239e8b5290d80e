// SPDX-License-Identifier: Apache-2.0
// fmt's compiled part, built once into the binary. Debian ships fmt as headers plus a shared
// library only; linking that library kept the binary from being self-contained, and fmt's
// header-only mode compiles this same implementation into every file that formats (seconds per
// file). Here it is compiled in this one file: every other file includes <fmt/format.h> as usual,
// and format.h declares (non-inline, or `extern template`) what is defined below.
//
// What must be here: the non-template functions format-inl.h defines (FMT_FUNC: vformat,
// format_error, vprint, ...; they are defined simply by including it without FMT_HEADER_ONLY) and
// the templates that format-inl.h alone defines, instantiated for the types other files use.

#include <fmt/format-inl.h>

FMT_BEGIN_NAMESPACE
namespace detail {

// Floating-point formatting (shortest round-trip digits): declared in format.h, defined only in
// format-inl.h.
template auto dragonbox::to_decimal<float>(float x) noexcept -> dragonbox::decimal_fp<float>;
template auto dragonbox::to_decimal<double>(double x) noexcept -> dragonbox::decimal_fp<double>;

// Locale-aware formatting ({:L}) reaches std::locale only through these.
template locale_ref::locale_ref(const std::locale& loc);
template auto locale_ref::get<std::locale>() const -> std::locale;

// format.h declares these `extern template` for both character types.
template auto thousands_sep_impl<char>(locale_ref) -> thousands_sep_result<char>;
template auto thousands_sep_impl<wchar_t>(locale_ref) -> thousands_sep_result<wchar_t>;
template auto decimal_point_impl<char>(locale_ref) -> char;
template auto decimal_point_impl<wchar_t>(locale_ref) -> wchar_t;

}  // namespace detail
FMT_END_NAMESPACE
