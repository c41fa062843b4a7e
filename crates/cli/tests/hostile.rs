//! convert under hostile and unusual input, through the real binary: no write leaves the
//! output folder or goes through a link, no input is overwritten, a run is atomic per input
//! and always ends with its summary and report, outputs honour the umask, staging never
//! outlives a run, and no input aborts the process or runs away with time or memory.

use crate::support;

use std::path::{Path, PathBuf};

use support::*;

fn skydeck_tool() -> PathBuf {
    workspace_root().join("fixtures/skydeck/es-resumen.json")
}

/// Names of every file and folder under `dir`, relative, sorted.
fn tree(dir: &Path) -> Vec<String> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for entry in entries.map(Result::unwrap) {
            let path = entry.path();
            out.push(path.strip_prefix(root).unwrap().to_string_lossy().into_owned());
            if entry.file_type().unwrap().is_dir() {
                walk(root, &path, out);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

fn no_staging_left(dir: &Path) {
    let left: Vec<String> = tree(dir).into_iter().filter(|p| p.contains(".toolport")).collect();
    assert!(left.is_empty(), "temporary files left behind: {left:?}");
}

/// An input named `...json` has the stem `..`: its outputs still land inside `-o`.
#[test]
fn hostile_input_names_stay_inside_the_output() {
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path().join("work");
    std::fs::create_dir_all(work.join("in")).unwrap();
    std::fs::copy(skydeck_tool(), work.join("in/...json")).unwrap();
    std::fs::copy(skydeck_tool(), work.join("in/..json")).unwrap();
    std::fs::copy(skydeck_tool(), work.join("in/plain.json")).unwrap();
    // Named one by one: walking a folder skips hidden files such as these.
    let run = run_in(
        &work,
        &["-q", "--from", "skydeck", "--to", "raycast", "in/...json", "in/..json", "in/plain.json", "-o", "out"],
    );
    run.expect_code(0);
    let outside: Vec<String> =
        tree(&work).into_iter().filter(|p| !p.starts_with("in") && !p.starts_with("out")).collect();
    assert!(outside.is_empty(), "written outside the output folder: {outside:?}");
    let packages: Vec<String> = tree(&work.join("out")).into_iter().filter(|p| p.ends_with("package.json")).collect();
    assert_eq!(packages.len(), 3, "each input has its own folder inside out/: {packages:?}");
    no_staging_left(&work);
}

#[cfg(unix)]
#[test]
fn links_inside_the_output_are_never_written_through() {
    let dir = tempfile::tempdir().unwrap();
    let elsewhere = dir.path().join("elsewhere");
    let out = dir.path().join("out");
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::fs::create_dir_all(&out).unwrap();
    std::os::unix::fs::symlink(&elsewhere, out.join("src")).unwrap();
    let tool = skydeck_tool();
    let run = run_in(dir.path(), &["-q", "--to", "raycast", tool.to_str().unwrap(), "-o", "out"]);
    run.expect_code(1);
    assert!(run.stderr.contains("out/src: is a symbolic link; toolport never writes through links"), "{}", run.stderr);
    assert!(tree(&elsewhere).is_empty(), "nothing written through the link");
    assert_eq!(tree(&out), ["src"], "nothing placed at all");

    // A link in the output file's own place, even with --force.
    let victim = elsewhere.join("victim.json");
    std::fs::write(&victim, "keep me").unwrap();
    std::os::unix::fs::symlink(&victim, dir.path().join("target.json")).unwrap();
    let run = run_in(dir.path(), &["-q", "--to", "gloodata", tool.to_str().unwrap(), "-o", "target.json", "--force"]);
    run.expect_code(1);
    assert!(run.stderr.contains("target.json: is a symbolic link"), "{}", run.stderr);
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me");
}

#[test]
fn every_file_read_for_an_input_and_the_report_are_protected() {
    let dir = tempfile::tempdir().unwrap();
    let weather = dir.path().join("weather");
    std::fs::create_dir_all(&weather).unwrap();
    for file in ["import.json", "weather.yaml"] {
        std::fs::copy(workspace_root().join("fixtures/vertex/weather").join(file), weather.join(file)).unwrap();
    }
    let spec = std::fs::read(weather.join("weather.yaml")).unwrap();
    // The body's sibling spec was read for it: an input, even with --force.
    let run =
        run_in(dir.path(), &["-q", "--to", "openapi", "weather/import.json", "-o", "weather/weather.yaml", "--force"]);
    run.expect_code(1);
    assert!(run.stderr.contains("weather/weather.yaml: is an input"), "{}", run.stderr);
    assert_eq!(std::fs::read(weather.join("weather.yaml")).unwrap(), spec);

    // --report onto an input, or onto an existing file without --force: refused before converting.
    let run = run_in(
        dir.path(),
        &["--to", "openapi", "weather/import.json", "-o", "out.yaml", "--report", "weather/import.json"],
    );
    run.expect_code(2);
    assert!(run.stderr.contains("--report weather/import.json: is an input"), "{}", run.stderr);
    assert!(!dir.path().join("out.yaml").exists());
    std::fs::write(dir.path().join("report.json"), "keep me").unwrap();
    let run =
        run_in(dir.path(), &["--to", "openapi", "weather/import.json", "-o", "out.yaml", "--report", "report.json"]);
    run.expect_code(2);
    assert!(run.stderr.contains("report.json: already exists; use --force"), "{}", run.stderr);
    assert_eq!(std::fs::read_to_string(dir.path().join("report.json")).unwrap(), "keep me");
}

/// A directory where one input's file should go fails that input alone: none of its files
/// are placed, the others are, and the summary and the report are still written.
#[test]
fn a_failed_input_places_nothing_and_the_run_still_reports() {
    let dir = tempfile::tempdir().unwrap();
    let inputs = dir.path().join("in");
    std::fs::create_dir_all(&inputs).unwrap();
    std::fs::copy(skydeck_tool(), inputs.join("a.json")).unwrap();
    std::fs::copy(skydeck_tool(), inputs.join("b.json")).unwrap();
    // A file where b's `src` folder must go: planning cannot see it (nothing is created
    // yet), so it fails while placing b, after b's package.json (sorted first) was placed.
    std::fs::create_dir_all(dir.path().join("out/b")).unwrap();
    std::fs::write(dir.path().join("out/b/src"), "in the way").unwrap();
    let run = run_in(
        dir.path(),
        &["--from", "skydeck", "--to", "raycast", "in", "-o", "out", "--force", "--report", "report.json"],
    );
    run.expect_code(1);
    // Which of b's folders fails first depends on its file names; each lies under the file.
    assert!(run.stderr.contains("out/b/src") && run.stderr.contains(": cannot be written: "), "{}", run.stderr);
    assert!(run.stderr.contains("none of this input's files were placed"), "{}", run.stderr);
    assert!(run.stderr.contains("2 inputs: 1 converted"), "the summary is printed: {}", run.stderr);
    let doubled = run.stderr.lines().find(|l| l.matches("os error").count() > 1);
    assert!(doubled.is_none(), "an error said twice: {doubled:?}");
    assert!(dir.path().join("out/a/package.json").exists(), "the good input is placed");
    assert!(!dir.path().join("out/b/package.json").exists(), "the failed input places nothing");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("report.json")).unwrap()).unwrap();
    let statuses: Vec<&str> =
        report["inputs"].as_array().unwrap().iter().map(|i| i["status"].as_str().unwrap()).collect();
    assert_eq!(statuses.iter().filter(|s| **s == "failed").count(), 1, "{report}");
    no_staging_left(dir.path());
}

