//! What the tests need besides Rust, installed once into target/ from the package registries:
//! the platforms' validators for the conformance suite (conformance/requirements.txt, into a
//! virtual environment at target/conformance/venv), the MCP TypeScript SDK (conformance/,
//! `npm ci`) and the Raycast API types for the TypeScript check (plugins/raycast/tests/tsc,
//! `npm ci`) and maturin and uv for the wheel and the environments
//! (python/requirements-build.txt, into target/python/tools). The environments are made and
//! filled by uv: pip took 73 CPU s (77 s) for the validators' 90 packages, most of it compiling
//! every module to bytecode, uv 3 s (Python compiles what the tests import when they import
//! it). Each step is skipped when done; `cargo xtask test` runs them while cargo builds (they
//! wait on the network and the disk, not on the processor). Beside the test binaries
//! (test_lanes.rs), in one job, [`python_wheel`] builds the Python wheel with `pip wheel
//! ./python` and [`python_package_tests`] installs it into a fresh target/python/venv and runs
//! python/tests/.

use std::path::Path;
use std::process::Command;

use anyhow::{Context, Result, bail};

use crate::root;

/// Installs what the tests need besides Rust. npm waits on the network, pip mostly on the disk
/// and one core: they run side by side (on a fresh clone each took about a minute).
pub fn test_dependencies() -> Result<()> {
    let npm = std::thread::spawn(|| {
        npm_ci(&root().join("conformance"), "@anthropic-ai/mcpb", "the MCP TypeScript SDK and the MCPB toolchain")?;
        npm_ci(&root().join("plugins/raycast/tests/tsc"), "@raycast/api", "the Raycast API types")
    });
    let python = build_tools().and_then(|_| validators());
    npm.join().expect("the npm installs' thread panicked")?;
    python
}

fn run(command: &mut Command, what: &str) -> Result<()> {
    let status = command.status().with_context(|| format!("{what}: could not start"))?;
    if !status.success() {
        bail!("{what} failed ({status})");
    }
    Ok(())
}

fn validators() -> Result<()> {
    let venv = root().join("target/conformance/venv");
    let requirements = root().join("conformance/requirements.txt");
    let stamp = venv.join("requirements.installed");
    let wanted = std::fs::read_to_string(&requirements)?;
    if std::fs::read_to_string(&stamp).is_ok_and(|done| done == wanted) {
        return Ok(());
    }
    println!("installing the conformance validators into {} (once)", venv.display());
    make_venv(&venv)?;
    pip_install(&venv, &["-r".as_ref(), requirements.as_os_str()])?;
    std::fs::write(stamp, wanted)?;
    Ok(())
}

/// `npm ci` in `dir` unless `package` is already installed there.
fn npm_ci(dir: &Path, package: &str, what: &str) -> Result<()> {
    if !dir.join("package-lock.json").exists() || dir.join("node_modules").join(package).join("package.json").exists() {
        return Ok(());
    }
    println!("installing {what} in {} (once)", dir.display());
    run(
        Command::new("npm")
            .args(["ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"])
            .current_dir(dir),
        &format!("npm ci in {}", dir.display()),
    )
}

/// The Python package's tests (python/tests) against `wheel`: installs it into a fresh virtual
/// environment (target/python/venv) and runs python/tests/ there with pytest, through the API
/// and through the installed `convert`. Only Python and the wheel's own binaries run, nothing
/// of cargo's, so `cargo xtask test` runs this beside the test binaries; what it prints is
/// returned (printed whole, not interleaved with theirs). Fails when a Python test fails, with
/// its output.
pub fn python_package_tests(wheel: &Path) -> Result<String> {
    let started = std::time::Instant::now();
    let venv = root().join("target/python/venv");
    let python = python_venv(&venv, wheel, Some(&root().join("python/requirements-test.txt")))?;
    let installed = started.elapsed();
    let output = Command::new(python)
        .args(["-m", "pytest", "-p", "no:cacheprovider", "-q", "."])
        // In the tests' folder, not python/: the package under test is the installed one.
        .current_dir(root().join("python/tests"))
        .output()
        .context("the Python package's tests (python/tests): could not start")?;
    let mut text = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    if !output.status.success() {
        bail!("the Python package's tests (python/tests) failed ({}):\n{text}", output.status);
    }
    text.push_str(&format!(
        "python package: installed in {:.1} s, tested in {:.1} s\n",
        installed.as_secs_f64(),
        (started.elapsed() - installed).as_secs_f64()
    ));
    Ok(text)
}

