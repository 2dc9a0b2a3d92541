// The E-step of HMRF-KMeans (Basu et al., section 3.3.6): iterated
// conditional modes. Each sweep visits every point in a fresh random order
// and gives it the label minimising its share J_obj(x_i, mu_h) of the
// objective (3.22), with the labels of the other points as they are at that
// moment; sweeps repeat until no point moves.
//
// The random order of a sweep is that of random keys: point i has the key
// key_s(i) = mix64(seed_s + i * golden ratio), splitmix64's output function,
// seed_s drawn from the fit's Rng once per sweep, and the sweep visits the
// points by increasing (key, index). Like a shuffle, this draws every
// permutation with the same probability (up to the generator's quality),
// but any point's position can be computed without the others'.
//
// What a visit decides depends only on the point's row of distortions (fixed
// during the E-step) and on its neighbours' labels. Two visits of points that
// share no constraint therefore commute, and every visiting sequence that
// keeps, for each constraint (i, j), the order of i and j that the keys give
// produces exactly the labels of the sequential sweep. We use such sequences
// instead of the sequential one, which jumps through memory:
//  - passes in index order: a point is visited as soon as all its neighbours
//    with a smaller key have been; those with one still pending wait for the
//    next pass (the rows of the distance matrix, the adjacency and the point
//    states are then read in memory order);
//  - key order for the rest: the dirty points sorted by key, merged with a
//    heap of those that become dirty on the way. A point whose neighbours did
//    not move since its last visit would keep its label, so only points next
//    to a move need a visit; after the first sweep these are few.
// Points that keep their label whatever their neighbours do (icm_keeps_label)
// are never visited and nobody waits for them. All of this is exact: the
// result is that of the sequential sweep in key order, IcmSchedule::Reference
// (tests/unit/test_icm_schedule.cpp checks it).
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <utility>

#include "algorithms/mpckmeans/hmrf.hpp"
#include "core/error.hpp"

namespace kindred {
namespace hmrf {
namespace {

// splitmix64's output function: a bijection of 64-bit words whose outputs for
// consecutive inputs look independent.
inline uint64_t mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

inline uint64_t sweep_key(uint64_t seed, int64_t i) {
    return mix64(seed + static_cast<uint64_t>(i) * 0x9E3779B97F4A7C15ULL);
}

// i comes before j in the sweep: by key, ties by index.
inline bool before(uint64_t key_i, int64_t i, uint64_t key_j, int64_t j) {
    return key_i < key_j || (key_i == key_j && i < j);
}

// The passes in index order are worth their scan of all the points that can
// move (not inert) while at least this share of them is dirty; below it the
// heap takes over.
constexpr int64_t kPassShare = 16;
// After this many passes, or after a pass that let fewer than half of the
// waiting points go, the points still waiting go to the heap (a long chain
// of waiting points would otherwise cost one pass per link).
constexpr int kMaxPasses = 6;
// With many constraints per point nearly every point has a neighbour with a
// smaller key and a larger index (for degree 20, all but 0.75^20 = 0.3%), so
// that the passes let few points go: above this mean degree the sweep goes
// straight to key order.
constexpr int64_t kMaxPassDegree = 6;

using PointState = IcmPointState;
using Keyed = std::pair<uint64_t, int64_t>;

class Icm {
public:
    // A point whose label c is the argmin of its row with a margin above
    // the sum of its constraint weights (slack) keeps c at every visit:
    // the constraints shift cost[h] - cost[c] by at most the slack (3.22).
    // Such a point is inert for the whole E-step (the rows do not change):
    // it is never visited and its neighbours need not wait for it, which
    // changes nothing in the result (the Reference schedule visits them all).
    // The workspace holds the points' states, the points that can move and
    // their rows; dist_matrix (n x k): fill it from there, else it has been
    // filled by the caller (IcmWorkspace::set_point).
    Icm(const std::vector<double> *dist_matrix, int64_t k, const IcmGraph &graph, std::vector<int32_t> &labels,
        bool use_inert, IcmWorkspace &work)
        : k_(k), g_(graph), labels_(labels), n_(static_cast<int64_t>(labels.size())), cost_(static_cast<size_t>(k)),
          state_(work.state), movable_(work.movable), dirty_list_(work.dirty), next_dirty_(work.next_dirty),
          waiting_(work.waiting), slot_of_(work.slot_of), rows_(work.rows), order_(work.order), heap_(work.heap),
          same_(work.same) {
        if (dist_matrix) {
            use_inert = use_inert && static_cast<int64_t>(graph.slack.size()) == n_;
            work.prepare(n_);
            for (int64_t i = 0; i < n_; ++i) {
                const double *row = dist_matrix->data() + i * k_;
                work.set_point(i, labels[i], row, k_, use_inert && icm_keeps_label(row, k_, labels[i], g_.slack[i]));
            }
        }
        // A point that can move needs a turn in the first sweep only if its
        // label is not already the best under its neighbours' labels as they
        // are now: a point that is, keeps its label at its turn unless a
        // neighbour moved before it, and that move marks it dirty. So only
        // those are dirty at first, which changes nothing in the result
        // (the Reference schedule, the definition, marks every point dirty).
        // One scan in index order decides it; then, when few points are
        // dirty, the sweep goes by key order through them alone instead of
        // scanning every point that can move. A point none of whose
        // neighbours shares its label (same_, cannot-links only) has cost
        // row[c] at its label c and at least row[h] at any other h, so that
        // when icm_choice of its row alone keeps c, best_label does too: the
        // same decision without reading the neighbours (else best_label
        // decides, as for every point without same_).
        dirty_list_.clear();
        const bool counted = !same_.empty();
        for (size_t m = 0; m < movable_.size(); ++m) {
            const int64_t i = movable_[m];
            if (use_inert) {
                const double *row = rows_.data() + m * k_;
                const int32_t label = state_[i].label;
                if (counted && same_[i] == 0 && icm_choice(row, k_, label) == label) {
                    state_[i].dirty = 0;
                    continue;
                }
                prefetch_ahead<false>(m, movable_.size(), [&](size_t p) { return movable_[p]; });
                if (best_label(i, row) == label) {
                    state_[i].dirty = 0;
                    continue;
                }
            }
            dirty_list_.push_back(i);
        }
    }