#[cfg(unix)]
#[test]
fn outputs_honour_the_umask_and_force_keeps_the_mode() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let tool = skydeck_tool();
    let shell = |umask: &str, extra: &str| {
        let script = format!("umask {umask}; exec \"$0\" -q --to gloodata \"$1\" -o out.json {extra}");
        let home = tempfile::tempdir().unwrap();
        let output = std::process::Command::new("sh")
            .current_dir(dir.path())
            .env("HOME", home.path())
            .env_remove("TOOLPORT_PLUGIN_PATH")
            .env_remove("XDG_DATA_HOME")
            .args(["-c", &script, exe().to_str().unwrap(), tool.to_str().unwrap()])
            .output()
            .unwrap();
        finish(output).expect_code(0);
        std::fs::metadata(dir.path().join("out.json")).unwrap().permissions().mode() & 0o777
    };
    assert_eq!(shell("022", ""), 0o644);
    std::fs::remove_file(dir.path().join("out.json")).unwrap();
    assert_eq!(shell("027", ""), 0o640);
    std::fs::set_permissions(dir.path().join("out.json"), std::fs::Permissions::from_mode(0o604)).unwrap();
    assert_eq!(shell("022", "--force"), 0o604, "--force keeps an existing file's mode");
}

/// `--force` replaces only regular files: a FIFO as the output, the report, or a batch's file
/// is refused, naming what it is, and stays a FIFO; `-o /dev/null --force` (this may run as
/// root, where replacing it would break the machine) leaves the device alone.
#[cfg(unix)]
#[test]
fn force_replaces_only_regular_files() {
    use std::os::unix::fs::FileTypeExt;
    let dir = tempfile::tempdir().unwrap();
    let tool = skydeck_tool();
    let tool = tool.to_str().unwrap();
    std::fs::create_dir_all(dir.path().join("out")).unwrap();
    for fifo in ["pipe.json", "out/es-resumen.gloodata.json"] {
        let made = std::process::Command::new("mkfifo").arg(dir.path().join(fifo)).status().unwrap();
        assert!(made.success());
    }
    let is_fifo = |name: &str| std::fs::symlink_metadata(dir.path().join(name)).unwrap().file_type().is_fifo();
    let refused = ": is a FIFO (named pipe); toolport replaces only regular files, even with --force";
    for (args, code, named) in [
        (vec!["--to", "gloodata", tool, "-o", "pipe.json", "--force"], 1, "pipe.json"),
        (vec!["--to", "gloodata", tool, "-o", "new.json", "--report", "pipe.json", "--force"], 2, "pipe.json"),
        (vec!["--to", "gloodata", tool, "-o", "out/", "--force"], 1, "out/es-resumen.gloodata.json"),
    ] {
        let run = run_in(dir.path(), &args);
        run.expect_code(code);
        assert!(run.stderr.contains(&format!("{named}{refused}")), "{args:?}: {}", run.stderr);
        assert!(is_fifo("pipe.json") && is_fifo("out/es-resumen.gloodata.json"), "{args:?}: the FIFOs stay");
    }
    assert_eq!(
        tree(dir.path()),
        ["out", "out/es-resumen.gloodata.json", "pipe.json"],
        "nothing else written or staged"
    );

    // The device, only once the safe case above holds.
    let run = run_in(dir.path(), &["--to", "gloodata", tool, "-o", "/dev/null", "--force"]);
    let null = std::fs::symlink_metadata("/dev/null").unwrap().file_type();
    if !null.is_char_device() {
        // Put it back for the rest of the machine before failing.
        let _ = std::process::Command::new("sh").args(["-c", "rm -f /dev/null; mknod -m 666 /dev/null c 1 3"]).status();
        panic!("/dev/null was replaced: {}", run.stderr);
    }
    run.expect_code(1);
    assert!(
        run.stderr.contains("/dev/null: is a character device; toolport replaces only regular files"),
        "{}",
        run.stderr
    );
    let staged = std::fs::read_dir("/dev")
        .unwrap()
        .filter_map(Result::ok)
        .any(|e| e.file_name().to_string_lossy().starts_with(".toolport"));
    assert!(!staged, "nothing staged in /dev");
}

/// A folder named like toolport's staging that is not (no marker inside) is the user's, and
/// stays; folders a failed run made for its outputs are removed.
#[test]
fn only_toolports_own_staging_and_folders_are_removed() {
    let dir = tempfile::tempdir().unwrap();
    let lookalike = dir.path().join("out/.toolport-staging-4294967295-0");
    std::fs::create_dir_all(&lookalike).unwrap();
    std::fs::write(lookalike.join("notes.txt"), "mine").unwrap();
    let tool = skydeck_tool();
    run_in(dir.path(), &["-q", "--to", "gloodata", tool.to_str().unwrap(), "-o", "out/"]).expect_code(0);
    assert_eq!(std::fs::read_to_string(lookalike.join("notes.txt")).unwrap(), "mine");
    assert_eq!(
        tree(&dir.path().join("out")),
        [".toolport-staging-4294967295-0", ".toolport-staging-4294967295-0/notes.txt", "es-resumen.gloodata.json"]
    );

    std::fs::write(dir.path().join("broken.json"), "{\"tools\": [").unwrap();
    let run = run_in(dir.path(), &["--from", "skydeck", "--to", "raycast", "broken.json", "-o", "new/deeper/ext"]);
    run.expect_code(1);
    assert!(!dir.path().join("new").exists(), "a failed run leaves no folder it made: {}", run.stderr);
}

