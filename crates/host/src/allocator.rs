//! glibc's allocator, tuned once at the start of `convert` and of the plugin host.
//!
//! A large conversion builds and drops many short-lived JSON trees; with glibc's default
//! padding the heap grows and shrinks by small steps, and each step costs system calls and
//! fresh zeroed pages. Measured with `perf stat` on GitHub's spec to openai: 64 MiB of padding
//! takes 10% off the CPU time for 5 MiB more peak memory (16 MiB: no gain; 256 MiB: no more).

// One call into glibc, below; the host's only other unsafe code is in plugin/load.rs.
#![allow(unsafe_code)]

/// Bytes of heap glibc asks for beyond each growth, and keeps when the heap shrinks.
const TOP_PAD: i32 = 64 << 20;

/// Applies the tuning; elsewhere than glibc on Linux it does nothing.
pub fn tune() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets a parameter of glibc's allocator; called before any other
    // thread exists, and any value is valid for M_TOP_PAD.
    unsafe {
        libc::mallopt(libc::M_TOP_PAD, TOP_PAD);
    }
}
