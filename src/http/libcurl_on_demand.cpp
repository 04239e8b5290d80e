// SPDX-License-Identifier: Apache-2.0
// The libcurl functions kforecast calls, defined here and forwarded to libcurl.so.4, which is
// opened on the first call rather than linked. Linked, libcurl and the libraries it needs (TLS,
// Kerberos, LDAP, SSH, IDN: about 30) were loaded and relocated at every start of every command:
// about 15 M instructions and 30 files mapped, some 90% of `kforecast --version`, for the one
// step that talks to an LLM endpoint. Commands that make no request now never load it.
//
// Only the functions curl_transport.cpp uses are here; a new one needs a line in each list. If
// libcurl.so.4 cannot be opened, the functions fail as libcurl does when it cannot start (a null
// handle, CURLE_FAILED_INIT), so the transport reports that it could not start a request.

// The header's type-checking macros would rename the variadic definitions below.
#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>
#include <dlfcn.h>

#include <cstdarg>

namespace {

struct Libcurl {
  decltype(&curl_global_init) global_init = nullptr;
  decltype(&curl_easy_init) easy_init = nullptr;
  decltype(&curl_easy_cleanup) easy_cleanup = nullptr;
  decltype(&curl_easy_reset) easy_reset = nullptr;
  decltype(&curl_easy_perform) easy_perform = nullptr;
  decltype(&curl_easy_setopt) easy_setopt = nullptr;
  decltype(&curl_easy_getinfo) easy_getinfo = nullptr;
  decltype(&curl_easy_strerror) easy_strerror = nullptr;
  decltype(&curl_share_init) share_init = nullptr;
  decltype(&curl_share_cleanup) share_cleanup = nullptr;
  decltype(&curl_share_setopt) share_setopt = nullptr;
  decltype(&curl_slist_append) slist_append = nullptr;
  decltype(&curl_slist_free_all) slist_free_all = nullptr;
};

template <typename Function>
void find(void* library, const char* name, Function& out) {
  out = reinterpret_cast<Function>(dlsym(library, name));
}

Libcurl open_libcurl() {
  Libcurl curl;
  // The soname of libcurl 7.16 and later (Debian's libcurl4); local, so that its symbols never
  // stand in for these.
  void* library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) return curl;
  find(library, "curl_global_init", curl.global_init);
  find(library, "curl_easy_init", curl.easy_init);
  find(library, "curl_easy_cleanup", curl.easy_cleanup);
  find(library, "curl_easy_reset", curl.easy_reset);
  find(library, "curl_easy_perform", curl.easy_perform);
  find(library, "curl_easy_setopt", curl.easy_setopt);
  find(library, "curl_easy_getinfo", curl.easy_getinfo);
  find(library, "curl_easy_strerror", curl.easy_strerror);
  find(library, "curl_share_init", curl.share_init);
  find(library, "curl_share_cleanup", curl.share_cleanup);
  find(library, "curl_share_setopt", curl.share_setopt);
  find(library, "curl_slist_append", curl.slist_append);
  find(library, "curl_slist_free_all", curl.slist_free_all);
  return curl;
}

// Opened once, on the first call from any thread (a function-local static is initialised once).
const Libcurl& libcurl() {
  static const Libcurl curl = open_libcurl();
  return curl;
}

}  // namespace

extern "C" {

CURLcode curl_global_init(long flags) {
  const auto f = libcurl().global_init;
  return f != nullptr ? f(flags) : CURLE_FAILED_INIT;
}

CURL* curl_easy_init() {
  const auto f = libcurl().easy_init;
  return f != nullptr ? f() : nullptr;
}

void curl_easy_cleanup(CURL* handle) {
  if (const auto f = libcurl().easy_cleanup) f(handle);
}

void curl_easy_reset(CURL* handle) {
  if (const auto f = libcurl().easy_reset) f(handle);
}

CURLcode curl_easy_perform(CURL* handle) {
  const auto f = libcurl().easy_perform;
  return f != nullptr ? f(handle) : CURLE_FAILED_INIT;
}

// The value's type follows from the option's number, as libcurl itself reads it: a long, an
// object or function pointer, a curl_off_t, or a blob pointer.
CURLcode curl_easy_setopt(CURL* handle, CURLoption option, ...) {
  const auto f = libcurl().easy_setopt;
  if (f == nullptr) return CURLE_FAILED_INIT;
  va_list arguments;
  va_start(arguments, option);
  CURLcode result;
  // The branches differ in va_arg's type, which bugprone-branch-clone does not compare.
  if (option < CURLOPTTYPE_OBJECTPOINT)
    result = f(handle, option, va_arg(arguments, long));  // NOLINT(bugprone-branch-clone)
  else if (option < CURLOPTTYPE_OFF_T)
    result = f(handle, option, va_arg(arguments, void*));
  else if (option < CURLOPTTYPE_BLOB)
    result = f(handle, option, va_arg(arguments, curl_off_t));
  else
    result = f(handle, option, va_arg(arguments, void*));
  va_end(arguments);
  return result;
}

// Every piece of information is written through a pointer.
CURLcode curl_easy_getinfo(CURL* handle, CURLINFO info, ...) {
  const auto f = libcurl().easy_getinfo;
  if (f == nullptr) return CURLE_FAILED_INIT;
  va_list arguments;
  va_start(arguments, info);
  const CURLcode result = f(handle, info, va_arg(arguments, void*));
  va_end(arguments);
  return result;
}

const char* curl_easy_strerror(CURLcode code) {
  const auto f = libcurl().easy_strerror;
  return f != nullptr ? f(code) : "libcurl.so.4 could not be loaded (install libcurl4)";
}

CURLSH* curl_share_init() {
  const auto f = libcurl().share_init;
  return f != nullptr ? f() : nullptr;
}

CURLSHcode curl_share_cleanup(CURLSH* share) {
  const auto f = libcurl().share_cleanup;
  return f != nullptr ? f(share) : CURLSHE_NOT_BUILT_IN;
}

// CURLSHOPT_SHARE and CURLSHOPT_UNSHARE take an int (a curl_lock_data); the others a pointer.
CURLSHcode curl_share_setopt(CURLSH* share, CURLSHoption option, ...) {
  const auto f = libcurl().share_setopt;
  if (f == nullptr) return CURLSHE_NOT_BUILT_IN;
  va_list arguments;
  va_start(arguments, option);
  // The branches differ in va_arg's type, which bugprone-branch-clone does not compare.
  const CURLSHcode result = option == CURLSHOPT_SHARE || option == CURLSHOPT_UNSHARE
                                ? f(share, option, va_arg(arguments, int))  // NOLINT(bugprone-branch-clone)
                                : f(share, option, va_arg(arguments, void*));
  va_end(arguments);
  return result;
}

curl_slist* curl_slist_append(curl_slist* list, const char* text) {
  const auto f = libcurl().slist_append;
  return f != nullptr ? f(list, text) : nullptr;
}

void curl_slist_free_all(curl_slist* list) {
  if (const auto f = libcurl().slist_free_all) f(list);
}

}  // extern "C"