/// Many inputs (`in/`) to a target that writes several files each, for the interrupted runs
/// below.
fn batch_for_interrupts(dir: &Path) {
    let inputs = dir.join("in");
    std::fs::create_dir_all(&inputs).unwrap();
    let text = std::fs::read_to_string(skydeck_tool()).unwrap();
    for i in 0..120 {
        std::fs::write(inputs.join(format!("t{i}.json")), &text).unwrap();
    }
}

/// A run of the batch into `out/`, still running.
fn start_batch(dir: &Path, extra: &[&str]) -> std::process::Child {
    let home = tempfile::tempdir().unwrap();
    let args = ["--from", "skydeck", "--to", "raycast", "in", "-o", "out", "--report", "report.json"];
    command(home.path())
        .current_dir(dir)
        .args(args)
        .args(extra)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits (at most a minute) until `ready` holds for the names in `out`, or the run ended.
fn wait_for(child: &mut std::process::Child, out: &Path, ready: impl Fn(&[String]) -> bool) {
    let started = std::time::Instant::now();
    let names = || -> Vec<String> {
        let Ok(entries) = std::fs::read_dir(out) else { return Vec::new() };
        entries.map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect()
    };
    while !ready(&names()) && child.try_wait().unwrap().is_none() {
        if started.elapsed().as_secs() > 60 {
            let _ = child.kill();
            panic!("the run never got there");
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
}

fn signal(child: &std::process::Child, name: &str) {
    std::process::Command::new("kill").args([&format!("-{name}"), &child.id().to_string()]).status().unwrap();
}

/// SIGINT and SIGTERM at random points of a batch (after it started staging), and during its
/// commit: the run ends with its summary and report saying so, exit 128 + the signal, nothing
/// half placed (nothing at all, or everything if the signal came after the commit), no
/// staging and no folder it made left.
#[cfg(unix)]
#[test]
fn signals_stop_a_batch_in_order() {
    let dir = tempfile::tempdir().unwrap();
    batch_for_interrupts(dir.path());
    run_in(dir.path(), &["-q", "--from", "skydeck", "--to", "raycast", "in", "-o", "full"]).expect_code(0);
    let full = tree(&dir.path().join("full"));
    let out = dir.path().join("out");
    let staging = |t: &[String]| t.iter().any(|p| p.starts_with(".toolport-staging-"));
    let placing = |t: &[String]| t.iter().any(|p| !p.starts_with('.'));
    // One full run's time bounds the random points.
    let started = std::time::Instant::now();
    let mut child = start_batch(dir.path(), &[]);
    wait_for(&mut child, &out, staging);
    let staged_at = started.elapsed();
    assert!(child.wait().unwrap().success());
    let span = (started.elapsed() - staged_at).as_millis() as u64 + 1;
    std::fs::remove_dir_all(&out).unwrap();
    std::fs::remove_file(dir.path().join("report.json")).unwrap();

    let mut seed = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos() as u64 | 1;
    let mut random_below = |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    let mut points: Vec<(&str, Option<u64>)> = Vec::new();
    for name in ["INT", "TERM"] {
        // Within the first half: a run on a busy machine may still end before a later point.
        points.extend((0..3).map(|_| (name, Some(random_below(span / 2 + 1)))));
        points.push((name, None));
    }
    for (name, delay) in points {
        let mut child = start_batch(dir.path(), &[]);
        match delay {
            Some(ms) => {
                wait_for(&mut child, &out, staging);
                std::thread::sleep(std::time::Duration::from_millis(ms));
            }
            None => wait_for(&mut child, &out, placing),
        }
        signal(&child, name);
        let output = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        let case = format!("SIG{name} at {delay:?} ms of {span}: {stderr}");
        let code = if name == "INT" { 130 } else { 143 };
        assert_eq!(output.status.code(), Some(code), "{case}");
        let summary = stderr.lines().last().unwrap_or_default();
        assert!(
            summary.starts_with("120 inputs: ") && summary.contains(&format!("interrupted by SIG{name}")),
            "{case}"
        );
        let placed = tree(&out);
        assert!(placed.is_empty() || placed == full, "all or nothing placed: {placed:?}; {case}");
        let report: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.path().join("report.json")).unwrap()).unwrap();
        let said = &report["summary"]["interrupted"];
        assert_eq!(said["signal"], format!("SIG{name}"), "{case}");
        assert_eq!(said["outputs_placed"], !placed.is_empty(), "{case}");
        if placed.is_empty() {
            assert!(!out.exists(), "the output folder the run made is removed: {case}");
        }
        if delay.is_none() {
            assert!(placed.is_empty(), "a signal during the commit takes back what it placed: {case}");
        }
        no_staging_left(dir.path());
        let _ = std::fs::remove_dir_all(&out);
        std::fs::remove_file(dir.path().join("report.json")).unwrap();
    }
}

/// A run killed outright (SIGKILL) during its commit leaves inputs part placed, and files it
/// replaced (--force) replaced; the next run in that folder undoes it from the journal: the
/// old files back, the new ones and the folders made gone, its staging removed.
#[cfg(unix)]
#[test]
fn a_run_killed_during_its_commit_is_undone_by_the_next() {
    let dir = tempfile::tempdir().unwrap();
    batch_for_interrupts(dir.path());
    let out = dir.path().join("out");
    // Half the inputs' folders exist with a file the run replaces; the others' are new.
    let before = |out: &Path| {
        for i in 0..60 {
            std::fs::create_dir_all(out.join(format!("t{i}"))).unwrap();
            std::fs::write(out.join(format!("t{i}/package.json")), format!("old {i}")).unwrap();
        }
    };
    let mut landed = false;
    for _ in 0..5 {
        let _ = std::fs::remove_dir_all(&out);
        before(&out);
        let old = tree(&out);
        let mut child = start_batch(dir.path(), &["--force"]);
        // Killed once the commit makes the first new folder.
        wait_for(&mut child, &out, |names| names.iter().any(|n| !n.starts_with('.') && !old.contains(n)));
        child.kill().unwrap();
        child.wait().unwrap();
        let after_kill: Vec<String> = tree(&out).into_iter().filter(|p| !p.starts_with('.')).collect();
        let journal = tree(&out).iter().any(|p| p.ends_with("/journal"));
        if after_kill == old || !journal {
            continue; // Not during the commit: try again.
        }
        landed = true;
        let tool = skydeck_tool();
        run_in(dir.path(), &["-q", "--to", "gloodata", tool.to_str().unwrap(), "-o", "out/extra.json"]).expect_code(0);
        let mut expected = old.clone();
        expected.push("extra.json".into());
        expected.sort();
        assert_eq!(tree(&out), expected, "the killed commit is undone, and its staging removed");
        for i in 0..60 {
            let text = std::fs::read_to_string(out.join(format!("t{i}/package.json"))).unwrap();
            assert_eq!(text, format!("old {i}"), "a replaced file is restored");
        }
        break;
    }
    assert!(landed, "no kill landed during a commit in 5 tries");
}

/// Conversions that never end (a plugin in process hanging in `write`) do not keep an
/// interrupted run alive: after a grace period, or at a second signal, the run ends at once,
/// saying which, exiting 128 + the first signal, its staging and the output folder it made
/// removed and no report written (as it says). Judged by what the run does and says, not by
/// the wall clock (an upper bound on it failed under a load of 14): the one time bound is a
/// lower one, the grace itself, which load cannot break, and a run that never ends fails.
#[cfg(unix)]
#[test]
fn a_run_whose_conversions_never_end_still_stops() {
    let dir = tempfile::tempdir().unwrap();
    let plugins = dir.path().join("plugins");
    std::fs::create_dir_all(&plugins).unwrap();
    let library = test_plugin("misbehaves");
    std::fs::copy(&library, plugins.join(library.file_name().unwrap())).unwrap();
    std::fs::create_dir_all(dir.path().join("in")).unwrap();
    std::fs::copy(skydeck_tool(), dir.path().join("in/a.json")).unwrap();
    let out = dir.path().join("out");
    let report = dir.path().join("report.json");
    let grace = "they had not ended 5 s after it";
    let again = "a second signal came";
    for (signals, why, not) in [(&["TERM"][..], grace, again), (&["INT", "INT"][..], again, grace)] {
        let home = tempfile::tempdir().unwrap();
        let mut child = command(home.path())
            .current_dir(dir.path())
            .env("TOOLPORT_TEST_MISBEHAVE", "hang-write")
            .args(["--isolate", "never", "--plugin-dir", plugins.to_str().unwrap()])
            .args(["--from", "skydeck", "--to", "misbehaving", "in", "-o", "out/", "--report", "report.json"])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        wait_for(&mut child, &out, |names| names.iter().any(|n| n.starts_with(".toolport-staging-")));
        // Staging is made before the conversion starts; a signal before it starts only skips
        // the input. Reading a one-tool file takes milliseconds: after a second the plugin's
        // `write` is hanging, even on a loaded machine (the test failed twice under load).
        std::thread::sleep(std::time::Duration::from_secs(1));
        let signalled = std::time::Instant::now();
        for (i, name) in signals.iter().enumerate() {
            if i > 0 {
                // Two signals of one kind sent back to back are one if the first is still
                // pending (the kernel and signal-hook keep one pending flag per signal): seen
                // once on a loaded machine, where the second was missed and the grace ran out.
                // A second later, well inside the grace, the first has been taken.
                std::thread::sleep(std::time::Duration::from_secs(1));
            }
            signal(&child, name);
        }
        let output = wait_at_most(child, std::time::Duration::from_secs(600));
        let stderr = String::from_utf8_lossy(&output.stderr);
        let first = signals[0];
        assert_eq!(output.status.code(), Some(if first == "INT" { 130 } else { 143 }), "{stderr}");
        let said = format!("interrupted by SIG{first}: stopped without waiting for the conversions under way ({why})");
        assert!(stderr.contains(&said), "{signals:?}: {stderr}");
        assert!(!stderr.contains(not), "{signals:?}: {stderr}");
        assert!(stderr.contains("nothing was placed, and no report was written"), "{signals:?}: {stderr}");
        if why == grace {
            assert!(signalled.elapsed() >= std::time::Duration::from_secs(5), "the grace was waited for");
        }
        assert!(!report.exists(), "{signals:?}: no report, as it says");
        assert!(!out.exists(), "{signals:?}: the staging and the folder made are removed");
        no_staging_left(dir.path());
    }
}

/// The output of `child` once it ends; a child still running after `limit` (a run that
/// never stops) is killed and fails the test.
fn wait_at_most(mut child: std::process::Child, limit: std::time::Duration) -> std::process::Output {
    let started = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > limit {
            let _ = child.kill();
            panic!("the run did not end within {limit:?} of the signal");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// The bytes of a file, or of every file under a folder.
fn bytes_under(at: &Path) -> u64 {
    match std::fs::symlink_metadata(at) {
        Ok(meta) if meta.is_dir() => std::fs::read_dir(at).unwrap().map(|e| bytes_under(&e.unwrap().path())).sum(),
        Ok(meta) => meta.len(),
        Err(_) => 0,
    }
}

/// A Gloodata value set of 5,000 labelled values used by 400 fields, to every schema writer.
/// Each listed the set's values in every field past the reader's budget (OpenAPI and Vertex
/// with no budget at all, so 100 copies; MCP's budget raised by the reader's own copies): a
/// document of 0.56 MB took 2-6 s and up to 2 GB. Every writer now lists them within the
/// document's expansion budget (`limits::EXPANSION_FACTOR` times its schemas, at least
/// `MIN_EXPANSION_BYTES`), besides the copies the reader made within the same bound, and
/// says where it stopped.
#[test]
fn a_value_set_shared_by_many_fields_is_written_within_the_budget() {
    let dir = tempfile::tempdir().unwrap();
    let entries: Vec<String> = (0..5_000).map(|i| format!("[\"v{i}\", \"value {i}\"]")).collect();
    let tools: Vec<String> = (0..400)
        .map(|i| format!("\"tool{i}\": {{\"title\": \"Tool {i}\", \"schema\": {{\"fields\": {{\"pick\": {{\"type\": \"string\"}}}}}}, \"ui\": {{\"prefix\": \"Pick\", \"args\": {{\"pick\": {{\"prefix\": \"pick\", \"dtypeName\": \"Big\"}}}}}}}}"))
        .collect();
    let doc = format!(
        "{{\"ns\": \"vs\", \"title\": \"VS\", \"tools\": {{{}}}, \"tagValues\": {{\"Big\": {{\"id\": \"Big\", \"entries\": [{}]}}}}}}",
        tools.join(", "),
        entries.join(", ")
    );
    std::fs::write(dir.path().join("doc.json"), &doc).unwrap();
    // The reader's copies and the writer's expansions, each within one budget (of compact
    // bytes: indented one to a line, a short value takes about three times its own), besides
    // the input. Listing the set in every field writes over 40 MB.
    const MIN_EXPANSION_BYTES: u64 = 4 << 20;
    let most = doc.len() as u64 + 3 * 2 * (8 * doc.len() as u64).max(MIN_EXPANSION_BYTES);
    for target in ["mcp", "openai", "gemini", "openapi", "vertex", "skydeck", "raycast"] {
        let (out, report) = (format!("out-{target}"), format!("{target}.json"));
        let args = ["-q", "--from", "gloodata", "--to", target, "doc.json", "-o", &out, "--report", &report];
        run_in(dir.path(), &args).expect_code(0);
        let written = bytes_under(&dir.path().join(&out));
        assert!(written <= most, "{target}: wrote {written} bytes for a {} byte document", doc.len());
        let report: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.path().join(&report)).unwrap()).unwrap();
        let cut = report["inputs"][0]["diagnostics"].as_array().unwrap().iter().any(|d| {
            d["code"].as_str().is_some_and(|c| c.starts_with("loss/"))
                && d["path"].as_str().is_some_and(|p| p.ends_with("/value_set"))
        });
        assert!(cut, "{target}: the fields left without the set's values are named: {report}");
    }
}

/// Each syntax nested far past the limit: a located error for that file, exit 1, and the
/// other input of the batch still converts (no stack overflow, no abort).
#[test]
fn deep_nesting_is_a_located_error_never_an_abort() {
    let dir = tempfile::tempdir().unwrap();
    let inputs = dir.path().join("in");
    std::fs::create_dir_all(&inputs).unwrap();
    std::fs::copy(skydeck_tool(), inputs.join("good.json")).unwrap();
    let deep = "[".repeat(20_000);
    std::fs::write(inputs.join("deep.json"), format!("{{\"tools\": {deep}")).unwrap();
    std::fs::write(inputs.join("deep.yaml"), format!("openapi: 3.0.0\npaths: {deep}\n")).unwrap();
    let run = run_in(dir.path(), &["--to", "gloodata", "in", "-o", "out"]);
    run.expect_code(1);
    for file in ["deep.json", "deep.yaml"] {
        let line = run.stderr.lines().find(|l| l.contains(file)).unwrap_or_else(|| panic!("{file}: {}", run.stderr));
        assert!(line.contains(&format!("in/{file}:")) && line.contains("error[input/syntax]"), "{line}");
    }
    assert!(dir.path().join("out/good.gloodata.json").exists(), "{}", run.stderr);

    // SkyDeck's lenient reader and Raycast's TypeScript reader, each past the limit.
    let mut skydeck: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(skydeck_tool()).unwrap()).unwrap();
    skydeck["metadata"]["deep"] = serde_json::Value::String("X".into());
    let text = serde_json::to_string(&skydeck)
        .unwrap()
        .replace("\"X\"", &format!("{}1{}", "[".repeat(20_000), "]".repeat(20_000)));
    std::fs::write(dir.path().join("deep-skydeck.json"), text).unwrap();
    let run = run_in(dir.path(), &["--from", "skydeck", "--to", "gloodata", "deep-skydeck.json", "-o", "x.json"]);
    run.expect_code(1);
    assert!(
        run.stderr.contains("deep-skydeck.json:1:") && run.stderr.contains("error[input/syntax]"),
        "{}",
        run.stderr
    );

    let ext = dir.path().join("ext");
    std::fs::create_dir_all(ext.join("src/tools")).unwrap();
    std::fs::write(
        ext.join("package.json"),
        r#"{"name": "deep", "title": "Deep", "description": "d", "tools": [{"name": "t", "title": "T", "description": "d"}]}"#,
    )
    .unwrap();
    std::fs::write(ext.join("src/tools/t.ts"), format!("const x = {deep};\nexport default function () {{}}\n"))
        .unwrap();
    let run = run_in(dir.path(), &["--from", "raycast", "--to", "gloodata", "ext", "-o", "ext.json"]);
    run.expect_code(1);
    assert!(run.stderr.contains("t.ts:") && run.stderr.contains("error[input/syntax]"), "{}", run.stderr);
}

