//! The module's functions as the page's script calls them, with plain
//! numbers only (no generated glue): the script asks for a buffer
//! (`sbp_alloc`), writes the request's UTF-8 bytes into it, calls
//! `sbp_call`, and reads the reply, `sbp_reply_len()` bytes at the address
//! `sbp_call` returned. The reply stays valid until the next call.
//!
//! The module imports one function, `env.sbp_now_ms` (`performance.now()`),
//! for the solver's clock (`solver::clock`).

use std::cell::RefCell;

thread_local! {
    /// The last reply, kept until the next call so the page can read it.
    static REPLY: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// A buffer of `len` bytes for the page to write a request into.
#[no_mangle]
pub extern "C" fn sbp_alloc(len: usize) -> *mut u8 {
    let mut buffer = Vec::<u8>::with_capacity(len);
    let ptr = buffer.as_mut_ptr();
    std::mem::forget(buffer);
    ptr
}

/// Answers the request of `len` bytes at `ptr` (a buffer of `sbp_alloc`,
/// freed here) and returns where the reply starts.
///
/// # Safety
/// `ptr` must come from `sbp_alloc(len)` with `len` bytes written, and not
/// be used again.
#[no_mangle]
pub unsafe extern "C" fn sbp_call(ptr: *mut u8, len: usize) -> *const u8 {
    // SAFETY: the caller's contract: an allocation of `sbp_alloc(len)`,
    // initialised, handed over.
    let request = unsafe { Vec::from_raw_parts(ptr, len, len) };
    let reply = match std::str::from_utf8(&request) {
        Ok(text) => crate::handle(text),
        Err(_) => r#"{"ok":false,"error":"the request is not UTF-8"}"#.to_string(),
    };
    REPLY.with(|r| {
        *r.borrow_mut() = reply.into_bytes();
        r.borrow().as_ptr()
    })
}

/// The length in bytes of the reply `sbp_call` returned last.
#[no_mangle]
pub extern "C" fn sbp_reply_len() -> usize {
    REPLY.with(|r| r.borrow().len())
}
