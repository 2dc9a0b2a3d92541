//! Active selection of pairwise constraints, with the oracle as a Rust closure.
use std::any::Any;
use std::os::raw::{c_int, c_void};
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

/// Ask `oracle(i, j)` (0-based, i < j) about chosen pairs of `x` and add the answers to `side`.
///
/// `strategy`: "explore-consolidate", "explore" or "random"; `k`: number of clusters, or None if
/// unknown (Explore only); `budget`: maximum number of questions. A panic in the oracle stops the
/// selection, leaves `side` unchanged, and resumes once the library has returned.
pub fn active_select<F>(strategy: &str, x: Dense<'_>, k: Option<i64>, budget: i64, seed: u64, side: &mut Side, mut oracle: F) -> Result<()>
where
    F: FnMut(i64, i64) -> Answer,
{
    let cstrategy = c_string("strategy", strategy)?;
    let mut state = OracleState { f: &mut oracle, panic: None };
    let status = unsafe {
        sys::kindred_active_select(
            cstrategy.as_ptr(), x.data.as_ptr(), x.n as i64, x.d as i64, x.c_layout(), x.ld as i64, k.unwrap_or(-1), budget,
            seed, Some(oracle_trampoline), &mut state as *mut OracleState<'_> as *mut c_void, side.as_mut_ptr(),
        )
    };
    if let Some(p) = state.panic.take() {
        panic::resume_unwind(p);
    }
    check(status)
}