    int64_t run(int64_t max_sweeps, Rng &rng, IcmSchedule schedule, double *penalty_change, int64_t outside_moves = 0) {
        int64_t moves = 0;
        for (int64_t sweep = 0; sweep < max_sweeps; ++sweep) {
            seed_ = rng.next_u64();
            stamp_ = static_cast<uint32_t>(sweep + 1);
            moved_ = 0;
            next_dirty_.clear();
            if (schedule == IcmSchedule::Reference) {
                reference_sweep();
            } else {
                const bool passes = schedule == IcmSchedule::Passes ||
                                    (schedule == IcmSchedule::Auto &&
                                     dirty_list_.size() * kPassShare >= movable_.size() &&
                                     g_.indptr[n_] <= kMaxPassDegree * n_);
                heap_sweep(passes ? pass_phase(schedule == IcmSchedule::Auto) : dirty_list_);
            }
            dirty_list_.swap(next_dirty_);
            if (sweep == 0) moved_ += outside_moves;
            moves += moved_;
            if (moved_ == 0) break;
        }
        if (penalty_change) *penalty_change = moves ? constraint_change() : 0.0;
        for (int64_t i : movable_) labels_[i] = state_[i].label;
        return moves;
    }

private:
    uint64_t key(int64_t i) const { return sweep_key(seed_, i); }

    // The row of a point that can move (slot_of is filled on first use: the
    // passes know the slots, only the heap needs it).
    void fill_slots() {
        if (slots_ready_) return;
        slot_of_.resize(static_cast<size_t>(n_));
        for (size_t m = 0; m < movable_.size(); ++m) slot_of_[movable_[m]] = static_cast<int64_t>(m);
        slots_ready_ = true;
    }
    const double *row_of(int64_t i) {
        fill_slots();
        return rows_.data() + slot_of_[i] * k_;
    }

