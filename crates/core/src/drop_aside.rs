//! Freeing large values off the critical path.
//!
//! A model or a written document of a large API is hundreds of thousands of allocations; freeing
//! them takes as long as a tenth of the conversion and need not delay its answer. On a machine
//! with a spare core, a thread of its own frees them meanwhile (and a process that ends first
//! does not wait for it).

/// What counts as large, in bytes of the value's encoded form: below it, a thread costs more
/// than the freeing it saves.
pub const LARGE_BYTES: usize = 1 << 20;

/// Drops `value` on a thread of its own when `encoded_bytes` (the size of its encoded form,
/// as the caller knows it) is at least [`LARGE_BYTES`], else here.
pub fn drop_aside<T: Send + 'static>(value: T, encoded_bytes: usize) {
    if encoded_bytes >= LARGE_BYTES {
        // When no thread can be started, the closure (and the value) is dropped right here.
        let _ = std::thread::Builder::new().name("toolport-drop".into()).spawn(move || drop(value));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::{Sender, channel};
    use std::thread::{ThreadId, current};

    /// Says on which thread it was dropped.
    struct Noted(Sender<ThreadId>);

    impl Drop for Noted {
        fn drop(&mut self) {
            let _ = self.0.send(current().id());
        }
    }

    #[test]
    fn only_large_values_are_freed_on_another_thread() {
        for (size, elsewhere) in [(0, false), (LARGE_BYTES - 1, false), (LARGE_BYTES, true)] {
            let (sender, dropped_on) = channel();
            drop_aside(Noted(sender), size);
            assert_eq!(dropped_on.recv().unwrap() != current().id(), elsewhere, "{size} bytes");
        }
    }
}