/// A schema nested 60 levels (within the input limit) crosses from reader to every kind of
/// writer: the model's JSON form nests several levels per schema level.
#[test]
fn deep_but_valid_schemas_cross_to_any_writer() {
    let dir = tempfile::tempdir().unwrap();
    let mut schema = serde_json::json!({"type": "string"});
    for i in 0..60 {
        schema = serde_json::json!({"type": "object", "properties": {format!("a{i}"): schema}});
    }
    let doc = serde_json::json!({"tools": [{"name": "deep", "description": "d", "inputSchema": {"type": "object", "properties": {"x": schema}}}]});
    std::fs::write(dir.path().join("deep.json"), doc.to_string()).unwrap();
    for (to, out) in [("openapi", "deep.yaml"), ("gemini", "deep.gemini.json"), ("openai", "deep.openai.json")] {
        let run = run_in(dir.path(), &["-q", "--from", "mcp", "--to", to, "deep.json", "-o", out]);
        run.expect_code(0);
        let written = std::fs::read_to_string(dir.path().join(out)).unwrap();
        assert!(written.contains("a0"), "{to}: the innermost property is carried");
    }
}

#[test]
fn malformed_files_in_a_walked_folder_fail_with_their_position() {
    let dir = tempfile::tempdir().unwrap();
    let inputs = dir.path().join("in");
    std::fs::create_dir_all(&inputs).unwrap();
    let full = std::fs::read_to_string(skydeck_tool()).unwrap();
    std::fs::write(inputs.join("truncated.json"), &full[..full.len() / 2]).unwrap();
    std::fs::write(inputs.join("bad.yaml"), "openapi: 3.0.0\npaths: [a, b\n").unwrap();
    std::fs::write(inputs.join("latin1.json"), b"{\n  \"name\": \"caf\xe9\"\n}").unwrap();
    std::fs::write(inputs.join("unrelated.json"), "{\"compilerOptions\": {}}").unwrap();
    let run = run_in(dir.path(), &["--to", "gloodata", "in", "-o", "out"]);
    run.expect_code(1);
    for (file, position) in [("truncated.json", ":"), ("bad.yaml", ":3:"), ("latin1.json", ":2:15:")] {
        let line = run.stderr.lines().find(|l| l.contains(file)).unwrap_or_else(|| panic!("{file}: {}", run.stderr));
        assert!(line.contains(&format!("{file}{position}")), "{line}");
    }
    assert!(run.stderr.contains("unrelated.json: warning[run/skipped]"), "{}", run.stderr);
}

