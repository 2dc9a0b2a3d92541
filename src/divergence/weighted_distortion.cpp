#include "divergence/weighted_distortion.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "core/label_sums.hpp"
#include "divergence/weighted_distortion_impl.hpp"

namespace kindred {
namespace divergence {

DistortionKind distortion_kind(const std::string &name) {
    if (name == "euclidean-full") return DistortionKind::EuclideanFull;
    if (name == "euclidean-diag") return DistortionKind::EuclideanDiag;
    if (name == "cosine") return DistortionKind::Cosine;
    if (name == "idiv") return DistortionKind::IDivergence;
    fail(KINDRED_E_INVALID, "unknown distortion '", name, "'; known: euclidean-full, euclidean-diag, cosine, idiv");
}

const char *distortion_name(DistortionKind kind) {
    switch (kind) {
    case DistortionKind::EuclideanFull: return "euclidean-full";
    case DistortionKind::EuclideanDiag: return "euclidean-diag";
    case DistortionKind::Cosine: return "cosine";
    case DistortionKind::IDivergence: return "idiv";
    }
    return "?";
}

std::vector<double> WeightedDistortion::identity() const {
    std::vector<double> a(static_cast<size_t>(param_count()), 0.0);
    if (full_matrix())
        for (int64_t m = 0; m < d_; ++m) a[m * d_ + m] = 1.0;
    else
        std::fill(a.begin(), a.end(), 1.0);
    return a;
}

SparseRows::SparseRows(const DataView &data) : n(data.n()), d(data.d()) {
    indptr.assign(static_cast<size_t>(n + 1), 0);
    if (!data.is_dense()) {
        const CsrView &c = data.as_csr();
        const int64_t base = c.indptr[0];
        for (int64_t i = 0; i <= n; ++i) indptr[i] = c.indptr[i] - base;
        indices.assign(c.indices + base, c.indices + c.indptr[n]);
        values.assign(c.values + base, c.values + c.indptr[n]);
        // Merge duplicate column entries of a row (CSR allows them) by sorting.
        for (int64_t i = 0; i < n; ++i) {
            const int64_t b = indptr[i], e = indptr[i + 1];
            bool sorted = true;
            for (int64_t p = b + 1; p < e; ++p) sorted = sorted && indices[p - 1] < indices[p];
            if (sorted) continue;
            std::vector<std::pair<int64_t, double>> row;
            for (int64_t p = b; p < e; ++p) row.emplace_back(indices[p], values[p]);
            std::sort(row.begin(), row.end(), [](const std::pair<int64_t, double> &x, const std::pair<int64_t, double> &y) {
                return x.first < y.first;
            });
            int64_t out = b - 1;
            for (size_t q = 0; q < row.size(); ++q) {
                if (out >= b && indices[out] == row[q].first) {
                    values[out] += row[q].second;
                } else {
                    ++out;
                    indices[out] = row[q].first;
                    values[out] = row[q].second;
                }
            }
            // Pad the merged-away tail with explicit zeros of the last column (harmless).
            for (int64_t p = out + 1; p < e; ++p) { indices[p] = indices[out]; values[p] = 0.0; }
        }
        return;
    }
    std::vector<double> row(static_cast<size_t>(d));
    for (int64_t i = 0; i < n; ++i) {
        data.copy_row(i, row.data());
        for (int64_t m = 0; m < d; ++m)
            if (row[m] != 0.0) {
                indices.push_back(m);
                values.push_back(row[m]);
            }
        indptr[i + 1] = static_cast<int64_t>(indices.size());
    }
}

void floor_weights(std::vector<double> &a, double rel_floor) {
    double mean = 0.0;
    for (double v : a) mean += std::max(v, 0.0);
    mean /= static_cast<double>(std::max<size_t>(a.size(), 1));
    const double floor = std::max(1e-300, rel_floor * mean);
    for (double &v : a) v = std::max(v, floor);
}

void mean_centroids(const DataView &data, const int32_t *labels, int64_t k, int threads, std::vector<double> &centers,
                    const Collective *ranks) {
    const int64_t d = data.d();
    std::vector<double> sums;
    std::vector<int64_t> counts;
    if (ranks)
        cluster_sums(data, *ranks, labels, k, threads, sums, counts);
    else
        cluster_sums(data, labels, k, threads, sums, counts);
    centers.resize(static_cast<size_t>(k * d));
    for (int64_t c = 0; c < k; ++c) {
        if (counts[c] == 0) continue;
        for (int64_t m = 0; m < d; ++m) centers[c * d + m] = sums[c * d + m] / static_cast<double>(counts[c]);
    }
}

std::vector<double> sparse_cluster_sums(const SparseRows &x, const int32_t *labels, int64_t k, const double *divisor,
                                        const Collective *ranks) {
    const int64_t d = x.d;
    std::vector<double> state(static_cast<size_t>(k * d + k), 0.0);
    const auto add_rows = [&](double *sums) {
        double *counts = sums + k * d;
        for (int64_t i = 0; i < x.n; ++i) {
            const int32_t h = labels[i];
            if (h < 0 || h >= k) continue;
            counts[h] += 1.0;
            for (int64_t p = x.indptr[i]; p < x.indptr[i + 1]; ++p)
                sums[h * d + x.indices[p]] += divisor ? x.values[p] / divisor[i] : x.values[p];
        }
    };
    if (ranks)
        ranks->in_turn(state.data(), state.size(), add_rows);
    else
        add_rows(state.data());
    return state;
}

std::unique_ptr<WeightedDistortion> make_distortion(DistortionKind kind, const DataView &data, int threads,
                                                    PhiMaxRule phi_max_rule, double smoothing, const char *algorithm,
                                                    int64_t first_row) {
    switch (kind) {
    case DistortionKind::EuclideanFull:
    case DistortionKind::EuclideanDiag:
        if (!data.is_dense())
            fail(KINDRED_E_INVALID, algorithm, ": distortion '", distortion_name(kind),
                 "' needs dense data; for sparse (CSR) data use distortion 'cosine' or 'idiv'");
        return make_euclidean(kind == DistortionKind::EuclideanFull, data, threads, phi_max_rule);
    case DistortionKind::Cosine: return make_cosine(data, threads, algorithm, first_row);
    case DistortionKind::IDivergence: return make_idivergence(data, threads, smoothing, algorithm, first_row);
    }
    fail(KINDRED_E_INTERNAL, "unknown distortion kind");
}

}  // namespace divergence
}  // namespace kindred
