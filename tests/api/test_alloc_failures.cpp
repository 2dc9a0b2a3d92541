// Allocation-failure injection (SQLite's OOM loop): for each public entry
// point on a small input, fail the Nth allocation for N = 1, 2, ... until the
// call succeeds. Every failed call must return KINDRED_E_NOMEM with a message,
// leave its handles as they were (a side handle unchanged, a model usable and
// fitting to the same labels afterwards), and leak nothing (the sanitizer
// build of .ci/run runs this test with LeakSanitizer).
//
// The hook is this executable's own replacement of the global operator new,
// which the shared library's allocations resolve to as well: nothing of it is
// in the library. Allocations by BLAS (malloc) are not counted.
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <new>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

extern "C" {
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
}

#include "kindred.h"
#include "replaced_operator_new.hpp"

namespace {

// Allocations left before the one that fails; 0 = injection off. In
// persistent mode (SQLite's) every allocation after that one fails as well,
// until the countdown is reset.
std::atomic<long> countdown{0};
std::atomic<bool> injected{false}, persistent{false}, failing{false};

}  // namespace

void *test_allocate(std::size_t size) {
    if (countdown.load(std::memory_order_relaxed) > 0) {
        if (failing) return nullptr;
        if (countdown.fetch_sub(1) == 1) {
            injected = true;
            failing = persistent.load();
            return nullptr;
        }
    }
    return std::malloc(size ? size : 1);
}
// Not inlined into operator delete, where GCC would take the free() for a
// mismatch with operator new (it cannot see that new comes from malloc here).
__attribute__((noinline)) void test_release(void *p) { std::free(p); }

