//! glibc's allocator, tuned once at the start of `convert` and of the plugin host.
//!
//! A large conversion builds and drops many short-lived JSON trees; with glibc's default
//! padding the heap grows and shrinks by small steps, and each step costs system calls and
//! fresh zeroed pages. Measured with `perf stat` on GitHub's spec to openai: 64 MiB of padding
//! takes 10% off the CPU time for 5 MiB more peak memory (16 MiB: no gain; 256 MiB: no more).
//! Its per-thread cache is set through `GLIBC_TUNABLES`, which glibc reads only at start-up:
//! the program starts itself again once with it ([`TUNABLES`]).

// One call into glibc, below; the host's only other unsafe code is in plugin/load.rs.
#![allow(unsafe_code)]

/// Bytes of heap glibc asks for beyond each growth, and keeps when the heap shrinks.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const TOP_PAD: i32 = 64 << 20;

/// What `convert` asks of glibc's tunables: a per-thread cache of 100 freed chunks of each size
/// (glibc keeps 7). A batch makes and frees the same few sizes for every file, and with 7 most
/// frees went to the shared bins and back: measured with `perf stat` on 10,000 SkyDeck files to
/// Gloodata, 100 takes 10% off the batch's CPU (1,000 and 5,000 no more); large specs and the
/// 100,000-tool list are unchanged in time and peak memory.
///
/// Not the heap in transparent huge pages (`glibc.malloc.hugetlb=1`): measured on this
/// project's machine, a virtual one, it took a large spec's 11,700 page faults to 700 and its
/// conversion from 0.10 s to 0.07 s when run back to back, but to 0.20 s when run after two
/// idle seconds: the kernel there reports free 2 MiB blocks to its host (`page_reporting`,
/// order 9), which takes them back and faults them in again on first touch. A single
/// conversion after a pause is how `convert` is used most; on a machine without that cost,
/// `GLIBC_TUNABLES=glibc.malloc.hugetlb=1` turns it on (the user's tunables are kept).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const TUNABLES: &str = "glibc.malloc.tcache_count=100";

/// Set in the environment of the process started again with [`TUNABLES`]: it is never started
/// a third time (glibc drops `GLIBC_TUNABLES` where it does not trust the environment).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const RESTARTED: &str = "TOOLPORT_ALLOCATOR_TUNED";

/// Applies the tuning; elsewhere than glibc on Linux it does nothing. glibc reads its tunables
/// only when a program starts, so [`restart_with_tunables`] first starts this program again
/// with them, when the process will convert `many` inputs: the cache pays for a batch, and
/// starting again costs about a millisecond of CPU, a fifth of `convert`'s start-up, which one
/// small file never wins back and one large spec only just does (measured with `perf stat`:
/// Stripe to mcp 77.2 ms with the restart and the cache, 77.1 ms with neither; Twilio's REST
/// 2010 spec to gloodata 31.7 ms and 30.7 ms). Call this in `main` before any thread exists.
pub fn tune(many: bool) {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        if many {
            restart_with_tunables();
        }
        // No fast bins (`M_MXFAST` 0): small chunks the per-thread cache cannot keep go to the
        // ordinary bins at once, where glibc otherwise sweeps the fast bins together before
        // each large allocation (`malloc_consolidate`, 6% of GitHub's spec to mcp). Measured
        // alternating with `perf stat`: GitHub and Stripe to mcp and vertex 3-6.5% less CPU,
        // the batch and the 100,000-tool list unchanged in time and peak memory.
        // SAFETY: mallopt only sets parameters of glibc's allocator; called before any other
        // thread exists, and any value is valid for M_TOP_PAD, 0 for M_MXFAST.
        unsafe {
            libc::mallopt(libc::M_TOP_PAD, TOP_PAD);
            libc::mallopt(libc::M_MXFAST, 0);
        }
    }
}

/// Replaces this process with the same program, arguments and environment plus [`TUNABLES`]
/// in `GLIBC_TUNABLES`, unless the environment already names a `tcache_count` (the user's
/// choice wins; set one to run without the restart, as under valgrind) or this process is the
/// restarted one. If the program cannot be started again, this one runs on untuned.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn restart_with_tunables() {
    use std::os::unix::process::CommandExt;
    let current = std::env::var_os("GLIBC_TUNABLES").unwrap_or_default();
    let Some(tunables) = tunables_to_restart_with(&current, std::env::var_os(RESTARTED).is_some()) else { return };
    let mut args = std::env::args_os();
    let mut program = std::process::Command::new("/proc/self/exe");
    if let Some(name) = args.next() {
        program.arg0(name);
    }
    // Returns only when the program could not be started again.
    let _ = program.args(args).env("GLIBC_TUNABLES", tunables).env(RESTARTED, "1").exec();
}

/// The `GLIBC_TUNABLES` to start again with, given the current one: `None` when the current
/// names a `tcache_count` already or this process is the restarted one.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn tunables_to_restart_with(current: &std::ffi::OsStr, restarted: bool) -> Option<std::ffi::OsString> {
    use std::os::unix::ffi::OsStrExt;
    let chosen = current.as_bytes().windows(b"tcache_count".len()).any(|w| w == b"tcache_count");
    if chosen || restarted {
        return None;
    }
    let mut tunables = current.to_owned();
    if !tunables.is_empty() {
        tunables.push(":");
    }
    tunables.push(TUNABLES);
    Some(tunables)
}

#[cfg(all(test, target_os = "linux", target_env = "gnu"))]
mod tests {
    use std::ffi::OsStr;

    use super::TUNABLES;
    use super::tunables_to_restart_with as restart;

    #[test]
    fn the_program_restarts_once_and_only_without_a_tcache_count_of_the_users() {
        assert_eq!(restart(OsStr::new(""), false).unwrap(), TUNABLES);
        // The user's other tunables are kept.
        assert_eq!(
            restart(OsStr::new("glibc.malloc.mmap_threshold=4096"), false).unwrap(),
            std::ffi::OsString::from(format!("glibc.malloc.mmap_threshold=4096:{TUNABLES}"))
        );
        assert_eq!(restart(OsStr::new("glibc.malloc.tcache_count=7"), false), None, "the user's choice wins");
        assert_eq!(restart(OsStr::new(""), true), None, "never a third start");
    }
}
