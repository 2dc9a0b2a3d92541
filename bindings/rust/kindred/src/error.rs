//! Status codes of the C API as a Rust error carrying the library's message.
use std::ffi::CStr;
use std::fmt;

use kindred_sys as sys;

/// What kind of failure the library reported (the C `kindred_status`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Status {
    Invalid,
    Dimension,
    Index,
    Infeasible,
    NoMemory,
    Numerical,
    Cancelled,
    NotFound,
    State,
    Io,
    Corrupt,
    Internal,
    /// An output buffer was too small (the binding sizes its buffers: a bug in the binding).
    BufferTooSmall,
    /// A code this binding does not know (a newer library).
    Other(i32),
}

impl Status {
    fn from_code(code: sys::kindred_status) -> Status {
        match code {
            sys::KINDRED_E_INVALID => Status::Invalid,
            sys::KINDRED_E_DIMENSION => Status::Dimension,
            sys::KINDRED_E_INDEX => Status::Index,
            sys::KINDRED_E_INFEASIBLE => Status::Infeasible,
            sys::KINDRED_E_NOMEM => Status::NoMemory,
            sys::KINDRED_E_NUMERICAL => Status::Numerical,
            sys::KINDRED_E_CANCELLED => Status::Cancelled,
            sys::KINDRED_E_NOT_FOUND => Status::NotFound,
            sys::KINDRED_E_STATE => Status::State,
            sys::KINDRED_E_IO => Status::Io,
            sys::KINDRED_E_CORRUPT => Status::Corrupt,
            sys::KINDRED_E_INTERNAL => Status::Internal,
            sys::KINDRED_E_BUFFER_TOO_SMALL => Status::BufferTooSmall,
            other => Status::Other(other),
        }
    }
}

/// An error from kindred: the status and the library's message (or the binding's own, for
/// arguments refused before reaching C, such as slices that are too short).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    pub status: Status,
    pub message: String,
}

impl Error {
    pub(crate) fn new(status: Status, message: impl Into<String>) -> Error {
        Error { status, message: message.into() }
    }

    /// The error for a non-OK status code, with `kindred_last_error()` read at once.
    pub(crate) fn from_last(code: sys::kindred_status) -> Error {
        let message = unsafe { c_text(sys::kindred_last_error()) };
        let message = if message.is_empty() { unsafe { c_text(sys::kindred_status_string(code)) } } else { message };
        Error { status: Status::from_code(code), message }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.message)
    }
}

impl std::error::Error for Error {}

/// Result of every fallible kindred call.
pub type Result<T> = std::result::Result<T, Error>;

/// Ok(()) for KINDRED_OK, else the error with the library's message.
pub(crate) fn check(code: sys::kindred_status) -> Result<()> {
    if code == sys::KINDRED_OK {
        Ok(())
    } else {
        Err(Error::from_last(code))
    }
}

/// A borrowed C string as an owned String ("" for NULL).
pub(crate) unsafe fn c_text(p: *const std::os::raw::c_char) -> String {
    if p.is_null() {
        String::new()
    } else {
        CStr::from_ptr(p).to_string_lossy().into_owned()
    }
}

/// A Rust string as a C string; an interior NUL is an Invalid error, not a panic.
pub(crate) fn c_string(what: &str, s: &str) -> Result<std::ffi::CString> {
    std::ffi::CString::new(s).map_err(|_| Error::new(Status::Invalid, format!("{what}: {s:?} contains a NUL byte")))
}
