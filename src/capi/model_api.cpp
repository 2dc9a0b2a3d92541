// kindred_model: an algorithm, its option values, callbacks, and results.
#include <algorithm>
#include <cstring>
#include <memory>

#include "algorithms/registry.hpp"
#include "capi/data_args.hpp"
#include "capi/guard.hpp"
#include "capi/model_state.hpp"
#include "capi/option_args.hpp"
#include "core/model_file.hpp"
#include "core/parallel.hpp"
#include "core/standardize.hpp"

using namespace kindred;

namespace {

const FitResult &fitted_result(const kindred_model *m) {
    capi::require_pointer(m, "model");
    if (!m->fitted) fail(KINDRED_E_STATE, "the ", m->spec->name, " model is not fitted; call kindred_model_fit_dense first");
    return m->result;
}

}  // namespace

void capi::fit_model(kindred_model *m, const DataView &data, const kindred_side *side, const Collective *collective) {
    const SideInfo *info = capi::side_info(side);
    const int64_t n = collective ? collective->n_total() : data.n();
    if (info && info->n() != n)
        fail(KINDRED_E_DIMENSION, "side information is about ", info->n(), " points but the data has ", n);
    m->fitted = false;
    m->result = FitResult();
    Progress progress(m->progress_fn, m->progress_user);
    Log log(m->log_fn, m->log_user);
    const bool standardize = m->options.get_bool("standardize");
    Scaling scaling;
    ScaledData scaled;
    if (standardize) {
        scaling = fit_scaling(data, m->spec->name.c_str(), collective);
        scaled = apply_scaling(scaling, data, m->spec->name.c_str());
    }
    FitContext ctx{standardize ? scaled.view : data, info, m->options, progress, log,
                   resolve_threads(m->options.get_int("threads")), collective};
    FitResult r = m->spec->fit(ctx);
    if (standardize) store_scaling(scaling, r);
    r.n = data.n();
    r.d = data.d();
    m->result = std::move(r);
    m->fitted_options = m->options;
    m->fitted = true;
}

