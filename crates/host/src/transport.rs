//! How the host reaches a plugin: in this process through its C table ([`InProcess`]), or in a
//! child process that loads the same library with the same code and answers the same JSON
//! requests over pipes ([`Isolated`], the way rust-analyzer runs proc macros and nushell runs
//! plugins). One trait, [`Transport`], so the rest of the host does not know which.
//!
//! An isolated plugin cannot take the run down: a crash, an abort, a stack overflow, running
//! out of its memory limit or calling `exit` ends only its process, a call that takes longer
//! than the time limit is stopped, and anything it prints goes to standard error, never into
//! `convert`'s standard output. Each failure is a [`CallError`] that the host reports as an
//! `error[plugin/*]` naming the plugin file. On Unix each child leads a process group of its
//! own, and what it started ends with it: the group is killed whenever the child is stopped,
//! when the plugin is dropped, and by [`end_all_children`] before the process exits early.
//!
//! The wire format, both ways over the child's standard input and output: a request is
//! `op: u8, format index: u32 LE, length: u64 LE, message`; a response is `length: u64 LE,
//! message`, where a message is the bytes the plugin's C table takes or gives (JSON, or JSON
//! with texts beside it, `toolport_plugin::abi::texts`), relayed unread. A response longer
//! than the child's memory limit is refused unread. The child's first message, unasked, is its
//! hello:
//! `{"ok": {"description": PluginDescription, "versions": PluginVersions}}` or
//! `{"error": "why the library could not be loaded"}`.

use std::io::{IoSlice, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use toolport_plugin::abi::{PluginDescription, PluginVersions};

/// The plugin functions a request can name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Op {
    Detect = 1,
    Read = 2,
    Write = 3,
}

impl Op {
    pub fn from_byte(byte: u8) -> Option<Op> {
        match byte {
            1 => Some(Op::Detect),
            2 => Some(Op::Read),
            3 => Some(Op::Write),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Op::Detect => "detect",
            Op::Read => "read",
            Op::Write => "write",
        }
    }
}

/// Why a call through a transport returned no response.
#[derive(Debug, thiserror::Error)]
pub enum CallError {
    #[error("did not answer within {} s and was stopped", .0.as_secs_f32())]
    TimedOut(Duration),
    #[error("crashed: {0}")]
    Crashed(String),
    #[error("could not be started: {0}")]
    Spawn(String),
}

/// A way to call one plugin library's functions.
pub trait Transport: Send + Sync + std::fmt::Debug {
    /// Sends one JSON request to function `op` of format `index`; returns the JSON response.
    fn call(&self, op: Op, index: u32, request: &[u8]) -> Result<Vec<u8>, CallError>;
    /// Whether the plugin runs in its own process.
    fn isolated(&self) -> bool;
}

/// Limits an isolated plugin runs under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IsolationLimits {
    /// Longest a read or write may take.
    pub call_timeout: Duration,
    /// Longest loading and describing, and each detection, may take.
    pub load_timeout: Duration,
    /// Address space of the child process, in bytes (`RLIMIT_AS`).
    pub memory_bytes: u64,
}

impl Default for IsolationLimits {
    fn default() -> Self {
        IsolationLimits {
            call_timeout: Duration::from_secs(60),
            load_timeout: Duration::from_secs(10),
            memory_bytes: 4 << 30,
        }
    }
}

/// The child's first message.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Hello {
    /// Loaded: what the plugin said of itself and the versions its table declares.
    Ok {
        description: PluginDescription,
        versions: PluginVersions,
    },
    Error(String),
}

/// Writes one response frame.
pub fn write_response(out: &mut impl Write, bytes: &[u8]) -> std::io::Result<()> {
    write_frame(out, &(bytes.len() as u64).to_le_bytes(), bytes)
}

