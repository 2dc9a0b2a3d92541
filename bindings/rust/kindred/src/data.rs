//! Borrowed views of the caller's points, passed to C without a copy.
use kindred_sys as sys;

use crate::error::{Error, Result, Status};

/// Memory order of a dense matrix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// Element (i, j) at `data[i * ld + j]`.
    RowMajor,
    /// Element (i, j) at `data[i + j * ld]`.
    ColMajor,
}

mod sealed {
    use super::{Dense, Points};

    pub trait Sealed: Sized + Copy + std::fmt::Debug {
        /// The `Points` variant that carries a matrix of this element type.
        fn points(x: Dense<'_, Self>) -> Points<'_>;
    }

    impl Sealed for f64 {
        fn points(x: Dense<'_, f64>) -> Points<'_> {
            Points::Dense(x)
        }
    }

    impl Sealed for f32 {
        fn points(x: Dense<'_, f32>) -> Points<'_> {
            Points::DenseF32(x)
        }
    }
}

/// The element type of a [`Dense`] matrix: `f64`, or `f32`. Sealed: no other type implements it.
///
/// `f32` points go to the library's `_f32` functions and are read in place, with no float64
/// copy: each value is widened to double where it is read and all sums are in double, so a fit
/// on `f32` data gives the fit of the `f64` array holding the same values (bitwise for
/// row-major points).
pub trait Scalar: sealed::Sealed {}
impl Scalar for f64 {}
impl Scalar for f32 {}

/// A dense n x d matrix borrowed from a slice of `f64` (the default) or `f32`. The constructors
/// check that the slice is long enough for (n, d, ld), so the library never reads outside it.
#[derive(Debug, Clone, Copy)]
pub struct Dense<'a, T = f64> {
    pub(crate) data: &'a [T],
    pub(crate) n: usize,
    pub(crate) d: usize,
    pub(crate) layout: Layout,
    pub(crate) ld: usize,
}

impl<'a, T: Scalar> Dense<'a, T> {
    /// Rows one after another (`ld = d`).
    pub fn row_major(data: &'a [T], n: usize, d: usize) -> Result<Dense<'a, T>> {
        Dense::with_ld(data, n, d, Layout::RowMajor, d)
    }

    /// Columns one after another (`ld = n`), as in Fortran, R and Julia.
    pub fn col_major(data: &'a [T], n: usize, d: usize) -> Result<Dense<'a, T>> {
        Dense::with_ld(data, n, d, Layout::ColMajor, n)
    }

    /// Any layout and leading dimension, e.g. a block of a larger matrix.
    pub fn with_ld(data: &'a [T], n: usize, d: usize, layout: Layout, ld: usize) -> Result<Dense<'a, T>> {
        let (outer, inner) = match layout {
            Layout::RowMajor => (n, d),
            Layout::ColMajor => (d, n),
        };
        if n == 0 || d == 0 {
            return Err(Error::new(Status::Invalid, format!("dense matrix: n = {n} and d = {d} must be positive")));
        }
        if ld < inner {
            return Err(Error::new(Status::Dimension, format!("dense matrix: ld = {ld} is smaller than {inner}")));
        }
        let needed = (outer - 1).checked_mul(ld).and_then(|x| x.checked_add(inner));
        match needed {
            Some(len) if len <= data.len() => Ok(Dense { data, n, d, layout, ld }),
            _ => Err(Error::new(
                Status::Dimension,
                format!("dense matrix: {n} x {d} with ld = {ld} needs {:?} values, the slice has {}", needed, data.len()),
            )),
        }
    }

    pub fn n(&self) -> usize {
        self.n
    }

    pub fn d(&self) -> usize {
        self.d
    }

    pub(crate) fn c_layout(&self) -> i32 {
        match self.layout {
            Layout::RowMajor => sys::KINDRED_ROW_MAJOR,
            Layout::ColMajor => sys::KINDRED_COL_MAJOR,
        }
    }
}

/// A sparse n x d matrix in CSR form, borrowed (indptr has n + 1 entries).
#[derive(Debug, Clone, Copy)]
pub struct Csr<'a> {
    pub(crate) n: usize,
    pub(crate) d: usize,
    pub(crate) indptr: &'a [i64],
    pub(crate) indices: &'a [i64],
    pub(crate) values: &'a [f64],
}

impl<'a> Csr<'a> {
    /// Checks the lengths of the arrays (the library checks their contents).
    pub fn new(n: usize, d: usize, indptr: &'a [i64], indices: &'a [i64], values: &'a [f64]) -> Result<Csr<'a>> {
        if indptr.len() != n + 1 {
            return Err(Error::new(Status::Dimension, format!("csr: indptr has {} entries, n + 1 = {}", indptr.len(), n + 1)));
        }
        let nnz = indptr[n];
        if nnz < 0 || indices.len() as i64 != nnz || values.len() as i64 != nnz {
            return Err(Error::new(
                Status::Dimension,
                format!("csr: indptr[n] = {nnz} but indices has {} and values {} entries", indices.len(), values.len()),
            ));
        }
        Ok(Csr { n, d, indptr, indices, values })
    }
}

/// Points for a fit or a prediction: dense (float64 or float32) or sparse.
#[derive(Debug, Clone, Copy)]
pub enum Points<'a> {
    Dense(Dense<'a>),
    /// float32 points, read in place by the library's `_f32` functions.
    DenseF32(Dense<'a, f32>),
    Csr(Csr<'a>),
}

impl<'a, T: Scalar> From<Dense<'a, T>> for Points<'a> {
    fn from(x: Dense<'a, T>) -> Self {
        T::points(x)
    }
}

impl<'a> From<Csr<'a>> for Points<'a> {
    fn from(x: Csr<'a>) -> Self {
        Points::Csr(x)
    }
}

/// A result matrix copied out of the library, row-major.
#[derive(Debug, Clone, PartialEq)]
pub struct Array {
    pub rows: usize,
    pub cols: usize,
    pub data: Vec<f64>,
}

impl Array {
    /// Element (i, j).
    pub fn get(&self, i: usize, j: usize) -> f64 {
        self.data[i * self.cols + j]
    }
}
