//! A model: an algorithm, its options and, once fitted, its results (an owned kindred_model).
use std::any::Any;
use std::os::raw::{c_char, c_int, c_void};
use std::panic::{self, AssertUnwindSafe};
use std::path::Path;
use std::ptr::{self, NonNull};

use kindred_sys as sys;

use crate::data::{Array, Dense, Points, Scalar};
use crate::error::{c_string, c_text, check, Error, Result, Status};
use crate::side::Side;

/// A value for [`Model::set`]; built from integers, reals, booleans and text.
#[derive(Debug, Clone, PartialEq)]
pub enum OptionValue {
    Int(i64),
    Double(f64),
    Bool(bool),
    Text(String),
}

macro_rules! int_option {
    ($($t:ty),*) => {$(impl From<$t> for OptionValue { fn from(v: $t) -> Self { OptionValue::Int(v as i64) } })*};
}
int_option!(i8, i16, i32, i64, u8, u16, u32, usize, isize);

impl From<u64> for OptionValue {
    fn from(v: u64) -> Self {
        if v <= i64::MAX as u64 { OptionValue::Int(v as i64) } else { OptionValue::Text(v.to_string()) }
    }
}
impl From<f64> for OptionValue {
    fn from(v: f64) -> Self {
        OptionValue::Double(v)
    }
}
impl From<f32> for OptionValue {
    fn from(v: f32) -> Self {
        OptionValue::Double(v as f64)
    }
}
impl From<bool> for OptionValue {
    fn from(v: bool) -> Self {
        OptionValue::Bool(v)
    }
}
impl From<&str> for OptionValue {
    fn from(v: &str) -> Self {
        OptionValue::Text(v.to_string())
    }
}
impl From<String> for OptionValue {
    fn from(v: String) -> Self {
        OptionValue::Text(v)
    }
}

/// Summary of a fitted model.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Summary {
    pub n: i64,
    pub d: i64,
    pub clusters: i64,
    pub iterations: i64,
    pub converged: bool,
    pub objective: f64,
}

/// One progress report: the iteration (from 1), the objective and a short message.
#[derive(Debug, Clone, Copy)]
pub struct Progress<'a> {
    pub iteration: i64,
    pub objective: f64,
    pub message: &'a str,
}

/// Level of a diagnostic from the library.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogLevel {
    Debug,
    Info,
    Warning,
}

type LogFn = Box<dyn FnMut(LogLevel, &str) + Send>;

struct LogState {
    f: LogFn,
    panic: Option<Box<dyn Any + Send>>,
}

/// A kindred model. Freed on drop.
pub struct Model {
    raw: NonNull<sys::kindred_model>,
    // Boxed so that its address, given to C as `user`, is stable; dropped after the model.
    log: Option<Box<LogState>>,
}

// A model may move between threads; the C API allows one thread at a time, hence no Sync.
unsafe impl Send for Model {}

impl std::fmt::Debug for Model {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Model({})", self.algorithm())
    }
}

struct ProgressState<'f> {
    f: &'f mut dyn FnMut(Progress<'_>) -> bool,
    panic: Option<Box<dyn Any + Send>>,
}

