#include "core/data_view.hpp"

#include "core/error.hpp"

namespace kindred {

namespace {

// The dense row helpers for either element type (T = double or float; every
// value is widened to double before it is used).
template <typename T>
void copy_dense_row(const T *p, int64_t s, int64_t d, double *out) {
    for (int64_t j = 0; j < d; ++j) out[j] = static_cast<double>(p[j * s]);
}

template <typename T>
void add_dense_row(const T *p, int64_t s, int64_t d, double w, double *acc) {
    for (int64_t j = 0; j < d; ++j) acc[j] += w * static_cast<double>(p[j * s]);
}

// Four partial sums: one running sum is a chain of d dependent additions
// (RDP-means with center bounds calls this for most points of a pass).
template <typename T>
double dot_dense_row(const T *p, int64_t st, int64_t d, const double *v) {
    double part[4] = {0.0, 0.0, 0.0, 0.0};
    int64_t j = 0;
    for (; j + 4 <= d; j += 4)
        for (int q = 0; q < 4; ++q) part[q] += static_cast<double>(p[(j + q) * st]) * v[j + q];
    for (; j < d; ++j) part[0] += static_cast<double>(p[j * st]) * v[j];
    return (part[0] + part[1]) + (part[2] + part[3]);
}

template <typename T>
double sqnorm_dense_row(const T *p, int64_t st, int64_t d) {
    double s = 0.0;
    for (int64_t j = 0; j < d; ++j) {
        const double v = static_cast<double>(p[j * st]);
        s += v * v;
    }
    return s;
}

}  // namespace

void DataView::copy_row(int64_t i, double *out) const {
    if (!sparse_) {
        if (dense_.xf) return copy_dense_row(dense_.row_ptr_f32(i), dense_.col_stride(), dense_.d, out);
        return copy_dense_row(dense_.row_ptr(i), dense_.col_stride(), dense_.d, out);
    }
    for (int64_t j = 0; j < csr_.d; ++j) out[j] = 0.0;
    for (int64_t k = csr_.indptr[i]; k < csr_.indptr[i + 1]; ++k) out[csr_.indices[k]] += csr_.values[k];
}

void DataView::add_row(int64_t i, double w, double *acc) const {
    if (!sparse_) {
        if (dense_.xf) return add_dense_row(dense_.row_ptr_f32(i), dense_.col_stride(), dense_.d, w, acc);
        return add_dense_row(dense_.row_ptr(i), dense_.col_stride(), dense_.d, w, acc);
    }
    for (int64_t k = csr_.indptr[i]; k < csr_.indptr[i + 1]; ++k) acc[csr_.indices[k]] += w * csr_.values[k];
}

double DataView::dot_row(int64_t i, const double *v) const {
    if (!sparse_) {
        if (dense_.xf) return dot_dense_row(dense_.row_ptr_f32(i), dense_.col_stride(), dense_.d, v);
        return dot_dense_row(dense_.row_ptr(i), dense_.col_stride(), dense_.d, v);
    }
    double s = 0.0;
    for (int64_t k = csr_.indptr[i]; k < csr_.indptr[i + 1]; ++k) s += csr_.values[k] * v[csr_.indices[k]];
    return s;
}

double DataView::row_sqnorm(int64_t i) const {
    if (!sparse_) {
        if (dense_.xf) return sqnorm_dense_row(dense_.row_ptr_f32(i), dense_.col_stride(), dense_.d);
        return sqnorm_dense_row(dense_.row_ptr(i), dense_.col_stride(), dense_.d);
    }
    double s = 0.0;
    for (int64_t k = csr_.indptr[i]; k < csr_.indptr[i + 1]; ++k) s += csr_.values[k] * csr_.values[k];
    return s;
}

void require_dense(const DataView &data, const char *algorithm) {
    if (!data.is_dense())
        fail(KINDRED_E_INVALID, algorithm, ": sparse (CSR) data is not supported by this algorithm; pass dense data");
}

DataView row_range(const DataView &data, int64_t begin, int64_t end) {
    if (!data.is_dense()) {
        CsrView v = data.as_csr();
        v.indptr += begin;  // the entries keep their positions: indptr values are absolute
        v.n = end - begin;
        return DataView::csr(v);
    }
    DenseView v = data.as_dense();
    const int64_t offset = v.row_major ? begin * v.ld : begin;
    if (v.xf)
        v.xf += offset;
    else
        v.x += offset;
    v.n = end - begin;
    return DataView::dense(v);
}

}  // namespace kindred
