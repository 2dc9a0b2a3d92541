// kindred_model_fit_dense_shard and kindred_model_fit_csr_shard: a fit over
// the ranks of a host's communicator (docs/distributed.md). The ranks first
// agree on what is fitted (every rank's arguments, checked by all); then the rows of a chunk
// of Collective::kChunk rows that straddles two shards go to the rank that
// holds the chunk's first row, so that every rank holds whole chunks and
// computes on the blocks of the single-process fit; the algorithm runs with
// the Collective; last, the labels of the moved rows go back to their rank.
#include <algorithm>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "capi/data_args.hpp"
#include "capi/guard.hpp"
#include "capi/model_state.hpp"
#include "core/collective.hpp"
#include "core/error.hpp"
#include "core/side_info.hpp"
#include "core/whole_chunks.hpp"

using namespace kindred;

namespace {

constexpr int64_t kChunk = Collective::kChunk;

int64_t round_up(int64_t v) { return (v + kChunk - 1) / kChunk * kChunk; }

// FNV-1a, 64 bits: a fingerprint of what every rank must agree on.
struct Fingerprint {
    uint64_t h = 1469598103934665603ull;
    void add(const void *p, size_t bytes) {
        const unsigned char *b = static_cast<const unsigned char *>(p);
        for (size_t k = 0; k < bytes; ++k) h = (h ^ b[k]) * 1099511628211ull;
    }
    void add(const std::string &s) { add(s.data(), s.size() + 1); }
};

uint64_t options_fingerprint(const kindred_model &m) {
    Fingerprint f;
    f.add(m.spec->name);
    // "threads" is this rank's own affair: results do not depend on it.
    for (const OptionSpec &spec : m.spec->options)
        if (spec.name != "threads") f.add(spec.name + "=" + m.options.text(spec.name));
    return f.h;
}

uint64_t side_fingerprint(const SideInfo *side) {
    Fingerprint f;
    if (!side) return f.h;
    const int64_t n = side->n();
    f.add(&n, sizeof n);
    for (const Pair &p : side->pairs()) {
        f.add(&p.i, sizeof p.i);
        f.add(&p.j, sizeof p.j);
        f.add(&p.value, sizeof p.value);
    }
    for (const Triplet &t : side->triplets()) {
        f.add(&t.a, sizeof t.a);
        f.add(&t.b, sizeof t.b);
        f.add(&t.c, sizeof t.c);
        f.add(&t.answer, sizeof t.answer);
    }
    const std::vector<int32_t> &labels = side->partial_labels();
    f.add(labels.data(), labels.size() * sizeof(int32_t));
    return f.h;
}

// What each rank says about its call, compared by all.
struct ShardRecord {
    int64_t row_offset, n_local, d, n_total;
    uint64_t options, side;
};

void check_comm(const kindred_comm *comm) {
    if (comm->struct_size < sizeof(kindred_comm))
        fail(KINDRED_E_INVALID, "comm->struct_size is ", comm->struct_size, ", smaller than this library's kindred_comm (",
             sizeof(kindred_comm), " bytes)");
    if (comm->size < 1 || comm->rank < 0 || comm->rank >= comm->size)
        fail(KINDRED_E_INVALID, "comm: rank ", comm->rank, " of size ", comm->size, " (need 0 <= rank < size)");
    if (!comm->allgather || !comm->allgatherv || !comm->broadcast)
        fail(KINDRED_E_INVALID, "comm: the allgather, allgatherv and broadcast callbacks must not be NULL");
}

// The same verdict on every rank: every check reads only the gathered records.
void check_records(const std::vector<ShardRecord> &all) {
    const ShardRecord &first = all[0];
    for (size_t r = 1; r < all.size(); ++r) {
        if (all[r].d != first.d)
            fail(KINDRED_E_DIMENSION, "sharded fit: rank 0 has d = ", first.d, ", rank ", r, " has d = ", all[r].d);
        if (all[r].n_total != first.n_total)
            fail(KINDRED_E_DIMENSION, "sharded fit: rank 0 says n_total = ", first.n_total, ", rank ", r, " says ",
                 all[r].n_total);
        if (all[r].options != first.options)
            fail(KINDRED_E_INVALID, "sharded fit: rank ", r, " has other options or another algorithm than rank 0");
        if (all[r].side != first.side)
            fail(KINDRED_E_INVALID, "sharded fit: rank ", r, " has other side information than rank 0");
    }
    std::vector<size_t> order(all.size());
    for (size_t r = 0; r < order.size(); ++r) order[r] = r;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return all[a].row_offset < all[b].row_offset ||
               (all[a].row_offset == all[b].row_offset && all[a].n_local < all[b].n_local);
    });
    int64_t next = 0;
    for (size_t r : order) {
        if (all[r].n_local == 0) continue;
        if (all[r].row_offset != next)
            fail(KINDRED_E_DIMENSION, "sharded fit: rank ", r, " starts at row ", all[r].row_offset, " but the rows before end at ",
                 next, " (the ranks' rows must cover [0, n_total) exactly once)");
        next += all[r].n_local;
    }
    if (next != first.n_total)
        fail(KINDRED_E_DIMENSION, "sharded fit: the ranks hold ", next, " rows together, n_total is ", first.n_total);
}