/// Writes `head` then `body` in as few system calls as the pipe allows: a reader woken by the
/// head alone would sleep again until the body comes.
fn write_frame(out: &mut impl Write, head: &[u8], body: &[u8]) -> std::io::Result<()> {
    let mut parts = [IoSlice::new(head), IoSlice::new(body)];
    let mut parts = &mut parts[..];
    while !parts.is_empty() {
        match out.write_vectored(parts) {
            Ok(0) => return Err(std::io::ErrorKind::WriteZero.into()),
            Ok(written) => IoSlice::advance_slices(&mut parts, written),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    out.flush()
}

/// Reads one request frame; `None` at the end of input.
pub fn read_request(input: &mut impl Read) -> std::io::Result<Option<(u8, u32, Vec<u8>)>> {
    let mut head = [0u8; 13];
    match input.read_exact(&mut head) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => return Ok(None),
        Err(e) => return Err(e),
    }
    let index = u32::from_le_bytes([head[1], head[2], head[3], head[4]]);
    let len = u64::from_le_bytes(head[5..13].try_into().unwrap_or_default());
    let mut body = Vec::new();
    // Read to the length given, growing only as bytes come (a bad length is not allocated).
    input.take(len).read_to_end(&mut body)?;
    if (body.len() as u64) < len {
        return Err(std::io::ErrorKind::UnexpectedEof.into());
    }
    Ok(Some((head[0], index, body)))
}

/// A plugin in its own process, started by the plugin host executable. Children are started
/// on demand and reused; parallel calls each get their own child.
#[derive(Debug)]
pub struct Isolated {
    helper: PathBuf,
    library: PathBuf,
    limits: IsolationLimits,
    idle: Mutex<Vec<Child>>,
}

#[derive(Debug)]
struct Child {
    process: std::process::Child,
    stdin: std::process::ChildStdin,
    stdout: std::process::ChildStdout,
}

/// Process groups of the children alive in this process, for [`end_all_children`].
static LIVE_GROUPS: Mutex<Vec<u32>> = Mutex::new(Vec::new());

fn live_groups() -> std::sync::MutexGuard<'static, Vec<u32>> {
    LIVE_GROUPS.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Kills the process groups of every isolated plugin still running: for a process about to
/// exit without dropping its plugins (an interrupted run), so nothing they started outlives it.
pub fn end_all_children() {
    for group in live_groups().drain(..) {
        kill_group(group);
    }
}

/// Kills process group `group` (a child that leads its own), with whatever it started.
#[cfg(unix)]
fn kill_group(group: u32) {
    if let Ok(group) = i32::try_from(group) {
        let _ = nix::sys::signal::killpg(nix::unistd::Pid::from_raw(group), nix::sys::signal::Signal::SIGKILL);
    }
}

#[cfg(not(unix))]
fn kill_group(_group: u32) {}

impl Child {
    /// Stops the child and everything it started, and waits for the child.
    fn stop(&mut self) -> std::io::Result<std::process::ExitStatus> {
        let group = self.process.id();
        kill_group(group);
        live_groups().retain(|g| *g != group);
        let _ = self.process.kill();
        self.process.wait()
    }
}

/// Why no response came.
enum NoResponse {
    TimedOut,
    /// The child's output closed (it ended) or could not be read.
    Closed,
    /// The frame says it is longer than the child's memory could hold: not a response the
    /// plugin made, and not to be read into this process's memory.
    TooLarge(u64),
}

impl Child {
    /// The next response frame, read on the caller's thread within `limit` (no reader thread:
    /// a thread between child and caller would cost a wake-up per call, and a batch of small
    /// files makes tens of thousands of calls). The child answers one request with one frame
    /// and says nothing else, so a first read of up to a chunk takes a small frame whole.
    fn response(&mut self, limit: Duration, max_bytes: u64) -> Result<Vec<u8>, NoResponse> {
        let deadline = deadline_after(limit);
        let mut chunk = [0u8; 16 * 1024];
        let mut got = 0;
        while got < 8 {
            got += self.read_some(&mut chunk[got..], deadline)?;
        }
        let len = u64::from_le_bytes(chunk[..8].try_into().unwrap_or_default());
        if len > max_bytes {
            return Err(NoResponse::TooLarge(len));
        }
        let len = usize::try_from(len).map_err(|_| NoResponse::TooLarge(len))?;
        if got - 8 > len {
            return Err(NoResponse::Closed);
        }
        // Reserved whole (within the limit): memory not yet written costs nothing, and growing
        // by doubling would hold an old and a new copy, up to three times the answer.
        let mut body = Vec::new();
        if body.try_reserve_exact(len).is_err() {
            return Err(NoResponse::TooLarge(len as u64));
        }
        body.extend_from_slice(&chunk[8..got]);
        while body.len() < len {
            let want = (len - body.len()).min(chunk.len());
            let n = self.read_some(&mut chunk[..want], deadline)?;
            body.extend_from_slice(&chunk[..n]);
        }
        Ok(body)
    }

    /// Reads at least one byte into `buf` (not empty) once the child's output has some, before
    /// `deadline`.
    fn read_some(&mut self, buf: &mut [u8], deadline: Instant) -> Result<usize, NoResponse> {
        loop {
            wait_readable(&self.stdout, deadline)?;
            match self.stdout.read(buf) {
                Ok(0) => return Err(NoResponse::Closed),
                Ok(n) => return Ok(n),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(_) => return Err(NoResponse::Closed),
            }
        }
    }
}

/// The instant `limit` from now; a limit past what the clock can count (`--plugin-timeout`
/// is any number of seconds) is as good as none: a century.
fn deadline_after(limit: Duration) -> Instant {
    let now = Instant::now();
    now.checked_add(limit).or_else(|| now.checked_add(Duration::from_secs(100 * 365 * 24 * 3600))).unwrap_or(now)
}

/// Waits until `output` can be read (or is closed) or `deadline` passes.
#[cfg(unix)]
fn wait_readable(output: &std::process::ChildStdout, deadline: Instant) -> Result<(), NoResponse> {
    use nix::poll::{PollFd, PollFlags, PollTimeout, poll};
    use std::os::fd::AsFd;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(NoResponse::TimedOut);
        }
        // Rounded up, so that a wait never ends just short of the deadline and spins.
        let millis = left.as_millis().saturating_add(1).min(i32::MAX as u128) as i32;
        let mut fds = [PollFd::new(output.as_fd(), PollFlags::POLLIN)];
        match poll(&mut fds, PollTimeout::try_from(millis).unwrap_or(PollTimeout::MAX)) {
            Ok(0) | Err(nix::errno::Errno::EINTR) => {}
            Ok(_) => return Ok(()),
            Err(_) => return Err(NoResponse::Closed),
        }
    }
}