    // The point's turn in the sweep: a visit if a neighbour moved since its
    // last one (else it would keep its label). On a move, neighbours become
    // dirty: those later in the sweep (by key) are visited in it (pushed on
    // the heap when one is running), the earlier ones in the next sweep.
    // row: the point's row of distortions.
    void take_turn(int64_t i, const double *row, std::vector<Keyed> *heap) {
        PointState &s = state_[i];
        s.visited_in = stamp_;
        if (!s.dirty) return;  // (inert points are never dirty)
        s.dirty = 0;
        const int32_t best = best_label(i, row);
        if (best == s.label) return;
        if (!same_.empty()) count_move(i, s.label, best);
        s.label = best;
        ++moved_;
        const uint64_t ki = key(i);
        for (int64_t e = g_.indptr[i]; e < g_.indptr[i + 1]; ++e) {
            const int64_t j = g_.neighbor[e];
            PointState &t = state_[j];
            if (t.dirty || t.inert) continue;
            t.dirty = 1;
            const uint64_t kj = key(j);
            if (before(kj, j, ki, i)) {
                next_dirty_.push_back(j);  // its turn in this sweep has passed
            } else if (heap) {
                heap->emplace_back(kj, j);
                std::push_heap(heap->begin(), heap->end(), std::greater<Keyed>());
            }
        }
    }

    // argmin_h J_obj(x_i, mu_h) of (3.22) (the prior term is the same for
    // every h); the current label unless another one is strictly lower
    // beyond rounding, so that ICM terminates.
    int32_t best_label(int64_t i, const double *row) {
        double *cost = cost_.data();
        double must = 0.0;
        for (int64_t h = 0; h < k_; ++h) cost[h] = row[h];
        for (int64_t e = g_.indptr[i]; e < g_.indptr[i + 1]; ++e) {
            const double w = g_.w[e];
            const int32_t yj = state_[g_.neighbor[e]].label;
            if (w > 0.0) {
                // A must-link costs w phi unless y_i = y_j (3.13, c_ij = 1).
                must += w;
                cost[yj] -= w;
            } else {
                // A cannot-link costs w (phi_max - phi) when y_i = y_j (3.13, c_ij = -1).
                cost[yj] -= w;
            }
        }
        for (int64_t h = 0; h < k_; ++h) cost[h] += must;
        return icm_choice(cost, k_, state_[i].label);
    }

    // same_ after point i moves from `from` to `to` (its state still at `from`).
    void count_move(int64_t i, int32_t from, int32_t to) {
        uint32_t now = 0;
        for (int64_t e = g_.indptr[i]; e < g_.indptr[i + 1]; ++e) {
            const int64_t j = g_.neighbor[e];
            const int32_t yj = j == i ? to : state_[j].label;
            same_[j] += static_cast<uint32_t>(yj == to) - static_cast<uint32_t>(yj == from);
            now += yj == to;
        }
        same_[i] = now;
    }

    // All neighbours earlier in the sweep have had their turn.
    bool ready(int64_t i) const {
        const uint64_t ki = key(i);
        for (int64_t e = g_.indptr[i]; e < g_.indptr[i + 1]; ++e) {
            const int64_t j = g_.neighbor[e];
            const PointState &t = state_[j];
            if (before(key(j), j, ki, i) && t.visited_in != stamp_ && !t.inert) return false;
        }
        return true;
    }

    // The constraint terms of J_obj after the E-step minus before (labels_
    // still holds the labels before, state_ those after): the additions of
    // penalty_change() (objective.cpp) in its order, over the points that
    // moved (all in movable_, in index order) and their edges, whose w is the
    // pair's cost w phi (must-link) or minus w (phi_max - phi) (cannot-link).
    double constraint_change() const {
        double change = 0.0;
        for (int64_t i : movable_) {
            const int32_t bi = labels_[i], ai = state_[i].label;
            if (bi == ai) continue;
            for (int64_t e = g_.indptr[i]; e < g_.indptr[i + 1]; ++e) {
                const int64_t j = g_.neighbor[e];
                const double w = g_.w[e];
                const int32_t bj = labels_[j], aj = state_[j].label;
                if (j < i && bj != aj) continue;  // the pair was counted from j
                const double after = w > 0.0 ? (ai == aj ? 0.0 : w) : (ai == aj ? -w : 0.0);
                const double before = w > 0.0 ? (bi == bj ? 0.0 : w) : (bi == bj ? -w : 0.0);
                change += after - before;
            }
        }
        return change;
    }

    // (Always inlined, KINDRED_PREFETCH_HELPER: before, GCC deleted every
    // call, so that no prefetch was ever issued.)
    KINDRED_PREFETCH_HELPER void prefetch_neighbours(int64_t i) const {
        for (int64_t e = g_.indptr[i]; e < g_.indptr[i + 1]; ++e) __builtin_prefetch(&state_[g_.neighbor[e]]);
    }

