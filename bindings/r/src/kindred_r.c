/* .Call glue between R and the kindred C API (include/kindred.h).
 *
 * Handles live in external pointers with finalizers, created right after the handle, so that an R
 * error (which long-jumps) never leaks one. Library failures become R errors whose message starts
 * with "kindred <status>: " followed by kindred_last_error(); R/kindred.R turns them into
 * conditions of class "kindred_error". Matrices are read in place (column-major, ld = nrow).
 * Indices and labels are 1-based on the R side, 0-based in C.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <R.h>
#include <Rinternals.h>
#include <R_ext/Rdynload.h>

#include <kindred.h>

/* ---- errors ---------------------------------------------------------------------------- */

static void fail_status(kindred_status status) {
    char buf[2048];
    /* copy first: the message lives in a thread-local buffer of the library */
    snprintf(buf, sizeof buf, "kindred %s: %s", kindred_status_string(status), kindred_last_error());
    Rf_error("%s", buf);
}

static void check(kindred_status status) {
    if (status != KINDRED_OK) fail_status(status);
}

/* ---- handles ----------------------------------------------------------------------------- */

static void model_finalizer(SEXP ptr) {
    kindred_model *m = (kindred_model *)R_ExternalPtrAddr(ptr);
    if (m) {
        kindred_model_free(m);
        R_ClearExternalPtr(ptr);
    }
}

static void side_finalizer(SEXP ptr) {
    kindred_side *s = (kindred_side *)R_ExternalPtrAddr(ptr);
    if (s) {
        kindred_side_free(s);
        R_ClearExternalPtr(ptr);
    }
}

static SEXP wrap_model(kindred_model *m) {
    SEXP ptr = PROTECT(R_MakeExternalPtr(m, Rf_install("kindred_model"), R_NilValue));
    R_RegisterCFinalizerEx(ptr, model_finalizer, TRUE);
    UNPROTECT(1);
    return ptr;
}

static kindred_model *get_model(SEXP ptr) {
    if (TYPEOF(ptr) != EXTPTRSXP || R_ExternalPtrTag(ptr) != Rf_install("kindred_model"))
        Rf_error("kindred invalid argument: not a kindred model");
    kindred_model *m = (kindred_model *)R_ExternalPtrAddr(ptr);
    if (!m) Rf_error("kindred invalid argument: the model was released (saved in another session?); use kindred_save / kindred_load");
    return m;
}

static const char *string_arg(SEXP s, const char *what) {
    if (!Rf_isString(s) || XLENGTH(s) != 1 || STRING_ELT(s, 0) == NA_STRING)
        Rf_error("kindred invalid argument: %s must be a single string", what);
    return Rf_translateCharUTF8(STRING_ELT(s, 0));
}

/* ---- registry ---------------------------------------------------------------------------- */

SEXP kr_version(void) { return Rf_mkString(kindred_version()); }

SEXP kr_algorithms(void) {
    int64_t n = kindred_algorithm_count();
    SEXP out = PROTECT(Rf_allocVector(STRSXP, (R_xlen_t)n));
    for (int64_t k = 0; k < n; ++k) SET_STRING_ELT(out, (R_xlen_t)k, Rf_mkCharCE(kindred_algorithm_name(k), CE_UTF8));
    UNPROTECT(1);
    return out;
}

SEXP kr_metrics(void) {
    int64_t n = kindred_metric_count();
    SEXP out = PROTECT(Rf_allocVector(STRSXP, (R_xlen_t)n));
    for (int64_t k = 0; k < n; ++k) SET_STRING_ELT(out, (R_xlen_t)k, Rf_mkCharCE(kindred_metric_name(k), CE_UTF8));
    UNPROTECT(1);
    return out;
}

