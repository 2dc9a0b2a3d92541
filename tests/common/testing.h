/* Helpers shared by the C tests: deterministic synthetic data and checks on
 * the thread-local error message. Header-only (static inline), C99. */
#ifndef KINDRED_TESTS_TESTING_H
#define KINDRED_TESTS_TESTING_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kindred.h"

/* The call must fail with `code` and its message must contain `needle`. */
#define assert_fails_with(call, code, needle)                                  \
    do {                                                                      \
        assert_int_equal((call), (code));                                     \
        assert_non_null(strstr(kindred_last_error(), (needle)));              \
    } while (0)

/* The call must succeed and leave an empty message. */
#define assert_ok(call)                                                       \
    do {                                                                      \
        int status_ = (int)(call);                                            \
        if (status_ != KINDRED_OK) print_error("%s\n", kindred_last_error()); \
        assert_int_equal(status_, KINDRED_OK);                                \
        assert_string_equal(kindred_last_error(), "");                        \
    } while (0)

/* FNV-1a 64, the model file's checksum as the format documents it, so that
 * tests can forge files whose checksum is right. */
static inline uint64_t test_fnv1a(const unsigned char *p, size_t size) {
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t k = 0; k < size; ++k) {
        h ^= p[k];
        h *= 0x100000001b3ULL;
    }
    return h;
}

/* RDP-means' internal options, the timing switches (docs/conventions.md, "Options:
 * the stable and the internal tier"): index 0 to 2, NULL past them. A test of
 * the tier uses them as its internal options. RDPMEANS_RETIRED_OPTION: one
 * that was removed, which a model file may still name. */
enum { RDPMEANS_INTERNAL_OPTIONS = 3 };
#define RDPMEANS_RETIRED_OPTION "link_bytes"
static inline const char *rdpmeans_internal_option(int index) {
    static const char *const names[RDPMEANS_INTERNAL_OPTIONS] = {"skip_certified", "link_bounds", "center_bounds"};
    return index >= 0 && index < RDPMEANS_INTERNAL_OPTIONS ? names[index] : NULL;
}

/* A small generator of our own (splitmix64), so that test data is the same
 * everywhere and does not depend on the library under test. */
typedef struct test_rng {
    uint64_t state;
} test_rng;

static inline uint64_t test_rng_next(test_rng *r) {
    uint64_t z = (r->state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Uniform in [0, 1). */
static inline double test_rng_uniform(test_rng *r) {
    return (double)(test_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

/* Uniform in [-1, 1): a bounded noise, so that blobs stay separated. */
static inline double test_rng_symmetric(test_rng *r) { return 2.0 * test_rng_uniform(r) - 1.0; }

/* n points in d dimensions, row-major, in k blobs: point i belongs to blob
 * i % k, whose centre has coordinate `spread` * (c + 1) in dimension c % d and
 * 0 elsewhere (plus `spread` * c in dimension 0 so that centres are distinct
 * even when k > d); each coordinate gets uniform noise in [-noise, noise). */
static inline void make_blobs(double *x, int32_t *truth, int64_t n, int64_t d, int64_t k, double spread,
                              double noise, uint64_t seed) {
    test_rng r = {seed};
    for (int64_t i = 0; i < n; ++i) {
        const int64_t c = i % k;
        for (int64_t j = 0; j < d; ++j) {
            double centre = 0.0;
            if (j == c % d) centre += spread * (double)(c + 1);
            if (j == 0) centre += spread * (double)c;
            x[i * d + j] = centre + noise * test_rng_symmetric(&r);
        }
        if (truth) truth[i] = (int32_t)c;
    }
}

/* 1 when two labelings are the same partition (equal up to renaming). */
/* kindred_active_select with its options given as arguments (as tests name
 * them): the options handle is made, set, used and freed here. A refused
 * setting is returned as the call's status, its message kept (the _free
 * functions leave the message as it is). */
static inline kindred_status test_active_select(const char *strategy, const double *x, int64_t n, int64_t d,
                                                kindred_layout layout, int64_t ld, int64_t k, int64_t budget,
                                                int64_t seed, kindred_oracle_fn oracle, void *user,
                                                kindred_side *out_side) {
    kindred_active_options *options = NULL;
    kindred_status status = kindred_active_options_new(&options);
    if (status == KINDRED_OK && strategy) status = kindred_active_options_set_string(options, "strategy", strategy);
    if (status == KINDRED_OK) status = kindred_active_options_set_int(options, "k", k);
    if (status == KINDRED_OK) status = kindred_active_options_set_int(options, "budget", budget);
    if (status == KINDRED_OK) status = kindred_active_options_set_int(options, "seed", seed);
    if (status == KINDRED_OK) status = kindred_active_select(options, x, n, d, layout, ld, oracle, user, out_side);
    kindred_active_options_free(options);
    return status;
}

static inline int same_partition(const int32_t *a, const int32_t *b, int64_t n) {
    double ari = 0.0;
    if (kindred_metric("ari", a, b, n, &ari) != KINDRED_OK) return 0;
    return ari == 1.0;
}

/* 1 in a sanitizer build: sanitizers reserve terabytes of address space, so
 * tests that limit it (RLIMIT_AS) skip there, with a message. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define TEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define TEST_SANITIZED 1
#endif
#endif
#ifndef TEST_SANITIZED
#define TEST_SANITIZED 0
#endif

#endif
