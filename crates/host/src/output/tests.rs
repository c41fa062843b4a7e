use super::staging::{MARKER, MARKER_TEXT, STAGING_PREFIX};
use super::*;

fn check(relative: &str, expect: Option<&str>) {
    let got = safe_join(Path::new("out"), relative).ok().map(|p| p.to_string_lossy().into_owned());
    assert_eq!(got.as_deref(), expect, "{relative}");
}

#[test]
fn no_path_escapes_the_output() {
    check("a.json", Some("out/a.json"));
    check("src/tools/x.ts", Some("out/src/tools/x.ts"));
    for bad in ["../x", "a/../../x", "/etc/passwd", "", "a//b", "./a", "a\\..\\b", "C:x", "a/."] {
        check(bad, None);
    }
}

fn planned(root: &Path, name: &str, owner: &str) -> PlannedFile {
    PlannedFile { path: root.join(name), owner: owner.into(), root: root.to_path_buf() }
}

fn problems(plan: &[PlannedFile], inputs: &PlanInputs, force: bool, tmp: &Path) -> Vec<String> {
    check_plan(plan, inputs, force)
        .iter()
        .map(|p| format!("{}: {}", p.owner, p.error).replace(&tmp.display().to_string(), "TMP"))
        .collect()
}

#[test]
fn plans_refuse_collisions_inputs_existing_files_links_and_folders() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let input = root.join("in.json");
    std::fs::write(&input, "{}").unwrap();
    std::fs::write(root.join("old.json"), "{}").unwrap();
    std::fs::create_dir(root.join("folder.json")).unwrap();
    let elsewhere = tempfile::tempdir().unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(elsewhere.path(), root.join("src")).unwrap();
    let plan = [
        planned(root, "a.json", "x"),
        planned(root, "a.json", "y"),
        planned(root, "in.json", "z"),
        planned(root, "old.json", "w"),
        planned(root, "folder.json", "v"),
        planned(root, "src/tools/t.ts", "u"),
    ];
    let mut expect = vec![
        "y: TMP/a.json: would be written by both x and y; nothing was written",
        "z: TMP/in.json: is an input; toolport never overwrites its inputs",
        "w: TMP/old.json: already exists; use --force to overwrite it",
        "v: TMP/folder.json: is a directory; an output file cannot replace it",
    ];
    if cfg!(unix) {
        expect.push("u: TMP/src: is a symbolic link; toolport never writes through links (writing TMP/src/tools/t.ts)");
    }
    let inputs = [input];
    assert_eq!(problems(&plan, &PlanInputs::unknown(&inputs), false, root), expect);
    // Known to be a file, the input is looked at only once an output is found in its place:
    // the same refusals.
    let known = PlanInputs { files: &inputs, others: &[], made_folder: None };
    assert_eq!(problems(&plan, &known, false, root), expect);
    assert_eq!(problems(&plan[3..4], &known, true, root), Vec::<String>::new(), "--force allows overwriting");
    // A known file read through a link is its target.
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(root.join("old.json"), root.join("link.json")).unwrap();
        let link = [root.join("link.json")];
        let through_link = PlanInputs { files: &link, others: &[], made_folder: None };
        assert_eq!(
            problems(&plan[3..4], &through_link, true, root),
            ["w: TMP/old.json: is an input; toolport never overwrites its inputs"]
        );
    }
}

#[test]
fn atomic_writes_refuse_existing_files_without_force_and_keep_modes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sub/out.json");
    write_atomic(&path, b"one", false).unwrap();
    assert!(matches!(write_atomic(&path, b"two", false), Err(OutputError::Exists(_))));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
        write_atomic(&path, b"three", true).unwrap();
        assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o640);
    }
    write_atomic(&path, b"four", true).unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "four");
    let leftovers = std::fs::read_dir(path.parent().unwrap()).unwrap().count();
    assert_eq!(leftovers, 1, "no temporary files left behind");
}