/* list(summary = chr, uses = int flags) */
SEXP kr_algorithm_info(SEXP algorithm) {
    const char *name = string_arg(algorithm, "algorithm");
    const char *summary = NULL;
    int flags = 0;
    check(kindred_algorithm_summary(name, &summary));
    check(kindred_algorithm_uses(name, &flags));
    SEXP out = PROTECT(Rf_allocVector(VECSXP, 2));
    SET_VECTOR_ELT(out, 0, Rf_mkString(summary));
    SET_VECTOR_ELT(out, 1, Rf_ScalarInteger(flags));
    UNPROTECT(1);
    return out;
}

/* list(name, type, default, range, doc), each a vector over the options */
SEXP kr_options(SEXP algorithm) {
    const char *alg = string_arg(algorithm, "algorithm");
    int64_t count = 0;
    check(kindred_option_count(alg, &count));
    SEXP out = PROTECT(Rf_allocVector(VECSXP, 5));
    SEXP name = PROTECT(Rf_allocVector(STRSXP, (R_xlen_t)count));
    SEXP type = PROTECT(Rf_allocVector(INTSXP, (R_xlen_t)count));
    SEXP def = PROTECT(Rf_allocVector(STRSXP, (R_xlen_t)count));
    SEXP range = PROTECT(Rf_allocVector(STRSXP, (R_xlen_t)count));
    SEXP doc = PROTECT(Rf_allocVector(STRSXP, (R_xlen_t)count));
    for (int64_t k = 0; k < count; ++k) {
        const char *n = NULL, *d = NULL, *r = NULL, *o = NULL;
        kindred_option_type t = KINDRED_OPTION_INT;
        check(kindred_option_info(alg, k, &n, &t, &d, &r, &o));
        SET_STRING_ELT(name, (R_xlen_t)k, Rf_mkCharCE(n, CE_UTF8));
        INTEGER(type)[k] = (int)t;
        SET_STRING_ELT(def, (R_xlen_t)k, Rf_mkCharCE(d, CE_UTF8));
        SET_STRING_ELT(range, (R_xlen_t)k, Rf_mkCharCE(r, CE_UTF8));
        SET_STRING_ELT(doc, (R_xlen_t)k, Rf_mkCharCE(o, CE_UTF8));
    }
    SET_VECTOR_ELT(out, 0, name);
    SET_VECTOR_ELT(out, 1, type);
    SET_VECTOR_ELT(out, 2, def);
    SET_VECTOR_ELT(out, 3, range);
    SET_VECTOR_ELT(out, 4, doc);
    UNPROTECT(6);
    return out;
}

/* ---- conversions ---------------------------------------------------------------------------- */

/* 1-based R indices (integer or whole doubles) as 0-based int64; R_alloc memory is freed by R. */
static int64_t *index_array(SEXP v, const char *what) {
    R_xlen_t n = XLENGTH(v);
    int64_t *out = (int64_t *)R_alloc((size_t)(n > 0 ? n : 1), sizeof(int64_t));
    if (TYPEOF(v) == INTSXP) {
        for (R_xlen_t k = 0; k < n; ++k) {
            if (INTEGER(v)[k] == NA_INTEGER) Rf_error("kindred invalid argument: %s: NA at entry %ld", what, (long)k + 1);
            out[k] = (int64_t)INTEGER(v)[k] - 1;
        }
    } else if (TYPEOF(v) == REALSXP) {
        for (R_xlen_t k = 0; k < n; ++k) {
            double x = REAL(v)[k];
            if (!(x == x) || x != (double)(int64_t)x || x > 9.0e15 || x < -9.0e15)
                Rf_error("kindred invalid argument: %s: entry %ld is not a whole number", what, (long)k + 1);
            out[k] = (int64_t)x - 1;
        }
    } else {
        Rf_error("kindred invalid argument: %s must be numeric", what);
    }
    return out;
}

static double *double_array(SEXP v, const char *what) {
    if (TYPEOF(v) != REALSXP) Rf_error("kindred invalid argument: %s must be double", what);
    return REAL(v);
}

