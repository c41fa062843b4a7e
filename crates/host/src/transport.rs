//! How the host reaches a plugin: in this process through its C table ([`InProcess`]), or in a
//! child process that loads the same library with the same code and answers the same JSON
//! requests over pipes ([`Isolated`], the way rust-analyzer runs proc macros and nushell runs
//! plugins). One trait, [`Transport`], so the rest of the host does not know which.
//!
//! An isolated plugin cannot take the run down: a crash, an abort, a stack overflow, running
//! out of its memory limit or calling `exit` ends only its process, a call that takes longer
//! than the time limit is stopped, and anything it prints goes to standard error, never into
//! `convert`'s standard output. Each failure is a [`CallError`] that the host reports as an
//! `error[plugin/*]` naming the plugin file.
//!
//! The wire format, both ways over the child's standard input and output: a request is
//! `op: u8, format index: u32 LE, length: u64 LE, JSON bytes`; a response is `length: u64 LE,
//! JSON bytes`. The child's first message, unasked, is its hello:
//! `{"ok": {"description": PluginDescription, "versions": PluginVersions}}` or
//! `{"error": "why the library could not be loaded"}`.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use toolport_plugin::abi::PluginDescription;

use crate::plugin::PluginVersions;

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
    out.write_all(&(bytes.len() as u64).to_le_bytes())?;
    out.write_all(bytes)?;
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
    input.take(len).read_to_end(&mut body)?;
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
    responses: Receiver<Vec<u8>>,
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
        let hello = match child.responses.recv_timeout(limits.load_timeout) {
            Ok(bytes) => bytes,
            Err(RecvTimeoutError::Timeout) => {
                let _ = child.process.kill();
                let _ = child.process.wait();
                return Err(format!(
                    "did not finish loading within {} s and was stopped",
                    limits.load_timeout.as_secs_f32()
                ));
            }
            Err(RecvTimeoutError::Disconnected) => return Err(format!("crashed while loading: {}", ended(&mut child))),
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
        let mut process = std::process::Command::new(&self.helper)
            .arg(&self.library)
            .arg(self.limits.memory_bytes.to_string())
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::inherit())
            .spawn()
            .map_err(|e| CallError::Spawn(format!("{}: {e}", self.helper.display())))?;
        let (Some(stdin), Some(mut stdout)) = (process.stdin.take(), process.stdout.take()) else {
            return Err(CallError::Spawn("no pipes to the plugin host".into()));
        };
        // A reader thread per child turns frames into messages, so a call can wait with a
        // time limit. It ends when the child's output closes.
        let (sender, responses) = std::sync::mpsc::channel();
        std::thread::Builder::new()
            .name("plugin-reader".into())
            .spawn(move || {
                let mut len = [0u8; 8];
                while stdout.read_exact(&mut len).is_ok() {
                    let mut body = Vec::new();
                    if (&mut stdout).take(u64::from_le_bytes(len)).read_to_end(&mut body).is_err()
                        || sender.send(body).is_err()
                    {
                        break;
                    }
                }
            })
            .map_err(|e| CallError::Spawn(e.to_string()))?;
        Ok(Child { process, stdin, responses })
    }
}

/// How a child ended, in words, after its output closed.
fn ended(child: &mut Child) -> String {
    let _ = child.process.kill();
    match child.process.wait() {
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
                let child = self.spawn()?;
                // A new child says hello first; it was checked when the plugin was loaded.
                match child.responses.recv_timeout(self.limits.load_timeout) {
                    Ok(_) => child,
                    Err(_) => {
                        let mut child = child;
                        return Err(CallError::Crashed(format!("while loading again: {}", ended(&mut child))));
                    }
                }
            }
        };
        let mut frame = Vec::with_capacity(13 + request.len());
        frame.push(op as u8);
        frame.extend_from_slice(&index.to_le_bytes());
        frame.extend_from_slice(&(request.len() as u64).to_le_bytes());
        frame.extend_from_slice(request);
        let sent = child.stdin.write_all(&frame).and_then(|()| child.stdin.flush());
        if sent.is_err() {
            return Err(CallError::Crashed(ended(&mut child)));
        }
        // Detection runs for every input without --from: it gets the shorter limit.
        let limit = match op {
            Op::Detect => self.limits.call_timeout.min(self.limits.load_timeout),
            Op::Read | Op::Write => self.limits.call_timeout,
        };
        match child.responses.recv_timeout(limit) {
            Ok(bytes) => {
                self.idle().push(child);
                Ok(bytes)
            }
            Err(RecvTimeoutError::Timeout) => {
                let _ = child.process.kill();
                let _ = child.process.wait();
                Err(CallError::TimedOut(limit))
            }
            Err(RecvTimeoutError::Disconnected) => Err(CallError::Crashed(ended(&mut child))),
        }
    }

    fn isolated(&self) -> bool {
        true
    }
}

impl Drop for Isolated {
    fn drop(&mut self) {
        for mut child in self.idle().drain(..) {
            // Closing its input ends a child's loop; kill in case it is stuck.
            drop(child.stdin);
            let _ = child.process.kill();
            let _ = child.process.wait();
        }
    }
}