/// One input's files are placed all or none; the others go on.
#[test]
fn a_failing_input_is_taken_back_and_the_others_are_placed() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join("b/z.json")).unwrap();
    std::fs::write(root.join("b/old.json"), "old").unwrap();
    let staging = Staging::new(root).unwrap();
    let a = [(planned(root, "a/one.json", "a"), b"1".as_slice())];
    let b = [
        (planned(root, "b/new.json", "b"), b"2".as_slice()),
        (planned(root, "b/old.json", "b"), b"3".as_slice()),
        (planned(root, "b/z.json", "b"), b"4".as_slice()),
    ];
    staging.stage_all(&a).unwrap();
    staging.stage_all(&b).unwrap();
    let committed = staging.commit(true);
    assert_eq!(committed.placed, [root.join("a/one.json")]);
    assert_eq!(committed.failed.len(), 1);
    assert_eq!(committed.failed[0].owner, "b");
    assert!(matches!(committed.failed[0].error, OutputError::IsDirectory(_)));
    assert!(committed.failed[0].left_in_place.is_empty());
    assert!(!root.join("b/new.json").exists(), "a new file of the failed input is removed");
    assert_eq!(std::fs::read_to_string(root.join("b/old.json")).unwrap(), "old", "a replaced file is restored");
    drop(staging);
    let names: Vec<String> =
        std::fs::read_dir(root).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert!(names.iter().all(|n| !n.starts_with(".toolport")), "staging removed: {names:?}");
}

/// What appears in a file's place between planning and placing is never replaced without
/// force, and the failure says what it is.
#[cfg(unix)]
#[test]
fn what_appears_after_planning_is_not_replaced_and_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let staging = Staging::new(root).unwrap();
    let staged: Vec<_> = ["link", "file", "dir", "free"]
        .into_iter()
        .map(|name| (planned(root, &format!("{name}.json"), name), name.as_bytes()))
        .collect();
    for one in &staged {
        staging.stage_all(std::slice::from_ref(one)).unwrap();
    }
    std::os::unix::fs::symlink(root.join("elsewhere"), root.join("link.json")).unwrap();
    std::fs::write(root.join("file.json"), "theirs").unwrap();
    std::fs::create_dir(root.join("dir.json")).unwrap();
    let committed = staging.commit(false);
    assert_eq!(committed.placed, [root.join("free.json")]);
    let failed: Vec<(&str, &OutputError)> = committed.failed.iter().map(|f| (f.owner.as_str(), &f.error)).collect();
    assert!(matches!(failed[0], ("link", OutputError::Link { .. })), "{failed:?}");
    assert!(matches!(failed[1], ("file", OutputError::Exists(_))), "{failed:?}");
    assert!(matches!(failed[2], ("dir", OutputError::IsDirectory(_))), "{failed:?}");
    assert!(!root.join("elsewhere").exists(), "nothing written through the link");
    assert_eq!(std::fs::read_to_string(root.join("file.json")).unwrap(), "theirs");
}

/// Outputs planned in a folder the run made are not looked for before converting (nothing of
/// anyone's was there); what another program put there meanwhile is still found when the file
/// is placed, and not replaced.
#[test]
fn a_folder_the_run_made_is_not_looked_into_before_placing() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(Staging::new(dir.path()).unwrap().made_output_folder(), None, "it existed");
    let root = &dir.path().join("new/out");
    let staging = Staging::new(root).unwrap();
    assert_eq!(staging.made_output_folder(), Some(root.as_path()));
    let plan = [planned(root, "theirs.json", "a"), planned(root, "mine.json", "b")];
    std::fs::write(root.join("theirs.json"), "theirs").unwrap();
    let made = PlanInputs { made_folder: staging.made_output_folder(), ..PlanInputs::default() };
    assert_eq!(problems(&plan, &made, false, root), Vec::<String>::new(), "not looked for");
    assert_eq!(
        problems(&plan, &PlanInputs::default(), false, root),
        ["a: TMP/theirs.json: already exists; use --force to overwrite it"],
        "looked for in a folder the run did not make"
    );
    for (file, text) in [(&plan[0], b"a".as_slice()), (&plan[1], b"b")] {
        staging.stage_all(&[(file.clone(), text)]).unwrap();
    }
    let committed = staging.commit(false);
    assert_eq!(committed.placed, [root.join("mine.json")]);
    assert!(matches!(committed.failed[0].error, OutputError::Exists(_)), "{:?}", committed.failed);
    assert_eq!(std::fs::read_to_string(root.join("theirs.json")).unwrap(), "theirs");
}