/// Builds `convert`, the plugin host and the plugins and stages them into
/// python/toolport/_bin (stripped of debug info when `strip` is there), where the wheel takes
/// them: what the wheel's build backend runs before maturin. The debug build is the test
/// build (`cargo xtask test`'s, the same command, so cargo finds it done and features unified
/// the same way); the release build is only what the wheel ships.
pub fn wheel_binaries(release: bool) -> Result<()> {
    // Unless `cargo xtask test` built them a moment ago ([`BINARIES_BUILT`]).
    if std::env::var_os(BINARIES_BUILT).is_none() {
        if release { crate::build_command(true)? } else { crate::build_all()? }
    }
    let bin = root().join("python/toolport/_bin");
    let _ = std::fs::remove_dir_all(&bin);
    let build = root().join(if release { "target/release" } else { "target/debug" });
    crate::install::stage(&build, &bin)?;
    let staged: Vec<std::path::PathBuf> = std::fs::read_dir(&bin)?
        .chain(std::fs::read_dir(bin.join("plugins"))?)
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .collect();
    // Optional: without `strip` the wheel is only larger.
    let _ = Command::new("strip").arg("--strip-debug").args(&staged).status();
    Ok(())
}

/// Set for the wheel's build backend when the binaries it stages are built already: a build in
/// pip's environment would only find PyO3's interpreter changed and build it again for nothing.
const BINARIES_BUILT: &str = "TOOLPORT_WHEEL_BINARIES_BUILT";

/// Builds the `toolporter` wheel the standard way, `pip wheel ./python`, through the wheel's
/// own build backend (which stages the command line, [`wheel_binaries`]) into
/// target/python/wheels; a debug build unless `release`, of the binaries already built when
/// `binaries_built`. The build shares target/: maturin only sets PyO3's environment, so nothing
/// else is rebuilt. Returns the wheel.
pub fn python_wheel(release: bool, binaries_built: bool) -> Result<std::path::PathBuf> {
    let tools = build_tools()?;
    let wheels = root().join("target/python/wheels");
    let _ = std::fs::remove_dir_all(&wheels);
    let mut pip = Command::new(tools.join("bin/pip"));
    // maturin's backend runs the `maturin` program: the tools' own, first on PATH.
    let path = std::env::var_os("PATH").unwrap_or_default();
    let path = std::env::join_paths(std::iter::once(tools.join("bin")).chain(std::env::split_paths(&path)))?;
    pip.env("PATH", path);
    if binaries_built {
        pip.env(BINARIES_BUILT, "1");
    }
    // The tools' environment has the pinned maturin: no isolated environment to download it into.
    pip.args(["wheel", "--quiet", "--disable-pip-version-check", "--no-deps", "--no-build-isolation", "-w"])
        .arg(&wheels)
        .args(["-C", if release { "profile=release" } else { "profile=debug" }])
        .arg(root().join("python"));
    run(&mut pip, "building the Python wheel (pip wheel ./python)")?;
    let wheel = std::fs::read_dir(&wheels)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| p.extension().is_some_and(|e| e == "whl"))
        .context("pip wheel wrote no wheel")?;
    Ok(wheel)
}

/// The wheel's build tools (python/requirements-build.txt: the pinned maturin and uv), installed
/// once into target/python/tools with the standard library's venv and pip; returns that
/// environment.
fn build_tools() -> Result<std::path::PathBuf> {
    let tools = root().join("target/python/tools");
    let requirements = root().join("python/requirements-build.txt");
    let stamp = tools.join("requirements.installed");
    let wanted = std::fs::read_to_string(&requirements)?;
    if !std::fs::read_to_string(&stamp).is_ok_and(|done| done == wanted) {
        println!("installing maturin and uv into {} (once)", tools.display());
        run(Command::new(python()).arg("-m").arg("venv").arg(&tools), &format!("creating {}", tools.display()))?;
        run(
            Command::new(tools.join("bin/pip"))
                .args(["install", "--quiet", "--disable-pip-version-check", "-r"])
                .arg(&requirements),
            &format!("pip install into {}", tools.display()),
        )?;
        std::fs::write(&stamp, wanted)?;
    }
    Ok(tools)
}

