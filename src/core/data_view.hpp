// A borrowed view of the caller's points: dense (row- or column-major with a
// leading dimension) or CSR. No copy is made; the view lives for one call.
#ifndef KINDRED_CORE_DATA_VIEW_HPP
#define KINDRED_CORE_DATA_VIEW_HPP

#include <cstdint>

namespace kindred {

// Dense points of float64 (x) or float32 (xf, with x null): a float32 array
// is read in place, each value widened to double where it is read (exactly:
// every float is a double), so that sums accumulate in double. Code that
// takes raw pointers (GEMM, the vectorised sums) checks is_f32() and reads
// a float32 array through linalg/dense_rows.hpp's converted blocks.
struct DenseView {
    const double *x = nullptr;
    int64_t n = 0, d = 0, ld = 0;
    bool row_major = true;
    const float *xf = nullptr;
    bool is_f32() const { return xf != nullptr; }
    double at(int64_t i, int64_t j) const {
        const int64_t e = row_major ? i * ld + j : i + j * ld;
        return xf ? static_cast<double>(xf[e]) : x[e];
    }
    // Distance in memory between consecutive coordinates of one point.
    int64_t col_stride() const { return row_major ? 1 : ld; }
    // float64 data only (x non-null).
    const double *row_ptr(int64_t i) const { return row_major ? x + i * ld : x + i; }
    // float32 data only (xf non-null).
    const float *row_ptr_f32(int64_t i) const { return row_major ? xf + i * ld : xf + i; }
    // n points of d float64 values, row after row, each ld values from the last.
    static DenseView rows(const double *x, int64_t n, int64_t d, int64_t ld) {
        DenseView v;
        v.x = x;
        v.n = n;
        v.d = d;
        v.ld = ld;
        return v;
    }
    static DenseView rows(const double *x, int64_t n, int64_t d) { return rows(x, n, d, d); }
};

struct CsrView {
    const int64_t *indptr = nullptr;
    const int64_t *indices = nullptr;
    const double *values = nullptr;
    int64_t n = 0, d = 0;
};

// Either kind of data. Algorithms that only take dense data check is_dense()
// through require_dense(); the row helpers below work for both.
class DataView {
public:
    static DataView dense(const DenseView &v) { DataView r; r.dense_ = v; r.sparse_ = false; return r; }
    static DataView csr(const CsrView &v) { DataView r; r.csr_ = v; r.sparse_ = true; return r; }

    int64_t n() const { return sparse_ ? csr_.n : dense_.n; }
    int64_t d() const { return sparse_ ? csr_.d : dense_.d; }
    bool is_dense() const { return !sparse_; }
    const DenseView &as_dense() const { return dense_; }
    const CsrView &as_csr() const { return csr_; }

    // out[j] = x_i[j] for every j (out has d entries).
    void copy_row(int64_t i, double *out) const;
    // acc[j] += w * x_i[j].
    void add_row(int64_t i, double w, double *acc) const;
    // <x_i, v>.
    double dot_row(int64_t i, const double *v) const;
    // |x_i|^2.
    double row_sqnorm(int64_t i) const;

private:
    DenseView dense_;
    CsrView csr_;
    bool sparse_ = false;
};

// Rows [begin, end) of data, as a view of the same memory (row i of the result is row begin + i).
DataView row_range(const DataView &data, int64_t begin, int64_t end);

// Throws KINDRED_E_INVALID naming the algorithm when the data is sparse.
void require_dense(const DataView &data, const char *algorithm);

}  // namespace kindred

#endif