// A block of rows sent to another rank: its first global row, then the values.
std::vector<double> rows_message(const DataView &data, int64_t begin, int64_t end, int64_t global_begin) {
    const int64_t d = data.d();
    std::vector<double> out(static_cast<size_t>(1 + (end - begin) * d));
    out[0] = static_cast<double>(global_begin);  // exact: row indices are far below 2^53
    for (int64_t i = begin; i < end; ++i) data.copy_row(i, out.data() + 1 + (i - begin) * d);
    return out;
}

// CSR rows sent to another rank, as bytes: their first global row, the
// number of rows and of entries, each row's entry count, the column indices
// (int64, exact at any size), then the values; a row keeps its entries in
// the caller's order, which is the order of every sum over them.
std::vector<char> csr_rows_message(const CsrView &c, int64_t begin, int64_t end, int64_t global_begin) {
    const int64_t rows = end - begin, first = c.indptr[begin], entries = c.indptr[end] - first;
    std::vector<int64_t> head{global_begin, rows, entries};
    for (int64_t i = begin; i < end; ++i) head.push_back(c.indptr[i + 1] - c.indptr[i]);
    std::vector<char> out((head.size() + static_cast<size_t>(entries)) * sizeof(int64_t) +
                          static_cast<size_t>(entries) * sizeof(double));
    char *at = out.data();
    std::memcpy(at, head.data(), head.size() * sizeof(int64_t));
    at += head.size() * sizeof(int64_t);
    if (entries > 0) {
        std::memcpy(at, c.indices + first, static_cast<size_t>(entries) * sizeof(int64_t));
        std::memcpy(at + entries * sizeof(int64_t), c.values + first, static_cast<size_t>(entries) * sizeof(double));
    }
    return out;
}

// The rows a rank computes on when they are not the caller's rows in place:
// a dense copy, or CSR arrays whose indptr starts at 0.
struct HeldRows {
    std::vector<double> dense;
    std::vector<int64_t> indptr{0}, indices;
    std::vector<double> values;

    void append_csr_row(const int64_t *cols, const double *vals, int64_t count) {
        indices.insert(indices.end(), cols, cols + count);
        values.insert(values.end(), vals, vals + count);
        indptr.push_back(static_cast<int64_t>(indices.size()));
    }
    DataView csr(int64_t d) const {
        return DataView::csr(CsrView{indptr.data(), indices.data(), values.data(), static_cast<int64_t>(indptr.size()) - 1, d});
    }
};

// Rows [own_begin, own_end) on this rank: its own [own_begin, end) from
// mine (whose first row is row_offset), the rest from what the next ranks lent.
DataView dense_held_rows(const DataView &mine, const std::vector<std::vector<char>> &moved, int64_t row_offset,
                         int64_t own_begin, int64_t end, int64_t own_end, HeldRows &held) {
    const int64_t d = mine.d();
    held.dense.resize(static_cast<size_t>((own_end - own_begin) * d));
    for (int64_t i = own_begin; i < end; ++i) mine.copy_row(i - row_offset, held.dense.data() + (i - own_begin) * d);
    place_lent_rows(moved, d, end, own_begin, own_end, held.dense.data());
    return DataView::dense(DenseView::rows(held.dense.data(), own_end - own_begin, d));
}