    // Visits of a list of points jump through memory: fetch ahead in three
    // stages, each reading only what the previous one brought into cache
    // (the point's place in the adjacency, then its edges, then its
    // neighbours' states). at(p) is the point at position p of the list.
    // with_rows: also the point's row (through slot_of_, which must be
    // filled), for lists in key order; the passes read the rows in order.
    template <bool with_rows, typename At>
    KINDRED_PREFETCH_HELPER void prefetch_ahead(size_t pos, size_t size, At at) const {
        if (pos + 3 * kPrefetchAhead < size) {
            const int64_t a = at(pos + 3 * kPrefetchAhead);
            __builtin_prefetch(&g_.indptr[a]);
            if (with_rows) __builtin_prefetch(&slot_of_[a]);
        }
        if (pos + 2 * kPrefetchAhead < size) {
            const int64_t a = at(pos + 2 * kPrefetchAhead);
            __builtin_prefetch(g_.neighbor + g_.indptr[a]);
            __builtin_prefetch(g_.w.data() + g_.indptr[a]);
            __builtin_prefetch(&state_[a]);
            if (with_rows) {  // (every point of such a list is dirty, so that it has a row)
                const double *row = rows_.data() + slot_of_[a] * k_;
                __builtin_prefetch(row);
                __builtin_prefetch(row + k_ - 1);
            }
        }
        if (pos + kPrefetchAhead < size) prefetch_neighbours(at(pos + kPrefetchAhead));
    }

    // Passes in index order; returns the dirty points still waiting (in
    // index order). limited: stop after kMaxPasses passes or after a pass in
    // which more than half of the points examined had to wait. The points
    // are handled by their slot m (point movable_[m], row m of rows_).
    const std::vector<int64_t> &pass_phase(bool limited) {
        waiting_.clear();
        const size_t examined_first = movable_.size();
        size_t examined = examined_first;
        const double *rows = rows_.data();
        for (size_t m = 0; m < examined_first; ++m) {
            const int64_t i = movable_[m];
            prefetch_ahead<false>(m, examined_first, [&](size_t p) { return movable_[p]; });
            if (g_.indptr[i] == g_.indptr[i + 1] || ready(i))
                take_turn(i, rows + m * k_, nullptr);
            else
                waiting_.push_back(static_cast<int64_t>(m));
        }
        for (int pass = 1; !waiting_.empty(); ++pass) {
            if (limited && (pass >= kMaxPasses || 2 * waiting_.size() > examined)) break;
            examined = waiting_.size();
            size_t keep = 0;
            for (size_t w = 0; w < waiting_.size(); ++w) {
                prefetch_ahead<false>(w, waiting_.size(), [&](size_t p) { return movable_[waiting_[p]]; });
                const int64_t m = waiting_[w], i = movable_[m];
                if (ready(i))
                    take_turn(i, rows + m * k_, nullptr);
                else
                    waiting_[keep++] = m;
            }
            waiting_.resize(keep);
        }
        // A waiting point that is not dirty can only become so through a
        // neighbour's move, which pushes it on the heap then.
        size_t keep = 0;
        for (int64_t m : waiting_)
            if (state_[movable_[m]].dirty) waiting_[keep++] = movable_[m];
        waiting_.resize(keep);
        return waiting_;
    }

    // The rest of the sweep in key order, starting from the given dirty
    // points (none of which has had its turn): those sorted by key, merged
    // with a heap of the points that become dirty on the way.
    void heap_sweep(const std::vector<int64_t> &start) {
        order_.clear();
        if (start.empty()) return;  // (nothing is dirty: no point moves, none is pushed)
        fill_slots();
        for (int64_t i : start) order_.emplace_back(key(i), i);
        std::sort(order_.begin(), order_.end());
        heap_.clear();
        size_t next = 0;
        while (next < order_.size() || !heap_.empty()) {
            int64_t i;
            if (heap_.empty() || (next < order_.size() && order_[next] < heap_.front())) {
                prefetch_ahead<true>(next, order_.size(), [&](size_t p) { return order_[p].second; });
                i = order_[next++].second;
            } else {
                std::pop_heap(heap_.begin(), heap_.end(), std::greater<Keyed>());
                i = heap_.back().second;
                heap_.pop_back();
            }
            take_turn(i, state_[i].dirty ? row_of(i) : nullptr, &heap_);
        }
    }