/* 0-based int32 labels given by R (already recoded, -1 unknown) */
static int32_t *label_array(SEXP v, const char *what) {
    if (TYPEOF(v) != INTSXP) Rf_error("kindred invalid argument: %s must be integer", what);
    R_xlen_t n = XLENGTH(v);
    int32_t *out = (int32_t *)R_alloc((size_t)(n > 0 ? n : 1), sizeof(int32_t));
    for (R_xlen_t k = 0; k < n; ++k) out[k] = INTEGER(v)[k] == NA_INTEGER ? -1 : (int32_t)INTEGER(v)[k];
    return out;
}

/* A double matrix, read in place: column-major with ld = nrow. */
static const double *matrix_arg(SEXP x, int64_t *n, int64_t *d) {
    if (TYPEOF(x) != REALSXP || !Rf_isMatrix(x)) Rf_error("kindred invalid argument: x must be a double matrix");
    *n = Rf_nrows(x);
    *d = Rf_ncols(x);
    return REAL(x);
}

/* Sparse points: list(n, d, indptr, indices, values), 0-based CSR made by R/kindred.R from a
 * dgCMatrix (integer vectors, widened here to the library's int64). */
struct csr_arg {
    int64_t n, d;
    int64_t *indptr, *indices;
    const double *values;
};

static int is_csr_arg(SEXP x) { return TYPEOF(x) == VECSXP && XLENGTH(x) == 5; }

static struct csr_arg csr_arg(SEXP x) {
    struct csr_arg a;
    SEXP p = VECTOR_ELT(x, 2), j = VECTOR_ELT(x, 3), v = VECTOR_ELT(x, 4);
    if (TYPEOF(p) != INTSXP || TYPEOF(j) != INTSXP || TYPEOF(v) != REALSXP || XLENGTH(j) != XLENGTH(v))
        Rf_error("kindred invalid argument: x: a sparse matrix must be a dgCMatrix");
    a.n = (int64_t)Rf_asReal(VECTOR_ELT(x, 0));
    a.d = (int64_t)Rf_asReal(VECTOR_ELT(x, 1));
    a.indptr = (int64_t *)R_alloc((size_t)XLENGTH(p), sizeof(int64_t));
    for (R_xlen_t k = 0; k < XLENGTH(p); ++k) a.indptr[k] = INTEGER(p)[k];
    a.indices = (int64_t *)R_alloc((size_t)(XLENGTH(j) > 0 ? XLENGTH(j) : 1), sizeof(int64_t));
    for (R_xlen_t k = 0; k < XLENGTH(j); ++k) a.indices[k] = INTEGER(j)[k];
    a.values = REAL(v);
    return a;
}

/* ---- side information --------------------------------------------------------------------- */

static SEXP make_side(int64_t n, SEXP pairs, SEXP triplets, SEXP partial, kindred_side **out) {
    kindred_side *side = NULL;
    check(kindred_side_new(&side, n));
    SEXP ptr = PROTECT(R_MakeExternalPtr(side, Rf_install("kindred_side"), R_NilValue));
    R_RegisterCFinalizerEx(ptr, side_finalizer, TRUE);
    if (!Rf_isNull(pairs)) { /* list(i, j, value) */
        SEXP i = VECTOR_ELT(pairs, 0), j = VECTOR_ELT(pairs, 1), v = VECTOR_ELT(pairs, 2);
        R_xlen_t m = XLENGTH(i);
        if (XLENGTH(j) != m || XLENGTH(v) != m) Rf_error("kindred dimension mismatch: pairs: columns of different lengths");
        int64_t *i0 = index_array(i, "pairs i"), *j0 = index_array(j, "pairs j");
        check(kindred_side_add_pairs(side, i0, j0, double_array(v, "pairs value"), (int64_t)m));
    }
    if (!Rf_isNull(triplets)) { /* list(a, b, c, answer) */
        SEXP a = VECTOR_ELT(triplets, 0), b = VECTOR_ELT(triplets, 1), c = VECTOR_ELT(triplets, 2);
        SEXP ans = VECTOR_ELT(triplets, 3);
        R_xlen_t m = XLENGTH(a);
        if (XLENGTH(b) != m || XLENGTH(c) != m || XLENGTH(ans) != m)
            Rf_error("kindred dimension mismatch: triplets: columns of different lengths");
        int64_t *a0 = index_array(a, "triplets a"), *b0 = index_array(b, "triplets b"), *c0 = index_array(c, "triplets c");
        check(kindred_side_add_triplets(side, a0, b0, c0, label_array(ans, "triplets answer"), (int64_t)m));
    }
    if (!Rf_isNull(partial))
        check(kindred_side_set_partial_labels(side, label_array(partial, "partial_labels"), (int64_t)XLENGTH(partial)));
    *out = side;
    UNPROTECT(1);
    return ptr;
}