DataView csr_held_rows(const DataView &mine, const std::vector<std::vector<char>> &moved, int64_t row_offset,
                       int64_t own_begin, int64_t end, int64_t own_end, HeldRows &held) {
    const int64_t d = mine.d();
    if (end > own_begin) {
        const CsrView &c = mine.as_csr();
        for (int64_t i = own_begin - row_offset; i < end - row_offset; ++i)
            held.append_csr_row(c.indices + c.indptr[i], c.values + c.indptr[i], c.indptr[i + 1] - c.indptr[i]);
    }
    // The lent blocks in row order: the ranks' rows tile [0, n_total), so they follow each other.
    struct Block {
        int64_t first, rows, entries;
        const char *bytes;
    };
    std::vector<Block> blocks;
    for (const std::vector<char> &part : moved) {
        if (part.size() < 3 * sizeof(int64_t)) continue;
        Block b{0, 0, 0, part.data()};
        std::memcpy(&b.first, part.data(), sizeof(int64_t));
        std::memcpy(&b.rows, part.data() + sizeof(int64_t), sizeof(int64_t));
        std::memcpy(&b.entries, part.data() + 2 * sizeof(int64_t), sizeof(int64_t));
        if (b.rows > 0) blocks.push_back(b);
    }
    std::sort(blocks.begin(), blocks.end(), [](const Block &a, const Block &b) { return a.first < b.first; });
    std::vector<int64_t> cols;
    std::vector<double> vals;
    for (const Block &b : blocks) {
        if (b.first + b.rows <= end || b.first >= own_end) continue;
        const std::vector<int64_t> counts = values_of<int64_t>(
            std::vector<char>(b.bytes + 3 * sizeof(int64_t), b.bytes + (3 + b.rows) * sizeof(int64_t)));
        const char *index_bytes = b.bytes + (3 + b.rows) * sizeof(int64_t);
        const char *value_bytes = index_bytes + b.entries * sizeof(int64_t);
        int64_t at = 0;
        for (int64_t r = 0; r < b.rows; ++r) {
            const int64_t i = b.first + r, count = counts[r];
            if (i >= end && i < own_end) {
                cols.resize(static_cast<size_t>(count));
                vals.resize(static_cast<size_t>(count));
                if (count > 0) {
                    std::memcpy(cols.data(), index_bytes + at * sizeof(int64_t), static_cast<size_t>(count) * sizeof(int64_t));
                    std::memcpy(vals.data(), value_bytes + at * sizeof(double), static_cast<size_t>(count) * sizeof(double));
                }
                held.append_csr_row(cols.data(), vals.data(), count);
            }
            at += count;
        }
    }
    if (static_cast<int64_t>(held.indptr.size()) - 1 != own_end - own_begin)
        fail(KINDRED_E_INTERNAL, "sharded fit: rows [", own_begin, ", ", own_end, ") were not all received");
    return held.csr(d);
}

// Checks this rank's rows and returns a view of them (called with n_local > 0).
using ReadRows = std::function<DataView()>;

void fit_shard(kindred_model *model, const kindred_comm &comm, const ReadRows &read_rows, bool sparse, int64_t n_local,
               int64_t d, int64_t row_offset, int64_t n_total, const kindred_side *side) {
    model->fitted = false;
    const Collective talk(comm, 0, 0, n_total);
    DataView mine;
    ShardRecord record{row_offset, n_local, d, n_total, 0, 0};
    talk.agree([&] {
        if (!(model->spec->uses & (KINDRED_USES_SHARDS | KINDRED_USES_SHARDS_APPROX)))
            fail(KINDRED_E_INVALID, model->spec->name,
                 " has no sharded fit yet (kindred_algorithm_uses flags: KINDRED_USES_SHARDS, KINDRED_USES_SHARDS_APPROX)");
        if (sparse && !(model->spec->uses & KINDRED_USES_SPARSE))
            fail(KINDRED_E_INVALID, model->spec->name, " does not accept sparse (CSR) data; pass dense data");
        // Said here, on every rank, rather than by the scaling of one rank's CSR rows.
        if (sparse && model->options.get_bool("standardize"))
            fail(KINDRED_E_INVALID, model->spec->name, ": standardize needs dense data (z-scoring would fill a sparse matrix)");
        if (d < 1) fail(KINDRED_E_INVALID, "d must be >= 1, got ", d);
        if (n_total < 1) fail(KINDRED_E_INVALID, "n_total must be >= 1, got ", n_total);
        if (n_local < 0 || row_offset < 0 || row_offset > n_total || n_local > n_total - row_offset)
            fail(KINDRED_E_DIMENSION, "rows [", row_offset, ", ", row_offset, " + ", n_local, ") are not within [0, n_total = ",
                 n_total, ")");
        if (n_local > 0) {
            try {
                mine = read_rows();
            } catch (const Error &e) {
                // The checks count this rank's rows from 0: say where they are in all the points.
                throw Error(e.code(), cat(e.what(), " (rows of this rank counted from 0; its first row is row ", row_offset,
                                          " of all the points)"));
            }
        }
        const SideInfo *info = capi::side_info(side);
        if (info && info->n() != n_total)
            fail(KINDRED_E_DIMENSION, "side information is about ", info->n(), " points but n_total is ", n_total);
        record.options = options_fingerprint(*model);
        record.side = side_fingerprint(info);
    });
    std::vector<ShardRecord> records;
    for (const std::vector<char> &part : talk.gather(&record, sizeof record)) {
        ShardRecord r;
        std::memcpy(&r, part.data(), sizeof r);
        records.push_back(r);
    }
    check_records(records);

    // Rows [row_offset, lent_end) belong to a chunk that starts on an earlier
    // rank; this rank holds the chunks that start in its rows, [own_begin, own_end).
    const int64_t end = row_offset + n_local;
    const int64_t own_begin = std::min(round_up(row_offset), end);
    const int64_t own_end = own_begin < end ? std::min(round_up(end), n_total) : own_begin;
    std::vector<char> lent;
    if (sparse) {
        if (own_begin > row_offset) lent = csr_rows_message(mine.as_csr(), 0, own_begin - row_offset, row_offset);
    } else {
        const std::vector<double> rows = rows_message(mine, 0, own_begin - row_offset, row_offset);
        lent.resize(rows.size() * sizeof(double));
        std::memcpy(lent.data(), rows.data(), lent.size());
    }
    const std::vector<std::vector<char>> moved = talk.gather(lent.data(), lent.size());
    HeldRows held;
    DataView local;
    // In agree: a rank that cannot hold its rows (out of memory) fails every rank rather than leave them waiting.
    talk.agree([&] {
        if (own_end == own_begin) {
            // No rows to compute on (all lent): an empty view of the caller's kind.
            if (sparse) {
                local = held.csr(d);
            } else {
                local = DataView::dense(DenseView::rows(nullptr, 0, d));
            }
        } else if (own_end > end) {
            local = sparse ? csr_held_rows(mine, moved, row_offset, own_begin, end, own_end, held)
                           : dense_held_rows(mine, moved, row_offset, own_begin, end, own_end, held);
        } else if (sparse && own_begin > row_offset) {
            // CSR rows from the middle of the caller's arrays: copied so that indptr starts at 0, as in a plain fit.
            local = csr_held_rows(mine, {}, row_offset, own_begin, end, own_end, held);
        } else {
            local = row_range(mine, own_begin - row_offset, end - row_offset);
        }
    });

    const Collective ranks(comm, own_begin, own_end - own_begin, n_total);
    capi::fit_model(model, local, side, &ranks);
    model->fitted = false;

    // The labels of the borrowed rows go back to the ranks that lent them.
    const std::vector<int32_t> &own_labels = model->result.labels;
    std::vector<int64_t> back{end};
    for (int64_t i = end; i < own_end; ++i) back.push_back(own_labels[i - own_begin]);
    std::vector<int32_t> labels(static_cast<size_t>(n_local), -1);
    for (int64_t i = own_begin; i < end; ++i) labels[i - row_offset] = own_labels[i - own_begin];
    for (const std::vector<char> &part : talk.gather(back.data(), back.size() * sizeof(int64_t))) {
        const std::vector<int64_t> v = values_of<int64_t>(part);
        for (size_t k = 1; k < v.size(); ++k) {
            const int64_t i = v[0] + static_cast<int64_t>(k) - 1;
            if (i >= row_offset && i < own_begin) labels[i - row_offset] = static_cast<int32_t>(v[k]);
        }
    }
    model->result.labels = std::move(labels);
    model->result.n = n_local;
    model->fitted = true;
}