/// A folder swapped for a link after a commit opened it leads nowhere: later files go into the
/// folder that was checked, through its handle; a commit that meets the link refuses it.
#[cfg(unix)]
#[test]
fn a_folder_swapped_for_a_link_during_a_commit_leads_nowhere_outside() {
    use super::place::Folders;
    let dir = tempfile::tempdir().unwrap();
    let (root, outside) = (dir.path().join("out"), dir.path().join("outside"));
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::create_dir_all(&root).unwrap();
    let temp = |name: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, name).unwrap();
        path
    };
    let mut folders = Folders::default();
    folders.place(&planned(&root, "sub/one.json", "a")).unwrap().take(&temp("one"), false).unwrap();
    std::fs::rename(root.join("sub"), root.join("moved")).unwrap();
    std::os::unix::fs::symlink(&outside, root.join("sub")).unwrap();
    folders.place(&planned(&root, "sub/two.json", "b")).unwrap().take(&temp("two"), false).unwrap();
    assert_eq!(std::fs::read_dir(&outside).unwrap().count(), 0, "nothing written through the link");
    assert_eq!(std::fs::read_to_string(root.join("moved/two.json")).unwrap(), "two");
    let refused = Folders::default().place(&planned(&root, "sub/three.json", "c")).map(|_| ()).unwrap_err();
    assert!(matches!(&refused, OutputError::Link { link, .. } if *link == root.join("sub")), "{refused:?}");
}

/// A folder named like a staging of a process that does not exist (Linux caps ids far below
/// it), as a run in another PID namespace would name its own.
fn named_like_staging(root: &Path, name: &str) -> PathBuf {
    let dir = root.join(format!("{STAGING_PREFIX}4294967295-{name}"));
    std::fs::create_dir_all(dir.join("inner")).unwrap();
    std::fs::write(dir.join("inner/0"), "staged").unwrap();
    dir
}

/// Only folders marked as toolport's staging and locked by no run are removed; a name, a
/// process id that looks dead, a link, or another marker make no staging.
#[test]
fn only_unlocked_staging_marked_as_toolports_is_removed() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let users = named_like_staging(root, "0");
    let other_marker = named_like_staging(root, "1");
    std::fs::write(other_marker.join(MARKER), "a file of the user's").unwrap();
    let locked = named_like_staging(root, "2");
    std::fs::write(locked.join(MARKER), MARKER_TEXT).unwrap();
    // Held as a live run in another PID namespace holds it.
    let lock = std::fs::File::open(locked.join(MARKER)).unwrap();
    lock.lock().unwrap();
    let abandoned = named_like_staging(root, "3");
    std::fs::write(abandoned.join(MARKER), MARKER_TEXT).unwrap();
    #[cfg(unix)]
    let linked = {
        let elsewhere = named_like_staging(&root.join("elsewhere"), "4");
        std::fs::write(elsewhere.join(MARKER), MARKER_TEXT).unwrap();
        std::os::unix::fs::symlink(&elsewhere, root.join(format!("{STAGING_PREFIX}4294967295-5"))).unwrap();
        elsewhere
    };

    let mine = Staging::new(root).unwrap();
    assert!(users.join("inner/0").exists(), "a folder that only looks like staging stays");
    assert!(other_marker.join("inner/0").exists(), "a marker that is not toolport's makes no staging");
    assert!(locked.join("inner/0").exists(), "a staging a live run holds stays");
    #[cfg(unix)]
    assert!(linked.join("inner/0").exists(), "a link named like staging is not followed");
    assert!(!abandoned.exists(), "an abandoned staging is removed");
    assert!(mine.dir().join(MARKER).exists());

    drop(lock);
    drop(Staging::new(root).unwrap());
    assert!(!locked.exists(), "once no run holds it, it is removed");
    assert!(mine.dir().join(MARKER).exists(), "a live staging is never removed");
}

