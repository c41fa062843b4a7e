use super::staging::STAGING_PREFIX;
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

fn problems(plan: &[PlannedFile], inputs: &[PathBuf], force: bool, tmp: &Path) -> Vec<String> {
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
    assert_eq!(problems(&plan, std::slice::from_ref(&input), false, root), expect);
    assert_eq!(problems(&plan[3..4], &[input], true, root), Vec::<String>::new(), "--force allows overwriting");
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

#[test]
fn stale_staging_of_a_dead_run_is_removed() {
    let dir = tempfile::tempdir().unwrap();
    // No process has this id: Linux caps ids far below it.
    let stale = dir.path().join(format!("{STAGING_PREFIX}4294967295-1"));
    std::fs::create_dir_all(stale.join("inner")).unwrap();
    let mine = Staging::new(dir.path()).unwrap();
    if cfg!(target_os = "linux") {
        assert!(!stale.exists());
    }
    assert!(mine.dir.exists());
}