namespace {

enum { N = 40, D = 2 };

// Fails the 1st, 2nd, ... allocation of `call` until it succeeds without a
// failure. `setup` runs before each attempt with injection off (to start each
// attempt from the same state); after a failed call `after_failure` checks the
// handles. A call that succeeds although one of its allocations failed (the
// standard library's stable_sort, for one, falls back to a slower method when
// it gets no buffer) is fine: it is counted as tolerated. Returns the number
// of failure points exercised.
long tolerated_points = 0;

long inject_loop(const char *what, const std::function<void()> &setup, const std::function<kindred_status()> &call,
                 const std::function<void()> &after_failure) {
    for (long n = 1;; ++n) {
        setup();
        injected = false;
        failing = false;
        countdown = n;
        const kindred_status status = call();
        countdown = 0;
        failing = false;
        if (!injected) {
            if (status != KINDRED_OK) fail_msg("%s: failed without an injected failure: %s", what, kindred_last_error());
            return n - 1;
        }
        if (status == KINDRED_OK) {
            ++tolerated_points;
            continue;
        }
        if (status != KINDRED_E_NOMEM)
            fail_msg("%s: allocation %ld failed; status %d (%s), not KINDRED_E_NOMEM", what, n, status,
                     kindred_last_error());
        if (kindred_last_error()[0] == '\0') fail_msg("%s: allocation %ld failed with no message", what, n);
        after_failure();
        if (n > 2000000) fail_msg("%s: still failing after %ld allocations", what, n);
    }
}

long inject_loop(const char *what, const std::function<kindred_status()> &call,
                 const std::function<void()> &after_failure = [] {}) {
    return inject_loop(what, [] {}, call, after_failure);
}

struct Data {
    std::vector<double> x;
    std::vector<int32_t> truth;
    Data() {
        // Two groups, with a little spread, fixed (no generator needed).
        for (int p = 0; p < N; ++p) {
            const double base = p < N / 2 ? 0.0 : 6.0;
            x.push_back(base + 0.37 * ((p * 7) % 5) - 0.7);
            x.push_back(base + 0.29 * ((p * 3) % 7) - 0.9);
            truth.push_back(p < N / 2 ? 0 : 1);
        }
    }
};

const Data &data() {
    static const Data d;
    return d;
}

// Side information every algorithm can use: pairs, triplets, partial labels.
kindred_side *make_side() {
    kindred_side *s = nullptr;
    assert_int_equal(kindred_side_new(&s, N), KINDRED_OK);
    const int64_t i[4] = {0, 21, 1, 5}, j[4] = {3, 25, 30, 33};
    const double v[4] = {1, 1, -1, -1};
    const int64_t a[3] = {0, 21, 2}, b[3] = {1, 22, 3}, c[3] = {30, 2, 35};
    const int32_t answer[3] = {1, 1, 1};
    std::vector<int32_t> labels(N, -1);
    labels[0] = labels[1] = labels[2] = 0;
    labels[20] = labels[21] = labels[22] = 1;
    assert_int_equal(kindred_side_add_pairs(s, i, j, v, 4), KINDRED_OK);
    assert_int_equal(kindred_side_add_triplets(s, a, b, c, answer, 3), KINDRED_OK);
    assert_int_equal(kindred_side_set_partial_labels(s, labels.data(), N), KINDRED_OK);
    return s;
}

kindred_model *make_model(const char *algorithm) {
    kindred_model *m = nullptr;
    assert_int_equal(kindred_model_new(&m, algorithm), KINDRED_OK);
    assert_int_equal(kindred_model_set_int(m, "threads", 1), KINDRED_OK);
    assert_int_equal(kindred_model_set_int(m, "seed", 3), KINDRED_OK);
    kindred_model_set_int(m, "k", 2);  // where the algorithm has k
    return m;
}

std::vector<int32_t> labels_of(const kindred_model *m) {
    std::vector<int32_t> labels(N);
    assert_int_equal(kindred_model_labels(m, labels.data(), N), KINDRED_OK);
    return labels;
}

long total_points = 0;

void report(const char *what, long points) {
    total_points += points;
    print_message("%-34s %6ld failure points\n", what, points);
}

// Every algorithm: fit, then predict, transform (where it has one), save and load.
void fit_every_algorithm(void **) {
    const char *dir = std::getenv("TMPDIR");
    const std::string path = std::string(dir ? dir : "/tmp") + "/kindred_alloc_failures_" + std::to_string(getpid()) + ".kdm";
    kindred_side *side = make_side();
    for (int64_t a = 0; a < kindred_algorithm_count(); ++a) {
        const char *algorithm = kindred_algorithm_name(a);
        // The labels a fit gives with no failure: a fit after failures must give the same.
        kindred_model *reference = make_model(algorithm);
        assert_int_equal(kindred_model_fit_dense(reference, data().x.data(), N, D, KINDRED_ROW_MAJOR, D, side), KINDRED_OK);
        const std::vector<int32_t> expected = labels_of(reference);
        kindred_model_free(reference);

        kindred_model *m = nullptr;
        const std::string name = algorithm;
        report((name + " new").c_str(), inject_loop("model_new", [&] {
            kindred_model_free(m);
            m = nullptr;
            return kindred_model_new(&m, algorithm);
        }, [&] { assert_null(m); }));
        kindred_model_free(m);
        m = make_model(algorithm);
        report((name + " fit").c_str(), inject_loop("fit", [&] {
            return kindred_model_fit_dense(m, data().x.data(), N, D, KINDRED_ROW_MAJOR, D, side);
        }, [&] {
            // A failed fit leaves no result behind.
            int32_t l[N];
            assert_int_equal(kindred_model_labels(m, l, N), KINDRED_E_STATE);
        }));
        assert_memory_equal(labels_of(m).data(), expected.data(), sizeof(int32_t) * N);

        std::vector<int32_t> predicted(N);
        if (kindred_model_predict_dense(m, data().x.data(), N, D, KINDRED_ROW_MAJOR, D, predicted.data(), N) == KINDRED_OK)
            report((name + " predict").c_str(), inject_loop("predict", [&] {
                return kindred_model_predict_dense(m, data().x.data(), N, D, KINDRED_ROW_MAJOR, D, predicted.data(), N);
            }));
        int64_t dim = 0;
        if (kindred_model_transform_dim(m, &dim) == KINDRED_OK) {
            std::vector<double> out(static_cast<size_t>(N * dim));
            report((name + " transform").c_str(), inject_loop("transform", [&] {
                return kindred_model_transform_dense(m, data().x.data(), N, D, KINDRED_ROW_MAJOR, D, out.data(), N * dim);
            }));
        }
        report((name + " save").c_str(), inject_loop("save", [&] { return kindred_model_save(m, path.c_str()); }));
        kindred_model *loaded = nullptr;
        report((name + " load").c_str(), inject_loop("load", [&] {
            kindred_model_free(loaded);
            loaded = nullptr;
            return kindred_model_load(&loaded, path.c_str());
        }, [&] { assert_null(loaded); }));
        assert_memory_equal(labels_of(loaded).data(), expected.data(), sizeof(int32_t) * N);
        kindred_model_free(loaded);
        kindred_model_free(m);
    }
    std::remove(path.c_str());
    kindred_side_free(side);
}

// The side-information calls: a failed call leaves the handle as it was.
void side_information(void **) {
    kindred_side *s = nullptr;
    report("side_new", inject_loop("side_new", [&] {
        kindred_side_free(s);
        s = nullptr;
        return kindred_side_new(&s, N);
    }, [&] { assert_null(s); }));
    auto counts = [&] {
        int64_t n = 0, pairs = 0, triplets = 0, labelled = 0;
        assert_int_equal(kindred_side_counts(s, &n, &pairs, &triplets, &labelled), KINDRED_OK);
        return std::vector<int64_t>{n, pairs, triplets, labelled};
    };
    // Each attempt starts from a side with one pair, one triplet and no labels.
    std::vector<int64_t> before;
    auto fresh = [&] {
        kindred_side_free(s);
        s = nullptr;
        assert_int_equal(kindred_side_new(&s, N), KINDRED_OK);
        const int64_t i0 = 7, j0 = 8, a0 = 7, b0 = 8, c0 = 9;
        const double v0 = 1;
        const int32_t answer0 = 1;
        assert_int_equal(kindred_side_add_pairs(s, &i0, &j0, &v0, 1), KINDRED_OK);
        assert_int_equal(kindred_side_add_triplets(s, &a0, &b0, &c0, &answer0, 1), KINDRED_OK);
        before = counts();
    };
    auto unchanged = [&] { assert_true(counts() == before); };
    const int64_t i[3] = {0, 1, 2}, j[3] = {5, 6, 30};
    const double v[3] = {1, 1, -1};
    report("side_add_pairs", inject_loop("side_add_pairs", fresh, [&] { return kindred_side_add_pairs(s, i, j, v, 3); },
                                        unchanged));
    const int64_t a[2] = {0, 1}, b[2] = {2, 3}, c[2] = {30, 31};
    const int32_t answer[2] = {1, -1};
    report("side_add_triplets", inject_loop("side_add_triplets", fresh, [&] {
        return kindred_side_add_triplets(s, a, b, c, answer, 2);
    }, unchanged));
    std::vector<int32_t> labels(N, -1);
    labels[0] = 1;
    report("side_set_partial_labels", inject_loop("side_set_partial_labels", fresh, [&] {
        return kindred_side_set_partial_labels(s, labels.data(), N);
    }, unchanged));
    report("side_check_consistent", inject_loop("side_check_consistent", [&] { return kindred_side_check_consistent(s); }));
    kindred_side_free(s);
}

// Metrics, sampling, active selection.
int yes_if_same(void *user, int64_t i, int64_t j) {
    const int32_t *truth = static_cast<const int32_t *>(user);
    return truth[i] == truth[j] ? 1 : -1;
}

void evaluation_sampling_active(void **) {
    std::vector<int32_t> predicted = data().truth;
    predicted[3] = 1;
    for (int64_t k = 0; k < kindred_metric_count(); ++k) {
        const char *metric = kindred_metric_name(k);
        double value = 0;
        report((std::string("metric ") + metric).c_str(), inject_loop("metric", [&] {
            return kindred_metric(metric, data().truth.data(), predicted.data(), N, &value);
        }));
    }
    kindred_side *s = nullptr;
    assert_int_equal(kindred_side_new(&s, N), KINDRED_OK);
    report("sample_pairs", inject_loop("sample_pairs", [&] {
        return kindred_sample_pairs(s, data().truth.data(), N, 30, 0.0, 0.1, 4);
    }));
    report("sample_triplets", inject_loop("sample_triplets", [&] {
        return kindred_sample_triplets(s, data().truth.data(), N, 20, 0.1, 4);
    }));
    kindred_side_free(s);
    report("active_options_new", inject_loop("active_options_new", [&] {
        kindred_active_options *a = nullptr;
        const kindred_status status = kindred_active_options_new(&a);
        kindred_active_options_free(a);
        return status;
    }));
    const char *strategies[3] = {"explore-consolidate", "explore", "random"};
    for (const char *strategy : strategies) {
        kindred_side *out = nullptr;
        kindred_active_options *options = nullptr;
        assert_int_equal(kindred_active_options_new(&options), KINDRED_OK);
        assert_int_equal(kindred_active_options_set_string(options, "strategy", strategy), KINDRED_OK);
        assert_int_equal(kindred_active_options_set_int(options, "k", 2), KINDRED_OK);
        assert_int_equal(kindred_active_options_set_int(options, "budget", 15), KINDRED_OK);
        assert_int_equal(kindred_active_options_set_int(options, "seed", 5), KINDRED_OK);
        report((std::string("active_select ") + strategy).c_str(), inject_loop("active_select", [&] {
            kindred_side_free(out);
            out = nullptr;
            assert_int_equal(kindred_side_new(&out, N), KINDRED_OK);
        }, [&] {
            return kindred_active_select(options, data().x.data(), N, D, KINDRED_ROW_MAJOR, D, yes_if_same,
                                         const_cast<int32_t *>(data().truth.data()), out);
        }, [&] {
            // A failed selection adds nothing.
            int64_t pairs = -1;
            assert_int_equal(kindred_side_counts(out, nullptr, &pairs, nullptr, nullptr), KINDRED_OK);
            assert_int_equal(pairs, 0);
        }));
        kindred_side_free(out);
        kindred_active_options_free(options);
    }
}

// Options by name: set and read back.
void options(void **) {
    kindred_model *m = make_model("kmeans");
    report("model_set_string", inject_loop("set_string", [&] { return kindred_model_set_string(m, "max_iter", "50"); }));
    report("model_set_double", inject_loop("set_double", [&] { return kindred_model_set_double(m, "tol", 1e-6); }));
    char buffer[64];
    report("model_option", inject_loop("model_option", [&] { return kindred_model_option(m, "max_iter", buffer, 64); }));
    kindred_model_free(m);
}

// A refused call whose message cannot be stored (the copy into the
// thread-local message is the allocation that fails) still gives a message.
void refusal_without_memory_for_its_message(void **) {
    long points = 0;
    bool done = false;
    for (long n = 1; !done; ++n, ++points) {
        // A new thread each time: its message starts empty, with no capacity
        // left by an earlier message, so that storing this one allocates.
        kindred_status status = KINDRED_OK;
        std::string message;
        std::thread caller([&] {
            kindred_side *s = nullptr;
            injected = false;
            failing = false;
            countdown = n;
            status = kindred_side_new(&s, 0);  // "side information: n must be > 0, got 0"
            countdown = 0;
            done = !injected;
            message = kindred_last_error();
        });
        caller.join();
        if (status != KINDRED_E_INVALID && status != KINDRED_E_NOMEM) fail_msg("status %d", status);
        if (message.empty()) fail_msg("allocation %ld failed: status %d with no message", n, status);
    }
    report("refused side_new (message)", points);
}

// The same loops with every allocation after the Nth failing too: the
// message itself then cannot be allocated, and must still not be empty.
void persistent_failures(void **state) {
    persistent = true;
    print_message("-- persistent mode: every allocation from the Nth on fails --\n");
    side_information(state);
    evaluation_sampling_active(state);
    fit_every_algorithm(state);
    persistent = false;
}

void totals(void **) {
    print_message("allocation failure points exercised in all: %ld (of which %ld tolerated: the call succeeded)\n",
                  total_points, tolerated_points);
}

}  // namespace

int main() {
    const CMUnitTest tests[] = {
        cmocka_unit_test(side_information),
        cmocka_unit_test(options),
        cmocka_unit_test(evaluation_sampling_active),
        cmocka_unit_test(fit_every_algorithm),
        cmocka_unit_test(refusal_without_memory_for_its_message),
        cmocka_unit_test(persistent_failures),
        cmocka_unit_test(totals),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