/* ---- options ----------------------------------------------------------------------------- */

static void set_options(kindred_model *m, SEXP opts) {
    SEXP names = Rf_getAttrib(opts, R_NamesSymbol);
    for (R_xlen_t k = 0; k < XLENGTH(opts); ++k) {
        const char *name = Rf_translateCharUTF8(STRING_ELT(names, k));
        SEXP v = VECTOR_ELT(opts, k);
        if (XLENGTH(v) != 1) Rf_error("kindred invalid argument: option %s must be a single value", name);
        kindred_status st;
        switch (TYPEOF(v)) {
        case LGLSXP:
            if (LOGICAL(v)[0] == NA_LOGICAL) Rf_error("kindred invalid argument: option %s is NA", name);
            st = kindred_model_set_int(m, name, LOGICAL(v)[0]);
            break;
        case INTSXP:
            if (INTEGER(v)[0] == NA_INTEGER) Rf_error("kindred invalid argument: option %s is NA", name);
            st = kindred_model_set_int(m, name, INTEGER(v)[0]);
            break;
        case REALSXP:
            st = kindred_model_set_double(m, name, REAL(v)[0]);
            break;
        case STRSXP:
            if (STRING_ELT(v, 0) == NA_STRING) Rf_error("kindred invalid argument: option %s is NA", name);
            st = kindred_model_set_string(m, name, Rf_translateCharUTF8(STRING_ELT(v, 0)));
            break;
        default:
            Rf_error("kindred invalid argument: option %s must be a number, logical or string", name);
        }
        check(st);
    }
}

/* ---- progress ---------------------------------------------------------------------------- */

/* The R callback is a closure made by R/kindred.R that already wraps the user's function in
 * tryCatch and returns TRUE to cancel; R_tryEval is a second net so that nothing can long-jump
 * through the library. */
struct progress_state {
    SEXP fn;
    int failed;
};

static int progress_trampoline(void *user, int64_t iteration, double objective, const char *message) {
    struct progress_state *state = (struct progress_state *)user;
    if (state->failed) return 1;
    SEXP call = PROTECT(Rf_lang4(state->fn, Rf_ScalarReal((double)iteration), Rf_ScalarReal(objective),
                                 Rf_mkString(message ? message : "")));
    int error = 0;
    SEXP r = R_tryEval(call, R_GlobalEnv, &error);
    int cancel = 1;
    if (error) {
        state->failed = 1;
    } else {
        cancel = (TYPEOF(r) == LGLSXP && XLENGTH(r) == 1 && LOGICAL(r)[0] == TRUE);
    }
    UNPROTECT(1);
    return cancel;
}

/* ---- models ------------------------------------------------------------------------------ */

