//! A conversion run on the caller's thread with the stack readers and writers need for the
//! documented nesting limit (`limits::CONVERSION_STACK_BYTES`, as `convert` gives its
//! threads), for a library caller whose thread may have far less (a Python thread: 256 KiB).
//!
//! The stack is mapped once per thread and kept for its next calls (corosensei switches to it
//! and back): a call costs no hand-over to another thread and no mapping, protecting and
//! unmapping of a fresh stack, whose pages would fault in again each time (a third of a small
//! Python call's time, with stacker). Untouched pages of the stack cost nothing; those a deep
//! document touched stay the thread's.

use std::cell::RefCell;

use corosensei::stack::DefaultStack;
use corosensei::{CoroutineResult, ScopedCoroutine, Yielder};

thread_local! {
    /// This thread's conversion stack, kept between calls; taken while a call runs on it.
    static CONVERSION_STACK: RefCell<Option<DefaultStack>> = const { RefCell::new(None) };
}

/// Runs `f` on this thread's conversion stack. A call made while the thread's stack is in use
/// (`f` calling this again) maps one of its own. A panic in `f` becomes an error, never an
/// unwinding through the caller (Python, across the C boundary).
pub fn on_conversion_stack<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    on_stack_of(toolport_core::limits::CONVERSION_STACK_BYTES, f)
}

fn on_stack_of<T>(bytes: usize, f: impl FnOnce() -> T) -> Result<T, String> {
    let kept = CONVERSION_STACK.with(|cell| cell.borrow_mut().take());
    let mut stack = match kept {
        Some(stack) => stack,
        None => DefaultStack::new(bytes).map_err(|e| format!("could not map a stack for the conversion: {e}"))?,
    };
    let body = |_: &Yielder<(), ()>, ()| std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    let result = ScopedCoroutine::with_stack(&mut stack, body).scope(|mut call| match call.resume(()) {
        CoroutineResult::Return(result) => result,
        CoroutineResult::Yield(()) => unreachable!("the conversion never suspends"),
    });
    CONVERSION_STACK.with(|cell| *cell.borrow_mut() = Some(stack));
    result.map_err(|_| "internal error: the conversion panicked (please report this)".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Recursion that needs about `depth` KiB of stack.
    fn deep(depth: usize) -> usize {
        let frame = std::hint::black_box([0u8; 1024]);
        if depth == 0 { usize::from(frame[0]) } else { 1 + deep(depth - 1) }
    }

    /// On a thread of 256 KiB (a Python thread's), a conversion that needs megabytes of stack
    /// runs, and runs again on the kept stack; a panic in it is an error, after which the
    /// thread's stack is still there for the next call; a call inside a call has a stack of
    /// its own.
    #[test]
    fn a_small_thread_runs_deep_conversions_and_a_panic_is_an_error() {
        let small = std::thread::Builder::new().stack_size(256 << 10);
        small
            .spawn(|| {
                for _ in 0..3 {
                    assert_eq!(on_stack_of(64 << 20, || deep(8 << 10)), Ok(8 << 10));
                }
                let panicked = on_stack_of(64 << 20, || -> usize { panic!("a bug") });
                assert_eq!(panicked, Err("internal error: the conversion panicked (please report this)".into()));
                assert_eq!(on_stack_of(64 << 20, || deep(4 << 10)), Ok(4 << 10), "usable after a panic");
                let nested = on_stack_of(64 << 20, || on_stack_of(64 << 20, || deep(4 << 10)));
                assert_eq!(nested, Ok(Ok(4 << 10)));
            })
            .unwrap()
            .join()
            .unwrap();
    }
}
