//! The algorithm and option registry of the loaded library.
use std::ptr;

use kindred_sys as sys;

use crate::error::{c_string, c_text, check, Result};

/// Type of an option's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OptionType {
    Int,
    Double,
    Bool,
    Choice,
}

/// One option of an algorithm, as declared in its table.
#[derive(Debug, Clone, PartialEq)]
pub struct OptionInfo {
    pub name: String,
    pub kind: OptionType,
    /// Default in text form ("" when unset by default).
    pub default: String,
    /// Allowed values in text form, e.g. "[1, 1000]" or "euclidean|cosine".
    pub range: String,
    pub doc: String,
}

/// Which side information an algorithm uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Uses {
    pub pairs: bool,
    pub triplets: bool,
    pub partial_labels: bool,
    pub sparse: bool,
    /// Finds the number of clusters itself.
    pub no_k: bool,
    /// Learns a transformation (`Model::transform`).
    pub transform: bool,
    /// Gives soft memberships of new points.
    pub soft: bool,
}

/// Names of all algorithms of the library.
pub fn algorithms() -> Vec<String> {
    let count = unsafe { sys::kindred_algorithm_count() };
    (0..count).map(|k| unsafe { c_text(sys::kindred_algorithm_name(k)) }).collect()
}

/// One-line description of an algorithm.
pub fn algorithm_summary(algorithm: &str) -> Result<String> {
    let name = c_string("algorithm", algorithm)?;
    let mut out = ptr::null();
    check(unsafe { sys::kindred_algorithm_summary(name.as_ptr(), &mut out) })?;
    Ok(unsafe { c_text(out) })
}

/// Which side information an algorithm uses.
pub fn algorithm_uses(algorithm: &str) -> Result<Uses> {
    let name = c_string("algorithm", algorithm)?;
    let mut flags = 0;
    check(unsafe { sys::kindred_algorithm_uses(name.as_ptr(), &mut flags) })?;
    Ok(Uses {
        pairs: flags & sys::KINDRED_USES_PAIRS != 0,
        triplets: flags & sys::KINDRED_USES_TRIPLETS != 0,
        partial_labels: flags & sys::KINDRED_USES_PARTIAL_LABELS != 0,
        sparse: flags & sys::KINDRED_USES_SPARSE != 0,
        no_k: flags & sys::KINDRED_USES_NO_K != 0,
        transform: flags & sys::KINDRED_USES_TRANSFORM != 0,
        soft: flags & sys::KINDRED_USES_SOFT != 0,
    })
}

/// The option table of an algorithm.
pub fn options(algorithm: &str) -> Result<Vec<OptionInfo>> {
    let name = c_string("algorithm", algorithm)?;
    let mut count = 0i64;
    check(unsafe { sys::kindred_option_count(name.as_ptr(), &mut count) })?;
    let mut out = Vec::with_capacity(count.max(0) as usize);
    for k in 0..count {
        let (mut oname, mut odef, mut orange, mut odoc) = (ptr::null(), ptr::null(), ptr::null(), ptr::null());
        let mut otype = 0;
        check(unsafe {
            sys::kindred_option_info(name.as_ptr(), k, &mut oname, &mut otype, &mut odef, &mut orange, &mut odoc)
        })?;
        let kind = match otype {
            sys::KINDRED_OPTION_INT => OptionType::Int,
            sys::KINDRED_OPTION_DOUBLE => OptionType::Double,
            sys::KINDRED_OPTION_BOOL => OptionType::Bool,
            _ => OptionType::Choice,
        };
        unsafe {
            out.push(OptionInfo { name: c_text(oname), kind, default: c_text(odef), range: c_text(orange), doc: c_text(odoc) });
        }
    }
    Ok(out)
}

/// Names of the metrics known to [`crate::metric`].
pub fn metrics() -> Vec<String> {
    let count = unsafe { sys::kindred_metric_count() };
    (0..count).map(|k| unsafe { c_text(sys::kindred_metric_name(k)) }).collect()
}

/// The library's version, "MAJOR.MINOR.PATCH".
pub fn version() -> String {
    unsafe { c_text(sys::kindred_version()) }
}