/// Elsewhere reads block: an isolated plugin there has no time limit (see ARCHITECTURE.md).
#[cfg(not(unix))]
fn wait_readable(_output: &std::process::ChildStdout, _deadline: Instant) -> Result<(), NoResponse> {
    Ok(())
}

impl Isolated {
    /// Starts a child for `library` and reads its hello. The child stays, ready for calls.
    pub fn start(
        helper: &Path,
        library: &Path,
        limits: IsolationLimits,
    ) -> Result<(Isolated, PluginDescription, PluginVersions), String> {
        let isolated = Isolated {
            helper: helper.to_path_buf(),
            library: library.to_path_buf(),
            limits,
            idle: Mutex::new(Vec::new()),
        };
        let mut child = isolated.spawn().map_err(|e| e.to_string())?;
        let hello = match child.response(limits.load_timeout, limits.memory_bytes) {
            Ok(bytes) => bytes,
            Err(NoResponse::TimedOut) => {
                let _ = child.stop();
                return Err(format!(
                    "did not finish loading within {} s and was stopped",
                    limits.load_timeout.as_secs_f32()
                ));
            }
            Err(NoResponse::Closed) => return Err(format!("crashed while loading: {}", ended(&mut child))),
            Err(NoResponse::TooLarge(len)) => {
                return Err(format!("said hello in {len} bytes, {}", too_large(&mut child, &limits)));
            }
        };
        match toolport_plugin::abi::decode_message::<Hello>(&hello) {
            Ok(Hello::Ok { description, versions }) => {
                isolated.idle().push(child);
                Ok((isolated, description, versions))
            }
            Ok(Hello::Error(reason)) => Err(reason),
            Err(e) => Err(format!("the plugin host sent an invalid hello: {e}")),
        }
    }

