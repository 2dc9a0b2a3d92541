// The ranks of a sharded fit as an algorithm sees them (docs/distributed.md).
//
// The n points are cut into global chunks of kChunk rows; each rank holds
// whole chunks (capi/shard_api.cpp moves the rows of a chunk that straddles
// two shards to the rank holding its first row), so that every block of
// rows an algorithm computes on is the same block as in the single-process
// fit. A sum over the points is made of chunk sums, each started from 0 and
// taken in index order, added in chunk order by every rank: the same
// additions for any number of ranks and any split, and in a single process
// (a Collective of one rank, the default), which is how the bitwise equality
// is kept. Nothing here uses the host's reductions (MPI_Allreduce's order
// changes with the number of ranks); the communicator only moves bytes.
#ifndef KINDRED_CORE_COLLECTIVE_HPP
#define KINDRED_CORE_COLLECTIVE_HPP

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <vector>

#include "core/data_view.hpp"
#include "kindred.h"

namespace kindred {

// The values a rank sent, read back from the bytes gather() returns (an
// empty message gives an empty vector; no copy from a null pointer).
template <typename T>
std::vector<T> values_of(const std::vector<char> &bytes) {
    std::vector<T> out(bytes.size() / sizeof(T));
    if (!out.empty()) std::memcpy(out.data(), bytes.data(), out.size() * sizeof(T));
    return out;
}

class Collective {
public:
    // Rows per global chunk: the chunk of the centre sums (core/label_sums),
    // and a multiple of every block size of the nearest-centre steps.
    static constexpr int64_t kChunk = 32768;

    // One process holding all n points.
    explicit Collective(int64_t n) : n_local_(n), n_total_(n) {}
    // A rank of comm holding n_local rows from first_row (a multiple of kChunk, or n_total when n_local = 0).
    Collective(const kindred_comm &comm, int64_t first_row, int64_t n_local, int64_t n_total)
        : comm_(&comm), first_row_(first_row), n_local_(n_local), n_total_(n_total) {}

    // The ranks a fit was given, or (collective null) one process holding all n points.
    static Collective or_single(const Collective *collective, int64_t n) {
        return collective ? *collective : Collective(n);
    }

    bool single() const { return comm_ == nullptr; }
    // The same ranks over another sequence of n_total rows (a subset of the
    // points, say), this rank holding n_local of them from first_row, under
    // the same rule: whole chunks of that sequence.
    Collective over(int64_t first_row, int64_t n_local, int64_t n_total) const {
        return comm_ ? Collective(*comm_, first_row, n_local, n_total) : Collective(n_local);
    }
    int rank() const { return comm_ ? comm_->rank : 0; }
    int size() const { return comm_ ? comm_->size : 1; }
    int64_t first_row() const { return first_row_; }
    int64_t n_total() const { return n_total_; }

    // Every rank's bytes, by rank.
    std::vector<std::vector<char>> gather(const void *data, size_t bytes) const;
    // bytes of data on root copied to every rank.
    void broadcast(void *data, size_t bytes, int root) const;

    // The rows of the given global indices, one after another (indices.size() x d),
    // each sent by the rank that holds it; local holds this rank's rows.
    std::vector<double> rows(const DataView &local, const std::vector<int64_t> &indices) const;

    // partial: `width` values per local chunk (chunk_count(n_local, kChunk)
    // of them). Returns every global chunk's values in chunk order
    // (chunk_count(n_total, kChunk) x width).
    std::vector<double> all_chunks(const std::vector<double> &partial, int64_t width) const;
    // The sum over the global chunks, in chunk order, of the `width` values
    // of each: ((0 + p_0) + p_1) + ..., the same bits on every rank.
    std::vector<double> sum_chunks(const std::vector<double> &partial, int64_t width) const;
    // sum_chunks of one value per row, v[i] summed in index order within a chunk.
    double sum_rows(const double *v, int64_t n_local) const;

    // The ranks in the order of their rows (those without rows last, by rank):
    // the order of a pass that must visit the points in sequence.
    std::vector<int> row_order() const;

    // A pass over all the points in index order, made of the ranks' parts:
    // each rank in row_order() applies step to `count` values of state
    // (its rows' part of the pass), then sends them to the others. A running
    // sum (0 + v_0 + v_1 + ...) or a walk down a cumulative distribution then
    // makes the additions of one process, for any split, at the cost of one
    // broadcast per rank. In one process: step(state).
    void in_turn(double *state, size_t count, const std::function<void(double *)> &step) const;
    // sum_i v[i] over all the points, added in index order from 0 (in_turn):
    // the bits of the sequential sum in one process.
    double sum_in_order(const double *v, int64_t n_local) const;

    // Runs step on every rank; when it fails on one or more, every rank
    // throws the error of the lowest failing rank (its status, and its
    // message naming the rank), so that no rank waits for a collective
    // call the others will not make.
    void agree(const std::function<void()> &step) const;

private:
    const kindred_comm *comm_ = nullptr;
    int64_t first_row_ = 0, n_local_ = 0, n_total_ = 0;
};

}  // namespace kindred

#endif