/// Runs convert as [`run_in`] does, failing the test when it has not ended within `seconds`:
/// a run that hangs must fail the test, not hang the suite.
fn run_bounded(cwd: &Path, args: &[&str], seconds: u64) -> Run {
    require_plugins();
    let home = tempfile::tempdir().unwrap();
    let child = command(home.path())
        .current_dir(cwd)
        .args(args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || send.send(child.wait_with_output()));
    match receive.recv_timeout(std::time::Duration::from_secs(seconds)) {
        Ok(output) => finish(output.unwrap()),
        Err(_) => {
            let _ = std::process::Command::new("kill").args(["-KILL", &pid.to_string()]).status();
            panic!("convert {args:?} did not end within {seconds} s");
        }
    }
}

#[cfg(unix)]
fn mkfifo(path: &Path) {
    assert!(std::process::Command::new("mkfifo").arg(path).status().unwrap().success());
}

/// A named pipe or a device among the inputs is refused at once, saying what it is (opening a
/// pipe would block for ever, a device may never end); the other input converts.
#[cfg(unix)]
#[test]
fn a_named_pipe_or_a_device_is_refused_not_waited_on() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(skydeck_tool(), dir.path().join("good.json")).unwrap();
    mkfifo(&dir.path().join("pipe.json"));
    let run =
        run_bounded(dir.path(), &["--from", "skydeck", "--to", "gloodata", "pipe.json", "good.json", "-o", "out"], 60);
    run.expect_code(1);
    let refused = "pipe.json: error[input/invalid]: is a named pipe (FIFO), not a regular file; give a file, or - for standard input";
    assert!(run.stderr.contains(refused), "{}", run.stderr);
    assert!(dir.path().join("out/good.gloodata.json").exists(), "{}", run.stderr);

    // Without --from (detection), and a device that never ends.
    for (input, kind) in [("pipe.json", "a named pipe (FIFO)"), ("/dev/zero", "a character device")] {
        let run = run_bounded(dir.path(), &["--to", "gloodata", input, "-o", "x.json"], 60);
        run.expect_code(1);
        assert!(
            run.stderr.contains(&format!("{input}: error[input/invalid]: is {kind}, not a regular file")),
            "{}",
            run.stderr
        );
    }
}

