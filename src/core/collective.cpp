#include "core/collective.hpp"

#include <algorithm>
#include <cstring>
#include <new>
#include <string>

#include "core/error.hpp"
#include "core/parallel.hpp"

namespace kindred {
namespace {

void check(int rc, const kindred_comm &comm, const char *what) {
    if (rc != 0) fail(KINDRED_E_IO, "the communicator's ", what, " failed on rank ", comm.rank, " (returned ", rc, ")");
}

// What a rank tells the others in agree(): its status and the length of its message.
struct StepOutcome {
    int32_t status;
    int32_t pad;
    uint64_t message_bytes;
};

}  // namespace

std::vector<std::vector<char>> Collective::gather(const void *data, size_t bytes) const {
    if (!comm_) return {std::vector<char>(static_cast<const char *>(data), static_cast<const char *>(data) + bytes)};
    const size_t p = static_cast<size_t>(comm_->size);
    const uint64_t mine = bytes;
    std::vector<uint64_t> sizes(p);
    check(comm_->allgather(comm_->user, &mine, sizeof mine, sizes.data()), *comm_, "allgather");
    std::vector<size_t> counts(p), displs(p);
    size_t total = 0;
    for (size_t r = 0; r < p; ++r) {
        counts[r] = static_cast<size_t>(sizes[r]);
        displs[r] = total;
        total += counts[r];
    }
    std::vector<char> all(total + 1);  // + 1: a valid pointer when every rank sends nothing
    check(comm_->allgatherv(comm_->user, data, bytes, all.data(), counts.data(), displs.data()), *comm_, "allgatherv");
    std::vector<std::vector<char>> out(p);
    for (size_t r = 0; r < p; ++r) out[r].assign(all.begin() + static_cast<std::ptrdiff_t>(displs[r]),
                                                  all.begin() + static_cast<std::ptrdiff_t>(displs[r] + counts[r]));
    return out;
}

void Collective::broadcast(void *data, size_t bytes, int root) const {
    if (comm_ && bytes > 0) check(comm_->broadcast(comm_->user, data, bytes, root), *comm_, "broadcast");
}

std::vector<double> Collective::rows(const DataView &local, const std::vector<int64_t> &indices) const {
    const int64_t d = local.d();
    std::vector<double> out(indices.size() * static_cast<size_t>(d), 0.0);
    // (position, row) for the indices this rank holds.
    std::vector<double> held;
    for (size_t p = 0; p < indices.size(); ++p) {
        const int64_t i = indices[p] - first_row_;
        if (i < 0 || i >= local.n()) continue;
        held.push_back(static_cast<double>(p));
        held.resize(held.size() + static_cast<size_t>(d));
        local.copy_row(i, held.data() + held.size() - d);
    }
    for (const std::vector<char> &part : gather(held.data(), held.size() * sizeof(double))) {
        const std::vector<double> v = values_of<double>(part);
        for (size_t at = 0; at + static_cast<size_t>(d) + 1 <= v.size(); at += static_cast<size_t>(d) + 1)
            std::copy(v.begin() + static_cast<std::ptrdiff_t>(at + 1), v.begin() + static_cast<std::ptrdiff_t>(at + 1 + d),
                      out.begin() + static_cast<std::ptrdiff_t>(v[at]) * d);
    }
    return out;
}

std::vector<double> Collective::all_chunks(const std::vector<double> &partial, int64_t width) const {
    const int64_t chunks = chunk_count(n_total_, kChunk);
    if (!comm_) return partial;
    // Each rank sends its first chunk's index and its chunks' values.
    std::vector<double> message(partial.size() + 1);
    message[0] = static_cast<double>(first_row_ / kChunk);  // exact: far below 2^53
    std::copy(partial.begin(), partial.end(), message.begin() + 1);
    const std::vector<std::vector<char>> parts = gather(message.data(), message.size() * sizeof(double));
    std::vector<double> out(static_cast<size_t>(chunks * width), 0.0);
    for (const std::vector<char> &part : parts) {
        const std::vector<double> v = values_of<double>(part);
        if (v.size() <= 1) continue;
        const int64_t at = static_cast<int64_t>(v[0]) * width;
        if (at < 0 || at + static_cast<int64_t>(v.size() - 1) > chunks * width)
            fail(KINDRED_E_INTERNAL, "sharded fit: a rank sent chunk values beyond the last chunk");
        std::copy(v.begin() + 1, v.end(), out.begin() + at);
    }
    return out;
}

std::vector<double> Collective::sum_chunks(const std::vector<double> &partial, int64_t width) const {
    const std::vector<double> all = all_chunks(partial, width);
    std::vector<double> sum(static_cast<size_t>(width), 0.0);
    const int64_t chunks = width > 0 ? static_cast<int64_t>(all.size()) / width : 0;
    for (int64_t c = 0; c < chunks; ++c)
        for (int64_t v = 0; v < width; ++v) sum[v] += all[c * width + v];
    return sum;
}

double Collective::sum_rows(const double *v, int64_t n_local) const {
    std::vector<double> partial(static_cast<size_t>(chunk_count(n_local, kChunk)), 0.0);
    for (int64_t i = 0; i < n_local; ++i) partial[i / kChunk] += v[i];
    return sum_chunks(partial, 1)[0];
}

void Collective::in_turn(double *state, size_t count, const std::function<void(double *)> &step) const {
    if (!comm_) {
        step(state);
        return;
    }
    for (int root : row_order()) {
        if (root == rank()) step(state);
        broadcast(state, count * sizeof(double), root);
    }
}

double Collective::sum_in_order(const double *v, int64_t n_local) const {
    double sum = 0.0;
    in_turn(&sum, 1, [&](double *s) {
        for (int64_t i = 0; i < n_local; ++i) *s += v[i];
    });
    return sum;
}

std::vector<int> Collective::row_order() const {
    if (!comm_) return {0};
    const int64_t mine[2] = {n_local_ > 0 ? first_row_ : n_total_, n_local_};
    std::vector<std::pair<int64_t, int>> starts;
    int r = 0;
    for (const std::vector<char> &part : gather(mine, sizeof mine)) {
        int64_t v[2];
        std::memcpy(v, part.data(), sizeof v);
        starts.push_back({v[0], r++});
    }
    std::sort(starts.begin(), starts.end());
    std::vector<int> order;
    for (const auto &s : starts) order.push_back(s.second);
    return order;
}

void Collective::agree(const std::function<void()> &step) const {
    if (!comm_) {
        step();
        return;
    }
    kindred_status status = KINDRED_OK;
    std::string message;
    try {
        step();
    } catch (const Error &e) {
        status = e.code();
        message = e.what();
    } catch (const std::bad_alloc &) {
        status = KINDRED_E_NOMEM;
        message = "out of memory";
    }
    const StepOutcome mine{static_cast<int32_t>(status), 0, message.size()};
    std::vector<StepOutcome> all(static_cast<size_t>(comm_->size));
    check(comm_->allgather(comm_->user, &mine, sizeof mine, all.data()), *comm_, "allgather");
    for (int r = 0; r < comm_->size; ++r) {
        if (all[r].status == KINDRED_OK) continue;
        std::string text(static_cast<size_t>(all[r].message_bytes), '\0');
        if (r == comm_->rank) text = message;
        broadcast(text.data(), text.size(), r);
        fail(static_cast<kindred_status>(all[r].status), "rank ", r, ": ", text);
    }
}

}  // namespace kindred
