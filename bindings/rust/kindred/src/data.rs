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

/// A dense n x d matrix borrowed from a slice. The constructors check that the slice is long
/// enough for (n, d, ld), so the library never reads outside it.
#[derive(Debug, Clone, Copy)]
pub struct Dense<'a> {
    pub(crate) data: &'a [f64],
    pub(crate) n: usize,
    pub(crate) d: usize,
    pub(crate) layout: Layout,
    pub(crate) ld: usize,
}

impl<'a> Dense<'a> {
    /// Rows one after another (`ld = d`).
    pub fn row_major(data: &'a [f64], n: usize, d: usize) -> Result<Dense<'a>> {
        Dense::with_ld(data, n, d, Layout::RowMajor, d)
    }

    /// Columns one after another (`ld = n`), as in Fortran, R and Julia.
    pub fn col_major(data: &'a [f64], n: usize, d: usize) -> Result<Dense<'a>> {
        Dense::with_ld(data, n, d, Layout::ColMajor, n)
    }

    /// Any layout and leading dimension, e.g. a block of a larger matrix.
    pub fn with_ld(data: &'a [f64], n: usize, d: usize, layout: Layout, ld: usize) -> Result<Dense<'a>> {
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

/// Points for a fit or a prediction: dense or sparse.
#[derive(Debug, Clone, Copy)]
pub enum Points<'a> {
    Dense(Dense<'a>),
    Csr(Csr<'a>),
}

impl<'a> From<Dense<'a>> for Points<'a> {
    fn from(x: Dense<'a>) -> Self {
        Points::Dense(x)
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
