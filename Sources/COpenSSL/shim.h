// OpenSSL's libcrypto for SHA-256 (DocModel) and RS256 signing (Firestore),
// loaded with dlopen on first use.
//
// Why dlopen instead of linking: binding libcrypto's ~4,000 symbol relocations
// costs about a millisecond at every process start, and commands such as
// `docsync get` never hash or sign anything. The headers give the types and
// constants; the functions come from `docsync_crypto_load`, which fills a
// table of pointers typed after OpenSSL's own declarations.
#ifndef DOCSYNC_COPENSSL_SHIM_H
#define DOCSYNC_COPENSSL_SHIM_H

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <dlfcn.h>
#include <stddef.h>

/// The libcrypto functions docsync uses, resolved from the shared library.
typedef struct {
    __typeof__(EVP_Digest) *digest;
    __typeof__(EVP_sha256) *sha256;
    __typeof__(EVP_MD_CTX_new) *md_ctx_new;
    __typeof__(EVP_MD_CTX_free) *md_ctx_free;
    __typeof__(EVP_DigestSignInit) *digest_sign_init;
    __typeof__(EVP_DigestSign) *digest_sign;
    __typeof__(EVP_PKEY_free) *pkey_free;
    __typeof__(EVP_PKEY_get_base_id) *pkey_get_base_id;
    __typeof__(BIO_new_mem_buf) *bio_new_mem_buf;
    __typeof__(BIO_free) *bio_free;
    __typeof__(PEM_read_bio_PrivateKey) *pem_read_bio_private_key;
    __typeof__(ERR_get_error) *err_get_error;
    __typeof__(ERR_clear_error) *err_clear_error;
    __typeof__(ERR_error_string_n) *err_error_string_n;
} docsync_crypto_api;

/// Loads libcrypto 3 and fills `api`. Returns NULL on success, else a sentence
/// saying what is missing. Call it once (docsync does so from a Swift `static let`).
static inline const char *docsync_crypto_load(docsync_crypto_api *api) {
#if defined(__APPLE__)
    static const char *const names[] = {"libcrypto.3.dylib", NULL};
#else
    static const char *const names[] = {"libcrypto.so.3", NULL};
#endif
    void *library = NULL;
    for (int i = 0; names[i] != NULL && library == NULL; i++) library = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return "OpenSSL's libcrypto 3 is not installed (on Debian: apt-get install libssl3)";
#define DOCSYNC_CRYPTO_SYMBOL(field, name) \
    if ((*(void **)&api->field = dlsym(library, name)) == NULL) return "libcrypto is too old: " name " is missing (OpenSSL 3 is needed)";
    DOCSYNC_CRYPTO_SYMBOL(digest, "EVP_Digest")
    DOCSYNC_CRYPTO_SYMBOL(sha256, "EVP_sha256")
    DOCSYNC_CRYPTO_SYMBOL(md_ctx_new, "EVP_MD_CTX_new")
    DOCSYNC_CRYPTO_SYMBOL(md_ctx_free, "EVP_MD_CTX_free")
    DOCSYNC_CRYPTO_SYMBOL(digest_sign_init, "EVP_DigestSignInit")
    DOCSYNC_CRYPTO_SYMBOL(digest_sign, "EVP_DigestSign")
    DOCSYNC_CRYPTO_SYMBOL(pkey_free, "EVP_PKEY_free")
    DOCSYNC_CRYPTO_SYMBOL(pkey_get_base_id, "EVP_PKEY_get_base_id")
    DOCSYNC_CRYPTO_SYMBOL(bio_new_mem_buf, "BIO_new_mem_buf")
    DOCSYNC_CRYPTO_SYMBOL(bio_free, "BIO_free")
    DOCSYNC_CRYPTO_SYMBOL(pem_read_bio_private_key, "PEM_read_bio_PrivateKey")
    DOCSYNC_CRYPTO_SYMBOL(err_get_error, "ERR_get_error")
    DOCSYNC_CRYPTO_SYMBOL(err_clear_error, "ERR_clear_error")
    DOCSYNC_CRYPTO_SYMBOL(err_error_string_n, "ERR_error_string_n")
#undef DOCSYNC_CRYPTO_SYMBOL
    return NULL;
}

#endif
