#include "core/data_view.hpp"

#include "core/error.hpp"

namespace kindred {

void DataView::copy_row(int64_t i, double *out) const {
    if (!sparse_) {
        const double *p = dense_.row_ptr(i);
        const int64_t s = dense_.col_stride();
        for (int64_t j = 0; j < dense_.d; ++j) out[j] = p[j * s];
        return;
    }
    for (int64_t j = 0; j < csr_.d; ++j) out[j] = 0.0;
    for (int64_t k = csr_.indptr[i]; k < csr_.indptr[i + 1]; ++k) out[csr_.indices[k]] += csr_.values[k];
}

void DataView::add_row(int64_t i, double w, double *acc) const {
    if (!sparse_) {
        const double *p = dense_.row_ptr(i);
        const int64_t s = dense_.col_stride();
        for (int64_t j = 0; j < dense_.d; ++j) acc[j] += w * p[j * s];
        return;
    }
    for (int64_t k = csr_.indptr[i]; k < csr_.indptr[i + 1]; ++k) acc[csr_.indices[k]] += w * csr_.values[k];
}

double DataView::dot_row(int64_t i, const double *v) const {
    double s = 0.0;
    if (!sparse_) {
        // Four partial sums: one running sum is a chain of d dependent
        // additions (RDP-means with center bounds calls this for most points
        // of a pass).
        const double *p = dense_.row_ptr(i);
        const int64_t st = dense_.col_stride(), d = dense_.d;
        double part[4] = {0.0, 0.0, 0.0, 0.0};
        int64_t j = 0;
        for (; j + 4 <= d; j += 4)
            for (int q = 0; q < 4; ++q) part[q] += p[(j + q) * st] * v[j + q];
        for (; j < d; ++j) part[0] += p[j * st] * v[j];
        return (part[0] + part[1]) + (part[2] + part[3]);
    }
    for (int64_t k = csr_.indptr[i]; k < csr_.indptr[i + 1]; ++k) s += csr_.values[k] * v[csr_.indices[k]];
    return s;
}

double DataView::row_sqnorm(int64_t i) const {
    double s = 0.0;
    if (!sparse_) {
        const double *p = dense_.row_ptr(i);
        const int64_t st = dense_.col_stride();
        for (int64_t j = 0; j < dense_.d; ++j) s += p[j * st] * p[j * st];
        return s;
    }
    for (int64_t k = csr_.indptr[i]; k < csr_.indptr[i + 1]; ++k) s += csr_.values[k] * csr_.values[k];
    return s;
}

double DataView::row_sum(int64_t i) const {
    double s = 0.0;
    if (!sparse_) {
        const double *p = dense_.row_ptr(i);
        const int64_t st = dense_.col_stride();
        for (int64_t j = 0; j < dense_.d; ++j) s += p[j * st];
        return s;
    }
    for (int64_t k = csr_.indptr[i]; k < csr_.indptr[i + 1]; ++k) s += csr_.values[k];
    return s;
}

void require_dense(const DataView &data, const char *algorithm) {
    if (!data.is_dense())
        fail(KINDRED_E_INVALID, algorithm, ": sparse (CSR) data is not supported by this algorithm; pass dense data");
}

}  // namespace kindred