/// A walk reads only regular files of a kind some format reads: a named pipe named like an
/// input is skipped unopened (it blocked the run for ever), a huge unrelated file is not read
/// (it was read whole, to see whether the folder is an extension), and a file over the
/// per-file limit is refused by its size, unread, naming it. Sparse files: nothing to write.
#[cfg(unix)]
#[test]
fn a_walk_never_opens_special_files_nor_reads_large_ones() {
    let dir = tempfile::tempdir().unwrap();
    let inputs = dir.path().join("in");
    std::fs::create_dir_all(&inputs).unwrap();
    std::fs::copy(skydeck_tool(), inputs.join("good.json")).unwrap();
    mkfifo(&inputs.join("pipe.json"));
    std::fs::File::create(inputs.join("big.bin")).unwrap().set_len(16 << 30).unwrap();
    let run = run_bounded(dir.path(), &["--to", "gloodata", "in", "-o", "out"], 60);
    run.expect_code(0);
    assert!(
        run.stderr.contains("in/pipe.json: warning[run/skipped]: skipped: is a named pipe (FIFO), not a regular file"),
        "{}",
        run.stderr
    );
    assert_eq!(tree(&dir.path().join("out")), ["good.gloodata.json"]);

    std::fs::File::create(inputs.join("big.json")).unwrap().set_len(1 << 40).unwrap();
    let run = run_bounded(dir.path(), &["--to", "gloodata", "in", "-o", "out2"], 60);
    run.expect_code(1);
    let refused = "in/big.json: error[input/invalid]: is 1099511627776 bytes, over the limit of 67108864 bytes for one file; it was not read";
    assert!(run.stderr.contains(refused), "{}", run.stderr);
    assert!(dir.path().join("out2/good.gloodata.json").exists(), "{}", run.stderr);
}

/// Links in a walked folder: two to the folder itself (the walk ran until memory ran out), a
/// loop of two folders, a link to a parent, one out of the folder (it was followed): the walk
/// ends, converts each file once, and reports the link out as skipped. A link to a file inside
/// is an input under its own name.
#[cfg(unix)]
#[test]
fn a_walk_ends_on_link_loops_and_follows_no_link_out() {
    use std::os::unix::fs::symlink;
    let dir = tempfile::tempdir().unwrap();
    let (inputs, elsewhere) = (dir.path().join("in"), dir.path().join("elsewhere"));
    for folder in [inputs.join("x"), inputs.join("y"), elsewhere.clone()] {
        std::fs::create_dir_all(folder).unwrap();
    }
    std::fs::copy(skydeck_tool(), inputs.join("x/tool.json")).unwrap();
    std::fs::copy(skydeck_tool(), elsewhere.join("secret.json")).unwrap();
    symlink(".", inputs.join("self")).unwrap();
    symlink(".", inputs.join("self2")).unwrap();
    symlink("../y", inputs.join("x/to-y")).unwrap();
    symlink("../x", inputs.join("y/to-x")).unwrap();
    symlink("..", inputs.join("y/up")).unwrap();
    symlink(&elsewhere, inputs.join("outside")).unwrap();
    symlink("x/tool.json", inputs.join("alias.json")).unwrap();
    let run = run_bounded(dir.path(), &["--to", "gloodata", "in", "-o", "out"], 60);
    run.expect_code(0);
    assert_eq!(tree(&dir.path().join("out")), ["alias.gloodata.json", "x", "x/tool.gloodata.json"]);
    assert!(
        run.stderr.contains("in/outside: warning[run/skipped]: skipped: is a link to ")
            && run.stderr.contains("links are followed only inside the folder walked"),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains("secret"), "{}", run.stderr);
}

