/* Model files: save / load round trip for every algorithm of the foundation,
 * the option tier in files (only stable options are written; a file naming an
 * internal one loads), and rejection (KINDRED_E_CORRUPT, never a crash) of
 * corrupted, truncated, foreign and wrong-version files. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kindred.h"
#include "testing.h"

enum { N = 60, D = 3, K = 3 };

/* Layout of the file (src/core/model_file.cpp): magic (8), version (4),
 * payload length (8), payload, checksum (8). */
enum { HEADER = 8 + 4 + 8, CHECKSUM = 8 };

static void temp_path(char *out, size_t size, const char *name) {
    const char *dir = getenv("TMPDIR");
    snprintf(out, size, "%s/kindred_test_io_%ld_%s", dir ? dir : "/tmp", (long)getpid(), name);
}

static unsigned char *read_all(const char *path, long *size) {
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    *size = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *bytes = malloc((size_t)*size + 1);
    assert_non_null(bytes);
    assert_int_equal(fread(bytes, 1, (size_t)*size, f), (size_t)*size);
    fclose(f);
    return bytes;
}

static void write_all(const char *path, const unsigned char *bytes, long size) {
    /* A new file each time: rewriting a truncated one makes ext4 flush it to disk on close. */
    remove(path);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    if (size > 0) assert_int_equal(fwrite(bytes, 1, (size_t)size, f), (size_t)size);
    fclose(f);
}

static void fix_checksum(unsigned char *bytes, long size) {
    const uint64_t h = test_fnv1a(bytes + HEADER, (size_t)(size - HEADER - CHECKSUM));
    memcpy(bytes + size - CHECKSUM, &h, sizeof h);
}

static kindred_model *fit(const char *algorithm, const double *x) {
    kindred_model *m = NULL;
    assert_ok(kindred_model_new(&m, algorithm));
    assert_ok(kindred_model_set_int(m, "k", K));
    assert_ok(kindred_model_set_int(m, "seed", 42));
    if (strcmp(algorithm, "gmm") == 0) assert_ok(kindred_model_set_string(m, "covariance", "full"));
    if (strcmp(algorithm, "kmeans") == 0) assert_ok(kindred_model_set_double(m, "tol", 1e-7));
    assert_ok(kindred_model_fit_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, NULL));
    return m;
}

static void assert_same_models(const kindred_model *a, const kindred_model *b, const double *x) {
    assert_string_equal(kindred_model_algorithm(a), kindred_model_algorithm(b));
    int64_t n[2], d[2], k[2], it[2];
    int conv[2];
    double obj[2];
    assert_ok(kindred_model_summary(a, &n[0], &d[0], &k[0], &it[0], &conv[0], &obj[0]));
    assert_ok(kindred_model_summary(b, &n[1], &d[1], &k[1], &it[1], &conv[1], &obj[1]));
    assert_int_equal(n[0], n[1]);
    assert_int_equal(d[0], d[1]);
    assert_int_equal(k[0], k[1]);
    assert_int_equal(it[0], it[1]);
    assert_int_equal(conv[0], conv[1]);
    assert_memory_equal(&obj[0], &obj[1], sizeof(double));
    int32_t la[N], lb[N];
    assert_ok(kindred_model_labels(a, la, N));
    assert_ok(kindred_model_labels(b, lb, N));
    assert_memory_equal(la, lb, sizeof la);
    /* Every array, by index and by name, bit for bit. */
    int64_t count_a = 0, count_b = 0;
    assert_ok(kindred_model_array_count(a, &count_a));
    assert_ok(kindred_model_array_count(b, &count_b));
    assert_int_equal(count_a, count_b);
    assert_true(count_a >= 2);
    for (int64_t e = 0; e < count_a; ++e) {
        const char *name_a = NULL, *name_b = NULL;
        int64_t ra = 0, ca = 0, rb = 0, cb = 0;
        assert_ok(kindred_model_array_info(a, e, &name_a, &ra, &ca));
        assert_ok(kindred_model_array_info(b, e, &name_b, &rb, &cb));
        assert_string_equal(name_a, name_b);
        assert_int_equal(ra, rb);
        assert_int_equal(ca, cb);
        double *va = malloc(sizeof(double) * (size_t)(ra * ca + 1));
        double *vb = malloc(sizeof(double) * (size_t)(rb * cb + 1));
        assert_ok(kindred_model_array(a, name_a, va, ra * ca));
        assert_ok(kindred_model_array(b, name_b, vb, rb * cb));
        assert_memory_equal(va, vb, sizeof(double) * (size_t)(ra * ca));
        free(va);
        free(vb);
    }
    /* Every option's text. */
    int64_t options = 0;
    assert_ok(kindred_option_count(kindred_model_algorithm(a), &options));
    for (int64_t o = 0; o < options; ++o) {
        const char *name = NULL;
        assert_ok(kindred_option_info(kindred_model_algorithm(a), o, &name, NULL, NULL, NULL, NULL));
        char ta[64], tb[64];
        assert_ok(kindred_model_option(a, name, ta, sizeof ta));
        assert_ok(kindred_model_option(b, name, tb, sizeof tb));
        assert_string_equal(ta, tb);
    }
    /* Predictions on the training points and on shifted ones. */
    double y[N * D];
    for (int v = 0; v < N * D; ++v) y[v] = x[v] + 0.3 * ((v % 7) - 3);
    assert_ok(kindred_model_predict_dense(a, y, N, D, KINDRED_ROW_MAJOR, D, la, N));
    assert_ok(kindred_model_predict_dense(b, y, N, D, KINDRED_ROW_MAJOR, D, lb, N));
    assert_memory_equal(la, lb, sizeof la);
}