SEXP kr_fit(SEXP algorithm, SEXP opts, SEXP x, SEXP pairs, SEXP triplets, SEXP partial, SEXP progress) {
    const char *alg = string_arg(algorithm, "algorithm");
    int64_t n = 0, d = 0;
    const double *px = NULL;
    struct csr_arg sp = {0, 0, NULL, NULL, NULL};
    if (is_csr_arg(x)) {
        sp = csr_arg(x);
        n = sp.n;
        d = sp.d;
    } else {
        px = matrix_arg(x, &n, &d);
    }
    kindred_model *m = NULL;
    check(kindred_model_new(&m, alg));
    SEXP mptr = PROTECT(wrap_model(m));
    set_options(m, opts);
    kindred_side *side = NULL;
    SEXP sptr = R_NilValue;
    if (!Rf_isNull(pairs) || !Rf_isNull(triplets) || !Rf_isNull(partial))
        sptr = make_side(n, pairs, triplets, partial, &side);
    PROTECT(sptr);
    struct progress_state state = {progress, 0};
    if (!Rf_isNull(progress)) check(kindred_model_set_progress(m, progress_trampoline, &state));
    kindred_status st = px ? kindred_model_fit_dense(m, px, n, d, KINDRED_COL_MAJOR, n, side)
                           : kindred_model_fit_csr(m, n, d, sp.indptr, sp.indices, sp.values, side);
    /* Keep the fit's message now: every call into the library, the one below included, clears it. */
    char message[2048];
    snprintf(message, sizeof message, "%s", kindred_last_error());
    kindred_model_set_progress(m, NULL, NULL); /* `state` dies with this frame */
    if (state.failed) Rf_error("kindred cancelled: the progress callback failed");
    if (st != KINDRED_OK) Rf_error("kindred %s: %s", kindred_status_string(st), message);
    UNPROTECT(2);
    return mptr;
}

/* list(n, d, clusters, iterations, converged, objective, labels, arrays = named list of matrices) */
SEXP kr_results(SEXP ptr) {
    kindred_model *m = get_model(ptr);
    int64_t n = 0, d = 0, k = 0, it = 0, count = 0;
    int conv = 0;
    double obj = 0;
    check(kindred_model_summary(m, &n, &d, &k, &it, &conv, &obj));
    int32_t *labels = (int32_t *)R_alloc((size_t)(n > 0 ? n : 1), sizeof(int32_t));
    check(kindred_model_labels(m, labels, n));
    check(kindred_model_array_count(m, &count));
    SEXP out = PROTECT(Rf_allocVector(VECSXP, 8));
    SET_VECTOR_ELT(out, 0, Rf_ScalarReal((double)n));
    SET_VECTOR_ELT(out, 1, Rf_ScalarReal((double)d));
    SET_VECTOR_ELT(out, 2, Rf_ScalarReal((double)k));
    SET_VECTOR_ELT(out, 3, Rf_ScalarReal((double)it));
    SET_VECTOR_ELT(out, 4, Rf_ScalarLogical(conv != 0));
    SET_VECTOR_ELT(out, 5, Rf_ScalarReal(obj));
    SEXP lab = PROTECT(Rf_allocVector(INTSXP, (R_xlen_t)n));
    for (int64_t i = 0; i < n; ++i) INTEGER(lab)[i] = labels[i] < 0 ? NA_INTEGER : labels[i] + 1;
    SET_VECTOR_ELT(out, 6, lab);
    SEXP arrays = PROTECT(Rf_allocVector(VECSXP, (R_xlen_t)count));
    SEXP names = PROTECT(Rf_allocVector(STRSXP, (R_xlen_t)count));
    for (int64_t a = 0; a < count; ++a) {
        const char *name = NULL;
        int64_t rows = 0, cols = 0;
        check(kindred_model_array_info(m, a, &name, &rows, &cols));
        SET_STRING_ELT(names, (R_xlen_t)a, Rf_mkCharCE(name, CE_UTF8));
        double *buf = (double *)R_alloc((size_t)(rows * cols > 0 ? rows * cols : 1), sizeof(double));
        check(kindred_model_array(m, name, buf, rows * cols));
        SEXP mat = PROTECT(Rf_allocMatrix(REALSXP, (int)rows, (int)cols));
        for (int64_t i = 0; i < rows; ++i)
            for (int64_t j = 0; j < cols; ++j) REAL(mat)[i + j * rows] = buf[i * cols + j]; /* row- to column-major */
        SET_VECTOR_ELT(arrays, (R_xlen_t)a, mat);
        UNPROTECT(1);
    }
    Rf_setAttrib(arrays, R_NamesSymbol, names);
    SET_VECTOR_ELT(out, 7, arrays);
    UNPROTECT(4);
    return out;
}

