//! Active selection of pairwise constraints, with the oracle as a Rust closure.
use std::any::Any;
use std::os::raw::{c_char, c_int, c_void};
use std::panic::{self, AssertUnwindSafe};

use kindred_sys as sys;

use crate::data::Dense;
use crate::error::{c_string, check, Result};
use crate::side::Side;

/// An oracle's answer about a pair of points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    Same,
    Different,
    DontKnow,
}

struct OracleState<'f> {
    f: &'f mut dyn FnMut(i64, i64) -> Answer,
    panic: Option<Box<dyn Any + Send>>,
}

// Not a valid answer: the library stops at once, and the oracle's panic resumes after the call.
const STOP: c_int = 2;

unsafe extern "C" fn oracle_trampoline(user: *mut c_void, i: i64, j: i64) -> c_int {
    let state = &mut *(user as *mut OracleState<'_>);
    if state.panic.is_some() {
        return STOP;
    }
    match panic::catch_unwind(AssertUnwindSafe(|| (state.f)(i, j))) {
        Ok(Answer::Same) => 1,
        Ok(Answer::Different) => -1,
        Ok(Answer::DontKnow) => 0,
        Err(p) => {
            state.panic = Some(p);
            STOP
        }
    }
}

/// The library's settings of one selection (`kindred_active_options`), freed on drop.
struct ActiveOptions(*mut sys::kindred_active_options);

impl ActiveOptions {
    fn new(strategy: &str, k: Option<i64>, budget: i64, seed: u64) -> Result<ActiveOptions> {
        let mut raw = std::ptr::null_mut();
        check(unsafe { sys::kindred_active_options_new(&mut raw) })?;
        let options = ActiveOptions(raw);
        let cstrategy = c_string("strategy", strategy)?;
        check(unsafe { sys::kindred_active_options_set_string(options.0, b"strategy\0".as_ptr() as *const c_char, cstrategy.as_ptr()) })?;
        // A seed above i64::MAX wraps to a negative value, which the library refuses with its range.
        for (name, value) in [(&b"k\0"[..], k.unwrap_or(-1)), (&b"budget\0"[..], budget), (&b"seed\0"[..], seed as i64)] {
            check(unsafe { sys::kindred_active_options_set_int(options.0, name.as_ptr() as *const c_char, value) })?;
        }
        Ok(options)
    }
}

impl Drop for ActiveOptions {
    fn drop(&mut self) {
        unsafe { sys::kindred_active_options_free(self.0) }
    }
}

/// Ask `oracle(i, j)` (0-based, i < j) about chosen pairs of `x` and add the answers to `side`.
///
/// `strategy`: "explore-consolidate", "explore" or "random"; `k`: number of clusters, or None if
/// unknown (Explore only); `budget`: maximum number of questions. A panic in the oracle stops the
/// selection, leaves `side` unchanged, and resumes once the library has returned.
/// Experimental in the C API: its signature may still change after 0.1.
pub fn active_select<F>(strategy: &str, x: Dense<'_>, k: Option<i64>, budget: i64, seed: u64, side: &mut Side, mut oracle: F) -> Result<()>
where
    F: FnMut(i64, i64) -> Answer,
{
    let options = ActiveOptions::new(strategy, k, budget, seed)?;
    let mut state = OracleState { f: &mut oracle, panic: None };
    let status = unsafe {
        sys::kindred_active_select(
            options.0, x.data.as_ptr(), x.n as i64, x.d as i64, x.c_layout(), x.ld as i64, Some(oracle_trampoline),
            &mut state as *mut OracleState<'_> as *mut c_void, side.as_mut_ptr(),
        )
    };
    if let Some(p) = state.panic.take() {
        panic::resume_unwind(p);
    }
    check(status)
}