static void round_trip(const char *algorithm) {
    double x[N * D];
    make_blobs(x, NULL, N, D, K, 6.0, 2.0, 17);
    kindred_model *m = fit(algorithm, x);
    char path[512];
    temp_path(path, sizeof path, algorithm);
    assert_ok(kindred_model_save(m, path));
    kindred_model *loaded = NULL;
    assert_ok(kindred_model_load(&loaded, path));
    assert_non_null(loaded);
    assert_same_models(m, loaded, x);
    /* A loaded model saves to the same bytes, and can be refitted. */
    char path2[512];
    temp_path(path2, sizeof path2, "resaved");
    assert_ok(kindred_model_save(loaded, path2));
    long s1 = 0, s2 = 0;
    unsigned char *b1 = read_all(path, &s1), *b2 = read_all(path2, &s2);
    assert_int_equal(s1, s2);
    assert_memory_equal(b1, b2, (size_t)s1);
    free(b1);
    free(b2);
    assert_ok(kindred_model_fit_dense(loaded, x, N, D, KINDRED_ROW_MAJOR, D, NULL));
    assert_same_models(m, loaded, x);
    /* Saving over an existing file replaces it. */
    assert_ok(kindred_model_save(m, path2));
    remove(path);
    remove(path2);
    kindred_model_free(loaded);
    kindred_model_free(m);
}

static void round_trip_kmeans(void **state) { (void)state; round_trip("kmeans"); }
static void round_trip_dpmeans(void **state) { (void)state; round_trip("dpmeans"); }
static void round_trip_gmm(void **state) { (void)state; round_trip("gmm"); }

/* A small saved model and its bytes. */
typedef struct saved_model {
    char path[512];
    unsigned char *bytes;
    long size;
} saved_model;

static int setup_saved(void **state) {
    saved_model *s = calloc(1, sizeof *s);
    double x[N * D];
    make_blobs(x, NULL, N, D, K, 6.0, 0.5, 5);
    kindred_model *m = NULL;
    if (kindred_model_new(&m, "kmeans") != KINDRED_OK) return -1;
    kindred_model_set_int(m, "k", 2);
    kindred_model_set_int(m, "n_init", 1);
    if (kindred_model_fit_dense(m, x, 8, D, KINDRED_ROW_MAJOR, D, NULL) != KINDRED_OK) return -1;
    temp_path(s->path, sizeof s->path, "small.kdm");
    if (kindred_model_save(m, s->path) != KINDRED_OK) return -1;
    kindred_model_free(m);
    s->bytes = read_all(s->path, &s->size);
    *state = s;
    return 0;
}

static int teardown_saved(void **state) {
    saved_model *s = *state;
    remove(s->path);
    free(s->bytes);
    free(s);
    return 0;
}

