#include "core/label_sums.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "core/parallel.hpp"

namespace kindred {
namespace {

// Labels per task of the by-label way (any value gives the same bits).
constexpr int64_t kLabelsPerTask = 256;

// Rows per chunk of cluster_sums: it fixes the order of the additions, so
// changing it changes the last bits of every centre-based method's centres.
constexpr int64_t kClusterSumChunk = 32768;

// acc[j] += w x_i[j]; the dense row-major case written out so that the
// compiler vectorises it (a call per point was a tenth of an RDP-means
// iteration at d = 16). The same additions as DataView::add_row.
template <bool kWeighted>
inline void add_point(const DataView &data, int64_t i, double w, double *acc) {
    if (data.is_dense() && data.as_dense().row_major && !data.as_dense().is_f32()) {
        const DenseView &v = data.as_dense();
        const double *x = v.x + i * v.ld;
        const int64_t d = v.d;
        for (int64_t j = 0; j < d; ++j) acc[j] += kWeighted ? w * x[j] : x[j];
        return;
    }
    data.add_row(i, w, acc);
}

// One k x d block of partial sums per chunk of rows, added in chunk order:
// streams through the data once, but holds chunks x k x d values.
template <bool kWeighted>
void sums_by_chunk(const DataView &data, const int32_t *labels, const double *weight, int64_t k, int64_t chunk,
                   int threads, std::vector<double> &sums, std::vector<double> &wsum, std::vector<int64_t> &counts) {
    const int64_t n = data.n(), d = data.d();
    const int64_t chunks = chunk_count(n, chunk);
    std::vector<double> part(static_cast<size_t>(chunks * k * d), 0.0), part_w(static_cast<size_t>(chunks * k), 0.0);
    std::vector<int64_t> part_counts(static_cast<size_t>(chunks * k), 0);
    parallel_chunks(threads, n, chunk, [&](int64_t c, int64_t lo, int64_t hi) {
        double *s = part.data() + c * k * d;
        double *w = part_w.data() + c * k;
        int64_t *cnt = part_counts.data() + c * k;
        for (int64_t i = lo; i < hi; ++i) {
            const int32_t l = labels[i];
            if (l < 0 || l >= k) continue;
            const double wi = kWeighted ? weight[i] : 1.0;
            add_point<kWeighted>(data, i, wi, s + l * d);
            w[l] += wi;
            ++cnt[l];
        }
    });
    for (int64_t c = 0; c < chunks; ++c) {
        const double *s = part.data() + c * k * d;
        for (int64_t v = 0; v < k * d; ++v) sums[v] += s[v];
        for (int64_t l = 0; l < k; ++l) {
            wsum[l] += part_w[c * k + l];
            counts[l] += part_counts[c * k + l];
        }
    }
}

// One label's sum over one chunk of rows, started from 0 (a worker's
// scratch of d values). For CSR data only the coordinates a row touches are
// added and flushed: with d in the tens of thousands, clearing all d values
// per chunk sum would cost O(min(n, chunks k) d).
template <bool kWeighted>
class ChunkSum {
public:
    explicit ChunkSum(const DataView &data) : data_(data), acc_(static_cast<size_t>(data.d()), 0.0) {
        if (!data.is_dense()) mark_.assign(static_cast<size_t>(data.d()), 0);
    }
    void add(int64_t i, double w) {
        acc_w_ += w;
        if (data_.is_dense()) {
            add_point<kWeighted>(data_, i, w, acc_.data());
            return;
        }
        const CsrView &c = data_.as_csr();
        for (int64_t p = c.indptr[i]; p < c.indptr[i + 1]; ++p) {
            const int64_t j = c.indices[p];
            if (!mark_[j]) {
                mark_[j] = 1;
                touched_.push_back(j);
            }
            acc_[j] += w * c.values[p];  // as DataView::add_row
        }
    }
    // s[j] += the chunk sum, *w_sum += its weight; clears the chunk sum. A
    // coordinate no row touched would add +0.0: skipping it changes no bit.
    void flush(double *s, double *w_sum) {
        *w_sum += acc_w_;
        acc_w_ = 0.0;
        if (data_.is_dense()) {
            for (size_t j = 0; j < acc_.size(); ++j) {
                s[j] += acc_[j];
                acc_[j] = 0.0;
            }
            return;
        }
        for (int64_t j : touched_) {
            s[j] += acc_[j];
            acc_[j] = 0.0;
            mark_[j] = 0;
        }
        touched_.clear();
    }

private:
    const DataView &data_;
    std::vector<double> acc_;
    double acc_w_ = 0.0;
    std::vector<char> mark_;
    std::vector<int64_t> touched_;
};

// The points of labels in [0, k) grouped by label with a stable counting
// sort: label l's points are order[start[l] .. start[l + 1]), in index order.
void group_by_label(const int32_t *labels, int64_t n, int64_t k, std::vector<int64_t> &start,
                    std::vector<int64_t> &order) {
    start.assign(static_cast<size_t>(k + 1), 0);
    for (int64_t i = 0; i < n; ++i)
        if (labels[i] >= 0 && labels[i] < k) ++start[labels[i] + 1];
    for (int64_t l = 0; l < k; ++l) start[l + 1] += start[l];
    order.resize(static_cast<size_t>(start[k]));
    std::vector<int64_t> next(start.begin(), start.end() - 1);
    for (int64_t i = 0; i < n; ++i)
        if (labels[i] >= 0 && labels[i] < k) order[next[labels[i]]++] = i;
}

// The points grouped by label with a stable counting sort (n + k + 1 indices),
// then each label's points added in index order, one chunk sum at a time:
// the same additions as sums_by_chunk in O(n + k + threads d) extra memory,
// parallel over labels. Reads the rows in label order (scattered), so it is
// used only when the blocks of sums_by_chunk would be large.
template <bool kWeighted>
void sums_by_label(const DataView &data, const int32_t *labels, const double *weight, int64_t k, int64_t chunk,
                   int threads, std::vector<double> &sums, std::vector<double> &wsum, std::vector<int64_t> &counts) {
    const int64_t n = data.n(), d = data.d();
    std::vector<int64_t> start, order;
    group_by_label(labels, n, k, start, order);
    const int workers = static_cast<int>(std::max<int64_t>(1, std::min<int64_t>(threads, chunk_count(k, kLabelsPerTask))));
    std::vector<ChunkSum<kWeighted>> scratch(static_cast<size_t>(workers), ChunkSum<kWeighted>(data));
    parallel_chunks_by_worker(workers, k, kLabelsPerTask, [&](int w, int64_t, int64_t lo, int64_t hi) {
        ChunkSum<kWeighted> &acc = scratch[static_cast<size_t>(w)];
        for (int64_t l = lo; l < hi; ++l) {
            double *s = sums.data() + l * d;
            int64_t current = -1;
            for (int64_t p = start[l]; p < start[l + 1]; ++p) {
                const int64_t i = order[p];
                if (i / chunk != current) {
                    if (current >= 0) acc.flush(s, &wsum[l]);
                    current = i / chunk;
                }
                acc.add(i, kWeighted ? weight[i] : 1.0);
            }
            if (current >= 0) acc.flush(s, &wsum[l]);
            counts[l] = start[l + 1] - start[l];
        }
    });
}

}  // namespace

bool chunk_blocks_fit(const DataView &data, int64_t k, int64_t chunk) {
    const int64_t n = data.n(), d = data.d();
    const int64_t stored = data.is_dense() ? n * d : data.as_csr().indptr[n] - data.as_csr().indptr[0];
    return static_cast<double>(chunk_count(n, chunk) - 1) * static_cast<double>(k) * static_cast<double>(d) <=
           static_cast<double>(stored);
}

void add_rows_by_label(const DataView &data, const int32_t *labels, int64_t begin, int64_t end, int64_t k,
                       double *chunk_sums, int64_t *chunk_counts) {
    const int64_t d = data.d();
    for (int64_t i = begin; i < end; ++i) {
        const int32_t l = labels[i];
        if (l < 0 || l >= k) continue;
        add_point<false>(data, i, 1.0, chunk_sums + l * d);
        ++chunk_counts[l];
    }
}

void label_sums(const DataView &data, const int32_t *labels, const double *weight, int64_t k, int64_t chunk,
                int threads, std::vector<double> &sums, std::vector<double> *wsum, std::vector<int64_t> &counts) {
    const int64_t d = data.d();
    sums.assign(static_cast<size_t>(k * d), 0.0);
    counts.assign(static_cast<size_t>(k), 0);
    std::vector<double> own_wsum;
    std::vector<double> &w = wsum ? *wsum : own_wsum;
    w.assign(static_cast<size_t>(k), 0.0);
    // The blocks beyond the first are bounded by the values the input
    // stores (n d dense, nnz CSR); past that, sums by label. With k growing
    // with n (the must-link neighbourhoods that initialise PCKMeans and
    // MPCK-means, about 0.08 n of them for n random pairs; DP-type methods
    // opening clusters) the blocks were quadratic in n: (n / 32768) x k x d
    // doubles, 2.9 GB at n = 3e6, d = 16. In double: the product can exceed int64.
    if (chunk_blocks_fit(data, k, chunk)) {
        if (weight)
            sums_by_chunk<true>(data, labels, weight, k, chunk, threads, sums, w, counts);
        else
            sums_by_chunk<false>(data, labels, weight, k, chunk, threads, sums, w, counts);
    } else {
        if (weight)
            sums_by_label<true>(data, labels, weight, k, chunk, threads, sums, w, counts);
        else
            sums_by_label<false>(data, labels, weight, k, chunk, threads, sums, w, counts);
    }
}

void cluster_sums(const DataView &data, const int32_t *labels, int64_t k, int threads, std::vector<double> &sums,
                  std::vector<int64_t> &counts) {
    label_sums(data, labels, nullptr, k, kClusterSumChunk, threads, sums, nullptr, counts);
}

namespace {

// The sharded cluster_sums when a k x d block per global chunk would outgrow
// the points (chunks x k > n_total; the must-link units that start PCKMeans
// and MPCK-means are about 0.08 n labels, and those blocks, gathered on every
// rank, grew as n^2: 2.5 GB per rank at n = 2e6). Each rank sends, for each
// label and each of its chunks that holds points of the label, one record
// (chunk, label, count, d sums), the chunk sum started from 0 and taken in
// index order; every rank adds the records of each label in chunk order.
// A label absent from a chunk would add +0.0 in the dense way: skipping it
// changes no bit, so these are the bits of the dense way and of one process
// (sums_by_label). Memory and traffic: at most (d + 3) values per labelled
// point, summed over the ranks.
void sparse_cluster_sums(const DataView &data, const Collective &ranks, const int32_t *labels, int64_t k,
                         std::vector<double> &sums, std::vector<int64_t> &counts) {
    const int64_t n = data.n(), d = data.d(), width = d + 3;
    std::vector<int64_t> start, order;
    group_by_label(labels, n, k, start, order);
    // The message: this rank's first row, then its records, label by label, chunks ascending.
    std::vector<double> message(1, static_cast<double>(ranks.first_row()));  // exact: far below 2^53
    ChunkSum<false> acc(data);
    const int64_t first_chunk = ranks.first_row() / kClusterSumChunk;
    for (int64_t l = 0; l < k; ++l)
        for (int64_t p = start[l]; p < start[l + 1];) {
            const int64_t chunk = order[p] / kClusterSumChunk;
            const size_t at = message.size();
            message.resize(at + static_cast<size_t>(width), 0.0);
            message[at] = static_cast<double>(first_chunk + chunk);
            message[at + 1] = static_cast<double>(l);
            int64_t count = 0;
            for (; p < start[l + 1] && order[p] / kClusterSumChunk == chunk; ++p, ++count) acc.add(order[p], 1.0);
            double unused = 0.0;
            acc.flush(message.data() + at + 3, &unused);
            message[at + 2] = static_cast<double>(count);
        }
    // The ranks' records in the order of their rows: each label's chunks then come in chunk order.
    std::vector<std::vector<double>> parts;
    for (const std::vector<char> &part : ranks.gather(message.data(), message.size() * sizeof(double)))
        parts.push_back(values_of<double>(part));
    std::stable_sort(parts.begin(), parts.end(),
                     [](const std::vector<double> &a, const std::vector<double> &b) { return a[0] < b[0]; });
    sums.assign(static_cast<size_t>(k * d), 0.0);
    counts.assign(static_cast<size_t>(k), 0);
    for (const std::vector<double> &part : parts)
        for (size_t at = 1; at + static_cast<size_t>(width) <= part.size(); at += static_cast<size_t>(width)) {
            const int64_t l = static_cast<int64_t>(part[at + 1]);
            if (l < 0 || l >= k) fail(KINDRED_E_INTERNAL, "sharded fit: a rank sent the sums of label ", l);
            counts[l] += static_cast<int64_t>(part[at + 2]);
            for (int64_t j = 0; j < d; ++j) sums[l * d + j] += part[at + 3 + j];
        }
}

}  // namespace

void cluster_sums(const DataView &data, const Collective &ranks, const int32_t *labels, int64_t k, int threads,
                  std::vector<double> &sums, std::vector<int64_t> &counts) {
    static_assert(Collective::kChunk == kClusterSumChunk, "a rank holds whole chunks of the centre sums");
    if (ranks.single()) {
        cluster_sums(data, labels, k, threads, sums, counts);
        return;
    }
    // The same test on every rank (global sizes only), so that all take the same way.
    if (static_cast<double>(chunk_count(ranks.n_total(), kClusterSumChunk)) * static_cast<double>(k) >
        static_cast<double>(ranks.n_total())) {
        sparse_cluster_sums(data, ranks, labels, k, sums, counts);
        return;
    }
    const int64_t n = data.n(), d = data.d(), chunks = chunk_count(n, kClusterSumChunk), width = k * d + k;
    std::vector<double> partial(static_cast<size_t>(chunks * width), 0.0), chunk_sums;
    std::vector<int64_t> chunk_counts;
    for (int64_t c = 0; c < chunks; ++c) {
        const int64_t lo = c * kClusterSumChunk, hi = std::min(n, lo + kClusterSumChunk);
        cluster_sums(row_range(data, lo, hi), labels + lo, k, threads, chunk_sums, chunk_counts);
        std::copy(chunk_sums.begin(), chunk_sums.end(), partial.begin() + c * width);
        for (int64_t l = 0; l < k; ++l) partial[c * width + k * d + l] = static_cast<double>(chunk_counts[l]);
    }
    const std::vector<double> total = ranks.sum_chunks(partial, width);
    sums.assign(total.begin(), total.begin() + k * d);
    counts.resize(static_cast<size_t>(k));
    for (int64_t l = 0; l < k; ++l) counts[l] = static_cast<int64_t>(total[k * d + l]);  // exact below 2^53
}

}  // namespace kindred