/// `--force` replaces only regular files: a FIFO (or device, socket) in an output's place is
/// refused when planning, when placing and when writing a file on its own, naming what it is.
#[cfg(unix)]
#[test]
fn force_replaces_only_regular_files() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let pipe = root.join("pipe.json");
    nix::unistd::mkfifo(&pipe, nix::sys::stat::Mode::S_IRWXU).unwrap();
    let is_fifo = || std::os::unix::fs::FileTypeExt::is_fifo(&std::fs::symlink_metadata(&pipe).unwrap().file_type());
    let expected = "TMP/pipe.json: is a FIFO (named pipe); toolport replaces only regular files, even with --force";

    assert_eq!(
        problems(&[planned(root, "pipe.json", "p")], &PlanInputs::default(), true, root),
        [format!("p: {expected}")]
    );
    let refused = check_destination(&pipe).unwrap_err().to_string();
    assert_eq!(refused.replace(&root.display().to_string(), "TMP"), expected);
    let null = check_destination(Path::new("/dev/null")).unwrap_err().to_string();
    assert_eq!(null, "/dev/null: is a character device; toolport replaces only regular files, even with --force");
    assert!(check_destination(root).is_ok() && check_destination(&root.join("new.json")).is_ok());
    assert!(matches!(write_atomic(&pipe, b"x", true), Err(OutputError::NotAFile { .. })));

    // Appearing after planning: the commit refuses it too.
    std::fs::remove_file(&pipe).unwrap();
    let staging = Staging::new(root).unwrap();
    staging.stage_all(&[(planned(root, "pipe.json", "p"), b"x".as_slice())]).unwrap();
    nix::unistd::mkfifo(&pipe, nix::sys::stat::Mode::S_IRWXU).unwrap();
    let committed = staging.commit(true);
    assert!(committed.placed.is_empty());
    assert!(matches!(&committed.failed[0].error, OutputError::NotAFile { kind: "FIFO (named pipe)", .. }));
    assert!(is_fifo(), "the FIFO is still there");
}

/// The folders a run makes for its outputs go again when nothing stays in them: the output
/// folder of a run that placed nothing, and a failed input's folder.
#[test]
fn folders_a_run_made_are_removed_when_nothing_stays_in_them() {
    let dir = tempfile::tempdir().unwrap();
    drop(Staging::new(&dir.path().join("new/deeper/out")).unwrap());
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0, "the output folders made are gone");

    let root = &dir.path().join("out");
    std::fs::create_dir_all(root.join("c")).unwrap();
    std::fs::write(root.join("c/old.json"), "old").unwrap();
    let staging = Staging::new(root).unwrap();
    staging.stage_all(&[(planned(root, "a/x.json", "a"), b"a".as_slice())]).unwrap();
    let c = [(planned(root, "c/new/deep/1.json", "c"), b"c".as_slice()), (planned(root, "c/old.json", "c"), b"c")];
    staging.stage_all(&c).unwrap();
    let committed = staging.commit(false);
    assert_eq!(committed.placed, [root.join("a/x.json")]);
    assert!(matches!(committed.failed[0].error, OutputError::Exists(_)));
    assert!(!root.join("c/new").exists(), "the folders made for the failed input are gone");
    assert_eq!(std::fs::read_to_string(root.join("c/old.json")).unwrap(), "old");
    drop(staging);
    assert!(root.join("a/x.json").exists(), "a folder holding outputs stays");
}

/// A stopped commit takes back everything it placed, inputs already complete included, and
/// restores what it replaced.
#[test]
fn a_stopped_commit_takes_back_everything_it_placed() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join("b")).unwrap();
    std::fs::write(root.join("b/keep.json"), "old").unwrap();
    let staging = Staging::new(root).unwrap();
    staging.stage_all(&[(planned(root, "a/one.json", "a"), b"1".as_slice())]).unwrap();
    let b = [(planned(root, "b/keep.json", "b"), b"2".as_slice()), (planned(root, "b/zz.json", "b"), b"3")];
    staging.stage_all(&b).unwrap();
    let asked = std::cell::Cell::new(0);
    // Asked before each file: stop before the third, with a/one.json and b/keep.json placed.
    let committed = staging.commit_or_stop(true, &|| {
        asked.set(asked.get() + 1);
        asked.get() == 3
    });
    assert_eq!(committed.stopped, Some(Vec::new()), "everything was taken back");
    assert!(committed.placed.is_empty() && committed.failed.is_empty());
    assert!(!root.join("a").exists(), "a complete input and its folder are taken back");
    assert_eq!(std::fs::read_to_string(root.join("b/keep.json")).unwrap(), "old", "a replaced file is restored");
    assert!(!root.join("b/zz.json").exists());
}