static void load_expect(const char *path, kindred_status code, const char *needle) {
    kindred_model *m = (kindred_model *)&m; /* not NULL: load must reset it */
    assert_fails_with(kindred_model_load(&m, path), code, needle);
    assert_null(m);
}

static void flipped_payload_byte_is_corrupt(void **state) {
    saved_model *s = *state;
    unsigned char *copy = malloc((size_t)s->size);
    /* Every byte of the payload and of the checksum, one at a time. */
    for (long at = HEADER; at < s->size; ++at) {
        memcpy(copy, s->bytes, (size_t)s->size);
        copy[at] ^= 0x20;
        write_all(s->path, copy, s->size);
        load_expect(s->path, KINDRED_E_CORRUPT, "checksum mismatch");
    }
    free(copy);
}

static void every_truncation_is_corrupt(void **state) {
    saved_model *s = *state;
    for (long len = 0; len < s->size; ++len) {
        write_all(s->path, s->bytes, len);
        kindred_model *m = NULL;
        assert_int_equal(kindred_model_load(&m, s->path), KINDRED_E_CORRUPT);
        assert_null(m);
        assert_string_not_equal(kindred_last_error(), "");
    }
    /* Extra bytes at the end are rejected too. */
    unsigned char *longer = malloc((size_t)s->size + 1);
    memcpy(longer, s->bytes, (size_t)s->size);
    longer[s->size] = 0;
    write_all(s->path, longer, s->size + 1);
    load_expect(s->path, KINDRED_E_CORRUPT, "unexpected bytes");
    free(longer);
}

static void foreign_files_are_corrupt(void **state) {
    saved_model *s = *state;
    const char *texts[] = {"", "KINDRED", "kindred model\n", "1,2,3\n4,5,6\n",
                           "KINDREDM", "\x7f" "ELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00"};
    for (size_t t = 0; t < sizeof texts / sizeof texts[0]; ++t) {
        write_all(s->path, (const unsigned char *)texts[t], (long)strlen(texts[t]));
        kindred_model *m = NULL;
        assert_int_equal(kindred_model_load(&m, s->path), KINDRED_E_CORRUPT);
        assert_null(m);
    }
    /* Random bytes of various lengths. */
    test_rng r = {99};
    unsigned char junk[300];
    for (int len = 1; len <= 300; len += 13) {
        for (int b = 0; b < len; ++b) junk[b] = (unsigned char)test_rng_next(&r);
        write_all(s->path, junk, len);
        load_expect(s->path, KINDRED_E_CORRUPT, "not a kindred model file");
    }
    /* The right magic followed by random bytes. */
    for (int len = 8; len <= 300; len += 11) {
        memcpy(junk, "KINDREDM", 8);
        for (int b = 8; b < len; ++b) junk[b] = (unsigned char)test_rng_next(&r);
        write_all(s->path, junk, len);
        kindred_model *m = NULL;
        assert_int_equal(kindred_model_load(&m, s->path), KINDRED_E_CORRUPT);
        assert_null(m);
    }
}

static void wrong_format_version_is_corrupt(void **state) {
    saved_model *s = *state;
    unsigned char *copy = malloc((size_t)s->size);
    memcpy(copy, s->bytes, (size_t)s->size);
    const uint32_t versions[] = {0, 2, 0xffffffffu};
    for (size_t v = 0; v < 3; ++v) {
        memcpy(copy + 8, &versions[v], 4);
        write_all(s->path, copy, s->size);
        load_expect(s->path, KINDRED_E_CORRUPT, "model format version");
        assert_non_null(strstr(kindred_last_error(), "reads version 1"));
    }
    free(copy);
}

/* A file whose checksum is right but whose content was changed (a bug in a
 * writer, or tampering): every single-byte change is loaded or rejected with
 * KINDRED_E_CORRUPT, never a crash; a loaded one answers queries safely. */