/// A fresh virtual environment at `venv` with `wheel` (and `requirements`) installed; returns
/// its Python.
pub fn python_venv(venv: &Path, wheel: &Path, requirements: Option<&Path>) -> Result<std::path::PathBuf> {
    make_venv(venv)?;
    let mut args = vec![wheel.as_os_str()];
    if let Some(requirements) = requirements {
        args.extend(["-r".as_ref(), requirements.as_os_str()]);
    }
    pip_install(venv, &args)?;
    Ok(venv.join("bin/python"))
}

fn python() -> String {
    std::env::var("PYTHON").unwrap_or_else(|_| "python3".into())
}

/// The build tools' uv (installed by [`build_tools`]).
fn uv() -> Result<std::path::PathBuf> {
    Ok(build_tools()?.join("bin/uv"))
}

/// A new, empty virtual environment at `venv` (one there before is replaced), on `python()`.
fn make_venv(venv: &Path) -> Result<()> {
    run(
        Command::new(uv()?).args(["venv", "--quiet", "--clear", "--python"]).arg(python()).arg(venv),
        &format!("creating {}", venv.display()),
    )
}

/// `uv pip install ARGS` into `venv`. uv reads its own settings, not pip's: what pip is told
/// by its environment (an index or mirror, extra indexes, a local folder of wheels, a
/// certificate bundle) is told to uv too.
fn pip_install(venv: &Path, args: &[&std::ffi::OsStr]) -> Result<()> {
    let mut command = Command::new(uv()?);
    command.args(["pip", "install", "--quiet", "--python"]).arg(venv.join("bin/python"));
    let (flags, certificate) = pips_settings_for_uv(|key| std::env::var(key).ok());
    command.args(flags);
    if let Some(certificate) = certificate {
        command.env("SSL_CERT_FILE", certificate);
    }
    run(command.args(args), &format!("uv pip install into {}", venv.display()))
}

/// What pip's environment (`env`) tells it, as uv's flags, and the certificate bundle uv should
/// use (pip's, unless SSL_CERT_FILE already names one).
fn pips_settings_for_uv(env: impl Fn(&str) -> Option<String>) -> (Vec<String>, Option<String>) {
    let mut flags = Vec::new();
    for (pip, uv) in [
        ("PIP_INDEX_URL", "--index-url"),
        ("PIP_EXTRA_INDEX_URL", "--extra-index-url"),
        ("PIP_FIND_LINKS", "--find-links"),
    ] {
        // pip takes several, separated by white space.
        for one in env(pip).unwrap_or_default().split_whitespace() {
            flags.extend([uv.to_owned(), one.to_owned()]);
        }
    }
    let certificate = env("PIP_CERT").filter(|_| env("SSL_CERT_FILE").is_none());
    (flags, certificate)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_pip_is_told_by_its_environment_uv_is_told_too() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |key: &str| pairs.iter().find(|(k, _)| *k == key).map(|(_, v)| (*v).to_owned())
        };
        let (flags, certificate) = pips_settings_for_uv(env(&[
            ("PIP_INDEX_URL", "https://mirror/simple"),
            ("PIP_EXTRA_INDEX_URL", "https://a/simple  https://b/simple"),
            ("PIP_FIND_LINKS", "/opt/wheels"),
            ("PIP_CERT", "/etc/ca.pem"),
        ]));
        assert_eq!(
            flags,
            [
                "--index-url",
                "https://mirror/simple",
                "--extra-index-url",
                "https://a/simple",
                "--extra-index-url",
                "https://b/simple",
                "--find-links",
                "/opt/wheels"
            ]
        );
        assert_eq!(certificate.as_deref(), Some("/etc/ca.pem"));
        // A bundle the user already gave uv is kept; nothing set, nothing added.
        let (_, certificate) = pips_settings_for_uv(env(&[("PIP_CERT", "/etc/ca.pem"), ("SSL_CERT_FILE", "/x.pem")]));
        assert_eq!(certificate, None);
        assert_eq!(pips_settings_for_uv(env(&[])), (vec![], None));
    }
}
