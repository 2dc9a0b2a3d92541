#include "core/feature_moments.hpp"

#include <algorithm>

#include "core/parallel.hpp"

namespace kindred {

FeatureMoments feature_moments(const DataView &data, const Collective &ranks) {
    const int64_t n = data.n(), d = data.d();
    // Per global chunk of rows, the sums from 0 in row order: for n within
    // one chunk, the plain sequential sum of one process.
    std::vector<double> part(static_cast<size_t>(chunk_count(n, Collective::kChunk) * d), 0.0);
    std::vector<double> row(static_cast<size_t>(d));
    for (int64_t i = 0; i < n; ++i) {
        data.copy_row(i, row.data());
        double *sum = part.data() + (i / Collective::kChunk) * d;
        for (int64_t j = 0; j < d; ++j) sum[j] += row[j];
    }
    FeatureMoments m;
    m.mean = ranks.sum_chunks(part, d);
    const double n_total = static_cast<double>(ranks.n_total());
    for (double &v : m.mean) v /= n_total;
    std::fill(part.begin(), part.end(), 0.0);
    for (int64_t i = 0; i < n; ++i) {
        data.copy_row(i, row.data());
        double *sum = part.data() + (i / Collective::kChunk) * d;
        for (int64_t j = 0; j < d; ++j) {
            const double c = row[j] - m.mean[j];
            sum[j] += c * c;
        }
    }
    m.squares = ranks.sum_chunks(part, d);
    return m;
}

}  // namespace kindred
