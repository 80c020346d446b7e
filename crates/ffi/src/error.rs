//! Status codes, this thread's last error, and the guard every entry point runs behind.

use std::cell::RefCell;
use std::ffi::{CString, c_char, c_int};
use std::panic::{AssertUnwindSafe, catch_unwind};

/// Success.
pub const SM_OK: c_int = 0;
/// A required pointer was NULL.
pub const SM_ERR_NULL: c_int = 1;
/// A file or buffer could not be read or is not a valid model (the message says which and why).
pub const SM_ERR_FILE: c_int = 2;
/// An argument is out of range: a time step that is not a finite number > 0, a node that is
/// not an anchor, a collider index past the end, a non-finite position.
pub const SM_ERR_ARGUMENT: c_int = 3;
/// The step would have made the state non-finite (the springs are too stiff for the integrator
/// and step); the state is the one before the step.
pub const SM_ERR_NON_FINITE: c_int = 4;
/// A bug in the library (a caught panic); please report the message.
pub const SM_ERR_INTERNAL: c_int = 5;

thread_local! {
    static LAST: RefCell<CString> = RefCell::new(CString::default());
}

/// An error of an entry point: its code and message.
pub(crate) struct Failure {
    pub code: c_int,
    pub message: String,
}

impl Failure {
    pub fn new(code: c_int, message: impl Into<String>) -> Failure {
        Failure { code, message: message.into() }
    }

    pub fn null(what: &str) -> Failure {
        Failure::new(SM_ERR_NULL, format!("{what} is NULL"))
    }
}

/// Records `message` as this thread's last error.
fn remember(message: &str) {
    let text = CString::new(message.replace('\0', " ")).unwrap_or_default();
    LAST.with(|last| *last.borrow_mut() = text);
}

/// Runs `f` for a status-returning entry point: [`SM_OK`] (clearing the last error) or the
/// failure's code (recording its message); a panic is [`SM_ERR_INTERNAL`].
pub(crate) fn status(f: impl FnOnce() -> Result<(), Failure>) -> c_int {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(())) => {
            remember("");
            SM_OK
        }
        Ok(Err(failure)) => {
            remember(&failure.message);
            failure.code
        }
        Err(_) => {
            remember("internal error in springmesh (a caught panic); please report it");
            SM_ERR_INTERNAL
        }
    }
}

/// Runs `f` for an entry point that returns a value: `fallback` on a failure or a panic (the
/// message recorded).
pub(crate) fn value<T>(fallback: T, f: impl FnOnce() -> Result<T, Failure>) -> T {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(v)) => v,
        Ok(Err(failure)) => {
            remember(&failure.message);
            fallback
        }
        Err(_) => {
            remember("internal error in springmesh (a caught panic); please report it");
            fallback
        }
    }
}

/// This thread's last error message, `""` if the last status-returning call succeeded or none
/// failed. Valid until the next failing call on this thread.
#[unsafe(no_mangle)]
pub extern "C" fn sm_last_error() -> *const c_char {
    LAST.with(|last| last.borrow().as_ptr())
}

/// Copies up to `cap` items of `items` to `out` (nothing if `out` is NULL); how many were copied.
///
/// # Safety
/// `out` is NULL or points to at least `cap` writable items.
pub(crate) unsafe fn copy_out<T: Copy>(
    items: impl Iterator<Item = T>,
    out: *mut T,
    cap: usize,
) -> usize {
    if out.is_null() {
        return 0;
    }
    let mut written = 0;
    for item in items.take(cap) {
        // SAFETY: a non-NULL `out` points to at least `cap` writable items (the function's
        // contract), and `written < cap` here (take(cap)).
        unsafe { out.add(written).write(item) };
        written += 1;
    }
    written
}
