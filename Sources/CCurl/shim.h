// libcurl for docsync's HTTP module, loaded with dlopen on first use.
//
// Why dlopen instead of linking: libcurl's dependency tree (OpenSSL, nghttp2,
// GSSAPI, LDAP, ...) costs several milliseconds at every process start, and the
// commands that never touch the network (get, query, count, export, status)
// must not pay for it. The headers give the types and constants; the functions
// come from `docsync_curl_load`, which fills a table of pointers.
//
// curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt are variadic, which
// Swift cannot call: the typed `static inline` wrappers below call them through
// the table with one argument of the right C type.
#ifndef DOCSYNC_CCURL_SHIM_H
#define DOCSYNC_CCURL_SHIM_H

#include <curl/curl.h>
#include <dlfcn.h>
#include <signal.h>
#include <stddef.h>

typedef CURLcode (*docsync_curl_setopt_fn)(CURL *, CURLoption, ...);
typedef CURLcode (*docsync_curl_getinfo_fn)(CURL *, CURLINFO, ...);
typedef CURLMcode (*docsync_curl_multi_setopt_fn)(CURLM *, CURLMoption, ...);

/// The libcurl functions docsync uses, resolved from the shared library.
typedef struct {
    CURLcode (*global_init)(long flags);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *handle);
    void (*easy_reset)(CURL *handle);
    void *easy_setopt;   // docsync_curl_setopt_fn
    void *easy_getinfo;  // docsync_curl_getinfo_fn
    const char *(*easy_strerror)(CURLcode code);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_cleanup)(CURLM *multi);
    void *multi_setopt;  // docsync_curl_multi_setopt_fn
    CURLMcode (*multi_add_handle)(CURLM *multi, CURL *handle);
    CURLMcode (*multi_remove_handle)(CURLM *multi, CURL *handle);
    CURLMcode (*multi_perform)(CURLM *multi, int *running);
    CURLMcode (*multi_poll)(CURLM *multi, struct curl_waitfd extra[], unsigned int count, int timeout_ms, int *numfds);
    CURLMcode (*multi_wakeup)(CURLM *multi);
    CURLMsg *(*multi_info_read)(CURLM *multi, int *queued);
    const char *(*multi_strerror)(CURLMcode code);
    struct curl_slist *(*slist_append)(struct curl_slist *list, const char *text);
    void (*slist_free_all)(struct curl_slist *list);
    curl_version_info_data *(*version_info)(CURLversion age);
} docsync_curl_api;

