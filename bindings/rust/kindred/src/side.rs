//! Side information about n points: pairs, triplets and partial labels (an owned kindred_side).
use std::ptr::{self, NonNull};

use kindred_sys as sys;

use crate::error::{check, Error, Result, Status};

/// How many pairs to sample: a count, or a fraction of all n(n-1)/2 pairs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Sample {
    Count(i64),
    Rate(f64),
}

/// What a [`Side`] holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SideCounts {
    pub n: i64,
    pub pairs: i64,
    pub triplets: i64,
    pub labelled: i64,
}

/// Side information about `n` points, reusable across fits. Freed on drop.
#[derive(Debug)]
pub struct Side {
    raw: NonNull<sys::kindred_side>,
}

// One handle may move between threads; it is not shared (the C API allows one thread at a time).
unsafe impl Send for Side {}

fn same_len(what: &str, lens: &[usize]) -> Result<i64> {
    if lens.iter().any(|&l| l != lens[0]) {
        return Err(Error::new(Status::Dimension, format!("{what}: the arrays have different lengths {lens:?}")));
    }
    Ok(lens[0] as i64)
}

impl Side {
    /// Empty side information about `n` points.
    pub fn new(n: usize) -> Result<Side> {
        let mut raw = ptr::null_mut();
        check(unsafe { sys::kindred_side_new(&mut raw, n as i64) })?;
        NonNull::new(raw).map(|raw| Side { raw }).ok_or_else(|| Error::new(Status::Internal, "kindred_side_new gave NULL"))
    }

    pub(crate) fn as_ptr(&self) -> *const sys::kindred_side {
        self.raw.as_ptr()
    }

    pub(crate) fn as_mut_ptr(&mut self) -> *mut sys::kindred_side {
        self.raw.as_ptr()
    }

    /// Add pairs: `value > 0` must-link of that weight, `value < 0` cannot-link. Duplicates add up.
    pub fn add_pairs(&mut self, i: &[i64], j: &[i64], value: &[f64]) -> Result<&mut Self> {
        let count = same_len("pairs", &[i.len(), j.len(), value.len()])?;
        check(unsafe { sys::kindred_side_add_pairs(self.raw.as_ptr(), i.as_ptr(), j.as_ptr(), value.as_ptr(), count) })?;
        Ok(self)
    }

    /// Add triplets "is a closer to b than to c?", answer +1 (b), -1 (c) or 0 (don't know).
    pub fn add_triplets(&mut self, a: &[i64], b: &[i64], c: &[i64], answer: &[i32]) -> Result<&mut Self> {
        let count = same_len("triplets", &[a.len(), b.len(), c.len(), answer.len()])?;
        check(unsafe {
            sys::kindred_side_add_triplets(self.raw.as_ptr(), a.as_ptr(), b.as_ptr(), c.as_ptr(), answer.as_ptr(), count)
        })?;
        Ok(self)
    }

    /// Replace the partial labels (one per point, -1 where unknown).
    pub fn set_partial_labels(&mut self, labels: &[i32]) -> Result<&mut Self> {
        check(unsafe { sys::kindred_side_set_partial_labels(self.raw.as_ptr(), labels.as_ptr(), labels.len() as i64) })?;
        Ok(self)
    }

    pub fn counts(&self) -> Result<SideCounts> {
        let mut c = SideCounts { n: 0, pairs: 0, triplets: 0, labelled: 0 };
        check(unsafe { sys::kindred_side_counts(self.raw.as_ptr(), &mut c.n, &mut c.pairs, &mut c.triplets, &mut c.labelled) })?;
        Ok(c)
    }

    /// The distinct pairs (i < j, sorted): (i, j, value).
    pub fn pairs(&self) -> Result<(Vec<i64>, Vec<i64>, Vec<f64>)> {
        let m = self.counts()?.pairs;
        let (mut i, mut j, mut v) = (vec![0i64; m as usize], vec![0i64; m as usize], vec![0f64; m as usize]);
        check(unsafe { sys::kindred_side_pairs(self.raw.as_ptr(), i.as_mut_ptr(), j.as_mut_ptr(), v.as_mut_ptr(), m) })?;
        Ok((i, j, v))
    }

    /// The triplets in the order added: (a, b, c, answer).
    pub fn triplets(&self) -> Result<(Vec<i64>, Vec<i64>, Vec<i64>, Vec<i32>)> {
        let m = self.counts()?.triplets;
        let u = m as usize;
        let (mut a, mut b, mut c, mut ans) = (vec![0i64; u], vec![0i64; u], vec![0i64; u], vec![0i32; u]);
        check(unsafe {
            sys::kindred_side_triplets(self.raw.as_ptr(), a.as_mut_ptr(), b.as_mut_ptr(), c.as_mut_ptr(), ans.as_mut_ptr(), m)
        })?;
        Ok((a, b, c, ans))
    }

    /// Must-link component of each point.
    pub fn components(&self) -> Result<Vec<i64>> {
        let n = self.counts()?.n;
        let mut comp = vec![0i64; n as usize];
        check(unsafe { sys::kindred_side_components(self.raw.as_ptr(), comp.as_mut_ptr(), n, ptr::null_mut()) })?;
        Ok(comp)
    }

    /// Err(Infeasible) when a cannot-link joins two points of one must-link component.
    pub fn check_consistent(&self) -> Result<()> {
        check(unsafe { sys::kindred_side_check_consistent(self.raw.as_ptr()) })
    }

    /// Sample pairs from class labels (negative = never drawn), answers flipped with probability `noise`.
    pub fn sample_pairs(&mut self, labels: &[i32], how: Sample, noise: f64, seed: u64) -> Result<&mut Self> {
        let (count, rate) = match how {
            Sample::Count(c) => (c, 0.0),
            Sample::Rate(r) => (-1, r),
        };
        check(unsafe {
            sys::kindred_sample_pairs(self.raw.as_ptr(), labels.as_ptr(), labels.len() as i64, count, rate, noise, seed)
        })?;
        Ok(self)
    }

    /// Sample `count` relative triplets from class labels.
    pub fn sample_triplets(&mut self, labels: &[i32], count: i64, noise: f64, seed: u64) -> Result<&mut Self> {
        check(unsafe {
            sys::kindred_sample_triplets(self.raw.as_ptr(), labels.as_ptr(), labels.len() as i64, count, noise, seed)
        })?;
        Ok(self)
    }
}

impl Drop for Side {
    fn drop(&mut self) {
        unsafe { sys::kindred_side_free(self.raw.as_ptr()) }
    }
}