    fn idle(&self) -> std::sync::MutexGuard<'_, Vec<Child>> {
        self.idle.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn spawn(&self) -> Result<Child, CallError> {
        let mut command = std::process::Command::new(&self.helper);
        command
            .arg(&self.library)
            .arg(self.limits.memory_bytes.to_string())
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::inherit());
        // Its own process group, so that what the plugin starts can be ended with it.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut process = command.spawn().map_err(|e| CallError::Spawn(format!("{}: {e}", self.helper.display())))?;
        live_groups().push(process.id());
        let (Some(stdin), Some(stdout)) = (process.stdin.take(), process.stdout.take()) else {
            let mut child = process;
            kill_group(child.id());
            let _ = child.kill();
            let _ = child.wait();
            return Err(CallError::Spawn("no pipes to the plugin host".into()));
        };
        Ok(Child { process, stdin, stdout })
    }
}

/// Stops a child whose frame is longer than its memory limit, and says why.
fn too_large(child: &mut Child, limits: &IsolationLimits) -> String {
    let _ = child.stop();
    format!("more than its memory limit of {} bytes; it was stopped", limits.memory_bytes)
}

/// How a child ended, in words, after its output closed.
fn ended(child: &mut Child) -> String {
    match child.stop() {
        Ok(status) => describe_exit(status),
        Err(e) => format!("its process could not be waited for: {e}"),
    }
}

#[cfg(unix)]
fn describe_exit(status: std::process::ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("the plugin ended its process (exit code {code})"),
        (None, Some(signal)) => {
            let name = nix::sys::signal::Signal::try_from(signal)
                .map_or_else(|_| format!("signal {signal}"), |s| s.to_string());
            let why = match signal {
                6 => " (an abort: a failed allocation past the memory limit, a stack overflow or abort())",
                11 => " (a segmentation fault: a bad pointer)",
                7 => " (a bus error)",
                9 => " (killed)",
                _ => "",
            };
            format!("killed by {name}{why}")
        }
        _ => status.to_string(),
    }
}

#[cfg(not(unix))]
fn describe_exit(status: std::process::ExitStatus) -> String {
    format!("its process ended ({status})")
}

impl Transport for Isolated {
    fn call(&self, op: Op, index: u32, request: &[u8]) -> Result<Vec<u8>, CallError> {
        let taken = self.idle().pop();
        let mut child = match taken {
            Some(child) => child,
            None => {
                let mut child = self.spawn()?;
                // A new child says hello first; it was checked when the plugin was loaded.
                match child.response(self.limits.load_timeout, self.limits.memory_bytes) {
                    Ok(_) => child,
                    Err(_) => return Err(CallError::Crashed(format!("while loading again: {}", ended(&mut child)))),
                }
            }
        };
        let mut head = [0u8; 13];
        head[0] = op as u8;
        head[1..5].copy_from_slice(&index.to_le_bytes());
        head[5..].copy_from_slice(&(request.len() as u64).to_le_bytes());
        let sent = write_frame(&mut child.stdin, &head, request);
        if sent.is_err() {
            return Err(CallError::Crashed(ended(&mut child)));
        }
        // Detection runs for every input without --from: it gets the shorter limit.
        let limit = match op {
            Op::Detect => self.limits.call_timeout.min(self.limits.load_timeout),
            Op::Read | Op::Write => self.limits.call_timeout,
        };
        match child.response(limit, self.limits.memory_bytes) {
            Ok(bytes) => {
                self.idle().push(child);
                Ok(bytes)
            }
            Err(NoResponse::TimedOut) => {
                let _ = child.stop();
                Err(CallError::TimedOut(limit))
            }
            Err(NoResponse::Closed) => Err(CallError::Crashed(ended(&mut child))),
            Err(NoResponse::TooLarge(len)) => {
                Err(CallError::Crashed(format!("answered in {len} bytes, {}", too_large(&mut child, &self.limits))))
            }
        }
    }

