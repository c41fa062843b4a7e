//! `toolport-plugin-host LIBRARY MEMORY_BYTES`: runs one plugin library in its own process for
//! `convert` (see the host's `transport` module for the wire format). It caps its own address
//! space, keeps its standard output for the protocol alone (whatever the plugin prints goes
//! to standard error), loads the library with the same handshake as in process, says hello,
//! then answers requests until its input closes.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use toolport_host::plugin::LoadedPlugin;
use toolport_host::transport::{Hello, Op, read_request, write_response};

fn main() -> ExitCode {
    // One plugin process serves every conversion of a run that goes through its plugin.
    toolport_host::allocator::tune(true);
    let mut args = std::env::args_os().skip(1);
    let (Some(library), memory) = (args.next().map(PathBuf::from), args.next()) else {
        eprintln!("usage: toolport-plugin-host LIBRARY [MEMORY_BYTES] (started by convert)");
        return ExitCode::from(2);
    };
    let memory: Option<u64> = memory.and_then(|m| m.to_str()?.parse().ok());
    let mut protocol = match protocol_output() {
        Ok(out) => out,
        Err(e) => {
            eprintln!("toolport-plugin-host: cannot set up its output: {e}");
            return ExitCode::from(1);
        }
    };
    if let Some(bytes) = memory {
        limit_memory(bytes);
    }
    // Calls recurse as deep as their input nests, as in convert.
    let worker = std::thread::Builder::new()
        .stack_size(toolport_core::limits::CONVERSION_STACK_BYTES)
        .spawn(move || serve(&library, &mut protocol));
    match worker.map(|w| w.join()) {
        Ok(Ok(Ok(()))) => ExitCode::SUCCESS,
        _ => ExitCode::from(1),
    }
}

fn serve(library: &std::path::Path, protocol: &mut impl Write) -> std::io::Result<()> {
    let plugin = LoadedPlugin::load(library);
    let hello = match &plugin {
        Ok(plugin) => Hello::Ok { description: plugin.description.clone(), versions: plugin.versions },
        Err(e) => Hello::Error(e.to_string()),
    };
    write_response(protocol, &serde_json::to_vec(&hello).unwrap_or_default())?;
    let Ok(plugin) = plugin else { return Ok(()) };
    let mut input = std::io::stdin().lock();
    while let Some((op, index, request)) = read_request(&mut input)? {
        let Some(op) = Op::from_byte(op) else {
            eprintln!("toolport-plugin-host: unknown request {op}");
            return Ok(());
        };
        // An in-process call never fails to return; a crash ends this process, as it should.
        let response = plugin.call_raw(op, index, &request).unwrap_or_default();
        write_response(protocol, &response)?;
    }
    Ok(())
}

/// Moves the protocol to a copy of standard output and points standard output at standard
/// error, so a plugin's prints cannot corrupt the protocol. The copy is closed on exec: a
/// process the plugin starts does not hold the protocol open after this one ends.
#[cfg(unix)]
fn protocol_output() -> std::io::Result<std::fs::File> {
    use std::os::fd::AsFd;
    let protocol = std::io::stdout().as_fd().try_clone_to_owned()?;
    nix::unistd::dup2_stdout(std::io::stderr())?;
    Ok(std::fs::File::from(protocol))
}

#[cfg(not(unix))]
fn protocol_output() -> std::io::Result<std::io::Stdout> {
    Ok(std::io::stdout())
}

/// Caps the address space: a runaway plugin fails an allocation (and aborts) instead of
/// taking the machine's memory.
#[cfg(unix)]
fn limit_memory(bytes: u64) {
    use nix::sys::resource::{Resource, setrlimit};
    if let Err(e) = setrlimit(Resource::RLIMIT_AS, bytes, bytes) {
        eprintln!("toolport-plugin-host: cannot limit memory to {bytes} bytes: {e}");
    }
}

#[cfg(not(unix))]
fn limit_memory(_bytes: u64) {}