/// Vertex bodies read only the spec they name: a folder of bodies with their specs inline and
/// bodies naming one spec, beside an unrelated file that is not UTF-8 (it failed every body,
/// and each body read the whole folder).
#[test]
fn vertex_bodies_read_only_the_spec_they_name() {
    let dir = tempfile::tempdir().unwrap();
    let inputs = dir.path().join("in");
    std::fs::create_dir_all(&inputs).unwrap();
    let weather = workspace_root().join("fixtures/vertex/weather");
    let spec = std::fs::read_to_string(weather.join("weather.yaml")).unwrap();
    let named: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(weather.join("import.json")).unwrap()).unwrap();
    let mut inline = named.clone();
    inline["manifest"]["apiSpec"] = serde_json::json!({"openApiYaml": spec});
    std::fs::write(inputs.join("weather.yaml"), &spec).unwrap();
    std::fs::write(inputs.join("notes.json"), b"{\"a\": \"\xff\"}").unwrap();
    let mut args = vec!["-q".to_owned(), "--from".into(), "vertex".into(), "--to".into(), "mcp".into()];
    for i in 0..40 {
        let body = if i % 4 == 0 { &named } else { &inline };
        let name = format!("body{i:02}.json");
        std::fs::write(inputs.join(&name), body.to_string()).unwrap();
        args.push(format!("in/{name}"));
    }
    args.extend(["-o".into(), "out".into()]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let run = run_bounded(dir.path(), &args, 120);
    run.expect_code(0);
    assert_eq!(tree(&dir.path().join("out")).len(), 40, "{}", run.stderr);
}

/// A Vertex body whose `openApiGcsUri` is a placeholder names no file beside it: it converts
/// with the only OpenAPI document beside it, saying so, whether its format is given or
/// detected, and a broken file or another body beside it is no candidate and no error; with
/// two OpenAPI documents beside it, it is refused saying which file to put there.
#[test]
fn a_vertex_body_with_a_placeholder_uri_takes_the_only_spec_beside_it() {
    let dir = tempfile::tempdir().unwrap();
    let weather = workspace_root().join("fixtures/vertex/weather");
    let spec = std::fs::read_to_string(weather.join("weather.yaml")).unwrap();
    let named: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(weather.join("import.json")).unwrap()).unwrap();
    let mut placeholder = named.clone();
    placeholder["manifest"]["apiSpec"]["openApiGcsUri"] = "gs://BUCKET_NAME/SPECIFICATION_FILE_NAME.yaml".into();
    std::fs::write(dir.path().join("body.json"), placeholder.to_string()).unwrap();
    std::fs::write(dir.path().join("other-body.json"), named.to_string()).unwrap();
    std::fs::write(dir.path().join("weather.yaml"), &spec).unwrap();
    std::fs::write(dir.path().join("notes.yaml"), b"openapi: \xff").unwrap();
    let used = "body.json:1:";
    let warning = "warning[input/tolerated]: no file named `SPECIFICATION_FILE_NAME.yaml` (from \
        gs://BUCKET_NAME/SPECIFICATION_FILE_NAME.yaml) is beside the import body; used `weather.yaml`, the only \
        OpenAPI document there";
    for (from, out) in [(None, "detected.json"), (Some("vertex"), "given.json")] {
        let mut args: Vec<&str> = from.map_or(vec![], |f| vec!["--from", f]);
        args.extend(["-v", "--to", "mcp", "body.json", "-o", out]);
        let run = run_bounded(dir.path(), &args, 60);
        run.expect_code(0);
        assert!(run.stderr.contains(used) && run.stderr.contains(warning), "{from:?}: {}", run.stderr);
        let tools: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.path().join(out)).unwrap()).unwrap();
        assert_eq!(tools["tools"][0]["name"], "current", "{from:?}: {tools}");
    }

    std::fs::write(dir.path().join("weather-copy.yaml"), &spec).unwrap();
    let run = run_bounded(dir.path(), &["--to", "mcp", "body.json", "-o", "refused.json"], 60);
    run.expect_code(1);
    let refused = "error[input/missing-file]: the spec is at gs://BUCKET_NAME/SPECIFICATION_FILE_NAME.yaml, which \
        the converter does not fetch: put a copy named `SPECIFICATION_FILE_NAME.yaml` beside the import body \
        (`weather-copy.yaml` and `weather.yaml` beside it are both OpenAPI documents: which one is meant cannot be told)";
    assert!(run.stderr.contains(refused), "{}", run.stderr);
    assert!(!dir.path().join("refused.json").exists());
}

/// `--jobs` is capped at the number of inputs (100,000 threads were started for one input),
/// and 0 is a usage error saying what to give.
#[test]
fn jobs_are_capped_and_zero_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let tool = skydeck_tool();
    let run = run_bounded(
        dir.path(),
        &["-q", "--to", "gloodata", tool.to_str().unwrap(), "-o", "out.json", "--jobs", "100000"],
        60,
    );
    run.expect_code(0);
    let run = run_bounded(
        dir.path(),
        &["-q", "--to", "gloodata", tool.to_str().unwrap(), "-o", "zero.json", "--jobs", "0"],
        60,
    );
    run.expect_code(2);
    assert!(
        run.stderr.contains("0 converts nothing: give how many inputs to convert at a time, 1 or more"),
        "{}",
        run.stderr
    );
    assert!(!dir.path().join("zero.json").exists());
}

/// Two input names that differ only in bytes that are not UTF-8 stay two inputs: each is
/// reported under its own name and written to its own file (`%XX` for such bytes), where a
/// replacement character would have merged them.
#[cfg(unix)]
#[test]
fn names_that_are_not_utf8_stay_apart() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path();
    std::fs::create_dir_all(work.join("in")).unwrap();
    for name in [&b"x\xff.json"[..], &b"x\xfe.json"[..]] {
        std::fs::copy(skydeck_tool(), work.join("in").join(std::ffi::OsStr::from_bytes(name))).unwrap();
    }
    let run = run_in(work, &["-q", "--from", "skydeck", "--to", "gloodata", "in", "-o", "out", "--report", "r.json"]);
    run.expect_code(0);
    let mut written = tree(&work.join("out"));
    written.sort();
    assert_eq!(written, ["x%FE.gloodata.json", "x%FF.gloodata.json"]);
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(work.join("r.json")).unwrap()).unwrap();
    let inputs: Vec<&str> = report["inputs"].as_array().unwrap().iter().map(|i| i["input"].as_str().unwrap()).collect();
    assert_eq!(inputs.len(), 2);
    assert_ne!(inputs[0], inputs[1], "each input keeps its own name: {inputs:?}");
    no_staging_left(work);
}

