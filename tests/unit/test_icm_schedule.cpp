// The ICM E-step of HMRF-KMeans / PCKMeans (src/algorithms/mpckmeans/icm.cpp)
// carries out each sweep in index-order passes and then by a heap of the
// points next to a move, instead of visiting every point in the sweep's
// random order. These tests check that every schedule gives exactly the
// labels (and move counts) of the sequential sweep in random order
// (IcmSchedule::Reference), on random constraint graphs from sparse to dense,
// with partial E-steps (max_sweeps 1, 2) and full ones; that the result is
// a local minimum; that points without constraints take the argmin; that the
// driver's path (a workspace filled point by point, the change of the
// constraint terms taken from the moved points) gives the same, also with
// the counts of same-label neighbours kept across E-steps; and,
// through the public API, that pckmeans and mpckmeans give the same labels
// for threads = 1 and 2 and for two runs with one seed on a problem large
// enough to use several blocks of distances and every ICM schedule.
// The kindred headers come before cmocka.h, whose fail() macro would clash.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "algorithms/mpckmeans/hmrf.hpp"
#include "core/rng.hpp"
#include "kindred.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
extern "C" {
#include <cmocka.h>
}

using namespace kindred;
using hmrf::IcmSchedule;

namespace {

struct Problem {
    int64_t n, k;
    std::vector<double> dmat;
    hmrf::IcmGraph graph;
    std::vector<int32_t> labels;
};

// n points, k clusters, random distortions in [0, 1), `pairs` random
// constraints (must-links with probability must_share) with weights in
// [0.05, 0.55) so that constraints and distances compete.
Problem make_problem(uint64_t seed, int64_t n, int64_t k, int64_t pairs, double must_share) {
    Problem p;
    p.n = n;
    p.k = k;
    Rng rng(seed);
    p.dmat.resize(static_cast<size_t>(n * k));
    for (double &v : p.dmat) v = rng.uniform();
    p.labels.resize(static_cast<size_t>(n));
    for (int32_t &y : p.labels) y = static_cast<int32_t>(rng.below(k));
    struct Edge {
        int64_t j;
        double w;
    };
    std::vector<std::vector<Edge>> adj(static_cast<size_t>(n));
    for (int64_t q = 0; q < pairs; ++q) {
        const int64_t i = rng.below(n), j = (i + 1 + rng.below(n - 1)) % n;
        const double w = 0.05 + 0.5 * rng.uniform();
        const double signed_w = rng.uniform() < must_share ? w : -w;
        adj[i].push_back({j, signed_w});
        adj[j].push_back({i, signed_w});
    }
    std::vector<int64_t> indptr(1, 0), neighbours;
    std::vector<double> w;
    for (int64_t i = 0; i < n; ++i) {
        for (const Edge &e : adj[i]) {
            neighbours.push_back(e.j);
            w.push_back(e.w);
        }
        indptr.push_back(static_cast<int64_t>(neighbours.size()));
    }
    p.graph.set_rows(std::move(indptr), std::move(neighbours));
    p.graph.w = std::move(w);
    p.graph.compute_slack();
    return p;
}

int64_t run(const Problem &p, IcmSchedule schedule, int64_t max_sweeps, uint64_t seed, std::vector<int32_t> &labels) {
    labels = p.labels;
    Rng rng(seed);
    return hmrf::icm_assign(p.dmat, p.k, p.graph, max_sweeps, rng, labels, schedule);
}

// Every schedule reproduces the sequential sweeps in the random order.
void schedules_give_the_reference_labels(void **) {
    const int64_t sizes[] = {1, 50, 400};
    const double degrees[] = {0.2, 1.0, 4.0, 20.0};
    const int64_t sweeps[] = {1, 2, 1000};
    const IcmSchedule schedules[] = {IcmSchedule::Auto, IcmSchedule::Passes, IcmSchedule::Heap};
    int64_t compared = 0, moved = 0;
    for (int64_t n : sizes)
        for (double degree : degrees)
            for (uint64_t seed = 1; seed <= 4; ++seed) {
                const Problem p = make_problem(seed * 7919 + static_cast<uint64_t>(n), n, 4,
                                               n > 1 ? static_cast<int64_t>(degree * static_cast<double>(n) / 2) : 0,
                                               seed % 2 ? 0.3 : 0.7);
                for (int64_t max_sweeps : sweeps) {
                    std::vector<int32_t> want, got;
                    const int64_t want_moves = run(p, IcmSchedule::Reference, max_sweeps, seed, want);
                    moved += want_moves;
                    for (IcmSchedule s : schedules) {
                        const int64_t moves = run(p, s, max_sweeps, seed, got);
                        assert_int_equal(moves, want_moves);
                        assert_memory_equal(got.data(), want.data(), want.size() * sizeof(int32_t));
                        ++compared;
                    }
                }
            }
    assert_true(compared > 100);
    assert_true(moved > 1000);  // the problems do exercise moves
}

// After a full E-step no point can lower its share of the objective.
void result_is_a_local_minimum(void **) {
    for (uint64_t seed = 1; seed <= 5; ++seed) {
        const Problem p = make_problem(seed, 300, 5, 900, 0.5);
        std::vector<int32_t> labels;
        run(p, IcmSchedule::Auto, 1000, seed, labels);
        for (int64_t i = 0; i < p.n; ++i) {
            std::vector<double> cost(p.dmat.begin() + i * p.k, p.dmat.begin() + (i + 1) * p.k);
            for (int64_t e = p.graph.indptr[i]; e < p.graph.indptr[i + 1]; ++e) {
                const double w = p.graph.w[e];
                for (int64_t h = 0; h < p.k; ++h) {
                    const bool same = labels[p.graph.neighbor[e]] == h;
                    if (w > 0 && !same) cost[h] += w;
                    if (w < 0 && same) cost[h] -= w;
                }
            }
            for (int64_t h = 0; h < p.k; ++h) assert_true(cost[labels[i]] <= cost[h] + 1e-9);
        }
        // Another E-step from there moves nothing.
        Rng rng(seed + 1);
        std::vector<int32_t> again(labels);
        assert_int_equal(hmrf::icm_assign(p.dmat, p.k, p.graph, 1000, rng, again), 0);
        assert_memory_equal(again.data(), labels.data(), labels.size() * sizeof(int32_t));
    }
}

// Without constraints the E-step is the nearest-centre assignment.
void unconstrained_points_take_the_argmin(void **) {
    const Problem p = make_problem(3, 500, 6, 0, 0.5);
    std::vector<int32_t> labels;
    run(p, IcmSchedule::Auto, 1000, 3, labels);
    for (int64_t i = 0; i < p.n; ++i)
        for (int64_t h = 0; h < p.k; ++h) assert_true(p.dmat[i * p.k + labels[i]] <= p.dmat[i * p.k + h]);
}

// The driver's path: a workspace filled point by point (state, the flags of
// icm_keeps_label, the rows of the points that can move) and reused from one
// E-step to the next gives the labels and moves of the reference sweeps, and
// the change of the constraint terms it reports is penalty_change() of
// objective.cpp for the labels before and after, bit for bit.
void prepared_workspace_matches_reference_and_penalty_change(void **) {
    int64_t compared = 0, moved = 0;
    for (int64_t n : {60, 500}) {
        for (double degree : {0.5, 2.0, 12.0}) {
            for (uint64_t seed = 1; seed <= 3; ++seed) {
                const int64_t k = 5;
                Rng rng(seed * 31 + static_cast<uint64_t>(n));
                SideInfo side(n);
                std::vector<int64_t> pi, pj;
                std::vector<double> pv;
                for (int64_t q = 0; q < static_cast<int64_t>(degree * static_cast<double>(n) / 2); ++q) {
                    const int64_t i = rng.below(n), j = (i + 1 + rng.below(n - 1)) % n;
                    pi.push_back(i);
                    pj.push_back(j);
                    const double w = 0.05 + 0.5 * rng.uniform();
                    pv.push_back(rng.uniform() < 0.4 ? w : -w);
                }
                side.add_pairs(pi.data(), pj.data(), pv.data(), static_cast<int64_t>(pi.size()));
                const hmrf::Constraints cons(&side, n, true, 1.0);
                hmrf::Potentials pot;
                for (size_t q = 0; q < cons.pairs.size(); ++q) pot.phi.push_back(0.5 + rng.uniform());
                pot.phi_max = 2.0;
                const hmrf::IcmGraph graph = hmrf::icm_graph(cons, pot);
                std::vector<int32_t> labels(static_cast<size_t>(n));
                for (int32_t &y : labels) y = static_cast<int32_t>(rng.below(k));
                hmrf::IcmWorkspace work;
                for (int step = 0; step < 3; ++step) {  // the same workspace for successive E-steps
                    std::vector<double> dmat(static_cast<size_t>(n * k));
                    for (double &v : dmat) v = rng.uniform();
                    for (int64_t i = 0; i < n; i += 3)  // some points far ahead on their label: inert
                        dmat[i * k + labels[i]] -= 2.0;
                    for (int64_t max_sweeps : {1, 1000}) {
                        std::vector<int32_t> want(labels), got(labels);
                        Rng r1(seed + 7 * static_cast<uint64_t>(step)), r2(seed + 7 * static_cast<uint64_t>(step));
                        const int64_t want_moves = hmrf::icm_assign(dmat, k, graph, max_sweeps, r1, want,
                                                                    IcmSchedule::Reference);
                        work.prepare(n);
                        for (int64_t i = 0; i < n; ++i) {
                            const double *row = dmat.data() + i * k;
                            work.set_point(i, got[i], row, k, hmrf::icm_keeps_label(row, k, got[i], graph.slack[i]));
                        }
                        double change = -1.0;
                        const int64_t moves = hmrf::icm_assign_prepared(k, graph, max_sweeps, r2, got, work, &change);
                        assert_int_equal(moves, want_moves);
                        assert_memory_equal(got.data(), want.data(), want.size() * sizeof(int32_t));
                        const double reference = hmrf::penalty_change(cons, pot, labels.data(), got.data());
                        assert_memory_equal(&change, &reference, sizeof(double));
                        moved += moves;
                        ++compared;
                        if (max_sweeps == 1000) labels = got;
                    }
                }
            }
        }
    }
    assert_true(compared >= 100);
    assert_true(moved > 500);
}

// The count of same-label neighbours (IcmWorkspace::same, kept by the
// propagated engine across E-steps on its graph of cannot-links): the first
// sweep's test from the rows alone gives the Reference labels and moves, and
// after each E-step the counts are those of the new labels; a graph with a
// must-link gets no counts.
void same_label_counts_follow_the_moves(void **) {
    int64_t compared = 0, moved = 0;
    for (int64_t n : {60, 500}) {
        for (int64_t pairs : {n / 4, 2 * n, 8 * n}) {
            for (uint64_t seed = 1; seed <= 3; ++seed) {
                const int64_t k = 5;
                Problem p = make_problem(seed * 17 + static_cast<uint64_t>(pairs), n, k, pairs, 0.0);
                std::vector<int32_t> labels = p.labels;
                hmrf::IcmWorkspace work;
                work.same = hmrf::count_same_labels(p.graph, labels);
                assert_int_equal(work.same.size(), n);
                Rng rows(seed);
                for (int step = 0; step < 3; ++step) {  // the same workspace and counts for successive E-steps
                    for (double &v : p.dmat) v = rows.uniform();
                    std::vector<int32_t> want(labels), got(labels);
                    Rng r1(seed + 5 * static_cast<uint64_t>(step)), r2(seed + 5 * static_cast<uint64_t>(step));
                    const int64_t want_moves = hmrf::icm_assign(p.dmat, k, p.graph, 1000, r1, want, IcmSchedule::Reference);
                    work.prepare(n);
                    for (int64_t i = 0; i < n; ++i) work.set_point(i, got[i], p.dmat.data() + i * k, k, false);
                    const int64_t moves = hmrf::icm_assign_prepared(k, p.graph, 1000, r2, got, work);
                    assert_int_equal(moves, want_moves);
                    assert_memory_equal(got.data(), want.data(), want.size() * sizeof(int32_t));
                    const std::vector<uint32_t> recount = hmrf::count_same_labels(p.graph, got);
                    assert_memory_equal(work.same.data(), recount.data(), recount.size() * sizeof(uint32_t));
                    labels = got;
                    moved += moves;
                    ++compared;
                }
            }
        }
    }
    assert_true(compared >= 50);
    assert_true(moved > 100);
    Problem mixed = make_problem(3, 100, 4, 200, 0.3);
    assert_true(hmrf::count_same_labels(mixed.graph, mixed.labels).empty());
}

// The "cannot move" test on distances finished where they are read
// (icm_keeps_label_cross, the driver's path for squared Euclidean
// distortions) takes the decisions of icm_keeps_label on the finished row and
// gives the finished distance to the point's centre; with odd and even k,
// k = 1, ties and values that the clamp at 0 sets to 0.
void cannot_move_test_on_unfinished_rows(void **) {
    Rng rng(17);
    int64_t kept = 0, moving = 0;
    for (int64_t k : {1, 2, 3, 4, 7, 10}) {
        std::vector<double> cross(static_cast<size_t>(k)), c_sq(static_cast<size_t>(k)), row(static_cast<size_t>(k));
        for (int trial = 0; trial < 4000; ++trial) {
            const double x_sq = 4.0 * rng.uniform();
            for (int64_t h = 0; h < k; ++h) {
                c_sq[h] = 4.0 * rng.uniform();
                cross[h] = -2.0 * std::sqrt(x_sq * c_sq[h]) * rng.uniform();
                if (trial % 5 == 0 && h > 0) cross[h] = cross[0] + c_sq[0] - c_sq[h];  // ties
                if (trial % 7 == 0 && h % 2 == 0) cross[h] = -(x_sq + c_sq[h]) - 1e-3;  // clamped to 0
                row[h] = divergence::WeightedDistortion::finished_distance(cross[h], x_sq, c_sq[h]);
            }
            const int32_t c = static_cast<int32_t>(rng.below(k));
            const double slack = trial % 3 == 0 ? 0.0 : 0.5 * rng.uniform();
            double own = -1.0;
            const bool keeps = hmrf::icm_keeps_label_cross(cross.data(), x_sq, c_sq.data(), k, c, slack, own);
            assert_int_equal(keeps, hmrf::icm_keeps_label(row.data(), k, c, slack));
            assert_memory_equal(&own, &row[c], sizeof(double));
            // The definition: the margin over the other centres exceeds the slack (beyond rounding).
            double other = std::numeric_limits<double>::infinity();
            for (int64_t h = 0; h < k; ++h)
                if (h != c && row[h] < other) other = row[h];
            assert_int_equal(keeps, other - row[c] > slack + 1e-9 * (1.0 + std::fabs(row[c]) + std::fabs(other) + slack));
            (keeps ? kept : moving) += 1;
        }
    }
    assert_true(kept > 1000);
    assert_true(moving > 1000);
}

std::vector<int32_t> fit_labels(const char *algorithm, const std::vector<double> &x, int64_t n, int64_t d,
                                kindred_side *side, int threads) {
    kindred_model *m = nullptr;
    assert_int_equal(kindred_model_new(&m, algorithm), KINDRED_OK);
    assert_int_equal(kindred_model_set_int(m, "k", 6), KINDRED_OK);
    assert_int_equal(kindred_model_set_int(m, "seed", 11), KINDRED_OK);
    assert_int_equal(kindred_model_set_int(m, "threads", threads), KINDRED_OK);
    assert_int_equal(kindred_model_set_int(m, "max_iter", 15), KINDRED_OK);
    // The point-wise engine (the paper's HMRF) whose ICM schedules this file tests, one start, a given weight.
    assert_int_equal(kindred_model_set_string(m, "propagation", "off"), KINDRED_OK);
    assert_int_equal(kindred_model_set_int(m, "n_init", 1), KINDRED_OK);
    assert_int_equal(kindred_model_set_string(m, "weight_unit", "absolute"), KINDRED_OK);
    assert_int_equal(kindred_model_set_double(m, std::string(algorithm) == "pckmeans" ? "penalty" : "constraint_weight", 1.0),
                     KINDRED_OK);
    if (std::string(algorithm) == "mpckmeans")
        assert_int_equal(kindred_model_set_string(m, "metric_constraints", "true"), KINDRED_OK);
    assert_int_equal(kindred_model_fit_dense(m, x.data(), n, d, KINDRED_ROW_MAJOR, d, side), KINDRED_OK);
    std::vector<int32_t> labels(static_cast<size_t>(n));
    assert_int_equal(kindred_model_labels(m, labels.data(), n), KINDRED_OK);
    kindred_model_free(m);
    return labels;
}

void same_labels_for_any_thread_count(void **) {
    const int64_t n = 30000, d = 8, k = 6;
    Rng rng(5);
    std::vector<double> centres(static_cast<size_t>(k * d)), x(static_cast<size_t>(n * d));
    std::vector<int32_t> truth(static_cast<size_t>(n));
    for (double &c : centres) c = 1.5 * rng.normal();  // overlapping blobs: ICM has work to do
    for (int64_t i = 0; i < n; ++i) {
        truth[i] = static_cast<int32_t>(i % k);
        for (int64_t m = 0; m < d; ++m) x[i * d + m] = centres[truth[i] * d + m] + rng.normal();
    }
    // n pairs (sparse: passes then key order) and 8n pairs (dense: key order only).
    for (int64_t pairs : {n, 8 * n}) {
        kindred_side *side = nullptr;
        assert_int_equal(kindred_side_new(&side, n), KINDRED_OK);
        assert_int_equal(kindred_sample_pairs(side, truth.data(), n, pairs, -1, 0.0, 3), KINDRED_OK);
        for (const char *algorithm : {"pckmeans", "mpckmeans"}) {
            const std::vector<int32_t> one = fit_labels(algorithm, x, n, d, side, 1);
            const std::vector<int32_t> two = fit_labels(algorithm, x, n, d, side, 2);
            const std::vector<int32_t> again = fit_labels(algorithm, x, n, d, side, 1);
            assert_memory_equal(one.data(), two.data(), one.size() * sizeof(int32_t));
            assert_memory_equal(one.data(), again.data(), one.size() * sizeof(int32_t));
        }
        kindred_side_free(side);
    }
}

}  // namespace

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(schedules_give_the_reference_labels),
        cmocka_unit_test(result_is_a_local_minimum),
        cmocka_unit_test(unconstrained_points_take_the_argmin),
        cmocka_unit_test(prepared_workspace_matches_reference_and_penalty_change),
        cmocka_unit_test(same_label_counts_follow_the_moves),
        cmocka_unit_test(cannot_move_test_on_unfinished_rows),
        cmocka_unit_test(same_labels_for_any_thread_count),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