namespace {

void fit(kindred_model *m, const DataView &data, const kindred_side *side) { capi::fit_model(m, data, side, nullptr); }

// Runs body(ctx) on the points as the fitted model sees them: a model
// fitted on standardized data applies its stored scaling to new points
// first, and a model that whitened its points (pckmeans, mpckmeans,
// copkmeans: algorithms/relevant_components.hpp) then its stored map.
template <typename Body>
void with_fitted_points(const kindred_model *m, const FitResult &r, const DataView &data, const char *what, Body body) {
    ScaledData scaled, mapped;
    const bool standardize = m->fitted_options.get_bool("standardize");
    if (standardize) scaled = apply_scaling(stored_scaling(r, r.d), data, what);
    const DataView &input = standardize ? scaled.view : data;
    const bool whitened = r.find("whitening") != nullptr;
    if (whitened) mapped = apply_linear_map(r.get("whitening", r.d, r.d).values, input, what);
    const PredictContext ctx{r, m->fitted_options, whitened ? mapped.view : input,
                             resolve_threads(m->options.get_int("threads"))};
    body(ctx);
}

void predict(const kindred_model *m, const DataView &data, int32_t *labels, int64_t capacity) {
    const FitResult &r = fitted_result(m);
    if (!m->spec->predict) fail(KINDRED_E_STATE, m->spec->name, " cannot label new points");
    if (data.d() != r.d) fail(KINDRED_E_DIMENSION, "predict: the model was fitted on d = ", r.d, ", the new points have d = ", data.d());
    capi::require_pointer(labels, "labels");
    capi::require_capacity(capacity, data.n(), "labels");
    with_fitted_points(m, r, data, "predict", [&](const PredictContext &ctx) { m->spec->predict(ctx, labels); });
}

// The dense entry points for float64 and float32 points alike: only the
// view differs (a float32 array is read in place and widened where read).
DataView dense_points(const double *x, int64_t n, int64_t d, kindred_layout layout, int64_t ld) {
    return capi::dense_arg(x, n, d, layout, ld);
}
DataView dense_points(const float *x, int64_t n, int64_t d, kindred_layout layout, int64_t ld) {
    return capi::dense_arg_f32(x, n, d, layout, ld);
}

template <typename T>
kindred_status fit_dense(kindred_model *model, const T *x, int64_t n, int64_t d, kindred_layout layout, int64_t ld,
                         const kindred_side *side) {
    return capi::guarded([&] {
        capi::require_pointer(model, "model");
        model->fitted = false;
        fit(model, dense_points(x, n, d, layout, ld), side);
    });
}

template <typename T>
kindred_status predict_dense(const kindred_model *model, const T *x, int64_t n, int64_t d, kindred_layout layout, int64_t ld,
                             int32_t *labels, int64_t capacity) {
    return capi::guarded([&] {
        fitted_result(model);
        // Before the points are read: a buffer too small for n labels says
        // that n is not what the caller has, and x may be shorter too.
        capi::require_capacity(capacity, n, "labels");
        predict(model, dense_points(x, n, d, layout, ld), labels, capacity);
    });
}

template <typename T>
kindred_status predict_proba_dense(const kindred_model *model, const T *x, int64_t n, int64_t d, kindred_layout layout,
                                   int64_t ld, double *out, int64_t capacity) {
    return capi::guarded([&] {
        const FitResult &r = fitted_result(model);
        if (!model->spec->predict_proba) fail(KINDRED_E_STATE, model->spec->name, " gives no soft memberships");
        const DataView data = dense_points(x, n, d, layout, ld);
        if (d != r.d) fail(KINDRED_E_DIMENSION, "predict_proba: the model was fitted on d = ", r.d, ", the new points have d = ", d);
        capi::require_pointer(out, "out");
        capi::require_capacity(capacity, n, r.clusters, "predict_proba output");
        with_fitted_points(model, r, data, "predict_proba",
                           [&](const PredictContext &ctx) { model->spec->predict_proba(ctx, out); });
    });
}

template <typename T>
kindred_status transform_dense(const kindred_model *model, const T *x, int64_t n, int64_t d, kindred_layout layout, int64_t ld,
                               double *out, int64_t capacity) {
    return capi::guarded([&] {
        const FitResult &r = fitted_result(model);
        if (!model->spec->transform) fail(KINDRED_E_STATE, model->spec->name, " learns no transformation");
        // The output's size is checked before the points are read (as for
        // predict), and without forming n * dim, which may overflow.
        const int64_t dim = model->spec->transform_dim(r);
        capi::require_capacity(capacity, n, dim, "transform output");
        const DataView data = dense_points(x, n, d, layout, ld);
        if (d != r.d) fail(KINDRED_E_DIMENSION, "transform: the model was fitted on d = ", r.d, ", the new points have d = ", d);
        capi::require_pointer(out, "out");
        with_fitted_points(model, r, data, "transform", [&](const PredictContext &ctx) { model->spec->transform(ctx, out); });
    });
}

}  // namespace