SEXP kr_algorithm_of(SEXP ptr) { return Rf_mkString(kindred_model_algorithm(get_model(ptr))); }

SEXP kr_get_option(SEXP ptr, SEXP name) {
    kindred_model *m = get_model(ptr);
    const char *opt = string_arg(name, "option");
    char buf[4096];
    check(kindred_model_option(m, opt, buf, sizeof buf));
    return Rf_mkString(buf);
}

SEXP kr_predict(SEXP ptr, SEXP x) {
    kindred_model *m = get_model(ptr);
    int64_t n = 0, d = 0;
    int32_t *labels;
    if (is_csr_arg(x)) {
        struct csr_arg sp = csr_arg(x);
        n = sp.n;
        labels = (int32_t *)R_alloc((size_t)(n > 0 ? n : 1), sizeof(int32_t));
        check(kindred_model_predict_csr(m, sp.n, sp.d, sp.indptr, sp.indices, sp.values, labels, n));
    } else {
        const double *px = matrix_arg(x, &n, &d);
        labels = (int32_t *)R_alloc((size_t)(n > 0 ? n : 1), sizeof(int32_t));
        check(kindred_model_predict_dense(m, px, n, d, KINDRED_COL_MAJOR, n, labels, n));
    }
    SEXP out = PROTECT(Rf_allocVector(INTSXP, (R_xlen_t)n));
    for (int64_t i = 0; i < n; ++i) INTEGER(out)[i] = labels[i] < 0 ? NA_INTEGER : labels[i] + 1;
    UNPROTECT(1);
    return out;
}

SEXP kr_transform(SEXP ptr, SEXP x) {
    kindred_model *m = get_model(ptr);
    int64_t n = 0, d = 0, dim = 0;
    const double *px = matrix_arg(x, &n, &d);
    check(kindred_model_transform_dim(m, &dim));
    double *buf = (double *)R_alloc((size_t)(n * dim > 0 ? n * dim : 1), sizeof(double));
    check(kindred_model_transform_dense(m, px, n, d, KINDRED_COL_MAJOR, n, buf, n * dim));
    SEXP out = PROTECT(Rf_allocMatrix(REALSXP, (int)n, (int)dim));
    for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < dim; ++j) REAL(out)[i + j * n] = buf[i * dim + j];
    UNPROTECT(1);
    return out;
}

SEXP kr_save(SEXP ptr, SEXP path) {
    check(kindred_model_save(get_model(ptr), string_arg(path, "path")));
    return R_NilValue;
}

SEXP kr_load(SEXP path) {
    kindred_model *m = NULL;
    check(kindred_model_load(&m, string_arg(path, "path")));
    return wrap_model(m);
}

/* ---- evaluation -------------------------------------------------------------------------- */

SEXP kr_metric(SEXP name, SEXP truth, SEXP predicted) {
    const char *metric = string_arg(name, "metric");
    if (XLENGTH(truth) != XLENGTH(predicted))
        Rf_error("kindred dimension mismatch: truth has %ld labels and predicted %ld", (long)XLENGTH(truth), (long)XLENGTH(predicted));
    double value = 0;
    check(kindred_metric(metric, label_array(truth, "truth"), label_array(predicted, "predicted"),
                         (int64_t)XLENGTH(truth), &value));
    return Rf_ScalarReal(value);
}