/// Loads libcurl, fills `api`, calls curl_global_init and makes the process
/// ignore SIGPIPE (libcurl is used with CURLOPT_NOSIGNAL, so a peer closing a
/// socket must not kill the process). Returns NULL on success, else a
/// sentence saying what is missing. Call it once (docsync does so from a
/// Swift `static let`).
static inline const char *docsync_curl_load(docsync_curl_api *api) {
#if defined(__APPLE__)
    static const char *const names[] = {"libcurl.4.dylib", "/usr/lib/libcurl.4.dylib", NULL};
#else
    static const char *const names[] = {"libcurl.so.4", "libcurl.so", NULL};
#endif
    void *library = NULL;
    for (int i = 0; names[i] != NULL && library == NULL; i++) library = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return "libcurl is not installed (on Debian: apt-get install libcurl4)";
#define DOCSYNC_CURL_SYMBOL(field, name) \
    if ((*(void **)&api->field = dlsym(library, name)) == NULL) return "libcurl is too old: " name " is missing (7.68 or newer is needed)";
    DOCSYNC_CURL_SYMBOL(global_init, "curl_global_init")
    DOCSYNC_CURL_SYMBOL(easy_init, "curl_easy_init")
    DOCSYNC_CURL_SYMBOL(easy_cleanup, "curl_easy_cleanup")
    DOCSYNC_CURL_SYMBOL(easy_reset, "curl_easy_reset")
    DOCSYNC_CURL_SYMBOL(easy_setopt, "curl_easy_setopt")
    DOCSYNC_CURL_SYMBOL(easy_getinfo, "curl_easy_getinfo")
    DOCSYNC_CURL_SYMBOL(easy_strerror, "curl_easy_strerror")
    DOCSYNC_CURL_SYMBOL(multi_init, "curl_multi_init")
    DOCSYNC_CURL_SYMBOL(multi_cleanup, "curl_multi_cleanup")
    DOCSYNC_CURL_SYMBOL(multi_setopt, "curl_multi_setopt")
    DOCSYNC_CURL_SYMBOL(multi_add_handle, "curl_multi_add_handle")
    DOCSYNC_CURL_SYMBOL(multi_remove_handle, "curl_multi_remove_handle")
    DOCSYNC_CURL_SYMBOL(multi_perform, "curl_multi_perform")
    DOCSYNC_CURL_SYMBOL(multi_poll, "curl_multi_poll")
    DOCSYNC_CURL_SYMBOL(multi_wakeup, "curl_multi_wakeup")
    DOCSYNC_CURL_SYMBOL(multi_info_read, "curl_multi_info_read")
    DOCSYNC_CURL_SYMBOL(multi_strerror, "curl_multi_strerror")
    DOCSYNC_CURL_SYMBOL(slist_append, "curl_slist_append")
    DOCSYNC_CURL_SYMBOL(slist_free_all, "curl_slist_free_all")
    DOCSYNC_CURL_SYMBOL(version_info, "curl_version_info")
#undef DOCSYNC_CURL_SYMBOL
    signal(SIGPIPE, SIG_IGN);
    CURLcode rc = api->global_init(CURL_GLOBAL_ALL);
    if (rc != CURLE_OK) return "libcurl could not be initialised (curl_global_init failed)";
    return NULL;
}

static inline CURLcode docsync_curl_setopt_long(const docsync_curl_api *api, CURL *handle, CURLoption option, long value) {
    return ((docsync_curl_setopt_fn)api->easy_setopt)(handle, option, value);
}

static inline CURLcode docsync_curl_setopt_off_t(const docsync_curl_api *api, CURL *handle, CURLoption option, curl_off_t value) {
    return ((docsync_curl_setopt_fn)api->easy_setopt)(handle, option, value);
}

static inline CURLcode docsync_curl_setopt_pointer(const docsync_curl_api *api, CURL *handle, CURLoption option, const void *value) {
    return ((docsync_curl_setopt_fn)api->easy_setopt)(handle, option, value);
}

/// The signature of CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION.
typedef size_t (*docsync_curl_data_callback)(char *data, size_t size, size_t count, void *context);

static inline CURLcode docsync_curl_setopt_callback(const docsync_curl_api *api, CURL *handle, CURLoption option,
                                                    docsync_curl_data_callback callback) {
    return ((docsync_curl_setopt_fn)api->easy_setopt)(handle, option, callback);
}

static inline CURLcode docsync_curl_getinfo_long(const docsync_curl_api *api, CURL *handle, CURLINFO info, long *value) {
    return ((docsync_curl_getinfo_fn)api->easy_getinfo)(handle, info, value);
}

static inline CURLcode docsync_curl_getinfo_pointer(const docsync_curl_api *api, CURL *handle, CURLINFO info, void **value) {
    return ((docsync_curl_getinfo_fn)api->easy_getinfo)(handle, info, value);
}

static inline CURLMcode docsync_curl_multi_setopt_long(const docsync_curl_api *api, CURLM *multi, CURLMoption option, long value) {
    return ((docsync_curl_multi_setopt_fn)api->multi_setopt)(multi, option, value);
}

/// The easy handle of a finished transfer and its result (CURLMsg holds them in a union).
static inline CURL *docsync_curl_message_handle(const CURLMsg *message) { return message->easy_handle; }
static inline CURLcode docsync_curl_message_result(const CURLMsg *message) { return message->data.result; }
static inline int docsync_curl_message_is_done(const CURLMsg *message) { return message->msg == CURLMSG_DONE; }

#endif
