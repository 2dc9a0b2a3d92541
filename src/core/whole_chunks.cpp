#include "core/whole_chunks.hpp"

#include <algorithm>
#include <utility>

#include "core/error.hpp"

namespace kindred {
namespace {

constexpr int64_t kChunk = Collective::kChunk;

int64_t round_up(int64_t v) { return (v + kChunk - 1) / kChunk * kChunk; }

}  // namespace

WholeChunks to_whole_chunks(const Collective &ranks, std::vector<double> rows, int64_t first, int64_t n, int64_t width,
                            int64_t n_total) {
    WholeChunks out;
    out.piece_first = first;
    out.piece_n = n;
    if (ranks.single()) {
        out.first = first;
        out.n = n;
        out.values = std::move(rows);
        return out;
    }
    // This rank keeps the chunks that start in its piece, [own_begin, own_end);
    // rows [first, own_begin) belong to a chunk that starts on an earlier rank.
    const int64_t end = first + n;
    const int64_t own_begin = std::min(round_up(first), end);
    const int64_t own_end = own_begin < end ? std::min(round_up(end), n_total) : own_begin;
    // Message: the first row's index (exact in a double: far below 2^53), then the lent rows.
    std::vector<double> lent(static_cast<size_t>(1 + (own_begin - first) * width));
    lent[0] = static_cast<double>(first);
    std::copy(rows.begin(), rows.begin() + (own_begin - first) * width, lent.begin() + 1);
    const std::vector<std::vector<char>> moved = ranks.gather(lent.data(), lent.size() * sizeof(double));
    out.first = own_end > own_begin ? own_begin : n_total;
    out.n = own_end - own_begin;
    out.values.assign(static_cast<size_t>(out.n * width), 0.0);
    if (out.n == 0) return out;
    std::copy(rows.begin() + (own_begin - first) * width, rows.end(), out.values.begin());
    place_lent_rows(moved, width, end, own_begin, own_end, out.values.data());
    return out;
}

void place_lent_rows(const std::vector<std::vector<char>> &moved, int64_t width, int64_t end, int64_t own_begin,
                     int64_t own_end, double *out) {
    for (const std::vector<char> &part : moved) {
        const std::vector<double> v = values_of<double>(part);
        if (v.size() <= 1) continue;
        const int64_t from = static_cast<int64_t>(v[0]), count = static_cast<int64_t>(v.size() - 1) / width;
        for (int64_t i = std::max(from, end); i < std::min(from + count, own_end); ++i)
            std::copy(v.begin() + 1 + (i - from) * width, v.begin() + 1 + (i - from + 1) * width,
                      out + (i - own_begin) * width);
    }
}

std::vector<int32_t> labels_of_piece(const Collective &ranks, const WholeChunks &held, const std::vector<int32_t> &labels) {
    if (static_cast<int64_t>(labels.size()) != held.n)
        fail(KINDRED_E_INTERNAL, "labels_of_piece: ", labels.size(), " labels for ", held.n, " rows");
    if (ranks.single()) return labels;
    const int64_t end = held.piece_first + held.piece_n;
    // The labels of the borrowed rows [end, held.first + held.n), after their first index.
    std::vector<int64_t> back{end};
    for (int64_t i = std::max(end, held.first); i < held.first + held.n; ++i) back.push_back(labels[i - held.first]);
    std::vector<int32_t> out(static_cast<size_t>(held.piece_n), -1);
    for (int64_t i = std::max(held.first, held.piece_first); i < std::min(end, held.first + held.n); ++i)
        out[i - held.piece_first] = labels[i - held.first];
    for (const std::vector<char> &part : ranks.gather(back.data(), back.size() * sizeof(int64_t))) {
        const std::vector<int64_t> v = values_of<int64_t>(part);
        for (size_t q = 1; q < v.size(); ++q) {
            const int64_t i = v[0] + static_cast<int64_t>(q) - 1;
            if (i >= held.piece_first && i < end) out[i - held.piece_first] = static_cast<int32_t>(v[q]);
        }
    }
    return out;
}

}  // namespace kindred