    // The definition: every point in key order (for tests).
    void reference_sweep() {
        std::vector<std::pair<uint64_t, int64_t>> order(static_cast<size_t>(n_));
        for (int64_t i = 0; i < n_; ++i) order[i] = {key(i), i};
        std::sort(order.begin(), order.end());
        for (const auto &o : order) take_turn(o.second, state_[o.second].dirty ? row_of(o.second) : nullptr, nullptr);
    }

    const int64_t k_;
    const IcmGraph &g_;
    std::vector<int32_t> &labels_;
    const int64_t n_;
    std::vector<double> cost_;
    std::vector<PointState> &state_;
    std::vector<int64_t> &movable_;  // the points that are not inert, in index order
    std::vector<int64_t> &dirty_list_, &next_dirty_, &waiting_, &slot_of_;
    const std::vector<double> &rows_;  // row m: the distortions of point movable_[m]
    std::vector<Keyed> &order_, &heap_;
    std::vector<uint32_t> &same_;  // IcmWorkspace::same (empty: not kept)
    bool slots_ready_ = false;
    uint64_t seed_ = 0;
    uint32_t stamp_ = 0;
    int64_t moved_ = 0;
};

}  // namespace

void IcmGraph::compute_slack() {
    const int64_t n = rows();
    slack.assign(static_cast<size_t>(std::max<int64_t>(n, 0)), 0.0);
    for (int64_t i = 0; i < n; ++i)
        for (int64_t e = indptr[i]; e < indptr[i + 1]; ++e) slack[i] += std::fabs(w[e]);
}

IcmGraph icm_graph(const Constraints &cons, const Potentials &pot) {
    IcmGraph g;
    g.borrow_rows(cons.indptr, cons.other);
    for (size_t e = 0; e < cons.other.size(); ++e) {
        const int64_t q = cons.pair_of[e];
        const auto &p = cons.pairs[q];
        // (3.13): w phi for a must-link, w (phi_max - phi) for a cannot-link (stored negated).
        g.w[e] = p.must ? p.w * pot.phi[q] : -(p.w * (pot.phi_max - pot.phi[q]));
    }
    g.compute_slack();
    return g;
}

int64_t icm_assign(const std::vector<double> &dist_matrix, int64_t k, const IcmGraph &graph, int64_t max_sweeps,
                   Rng &rng, std::vector<int32_t> &labels, IcmSchedule schedule) {
    IcmWorkspace work;
    Icm icm(&dist_matrix, k, graph, labels, schedule != IcmSchedule::Reference, work);
    return icm.run(max_sweeps, rng, schedule, nullptr);
}

int64_t icm_assign_prepared(int64_t k, const IcmGraph &graph, int64_t max_sweeps, Rng &rng,
                            std::vector<int32_t> &labels, IcmWorkspace &work, double *penalty_change,
                            int64_t outside_moves) {
    Icm icm(nullptr, k, graph, labels, true, work);
    return icm.run(max_sweeps, rng, IcmSchedule::Auto, penalty_change, outside_moves);
}

std::vector<uint32_t> count_same_labels(const IcmGraph &graph, const std::vector<int32_t> &labels) {
    const int64_t n = graph.rows();
    std::vector<uint32_t> same;
    for (int64_t e = 0; e < graph.indptr[n]; ++e)
        if (!(graph.w[e] <= 0.0)) return same;
    same.assign(static_cast<size_t>(n), 0);
    for (int64_t i = 0; i < n; ++i)
        for (int64_t e = graph.indptr[i]; e < graph.indptr[i + 1]; ++e) same[i] += labels[graph.neighbor[e]] == labels[i];
    return same;
}

int64_t icm_assign(const std::vector<double> &dist_matrix, int64_t k, const Constraints &cons, const Potentials &pot,
                   int64_t max_sweeps, Rng &rng, std::vector<int32_t> &labels) {
    return icm_assign(dist_matrix, k, icm_graph(cons, pot), max_sweeps, rng, labels, IcmSchedule::Auto);
}

}  // namespace hmrf
}  // namespace kindred