static void forged_payloads_never_crash(void **state) {
    saved_model *s = *state;
    unsigned char *copy = malloc((size_t)s->size);
    double x[8 * D];
    make_blobs(x, NULL, 8, D, K, 6.0, 0.5, 5);
    const unsigned char changes[] = {0x01, 0x80, 0xff};
    for (long at = HEADER; at < s->size - CHECKSUM; ++at) {
        for (size_t c = 0; c < sizeof changes; ++c) {
            memcpy(copy, s->bytes, (size_t)s->size);
            copy[at] ^= changes[c];
            fix_checksum(copy, s->size);
            write_all(s->path, copy, s->size);
            kindred_model *m = NULL;
            const kindred_status st = kindred_model_load(&m, s->path);
            if (st != KINDRED_OK) {
                if (st != KINDRED_E_CORRUPT) print_error("byte %ld ^ 0x%x: %s\n", at, changes[c], kindred_last_error());
                assert_int_equal(st, KINDRED_E_CORRUPT);
                assert_null(m);
                continue;
            }
            int64_t n = 0, d = 0;
            assert_ok(kindred_model_summary(m, &n, &d, NULL, NULL, NULL, NULL));
            assert_int_equal(n, 8); /* n is checked against the label count */
            int32_t labels[8];
            const kindred_status p = kindred_model_predict_dense(m, x, 8, D, KINDRED_ROW_MAJOR, D, labels, 8);
            assert_true(p == KINDRED_OK || p == KINDRED_E_DIMENSION || p == KINDRED_E_NOT_FOUND ||
                        p == KINDRED_E_CORRUPT);
            kindred_model_free(m);
        }
    }
    free(copy);
}

/* ---- the option tier in model files ------------------------------------ */

static int contains(const unsigned char *bytes, long size, const char *text) {
    const size_t len = strlen(text);
    for (long at = 0; at + (long)len <= size; ++at)
        if (memcmp(bytes + at, text, len) == 0) return 1;
    return 0;
}

/* An RDP-means fit with its internal options away from their defaults. */
static kindred_model *fit_rdpmeans(const double *x) {
    kindred_model *m = NULL;
    assert_ok(kindred_model_new(&m, "rdpmeans"));
    assert_ok(kindred_model_set_int(m, "k", K));
    assert_ok(kindred_model_set_double(m, "xi_0", 0.01));
    for (int s = 0; s < RDPMEANS_INTERNAL_OPTIONS; ++s) assert_ok(kindred_model_set_string(m, rdpmeans_internal_option(s), "false"));
    assert_ok(kindred_model_fit_dense(m, x, N, D, KINDRED_ROW_MAJOR, D, NULL));
    return m;
}

/* The saved file names every stable option and no internal one (nor the
 * per-pass diagnostics, which are log records); the stable options come
 * back, the internal ones at their defaults. */
static void saved_file_holds_stable_options_only(void **state) {
    (void)state;
    double x[N * D];
    make_blobs(x, NULL, N, D, K, 6.0, 0.5, 23);
    kindred_model *m = fit_rdpmeans(x);
    char path[512];
    temp_path(path, sizeof path, "tier.kdm");
    assert_ok(kindred_model_save(m, path));
    long size = 0;
    unsigned char *bytes = read_all(path, &size);
    for (int s = 0; s < RDPMEANS_INTERNAL_OPTIONS; ++s) assert_false(contains(bytes, size, rdpmeans_internal_option(s)));
    assert_false(contains(bytes, size, "pass_"));
    int64_t count = 0;
    assert_ok(kindred_option_count("rdpmeans", &count));
    for (int64_t o = 0; o < count; ++o) {
        const char *name = NULL;
        assert_ok(kindred_option_info("rdpmeans", o, &name, NULL, NULL, NULL, NULL));
        assert_true(contains(bytes, size, name));
    }
    kindred_model *loaded = NULL;
    assert_ok(kindred_model_load(&loaded, path));
    assert_same_models(m, loaded, x); /* labels, arrays, every stable option's text, predictions */
    char text[32];
    for (int s = 0; s < RDPMEANS_INTERNAL_OPTIONS; ++s) {
        assert_ok(kindred_model_option(loaded, rdpmeans_internal_option(s), text, sizeof text));
        assert_string_equal(text, "1");
    }
    free(bytes);
    remove(path);
    kindred_model_free(loaded);
    kindred_model_free(m);
}

/* The file's bytes with one more option record (name, value) before the
 * others, its counts and checksum made right: what a writer that recorded
 * the option would have written. Returns the new size. */
