//! Metrics comparing two labelings.
use kindred_sys as sys;

use crate::error::{c_string, check, Error, Result, Status};

/// Score `predicted` against `truth` with a metric of [`crate::metrics`] ("nmi", "ari", "f-measure", ...).
pub fn metric(name: &str, truth: &[i32], predicted: &[i32]) -> Result<f64> {
    if truth.len() != predicted.len() {
        return Err(Error::new(
            Status::Dimension,
            format!("metric: truth has {} labels and predicted {}", truth.len(), predicted.len()),
        ));
    }
    let cname = c_string("metric", name)?;
    let mut value = 0.0;
    check(unsafe { sys::kindred_metric(cname.as_ptr(), truth.as_ptr(), predicted.as_ptr(), truth.len() as i64, &mut value) })?;
    Ok(value)
}