static SEXP side_pairs(kindred_side *side) {
    int64_t m = 0;
    check(kindred_side_counts(side, NULL, &m, NULL, NULL));
    int64_t *i = (int64_t *)R_alloc((size_t)(m > 0 ? m : 1), sizeof(int64_t));
    int64_t *j = (int64_t *)R_alloc((size_t)(m > 0 ? m : 1), sizeof(int64_t));
    double *v = (double *)R_alloc((size_t)(m > 0 ? m : 1), sizeof(double));
    check(kindred_side_pairs(side, i, j, v, m));
    SEXP out = PROTECT(Rf_allocVector(VECSXP, 3));
    SEXP ri = PROTECT(Rf_allocVector(REALSXP, (R_xlen_t)m)), rj = PROTECT(Rf_allocVector(REALSXP, (R_xlen_t)m));
    SEXP rv = PROTECT(Rf_allocVector(REALSXP, (R_xlen_t)m));
    for (int64_t k = 0; k < m; ++k) {
        REAL(ri)[k] = (double)i[k] + 1;
        REAL(rj)[k] = (double)j[k] + 1;
        REAL(rv)[k] = v[k];
    }
    SET_VECTOR_ELT(out, 0, ri);
    SET_VECTOR_ELT(out, 1, rj);
    SET_VECTOR_ELT(out, 2, rv);
    UNPROTECT(4);
    return out;
}

SEXP kr_sample_pairs(SEXP labels, SEXP count, SEXP rate, SEXP noise, SEXP seed) {
    int64_t n = (int64_t)XLENGTH(labels);
    int32_t *lab = label_array(labels, "labels");
    kindred_side *side = NULL;
    SEXP sptr = PROTECT(make_side(n > 0 ? n : 1, R_NilValue, R_NilValue, R_NilValue, &side));
    check(kindred_sample_pairs(side, lab, n, (int64_t)Rf_asReal(count), Rf_asReal(rate), Rf_asReal(noise),
                               (uint64_t)Rf_asReal(seed)));
    SEXP out = side_pairs(side);
    UNPROTECT(1);
    return out;
}

SEXP kr_sample_triplets(SEXP labels, SEXP count, SEXP noise, SEXP seed) {
    int64_t n = (int64_t)XLENGTH(labels);
    int32_t *lab = label_array(labels, "labels");
    kindred_side *side = NULL;
    SEXP sptr = PROTECT(make_side(n > 0 ? n : 1, R_NilValue, R_NilValue, R_NilValue, &side));
    check(kindred_sample_triplets(side, lab, n, (int64_t)Rf_asReal(count), Rf_asReal(noise), (uint64_t)Rf_asReal(seed)));
    int64_t m = 0;
    check(kindred_side_counts(side, NULL, NULL, &m, NULL));
    int64_t *a = (int64_t *)R_alloc((size_t)(m > 0 ? m : 1), sizeof(int64_t));
    int64_t *b = (int64_t *)R_alloc((size_t)(m > 0 ? m : 1), sizeof(int64_t));
    int64_t *c = (int64_t *)R_alloc((size_t)(m > 0 ? m : 1), sizeof(int64_t));
    int32_t *ans = (int32_t *)R_alloc((size_t)(m > 0 ? m : 1), sizeof(int32_t));
    check(kindred_side_triplets(side, a, b, c, ans, m));
    SEXP out = PROTECT(Rf_allocVector(VECSXP, 4));
    SEXP cols[4];
    for (int k = 0; k < 4; ++k) {
        cols[k] = Rf_allocVector(REALSXP, (R_xlen_t)m);
        SET_VECTOR_ELT(out, k, cols[k]);
    }
    for (int64_t k = 0; k < m; ++k) {
        REAL(cols[0])[k] = (double)a[k] + 1;
        REAL(cols[1])[k] = (double)b[k] + 1;
        REAL(cols[2])[k] = (double)c[k] + 1;
        REAL(cols[3])[k] = ans[k];
    }
    UNPROTECT(2);
    (void)sptr;
    return out;
}

/* ---- active selection ------------------------------------------------------------------- */

/* The R oracle is a closure made by R/kindred.R: it catches everything and returns an integer
 * answer, or 2 (not a valid answer: the library stops) after recording the condition. */
struct oracle_state {
    SEXP fn;
    int failed;
};