static long with_option_record(const unsigned char *bytes, long size, const char *name, const char *value,
                               unsigned char *out) {
    uint64_t algorithm_len = 0, options = 0, payload = 0;
    memcpy(&algorithm_len, bytes + HEADER, 8);
    const long count_at = HEADER + 8 + (long)algorithm_len;
    memcpy(&options, bytes + count_at, 8);
    memcpy(&payload, bytes + 12, 8);
    const uint64_t name_len = strlen(name), value_len = strlen(value);
    const long record = (long)(16 + name_len + value_len);
    memcpy(out, bytes, (size_t)count_at + 8);
    unsigned char *p = out + count_at + 8;
    memcpy(p, &name_len, 8);
    memcpy(p + 8, name, name_len);
    memcpy(p + 8 + name_len, &value_len, 8);
    memcpy(p + 16 + name_len, value, value_len);
    memcpy(p + record, bytes + count_at + 8, (size_t)(size - count_at - 8));
    options += 1;
    payload += (uint64_t)record;
    memcpy(out + count_at, &options, 8);
    memcpy(out + 12, &payload, 8);
    fix_checksum(out, size + record);
    return size + record;
}

/* A file that names an internal option (as files written before the tier
 * did, with any value, even one the option refuses) loads: the value is
 * ignored, the model is the saved one, and saving it again writes the
 * original bytes; likewise a removed internal option (AlgorithmSpec::
 * retired_options). An unknown name is still a corrupt file. */
static void file_naming_internal_option_loads(void **state) {
    (void)state;
    double x[N * D];
    make_blobs(x, NULL, N, D, K, 6.0, 0.5, 29);
    kindred_model *m = fit_rdpmeans(x);
    char path[512], again[512];
    temp_path(path, sizeof path, "tier_named.kdm");
    temp_path(again, sizeof again, "tier_again.kdm");
    assert_ok(kindred_model_save(m, path));
    long size = 0;
    unsigned char *bytes = read_all(path, &size);
    unsigned char *forged = malloc((size_t)size + 256);
    const char *values[] = {"0", "1", "maybe"};
    char text[32];
    /* The internal options, then a removed one (index RDPMEANS_INTERNAL_OPTIONS). */
    for (int s = 0; s <= RDPMEANS_INTERNAL_OPTIONS; ++s) {
        const int retired = s == RDPMEANS_INTERNAL_OPTIONS;
        const char *name = retired ? RDPMEANS_RETIRED_OPTION : rdpmeans_internal_option(s);
        for (int v = 0; v < 3; ++v) {
            const long forged_size = with_option_record(bytes, size, name, values[v], forged);
            write_all(path, forged, forged_size);
            kindred_model *loaded = NULL;
            assert_ok(kindred_model_load(&loaded, path));
            assert_same_models(m, loaded, x);
            if (!retired) {
                assert_ok(kindred_model_option(loaded, name, text, sizeof text));
                assert_string_equal(text, "1"); /* the default, not the file's value */
            }
            assert_ok(kindred_model_save(loaded, again));
            long again_size = 0;
            unsigned char *resaved = read_all(again, &again_size);
            assert_int_equal(again_size, size);
            assert_memory_equal(resaved, bytes, (size_t)size);
            free(resaved);
            kindred_model_free(loaded);
        }
    }
    write_all(path, forged, with_option_record(bytes, size, "no_such_option", "1", forged));
    load_expect(path, KINDRED_E_CORRUPT, "unknown option 'no_such_option'");
    free(forged);
    free(bytes);
    remove(path);
    remove(again);
    kindred_model_free(m);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(round_trip_kmeans),
        cmocka_unit_test(round_trip_dpmeans),
        cmocka_unit_test(round_trip_gmm),
        cmocka_unit_test(saved_file_holds_stable_options_only),
        cmocka_unit_test(file_naming_internal_option_loads),
        cmocka_unit_test_setup_teardown(flipped_payload_byte_is_corrupt, setup_saved, teardown_saved),
        cmocka_unit_test_setup_teardown(every_truncation_is_corrupt, setup_saved, teardown_saved),
        cmocka_unit_test_setup_teardown(foreign_files_are_corrupt, setup_saved, teardown_saved),
        cmocka_unit_test_setup_teardown(wrong_format_version_is_corrupt, setup_saved, teardown_saved),
        cmocka_unit_test_setup_teardown(forged_payloads_never_crash, setup_saved, teardown_saved),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