extern "C" {

kindred_status kindred_model_new(kindred_model **out, const char *algorithm) {
    return capi::guarded([&] {
        capi::require_pointer(out, "out");
        *out = nullptr;
        capi::require_pointer(algorithm, "algorithm");
        *out = new kindred_model(&get_algorithm(algorithm));
    });
}

void kindred_model_free(kindred_model *model) { delete model; }

const char *kindred_model_algorithm(const kindred_model *model) {
    capi::clear_error();
    return model ? model->spec->name.c_str() : nullptr;
}

kindred_status kindred_model_set_int(kindred_model *model, const char *name, int64_t value) {
    return capi::guarded([&] { capi::set_int_option(capi::require_pointer(model, "model")->options, name, value); });
}

kindred_status kindred_model_set_double(kindred_model *model, const char *name, double value) {
    return capi::guarded([&] { capi::set_double_option(capi::require_pointer(model, "model")->options, name, value); });
}

kindred_status kindred_model_set_string(kindred_model *model, const char *name, const char *value) {
    return capi::guarded([&] { capi::set_string_option(capi::require_pointer(model, "model")->options, name, value); });
}

kindred_status kindred_model_option(const kindred_model *model, const char *name, char *buffer, size_t capacity) {
    return capi::guarded([&] { capi::copy_option_text(capi::require_pointer(model, "model")->options, name, buffer, capacity); });
}

kindred_status kindred_model_set_progress(kindred_model *model, kindred_progress_fn fn, void *user) {
    return capi::guarded([&] {
        capi::require_pointer(model, "model")->progress_fn = fn;
        model->progress_user = user;
    });
}

kindred_status kindred_model_set_log(kindred_model *model, kindred_log_fn fn, void *user) {
    return capi::guarded([&] {
        capi::require_pointer(model, "model")->log_fn = fn;
        model->log_user = user;
    });
}

kindred_status kindred_model_fit_dense(kindred_model *model, const double *x, int64_t n, int64_t d, kindred_layout layout,
                                       int64_t ld, const kindred_side *side) {
    return fit_dense(model, x, n, d, layout, ld, side);
}

kindred_status kindred_model_fit_dense_f32(kindred_model *model, const float *x, int64_t n, int64_t d, kindred_layout layout,
                                           int64_t ld, const kindred_side *side) {
    return fit_dense(model, x, n, d, layout, ld, side);
}

kindred_status kindred_model_fit_csr(kindred_model *model, int64_t n, int64_t d, const int64_t *indptr,
                                     const int64_t *indices, const double *values, const kindred_side *side) {
    return capi::guarded([&] {
        capi::require_pointer(model, "model");
        model->fitted = false;
        if (!(model->spec->uses & KINDRED_USES_SPARSE))
            fail(KINDRED_E_INVALID, model->spec->name, " does not accept sparse (CSR) data; pass dense data");
        fit(model, capi::csr_arg(n, d, indptr, indices, values), side);
    });
}

kindred_status kindred_model_summary(const kindred_model *model, int64_t *n, int64_t *d, int64_t *clusters,
                                     int64_t *iterations, int *converged, double *objective) {
    return capi::guarded([&] {
        const FitResult &r = fitted_result(model);
        if (n) *n = r.n;
        if (d) *d = r.d;
        if (clusters) *clusters = r.clusters;
        if (iterations) *iterations = r.iterations;
        if (converged) *converged = r.converged ? 1 : 0;
        if (objective) *objective = r.objective;
    });
}

kindred_status kindred_model_labels(const kindred_model *model, int32_t *labels, int64_t capacity) {
    return capi::guarded([&] {
        const FitResult &r = fitted_result(model);
        capi::require_pointer(labels, "labels");
        capi::require_capacity(capacity, r.n, "labels");
        std::copy(r.labels.begin(), r.labels.end(), labels);  // (a rank of a sharded fit may hold no rows)
    });
}

kindred_status kindred_model_array_count(const kindred_model *model, int64_t *count) {
    return capi::guarded([&] {
        const FitResult &r = fitted_result(model);
        capi::require_pointer(count, "count");
        *count = static_cast<int64_t>(r.arrays.size());
    });
}

kindred_status kindred_model_array_info(const kindred_model *model, int64_t index, const char **name, int64_t *rows,
                                        int64_t *cols) {
    return capi::guarded([&] {
        const FitResult &r = fitted_result(model);
        if (index < 0 || index >= static_cast<int64_t>(r.arrays.size()))
            fail(KINDRED_E_INDEX, "array index ", index, " out of range: the model has ", r.arrays.size(), " arrays");
        const NamedArray &a = r.arrays[index];
        if (name) *name = a.name.c_str();
        if (rows) *rows = a.rows;
        if (cols) *cols = a.cols;
    });
}

kindred_status kindred_model_array_shape(const kindred_model *model, const char *name, int64_t *rows, int64_t *cols) {
    return capi::guarded([&] {
        capi::require_pointer(name, "array name");
        const NamedArray &a = fitted_result(model).get(name);
        if (rows) *rows = a.rows;
        if (cols) *cols = a.cols;
    });
}

kindred_status kindred_model_array(const kindred_model *model, const char *name, double *out, int64_t capacity) {
    return capi::guarded([&] {
        capi::require_pointer(name, "array name");
        const NamedArray &a = fitted_result(model).get(name);
        capi::require_capacity(capacity, a.rows * a.cols, name);
        if (a.values.empty()) return;
        capi::require_pointer(out, "out");
        std::copy(a.values.begin(), a.values.end(), out);
    });
}

kindred_status kindred_model_predict_dense(const kindred_model *model, const double *x, int64_t n, int64_t d,
                                           kindred_layout layout, int64_t ld, int32_t *labels, int64_t capacity) {
    return predict_dense(model, x, n, d, layout, ld, labels, capacity);
}

kindred_status kindred_model_predict_dense_f32(const kindred_model *model, const float *x, int64_t n, int64_t d,
                                               kindred_layout layout, int64_t ld, int32_t *labels, int64_t capacity) {
    return predict_dense(model, x, n, d, layout, ld, labels, capacity);
}

kindred_status kindred_model_predict_csr(const kindred_model *model, int64_t n, int64_t d, const int64_t *indptr,
                                         const int64_t *indices, const double *values, int32_t *labels,
                                         int64_t capacity) {
    return capi::guarded([&] {
        fitted_result(model);
        if (!(model->spec->uses & KINDRED_USES_SPARSE))
            fail(KINDRED_E_INVALID, model->spec->name, " does not accept sparse (CSR) data; pass dense data");
        capi::require_capacity(capacity, n, "labels");  // before indptr is read, as for dense points
        predict(model, capi::csr_arg(n, d, indptr, indices, values), labels, capacity);
    });
}

kindred_status kindred_model_predict_proba_dense(const kindred_model *model, const double *x, int64_t n, int64_t d,
                                                 kindred_layout layout, int64_t ld, double *out, int64_t capacity) {
    return predict_proba_dense(model, x, n, d, layout, ld, out, capacity);
}

kindred_status kindred_model_predict_proba_dense_f32(const kindred_model *model, const float *x, int64_t n,
                                                     int64_t d, kindred_layout layout, int64_t ld, double *out,
                                                     int64_t capacity) {
    return predict_proba_dense(model, x, n, d, layout, ld, out, capacity);
}

kindred_status kindred_model_transform_dim(const kindred_model *model, int64_t *dim) {
    return capi::guarded([&] {
        const FitResult &r = fitted_result(model);
        capi::require_pointer(dim, "dim");
        if (!model->spec->transform_dim) fail(KINDRED_E_STATE, model->spec->name, " learns no transformation");
        *dim = model->spec->transform_dim(r);
    });
}

kindred_status kindred_model_transform_dense(const kindred_model *model, const double *x, int64_t n, int64_t d,
                                             kindred_layout layout, int64_t ld, double *out, int64_t capacity) {
    return transform_dense(model, x, n, d, layout, ld, out, capacity);
}

kindred_status kindred_model_transform_dense_f32(const kindred_model *model, const float *x, int64_t n, int64_t d,
                                                 kindred_layout layout, int64_t ld, double *out, int64_t capacity) {
    return transform_dense(model, x, n, d, layout, ld, out, capacity);
}

kindred_status kindred_model_save(const kindred_model *model, const char *path) {
    return capi::guarded([&] {
        const FitResult &r = fitted_result(model);
        capi::require_pointer(path, "path");
        ModelRecord rec;
        rec.algorithm = model->spec->name;
        // Only the stable tier: an internal option recorded here could never be removed.
        for (const OptionSpec *s : stable_options(model->spec->options))
            rec.options.emplace_back(s->name, model->fitted_options.text(s->name));
        rec.result = r;
        write_model_file(path, rec);
    });
}

kindred_status kindred_model_load(kindred_model **out, const char *path) {
    return capi::guarded([&] {
        capi::require_pointer(out, "out");
        *out = nullptr;
        capi::require_pointer(path, "path");
        ModelRecord rec = read_model_file(path);
        const AlgorithmSpec *spec = find_algorithm(rec.algorithm);
        if (!spec) fail(KINDRED_E_CORRUPT, "'", path, "' names an algorithm this library does not have: '", rec.algorithm, "'");
        std::unique_ptr<kindred_model> m(new kindred_model(spec));
        for (const auto &o : rec.options) {
            // An internal option named by the file (files written before the tier
            // recorded RDP-means' timing switches) is ignored, not applied: it
            // changes how a fit runs, never its result, and this model is
            // already fitted; and since internal options may change or go in
            // any release, a file naming one must load whatever its value.
            const OptionSpec *spec_option = find_option(spec->options, o.first);
            if (spec_option && !spec_option->is_stable()) continue;
            const std::vector<std::string> &retired = spec->retired_options;
            if (!spec_option && std::find(retired.begin(), retired.end(), o.first) != retired.end()) continue;
            if (o.second.empty()) continue;
            try {
                m->options.set_text(o.first, o.second);
            } catch (const Error &e) {
                fail(KINDRED_E_CORRUPT, "'", path, "': ", e.what());
            }
        }
        m->result = std::move(rec.result);
        m->fitted_options = m->options;
        m->fitted = true;
        *out = m.release();
    });
}

}  // extern "C"
