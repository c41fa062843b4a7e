//! Interrupts (SIGINT, SIGTERM, SIGHUP) stop a run in order rather than cut it short. The first
//! signal is recorded: conversions not yet started are skipped, a commit under way stops and
//! takes back what it placed, and the run ends with its summary and report saying so, exiting
//! 128 + the signal's number, as shells do (130 for Ctrl-C, 143 for SIGTERM).
//!
//! If the conversions under way have not ended [`GRACE`] after the signal, or a second signal
//! comes, the process ends at once: its staging abandoned (with the folders made for it) and a
//! line saying so; never while the run is finishing (the commit and the report), which ends
//! by itself, soon. Outside a run (`formats`, `inspect`) a signal ends the process at once.

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError, TryLockError};
use std::time::Duration;

/// How long the conversions under way may take to end after a signal.
const GRACE: Duration = Duration::from_secs(5);

/// The first signal received, 0 for none.
static SIGNAL: AtomicI32 = AtomicI32::new(0);
/// Whether a run that answers signals in order is under way.
static RUNNING: AtomicBool = AtomicBool::new(false);
/// Held while a run finishes (commit, summary, report): the process is not ended meanwhile.
static FINISHING: Mutex<()> = Mutex::new(());

/// A signal that interrupted the run.
#[derive(Clone, Copy, Debug)]
pub struct Interrupt(i32);

impl Interrupt {
    /// 128 + the signal's number.
    pub fn exit_code(self) -> u8 {
        u8::try_from(128 + self.0).unwrap_or(u8::MAX)
    }
}

impl std::fmt::Display for Interrupt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            1 => f.write_str("SIGHUP"),
            2 => f.write_str("SIGINT"),
            15 => f.write_str("SIGTERM"),
            n => write!(f, "signal {n}"),
        }
    }
}

/// The signal that interrupted this process, if one did.
pub fn interrupted() -> Option<Interrupt> {
    Some(SIGNAL.load(Ordering::SeqCst)).filter(|&n| n != 0).map(Interrupt)
}

/// The interruption a run's summary states, -1 until the summary is made ([`settle`]).
static SETTLED: AtomicI32 = AtomicI32::new(-1);

/// The interruption the run's summary and report state, fixed now: a signal that comes later
/// (while the report is written) does not make the exit code disagree with the report.
pub fn settle() -> Option<Interrupt> {
    let signal = SIGNAL.load(Ordering::SeqCst);
    SETTLED.store(signal, Ordering::SeqCst);
    Some(signal).filter(|&n| n != 0).map(Interrupt)
}

/// The interruption the process exits with: the one the run's summary stated, else any.
pub fn exit_interrupt() -> Option<Interrupt> {
    match SETTLED.load(Ordering::SeqCst) {
        -1 => interrupted(),
        0 => None,
        n => Some(Interrupt(n)),
    }
}

/// Takes the signals for the whole process. Call first in `main`.
pub fn listen() {
    #[cfg(unix)]
    {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        // Handlers that only wake this thread: no signal mask is changed, so the plugin
        // processes a run starts get signals as usual.
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else { return };
        let _ = std::thread::Builder::new().name("signals".into()).spawn(move || {
            for signal in signals.forever() {
                received(signal);
            }
        });
    }
    #[cfg(not(unix))]
    {
        let _ = ctrlc::set_handler(|| received(2));
    }
}

/// While it lives, signals stop the run in order (see the module).
pub struct Running(());

impl Running {
    pub fn start() -> Running {
        RUNNING.store(true, Ordering::SeqCst);
        Running(())
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        RUNNING.store(false, Ordering::SeqCst);
    }
}

/// Held while the run finishes: the process is not ended meanwhile.
pub fn finishing() -> MutexGuard<'static, ()> {
    FINISHING.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Why the process ends without waiting for the conversions under way.
#[derive(Clone, Copy)]
enum StopNow {
    /// They had not ended [`GRACE`] after the first signal.
    GraceOver,
    /// A second signal came (or no timer could be started to wait with).
    Again,
}

fn received(signal: i32) {
    let first = SIGNAL.compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst).is_ok();
    if first && RUNNING.load(Ordering::SeqCst) {
        let timer = std::thread::Builder::new().name("grace".into()).spawn(|| {
            std::thread::sleep(GRACE);
            stop_now(StopNow::GraceOver);
        });
        if timer.is_ok() {
            return;
        }
    }
    stop_now(StopNow::Again);
}

/// Ends the process now, unless the run is finishing: its staging (if any) abandoned.
fn stop_now(why: StopNow) {
    let _held = match FINISHING.try_lock() {
        Ok(guard) => guard,
        Err(TryLockError::Poisoned(guard)) => guard.into_inner(),
        Err(TryLockError::WouldBlock) => return,
    };
    if !toolport_host::output::abandon_live_staging() {
        return;
    }
    let Some(interrupt) = interrupted() else { return };
    if RUNNING.load(Ordering::SeqCst) {
        // Said, so a user (and a test) can tell the grace period from a second signal.
        let why = match why {
            StopNow::GraceOver => format!("they had not ended {} s after it", GRACE.as_secs()),
            StopNow::Again => "a second signal came".to_owned(),
        };
        eprintln!(
            "interrupted by {interrupt}: stopped without waiting for the conversions under way ({why}); nothing was placed, and no report was written"
        );
    } else {
        // Before a run starts (loading plugins) or outside one: nothing to take back or report.
        eprintln!("interrupted by {interrupt}: ended at once, no run under way");
    }
    // Plugins are not dropped on this path: their processes, and what those started, end here.
    toolport_host::transport::end_all_children();
    std::process::exit(i32::from(interrupt.exit_code()));
}