// The trampolines never let a panic unwind into C: it is caught, the fit is cancelled, and the
// panic resumes once the C call has returned.
unsafe extern "C" fn progress_trampoline(user: *mut c_void, iteration: i64, objective: f64, message: *const c_char) -> c_int {
    let state = &mut *(user as *mut ProgressState<'_>);
    if state.panic.is_some() {
        return 1;
    }
    let text = c_text(message);
    match panic::catch_unwind(AssertUnwindSafe(|| (state.f)(Progress { iteration, objective, message: &text }))) {
        Ok(true) => 0,
        Ok(false) => 1,
        Err(p) => {
            state.panic = Some(p);
            1
        }
    }
}

unsafe extern "C" fn log_trampoline(user: *mut c_void, level: c_int, message: *const c_char) {
    let state = &mut *(user as *mut LogState);
    if state.panic.is_some() {
        return;
    }
    let level = match level {
        0 => LogLevel::Debug,
        1 => LogLevel::Info,
        _ => LogLevel::Warning,
    };
    let text = c_text(message);
    if let Err(p) = panic::catch_unwind(AssertUnwindSafe(|| (state.f)(level, &text))) {
        state.panic = Some(p);
    }
}

fn path_c(path: &Path) -> Result<std::ffi::CString> {
    use std::os::unix::ffi::OsStrExt;
    std::ffi::CString::new(path.as_os_str().as_bytes())
        .map_err(|_| Error::new(Status::Invalid, format!("path {path:?} contains a NUL byte")))
}

impl Model {
    /// A model of `algorithm` (see [`crate::algorithms`]) with every option at its default.
    pub fn new(algorithm: &str) -> Result<Model> {
        let name = c_string("algorithm", algorithm)?;
        let mut raw = ptr::null_mut();
        check(unsafe { sys::kindred_model_new(&mut raw, name.as_ptr()) })?;
        Ok(Model { raw: NonNull::new(raw).ok_or_else(|| Error::new(Status::Internal, "kindred_model_new gave NULL"))?, log: None })
    }

    /// Load a model saved by [`Model::save`] (or by the CLI's `--model`).
    pub fn load(path: impl AsRef<Path>) -> Result<Model> {
        let p = path_c(path.as_ref())?;
        let mut raw = ptr::null_mut();
        check(unsafe { sys::kindred_model_load(&mut raw, p.as_ptr()) })?;
        Ok(Model { raw: NonNull::new(raw).ok_or_else(|| Error::new(Status::Internal, "kindred_model_load gave NULL"))?, log: None })
    }

    /// The algorithm's name.
    pub fn algorithm(&self) -> String {
        unsafe { c_text(sys::kindred_model_algorithm(self.raw.as_ptr())) }
    }

    /// Set an option by name: `model.set("k", 3)?.set("tol", 1e-6)?`.
    pub fn set(&mut self, name: &str, value: impl Into<OptionValue>) -> Result<&mut Self> {
        let cname = c_string("option", name)?;
        let m = self.raw.as_ptr();
        check(unsafe {
            match value.into() {
                OptionValue::Int(v) => sys::kindred_model_set_int(m, cname.as_ptr(), v),
                OptionValue::Bool(v) => sys::kindred_model_set_int(m, cname.as_ptr(), v as i64),
                OptionValue::Double(v) => sys::kindred_model_set_double(m, cname.as_ptr(), v),
                OptionValue::Text(v) => {
                    let cv = c_string(name, &v)?;
                    sys::kindred_model_set_string(m, cname.as_ptr(), cv.as_ptr())
                }
            }
        })?;
        Ok(self)
    }

    /// An option's current value in text form.
    pub fn option(&self, name: &str) -> Result<String> {
        let cname = c_string("option", name)?;
        let mut capacity = 256usize;
        loop {
            let mut buf = vec![0u8; capacity];
            let status = unsafe {
                sys::kindred_model_option(self.raw.as_ptr(), cname.as_ptr(), buf.as_mut_ptr() as *mut c_char, capacity)
            };
            if status == sys::KINDRED_E_BUFFER_TOO_SMALL && capacity < (1 << 20) {
                capacity *= 16;
                continue;
            }
            check(status)?;
            let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
            return Ok(String::from_utf8_lossy(&buf[..end]).into_owned());
        }
    }

    /// Receive the library's diagnostics (None removes the callback).
    pub fn set_log(&mut self, f: Option<Box<dyn FnMut(LogLevel, &str) + Send>>) -> Result<()> {
        match f {
            None => {
                check(unsafe { sys::kindred_model_set_log(self.raw.as_ptr(), None, ptr::null_mut()) })?;
                self.log = None;
            }
            Some(f) => {
                let mut state = Box::new(LogState { f, panic: None });
                let user = &mut *state as *mut LogState as *mut c_void;
                check(unsafe { sys::kindred_model_set_log(self.raw.as_ptr(), Some(log_trampoline), user) })?;
                self.log = Some(state); // the old state (if any) is dropped only after C holds the new one
            }
        }
        Ok(())
    }

    /// Fit on `x` (dense `f64` or `f32`, or CSR) with optional side information. On error the model is unfitted.
    pub fn fit<'a>(&mut self, x: impl Into<Points<'a>>, side: Option<&Side>) -> Result<()> {
        self.fit_inner(x.into(), side)
    }

    /// Fit, calling `progress` after each iteration; returning `false` cancels the fit
    /// (Err with Status::Cancelled). A panic inside `progress` cancels the fit and resumes after it.
    pub fn fit_with_progress<'a, F>(&mut self, x: impl Into<Points<'a>>, side: Option<&Side>, mut progress: F) -> Result<()>
    where
        F: FnMut(Progress<'_>) -> bool,
    {
        let mut state = ProgressState { f: &mut progress, panic: None };
        let user = &mut state as *mut ProgressState<'_> as *mut c_void;
        check(unsafe { sys::kindred_model_set_progress(self.raw.as_ptr(), Some(progress_trampoline), user) })?;
        let result = self.fit_inner(x.into(), side);
        // The state lives on this stack frame: the model must not keep a pointer to it.
        unsafe { sys::kindred_model_set_progress(self.raw.as_ptr(), None, ptr::null_mut()) };
        if let Some(p) = state.panic.take() {
            panic::resume_unwind(p);
        }
        result
    }

    fn fit_inner(&mut self, x: Points<'_>, side: Option<&Side>) -> Result<()> {
        let side_ptr = side.map_or(ptr::null(), |s| s.as_ptr());
        let status = unsafe {
            match x {
                Points::Dense(x) => sys::kindred_model_fit_dense(
                    self.raw.as_ptr(), x.data.as_ptr(), x.n as i64, x.d as i64, x.c_layout(), x.ld as i64, side_ptr),
                Points::DenseF32(x) => sys::kindred_model_fit_dense_f32(
                    self.raw.as_ptr(), x.data.as_ptr(), x.n as i64, x.d as i64, x.c_layout(), x.ld as i64, side_ptr),
                Points::Csr(x) => sys::kindred_model_fit_csr(
                    self.raw.as_ptr(), x.n as i64, x.d as i64, x.indptr.as_ptr(), x.indices.as_ptr(), x.values.as_ptr(), side_ptr),
            }
        };
        let result = check(status);
        if let Some(p) = self.log.as_mut().and_then(|l| l.panic.take()) {
            panic::resume_unwind(p);
        }
        result
    }

    /// Summary of the fitted model.
    pub fn summary(&self) -> Result<Summary> {
        let mut s = Summary { n: 0, d: 0, clusters: 0, iterations: 0, converged: false, objective: 0.0 };
        let mut conv: c_int = 0;
        check(unsafe {
            sys::kindred_model_summary(self.raw.as_ptr(), &mut s.n, &mut s.d, &mut s.clusters, &mut s.iterations, &mut conv, &mut s.objective)
        })?;
        s.converged = conv != 0;
        Ok(s)
    }

    /// Labels of the fitted points.
    pub fn labels(&self) -> Result<Vec<i32>> {
        let n = self.summary()?.n;
        let mut labels = vec![0i32; n as usize];
        check(unsafe { sys::kindred_model_labels(self.raw.as_ptr(), labels.as_mut_ptr(), n) })?;
        Ok(labels)
    }

    /// Names and shapes (rows, cols) of the result arrays ("centers", "objective_trace", ...).
    pub fn array_names(&self) -> Result<Vec<(String, usize, usize)>> {
        let mut count = 0i64;
        check(unsafe { sys::kindred_model_array_count(self.raw.as_ptr(), &mut count) })?;
        let mut out = Vec::new();
        for k in 0..count {
            let (mut name, mut rows, mut cols) = (ptr::null(), 0i64, 0i64);
            check(unsafe { sys::kindred_model_array_info(self.raw.as_ptr(), k, &mut name, &mut rows, &mut cols) })?;
            out.push((unsafe { c_text(name) }, rows as usize, cols as usize));
        }
        Ok(out)
    }

    /// Copy of the result array `name` (row-major).
    pub fn array(&self, name: &str) -> Result<Array> {
        let cname = c_string("array", name)?;
        let (mut rows, mut cols) = (0i64, 0i64);
        check(unsafe { sys::kindred_model_array_shape(self.raw.as_ptr(), cname.as_ptr(), &mut rows, &mut cols) })?;
        let mut data = vec![0f64; (rows * cols) as usize];
        check(unsafe { sys::kindred_model_array(self.raw.as_ptr(), cname.as_ptr(), data.as_mut_ptr(), rows * cols) })?;
        Ok(Array { rows: rows as usize, cols: cols as usize, data })
    }

    /// The cluster centres (k x d), for the algorithms that have them.
    pub fn centers(&self) -> Result<Array> {
        self.array("centers")
    }

    /// Assign new points (dense `f64` or `f32`, or CSR) to the fitted clusters.
    pub fn predict<'a>(&self, x: impl Into<Points<'a>>) -> Result<Vec<i32>> {
        let m = self.raw.as_ptr();
        match x.into() {
            Points::Dense(x) => {
                let mut labels = vec![0i32; x.n];
                check(unsafe {
                    sys::kindred_model_predict_dense(m, x.data.as_ptr(), x.n as i64, x.d as i64, x.c_layout(), x.ld as i64,
                                                     labels.as_mut_ptr(), x.n as i64)
                })?;
                Ok(labels)
            }
            Points::DenseF32(x) => {
                let mut labels = vec![0i32; x.n];
                check(unsafe {
                    sys::kindred_model_predict_dense_f32(m, x.data.as_ptr(), x.n as i64, x.d as i64, x.c_layout(), x.ld as i64,
                                                         labels.as_mut_ptr(), x.n as i64)
                })?;
                Ok(labels)
            }
            Points::Csr(x) => {
                let mut labels = vec![0i32; x.n];
                check(unsafe {
                    sys::kindred_model_predict_csr(m, x.n as i64, x.d as i64, x.indptr.as_ptr(), x.indices.as_ptr(),
                                                   x.values.as_ptr(), labels.as_mut_ptr(), x.n as i64)
                })?;
                Ok(labels)
            }
        }
    }

    /// Map new points (`f64` or `f32`) through the learned transformation (n x dim, row-major,
    /// `f64`).
    pub fn transform<T: Scalar>(&self, x: Dense<'_, T>) -> Result<Array> {
        let m = self.raw.as_ptr();
        let mut dim = 0i64;
        check(unsafe { sys::kindred_model_transform_dim(m, &mut dim) })?;
        let mut data = vec![0f64; x.n * dim as usize];
        let (out, capacity) = (data.as_mut_ptr(), data.len() as i64);
        check(unsafe {
            match Points::from(x) {
                Points::Dense(x) => sys::kindred_model_transform_dense(
                    m, x.data.as_ptr(), x.n as i64, x.d as i64, x.c_layout(), x.ld as i64, out, capacity),
                Points::DenseF32(x) => sys::kindred_model_transform_dense_f32(
                    m, x.data.as_ptr(), x.n as i64, x.d as i64, x.c_layout(), x.ld as i64, out, capacity),
                Points::Csr(_) => unreachable!("a Dense matrix is never Points::Csr"),
            }
        })?;
        Ok(Array { rows: x.n, cols: dim as usize, data })
    }

    /// Save the fitted model (options and results).
    pub fn save(&self, path: impl AsRef<Path>) -> Result<()> {
        let p = path_c(path.as_ref())?;
        check(unsafe { sys::kindred_model_save(self.raw.as_ptr(), p.as_ptr()) })
    }
}

impl Drop for Model {
    fn drop(&mut self) {
        unsafe { sys::kindred_model_free(self.raw.as_ptr()) }
        // self.log is dropped after this, when C can no longer call it.
    }
}