// ---------------------------------------------------------------------------------------------
// Silent wrong successes and nesting without brackets (hostile input, round three): each is a
// located warning or error now, never exit 0 without a word, never a crash.
// ---------------------------------------------------------------------------------------------

/// Writes `files` (path, content) under `dir`.
fn write_files(dir: &Path, files: &[(&str, &str)]) {
    for (path, text) in files {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}

/// What a parser accepted silently is a located warning, and what it reads is kept: a repeated
/// key, an integer past 64 bits, a `required` list with a number in it, a YAML tag toolport
/// does not know (the title keeps its text), an OpenAPI `required: yes`.
#[test]
fn what_parsers_tolerate_is_said_where_it_is() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        dir.path(),
        &[
            (
                "tools.json",
                "{\"tools\": [{\"name\": \"a\", \"description\": \"first\"}],\n \"tools\": [{\"name\": \"b\", \"description\": \"d\", \"inputSchema\": {\"type\": \"object\",\n  \"properties\": {\"n\": {\"type\": \"integer\", \"maximum\": 18446744073709551617}, \"m\": {}},\n  \"required\": [7, \"n\"]}}]}\n",
            ),
            (
                "spec.yaml",
                "openapi: 3.0.0\ninfo:\n  title: !!python/str My API\n  version: '1'\npaths:\n  /a:\n    get:\n      operationId: get_a\n      parameters: [{name: q, in: query, required: yes, schema: {type: string}}]\n      responses: {'200': {description: ok}}\n",
            ),
        ],
    );
    let run = run_in(dir.path(), &["-v", "--from", "mcp", "--to", "gemini", "tools.json", "-o", "-"]);
    run.expect_code(0);
    for expected in [
        "tools.json:2:2: warning[input/tolerated]: the key `tools` appears again in this object (first at line 1, column 2)",
        "tools.json:3:54: warning[input/tolerated]: the integer 18446744073709551617 does not fit in 64 bits",
        // Located in the value that is used, the later one.
        "tools.json:4:16: warning[input/tolerated]: `required` lists property names, not a number: 7 is left out",
    ] {
        assert!(run.stderr.contains(expected), "{expected}\n{}", run.stderr);
    }
    let written: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let tool = &written["functionDeclarations"][0];
    assert_eq!(tool["name"], "b", "the later value is used: {written}");
    assert_eq!(tool["parameters"]["required"], serde_json::json!(["n"]), "the name beside it is kept: {written}");

    let run = run_in(dir.path(), &["-v", "--from", "openapi", "--to", "mcp", "spec.yaml", "-o", "-"]);
    run.expect_code(0);
    for expected in [
        "spec.yaml:3:10: warning[input/tolerated]: the tag `!!python/str` is not one toolport knows",
        "warning[input/tolerated]: `required` is a boolean, not a string: \"yes\" is not one; it is read as required (true)",
    ] {
        assert!(run.stderr.contains(expected), "{expected}\n{}", run.stderr);
    }
    let written: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(written["tools"][0]["inputSchema"]["required"], serde_json::json!(["q"]), "{written}");
    let run = run_in(dir.path(), &["inspect", "spec.yaml"]);
    run.expect_code(0);
    let model: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(model["tool_set"]["title"], "My API", "the tagged title keeps its text");
}

/// A file of a folder input that is not UTF-8 is named where it is in the folder.
#[test]
fn a_file_that_is_not_utf8_is_named_where_it_is() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        dir.path(),
        &[(
            "ext/package.json",
            r#"{"name": "ext", "title": "Ext", "description": "d", "tools": [{"name": "t", "title": "T", "description": "d"}]}"#,
        )],
    );
    std::fs::create_dir_all(dir.path().join("ext/src/tools")).unwrap();
    std::fs::write(
        dir.path().join("ext/src/tools/t.ts"),
        b"export default async function tool() {\n  return \"\xff\";\n}\n",
    )
    .unwrap();
    let run = run_in(dir.path(), &["--to", "mcp", "ext", "-o", "-"]);
    run.expect_code(1);
    let shown = Path::new("ext").join("src/tools/t.ts").display().to_string();
    assert!(run.stderr.contains(&format!("{shown}:2:11: error[input/syntax]: is not UTF-8 text")), "{}", run.stderr);
}

/// TypeScript that nests without brackets, a million levels deep (a stack overflow before):
/// type arguments, a conditional chain, an assignment chain, JSX. Each is a located error.
#[test]
fn nesting_without_brackets_is_refused_where_it_crosses_the_limit() {
    let deep = 1_000_000;
    let cases = [
        ("t.ts", format!("type Input = {{ a: {}string{} }};\n", "Array<".repeat(deep), ">".repeat(deep))),
        ("t.ts", format!("const x = {}0;\n", "a ? b : ".repeat(deep))),
        ("t.ts", format!("let a;\na = {}1;\n", "a = ".repeat(deep))),
        ("t.tsx", format!("const x = {}{};\n", "<a>".repeat(deep), "</a>".repeat(deep))),
    ];
    for (file, code) in cases {
        let dir = tempfile::tempdir().unwrap();
        write_files(
            dir.path(),
            &[
                (
                    "ext/package.json",
                    r#"{"name": "deep", "title": "Deep", "description": "d", "tools": [{"name": "t", "title": "T", "description": "d"}]}"#,
                ),
                (&format!("ext/src/tools/{file}"), &format!("{code}export default function tool() {{}}\n")),
            ],
        );
        let run = run_in(dir.path(), &["--from", "raycast", "--to", "mcp", "ext", "-o", "-"]);
        run.expect_code(1);
        assert!(
            run.stderr.contains(&format!("{file}:"))
                && run.stderr.contains("error[input/syntax]")
                && run.stderr.contains("nested deeper than 128 levels"),
            "{code:.40}: {}",
            run.stderr
        );
    }
}