    fn isolated(&self) -> bool {
        true
    }
}

impl Drop for Isolated {
    fn drop(&mut self) {
        for child in self.idle().drain(..) {
            // Killed with its group: it may be stuck, or have left processes of its own.
            let mut child = child;
            let _ = child.stop();
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use toolport_plugin::abi::{ABI, MODEL_SCHEMA};

    /// A stand-in for the plugin host executable: a shell script that says `hello` (bytes of a
    /// frame) and answers the first request with `answer`, then waits.
    fn fake_host(dir: &Path, hello: &[u8], answer: &[u8]) -> PathBuf {
        let octal = |bytes: &[u8]| bytes.iter().map(|b| format!("\\{b:03o}")).collect::<String>();
        let script = format!(
            "#!/bin/sh\nprintf '{}'\nhead -c 15 > /dev/null\nprintf '{}'\nsleep 5\n",
            octal(hello),
            octal(answer)
        );
        let path = dir.join("fake-plugin-host");
        std::fs::write(&path, script).unwrap();
        std::fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
        path
    }

    fn frame(body: &[u8]) -> Vec<u8> {
        let mut frame = (body.len() as u64).to_le_bytes().to_vec();
        frame.extend_from_slice(body);
        frame
    }

    /// Any time limit can be given: one past what the clock counts waits without end (it
    /// panicked adding it to the clock).
    #[test]
    fn a_time_limit_past_the_clock_is_no_limit() {
        let now = Instant::now();
        for limit in [Duration::MAX, Duration::from_secs(u64::MAX), Duration::from_secs(i64::MAX as u64)] {
            assert!(deadline_after(limit) > now + Duration::from_secs(365 * 24 * 3600), "{limit:?}");
        }
        let soon = deadline_after(Duration::from_secs(5));
        assert!(soon > now && soon <= Instant::now() + Duration::from_secs(5));
    }

    /// A frame longer than the child's memory limit is neither a response its plugin made nor
    /// read into the host: the child is stopped and the call fails at once, naming the limit.
    #[test]
    fn a_frame_longer_than_the_childs_memory_is_refused_unread() {
        let dir = tempfile::tempdir().unwrap();
        let description =
            PluginDescription { name: "fake".into(), version: "0".into(), formats: Vec::new(), ..Default::default() };
        let hello = frame(
            &serde_json::to_vec(&Hello::Ok { description, versions: PluginVersions { abi: ABI, model: MODEL_SCHEMA } })
                .unwrap(),
        );
        let limits = IsolationLimits { memory_bytes: 1 << 20, ..IsolationLimits::default() };
        let huge = (1u64 << 40).to_le_bytes();

        let helper = fake_host(dir.path(), &hello, &huge);
        let (isolated, _, _) = Isolated::start(&helper, Path::new("lib.so"), limits).unwrap();
        let started = Instant::now();
        let error = isolated.call(Op::Detect, 0, b"{}").unwrap_err().to_string();
        assert!(error.contains("answered in 1099511627776 bytes, more than its memory limit of 1048576"), "{error}");
        assert!(started.elapsed() < Duration::from_secs(4), "stopped, not waited for");

        let helper = fake_host(dir.path(), &huge, b"");
        let error = Isolated::start(&helper, Path::new("lib.so"), limits).unwrap_err();
        assert!(error.contains("said hello in 1099511627776 bytes, more than its memory limit"), "{error}");
    }
}