static int oracle_trampoline(void *user, int64_t i, int64_t j) {
    struct oracle_state *state = (struct oracle_state *)user;
    if (state->failed) return 2;
    SEXP call = PROTECT(Rf_lang3(state->fn, Rf_ScalarReal((double)i + 1), Rf_ScalarReal((double)j + 1)));
    int error = 0;
    SEXP r = R_tryEval(call, R_GlobalEnv, &error);
    int answer = 2;
    if (error) state->failed = 1;
    else if (TYPEOF(r) == INTSXP && XLENGTH(r) == 1) answer = INTEGER(r)[0];
    UNPROTECT(1);
    return answer;
}

SEXP kr_active_select(SEXP x, SEXP oracle, SEXP budget, SEXP k, SEXP strategy, SEXP seed) {
    int64_t n = 0, d = 0;
    const double *px = matrix_arg(x, &n, &d);
    const char *strat = Rf_isNull(strategy) ? NULL : string_arg(strategy, "strategy"); /* NULL: the default */
    kindred_side *side = NULL;
    SEXP sptr = PROTECT(make_side(n, R_NilValue, R_NilValue, R_NilValue, &side));
    struct oracle_state state = {oracle, 0};
    /* The options handle is freed before any R error (which does not return). */
    kindred_active_options *options = NULL;
    kindred_status st = kindred_active_options_new(&options);
    if (st == KINDRED_OK && strat) st = kindred_active_options_set_string(options, "strategy", strat);
    if (st == KINDRED_OK) st = kindred_active_options_set_int(options, "k", (int64_t)Rf_asReal(k));
    if (st == KINDRED_OK) st = kindred_active_options_set_int(options, "budget", (int64_t)Rf_asReal(budget));
    if (st == KINDRED_OK) st = kindred_active_options_set_int(options, "seed", (int64_t)Rf_asReal(seed));
    if (st == KINDRED_OK)
        st = kindred_active_select(options, px, n, d, KINDRED_COL_MAJOR, n, oracle_trampoline, &state, side);
    kindred_active_options_free(options);
    if (state.failed) Rf_error("kindred cancelled: the oracle failed");
    check(st);
    SEXP out = side_pairs(side);
    UNPROTECT(1);
    return out;
}

/* ---- registration ------------------------------------------------------------------------ */

static const R_CallMethodDef call_methods[] = {
    {"kr_version", (DL_FUNC)&kr_version, 0},
    {"kr_algorithms", (DL_FUNC)&kr_algorithms, 0},
    {"kr_metrics", (DL_FUNC)&kr_metrics, 0},
    {"kr_algorithm_info", (DL_FUNC)&kr_algorithm_info, 1},
    {"kr_options", (DL_FUNC)&kr_options, 1},
    {"kr_fit", (DL_FUNC)&kr_fit, 7},
    {"kr_results", (DL_FUNC)&kr_results, 1},
    {"kr_algorithm_of", (DL_FUNC)&kr_algorithm_of, 1},
    {"kr_get_option", (DL_FUNC)&kr_get_option, 2},
    {"kr_predict", (DL_FUNC)&kr_predict, 2},
    {"kr_transform", (DL_FUNC)&kr_transform, 2},
    {"kr_save", (DL_FUNC)&kr_save, 2},
    {"kr_load", (DL_FUNC)&kr_load, 1},
    {"kr_metric", (DL_FUNC)&kr_metric, 3},
    {"kr_sample_pairs", (DL_FUNC)&kr_sample_pairs, 5},
    {"kr_sample_triplets", (DL_FUNC)&kr_sample_triplets, 4},
    {"kr_active_select", (DL_FUNC)&kr_active_select, 6},
    {NULL, NULL, 0}};

void R_init_kindred(DllInfo *dll) {
    R_registerRoutines(dll, NULL, call_methods, NULL, NULL);
    R_useDynamicSymbols(dll, FALSE);
    R_forceSymbols(dll, TRUE);
}
