#include "algorithms/tcs/working_data.hpp"

#include <algorithm>
#include <map>

#include "core/error.hpp"
#include "linalg/truncated_svd.hpp"

namespace kindred {
namespace tcs {
namespace {
// A full d x d metric costs O(d^3) per iteration and d^2 memory; beyond this
// the user must reduce the dimension (the paper does so above 200).
constexpr int64_t kMaxFullDim = 4096;
}  // namespace

LabelledClasses read_partial_labels(const FitContext &ctx, const char *algorithm) {
    const int64_t n = ctx.collective ? ctx.collective->n_total() : ctx.data.n();
    if (!ctx.side || !ctx.side->has_partial_labels())
        fail(KINDRED_E_INVALID, algorithm, " needs partial labels (the labels of some known clusters, -1 elsewhere): "
             "kindred_side_set_partial_labels in the C API, --partial-labels in the CLI");
    const std::vector<int32_t> &y = ctx.side->partial_labels();
    LabelledClasses out;
    std::map<int32_t, int32_t> index;
    for (int64_t i = 0; i < n; ++i) {
        if (y[i] < 0) {
            out.unlabelled.push_back(i);
            continue;
        }
        if (y[i] >= n)
            fail(KINDRED_E_INDEX, algorithm, ": partial label ", y[i], " of point ", i, " is out of range; class ids must be in [0, n) = [0, ", n, ")");
        out.labelled.push_back(i);
        index[y[i]] = 0;
    }
    if (out.labelled.empty())
        fail(KINDRED_E_INVALID, algorithm, ": no point has a partial label; label the points of at least two known clusters");
    if (index.size() < 2)
        fail(KINDRED_E_INVALID, algorithm, ": all labelled points are in one class (", index.begin()->first,
             "); the transformation is learned from at least two labelled clusters");
    for (auto &kv : index) {
        kv.second = static_cast<int32_t>(out.class_ids.size());
        out.class_ids.push_back(kv.first);
    }
    out.class_of.reserve(out.labelled.size());
    for (int64_t i : out.labelled) out.class_of.push_back(index[y[i]]);
    return out;
}

LabelledClasses subset_classes(const LabelledClasses &all, const std::vector<int32_t> &keep_classes) {
    LabelledClasses out;
    std::vector<int32_t> remap(all.class_ids.size(), -1);
    std::vector<int32_t> sorted(keep_classes);
    std::sort(sorted.begin(), sorted.end());
    for (int32_t c : sorted) {
        remap[c] = static_cast<int32_t>(out.class_ids.size());
        out.class_ids.push_back(all.class_ids[c]);
    }
    for (size_t p = 0; p < all.labelled.size(); ++p) {
        const int32_t c = remap[all.class_of[p]];
        if (c < 0) continue;
        out.labelled.push_back(all.labelled[p]);
        out.class_of.push_back(c);
    }
    return out;
}

void append_reduction_options(OptionTable &t) {
    t.push_back(OptionSpec::integer("svd_threshold", 200, 0, INT32_MAX,
                                    "reduce the data by SVD when d is larger than this (paper: 200)"));
    t.push_back(OptionSpec::integer("svd_dim", 30, 1, 100000, "dimension after the SVD reduction (paper: 30)"));
}

WorkingData make_working_data(const FitContext &ctx, const char *algorithm) {
    const DataView &data = ctx.data;
    WorkingData w;
    w.n = data.n();
    w.original_d = data.d();
    const int64_t threshold = ctx.options.get_int("svd_threshold");
    if (data.d() > threshold && ctx.collective && !ctx.collective->single())
        fail(KINDRED_E_INVALID, algorithm, ": the SVD reduction (d = ", data.d(), " > svd_threshold = ", threshold,
             ") is not available in a sharded fit yet: reduce the data first, or set svd_threshold >= d");
    if (data.d() > threshold) {
        const int64_t r = ctx.options.get_int("svd_dim");
        if (r >= data.d())
            fail(KINDRED_E_DIMENSION, algorithm, ": svd_dim = ", r, " must be smaller than d = ", data.d(),
                 " (the data is reduced because d > svd_threshold = ", threshold, ")");
        if (r > data.n())
            fail(KINDRED_E_DIMENSION, algorithm, ": svd_dim = ", r, " is larger than the number of points n = ", data.n());
        // The reduction has its own stream so that it does not shift the other random draws.
        Rng rng = Rng(static_cast<uint64_t>(ctx.options.get_int("seed"))).derive(0x5bdull);
        linalg::TruncatedSvd svd = linalg::truncated_svd(data, r, rng);
        w.d = r;
        w.x.resize(static_cast<size_t>(w.n * r));
        linalg::project_rows(data, svd, w.x.data());
        w.basis = std::move(svd.basis);
        return w;
    }
    if (data.d() > kMaxFullDim)
        fail(KINDRED_E_DIMENSION, algorithm, ": d = ", data.d(), " is too large to learn a full d x d matrix (at most ",
             kMaxFullDim, "); set svd_threshold below d to reduce the data by SVD first");
    w.d = data.d();
    w.x.resize(static_cast<size_t>(w.n * w.d));
    for (int64_t i = 0; i < w.n; ++i) data.copy_row(i, w.x.data() + i * w.d);
    return w;
}

LabelledData labelled_data(const FitContext &ctx, const WorkingData &w, const LabelledClasses &cls) {
    LabelledData out;
    out.w.d = w.d;
    out.w.original_d = w.original_d;
    out.w.n = static_cast<int64_t>(cls.labelled.size());
    // A sharded fit never reduces (make_working_data), so the working rows are the data's rows.
    out.w.x = ctx.collective && !ctx.collective->single() ? ctx.collective->rows(ctx.data, cls.labelled)
                                                          : gather_rows(w, cls.labelled);
    out.cls.class_ids = cls.class_ids;
    out.cls.class_of = cls.class_of;
    out.cls.labelled.resize(cls.labelled.size());
    for (size_t q = 0; q < cls.labelled.size(); ++q) out.cls.labelled[q] = static_cast<int64_t>(q);
    return out;
}

FitInputs read_fit_inputs(const FitContext &ctx, const char *algorithm) {
    FitInputs in{Collective::or_single(ctx.collective, ctx.data.n()), read_partial_labels(ctx, algorithm),
                 make_working_data(ctx, algorithm), ctx.options.get_int("k"), {}};
    const int64_t n_u = static_cast<int64_t>(in.cls.unlabelled.size());
    if (n_u > 0 && in.k > n_u)
        fail(KINDRED_E_DIMENSION, algorithm, ": k = ", in.k, " clusters asked for ", n_u, " unlabelled points");
    // Learning reads the labelled points alone, on every rank from the same rows.
    in.known = labelled_data(ctx, in.w, in.cls);
    return in;
}

std::vector<double> gather_rows(const WorkingData &w, const std::vector<int64_t> &rows) {
    std::vector<double> out(rows.size() * static_cast<size_t>(w.d));
    for (size_t r = 0; r < rows.size(); ++r)
        std::copy(w.x.begin() + rows[r] * w.d, w.x.begin() + (rows[r] + 1) * w.d, out.begin() + r * w.d);
    return out;
}

std::vector<double> reduce_new_points(const FitResult &model, const DataView &data) {
    const int64_t n = data.n();
    if (const NamedArray *b = model.find("svd_basis")) {
        std::vector<double> out(static_cast<size_t>(n * b->cols));
        linalg::data_times(data, b->values.data(), b->cols, out.data());
        return out;
    }
    const int64_t d = data.d();
    std::vector<double> out(static_cast<size_t>(n * d));
    for (int64_t i = 0; i < n; ++i) data.copy_row(i, out.data() + i * d);
    return out;
}

}  // namespace tcs
}  // namespace kindred