/// An abandoned staging (a signal handler's) stages nothing more, is gone with the folders
/// made for it, and commits nothing.
#[test]
fn an_abandoned_staging_stages_and_commits_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let root = &dir.path().join("out");
    let staging = Staging::new(root).unwrap();
    staging.stage_all(&[(planned(root, "one.json", "a"), b"1".as_slice())]).unwrap();
    assert!(staging.abandon());
    assert!(!root.exists(), "the staging and the output folder made for it are gone");
    let late = staging.stage_all(&[(planned(root, "two.json", "b"), b"2".as_slice())]);
    assert!(matches!(late, Err(OutputError::Stopped(_))), "{late:?}");
    let committed = staging.commit(false);
    assert_eq!(committed.stopped, Some(Vec::new()));
    assert!(!root.exists());
}

#[cfg(unix)]
const ABANDONED_ALL_ROOT: &str = "TOOLPORT_TEST_ABANDONED_ALL_ROOT";

/// Once a signal handler abandoned every staging for the process to end, no staging is made:
/// the run that was still loading its plugins when the signal came cannot leave a marked
/// folder behind (seen by the signal fuzzer). In a child process: the registry is the process's.
#[cfg(unix)]
#[test]
fn after_every_staging_is_abandoned_none_is_made() {
    if let Some(root) = std::env::var_os(ABANDONED_ALL_ROOT) {
        let root = Path::new(&root);
        let staging = Staging::new(&root.join("first")).unwrap();
        assert!(super::abandon_live_staging());
        assert!(!root.join("first").exists(), "the live staging and its folder are gone");
        let late = Staging::new(&root.join("late/out"));
        assert!(matches!(late, Err(OutputError::Stopped(_))), "{late:?}");
        assert!(!root.join("late").exists(), "the folders made for it are removed");
        drop(staging);
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let child =
        run_alone("output::tests::after_every_staging_is_abandoned_none_is_made", ABANDONED_ALL_ROOT, dir.path());
    assert!(child.status.success(), "{child:?}");
    assert!(String::from_utf8_lossy(&child.stdout).contains("1 passed"), "{child:?}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

/// Set in the child process of the test below: the output root it commits into.
/// Commits `staging`, killing this process (SIGKILL) when asked about the `nth` file.
#[cfg(unix)]
fn commit_killed_before(staging: &Staging, force: bool, nth: usize) -> ! {
    let asked = std::cell::Cell::new(0);
    staging.commit_or_stop(force, &|| {
        asked.set(asked.get() + 1);
        if asked.get() == nth {
            let _ = nix::sys::signal::raise(nix::sys::signal::Signal::SIGKILL);
        }
        false
    });
    unreachable!("killed");
}

/// Runs the test `name` alone in a child process with `variable` set to `root`.
#[cfg(unix)]
fn run_alone(name: &str, variable: &str, root: &Path) -> std::process::Output {
    std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", name, "--test-threads", "1"])
        .env(variable, root)
        .output()
        .unwrap()
}

/// Runs the test `name` alone in a child process with `variable` set to `root`, and checks
/// that it was killed.
#[cfg(unix)]
fn run_killed(name: &str, variable: &str, root: &Path) {
    let child = run_alone(name, variable, root);
    assert_eq!(std::os::unix::process::ExitStatusExt::signal(&child.status), Some(9), "{child:?}");
}

#[cfg(unix)]
const KILLED_COMMIT_ROOT: &str = "TOOLPORT_TEST_KILLED_COMMIT_ROOT";

/// A commit killed outright (SIGKILL, in a child process of this test) is undone by the next
/// run in that folder, from its journal: what it placed is removed, what it replaced restored,
/// the folders it made removed; then its staging goes.
#[cfg(unix)]
#[test]
fn a_commit_killed_midway_is_undone_by_the_next_run() {
    let stage = |root: &Path| {
        let staging = Staging::new(root).unwrap();
        let a = [(planned(root, "a/one.json", "a"), b"1".as_slice()), (planned(root, "a/two.json", "a"), b"2")];
        let b = [(planned(root, "b/keep.json", "b"), b"3".as_slice()), (planned(root, "b/zz.json", "b"), b"4")];
        staging.stage_all(&a).unwrap();
        staging.stage_all(&b).unwrap();
        staging
    };
    if let Some(root) = std::env::var_os(KILLED_COMMIT_ROOT) {
        let staging = stage(Path::new(&root));
        // Killed before the fourth file: a/ and b/keep.json are placed, b/zz.json is not.
        commit_killed_before(&staging, true, 4);
    }
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join("b")).unwrap();
    std::fs::write(root.join("b/keep.json"), "old").unwrap();
    run_killed("output::tests::a_commit_killed_midway_is_undone_by_the_next_run", KILLED_COMMIT_ROOT, root);
    assert_eq!(std::fs::read_to_string(root.join("a/two.json")).unwrap(), "2", "killed mid-commit");
    assert_eq!(std::fs::read_to_string(root.join("b/keep.json")).unwrap(), "3");
    assert!(!root.join("b/zz.json").exists());

    let next = Staging::new(root).unwrap();
    assert!(!root.join("a").exists(), "the files placed and the folder made are taken back");
    assert_eq!(std::fs::read_to_string(root.join("b/keep.json")).unwrap(), "old", "the replaced file is restored");
    let left: Vec<_> = std::fs::read_dir(root).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(left.len(), 2, "b/ and the new run's staging: {left:?}");
    assert!(left.contains(&next.dir().to_path_buf()));

    // A commit that ended leaves no journal: nothing for a later run to undo.
    drop(next);
    let staging = stage(root);
    std::fs::remove_file(root.join("b/keep.json")).unwrap();
    assert!(staging.commit(false).failed.is_empty());
    assert_eq!(std::fs::read_dir(staging.dir()).unwrap().count(), 1, "only the marker is left");
}

#[cfg(unix)]
const KILLED_RELATIVE_ROOT: &str = "TOOLPORT_TEST_KILLED_RELATIVE_ROOT";

/// `-o out` for one input plans `out/...` below the root `.` (the working folder): a commit of
/// those killed outright is undone by the next run too, the folder it made included. (Its
/// journal named them from the file system's root, which the next run refuses to follow, and
/// `out` was made as if it were the root the user named, never journaled.)
#[cfg(unix)]
#[test]
fn a_commit_killed_midway_below_the_working_folder_is_undone_by_the_next_run() {
    if let Some(root) = std::env::var_os(KILLED_RELATIVE_ROOT) {
        // A child process of this test: its working folder is its own to change.
        std::env::set_current_dir(&root).unwrap();
        let here = Path::new(".");
        let planned = |path: &str| PlannedFile { path: path.into(), owner: "a".into(), root: here.to_path_buf() };
        let staging = Staging::new(here).unwrap();
        let files = [(planned("out/one.json"), b"1".as_slice()), (planned("out/two.json"), b"2")];
        staging.stage_all(&files).unwrap();
        // Killed before the second file: out/ and out/one.json are placed.
        commit_killed_before(&staging, false, 2);
    }
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let name = "output::tests::a_commit_killed_midway_below_the_working_folder_is_undone_by_the_next_run";
    run_killed(name, KILLED_RELATIVE_ROOT, root);
    assert_eq!(std::fs::read_to_string(root.join("out/one.json")).unwrap(), "1", "killed mid-commit");

    let next = Staging::new(root).unwrap();
    let left: Vec<_> = std::fs::read_dir(root).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(left, [next.dir().to_path_buf()], "the file placed and the folder made are taken back");
}