// The entry points' common part: a NULL communicator or one of one rank is the plain fit.
kindred_status fit_shard_entry(kindred_model *model, const kindred_comm *comm, const ReadRows &read_rows, bool sparse,
                               int64_t n_local, int64_t d, int64_t row_offset, int64_t n_total, const kindred_side *side) {
    return capi::guarded([&] {
        capi::require_pointer(model, "model");
        model->fitted = false;
        if (comm) check_comm(comm);
        if (!comm || comm->size == 1) {
            if (row_offset != 0 || n_local != n_total)
                fail(KINDRED_E_DIMENSION, "a fit without other ranks takes all the points: row_offset = ", row_offset,
                     " (need 0), n_local = ", n_local, " (need n_total = ", n_total, ")");
            if (sparse && !(model->spec->uses & KINDRED_USES_SPARSE))
                fail(KINDRED_E_INVALID, model->spec->name, " does not accept sparse (CSR) data; pass dense data");
            capi::fit_model(model, read_rows(), side, nullptr);
            return;
        }
        fit_shard(model, *comm, read_rows, sparse, n_local, d, row_offset, n_total, side);
    });
}

}  // namespace

kindred_status kindred_model_fit_dense_shard(kindred_model *model, const kindred_comm *comm, const double *x,
                                             int64_t n_local, int64_t d, kindred_layout layout, int64_t ld,
                                             int64_t row_offset, int64_t n_total, const kindred_side *side) {
    return fit_shard_entry(
        model, comm, [&] { return capi::dense_arg(x, n_local, d, layout, ld); }, false, n_local, d, row_offset, n_total, side);
}

kindred_status kindred_model_fit_csr_shard(kindred_model *model, const kindred_comm *comm, int64_t n_local, int64_t d,
                                           const int64_t *indptr, const int64_t *indices, const double *values,
                                           int64_t row_offset, int64_t n_total, const kindred_side *side) {
    return fit_shard_entry(
        model, comm, [&] { return capi::csr_arg(n_local, d, indptr, indices, values); }, true, n_local, d, row_offset,
        n_total, side);
}
