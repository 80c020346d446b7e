//! Bad input: the right exit code, a message naming the file, and existing output untouched.

use crate::{CUBE, Run, at, scratch, springmesh, write};

/// Asserts a failed run (exit 1) whose stderr is one `error: <file>: ...` line.
fn fails_naming(run: &Run, file: &str) {
    assert_eq!(run.code, 1, "stderr: {}", run.stderr);
    let first = run.stderr.lines().next().unwrap_or_default();
    assert!(first.starts_with(&format!("error: {file}: ")), "{}", run.stderr);
    assert!(
        !run.stderr.contains("panicked") && !run.stderr.contains("backtrace"),
        "{}",
        run.stderr
    );
}

#[test]
fn broken_inputs_fail_with_the_file_named_and_leave_the_output_alone() {
    let dir = scratch("bad");
    let output = at(&dir, "existing.spring");
    std::fs::write(&output, b"previous contents").unwrap();
    let good = {
        let cube = write(&dir, "cube.obj", CUBE.as_bytes());
        let spring = at(&dir, "cube.spring");
        springmesh(&["convert", &cube, "-o", &spring]).ok();
        std::fs::read(&spring).unwrap()
    };
    let glb_start = b"glTF\x02\x00\x00\x00\x00\x10\x00\x00";
    let cases: [(&str, &[u8]); 9] = [
        ("empty.obj", b""),
        ("garbage.obj", b"\x00\x01\x02 not an obj \xff\xfe"),
        ("truncated.obj", b"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2"),
        ("nan.obj", b"v 0 0 0\nv nan 0 0\nv 0 1 0\nf 1 2 3\n"),
        ("range.obj", b"v 0 0 0\nv 1 0 0\nf 1 2 3\n"),
        ("truncated.glb", glb_start),
        ("empty.spring", b""),
        ("truncated.spring", &good[..good.len() / 2]),
        ("garbage.spring", b"\x89SPR\r\n\x1a\n garbage garbage garbage garbage"),
    ];
    for (name, bytes) in cases {
        let input = write(&dir, name, bytes);
        let run = if name.ends_with(".spring") {
            springmesh(&["simulate", &input, "--output", &output])
        } else {
            springmesh(&["convert", &input, "-o", &output])
        };
        fails_naming(&run, &input);
        assert_eq!(std::fs::read(&output).unwrap(), b"previous contents", "{name}");
    }
    let index_out_of_range =
        r#"{"nodes":[{"position":[0,0,0],"mass":1}],"springs":[{"a":0,"b":3,"stiffness":1}]}"#;
    let json = write(&dir, "bad-index.spring.json", index_out_of_range.as_bytes());
    let run = springmesh(&["info", &json]);
    fails_naming(&run, &json);
    assert!(run.stderr.contains("spring 0: node index 3 out of range"), "{}", run.stderr);
    let missing = at(&dir, "missing.obj");
    fails_naming(&springmesh(&["convert", &missing, "-o", &output]), &missing);
    fails_naming(&springmesh(&["info", &at(&dir, "missing.spring")]), &at(&dir, "missing.spring"));
}

#[test]
fn unwritable_output_fails_and_names_it() {
    let dir = scratch("unwritable");
    let cube = write(&dir, "cube.obj", CUBE.as_bytes());
    // A file where a directory is needed cannot be written under, even by root.
    let blocker = write(&dir, "blocker", b"a file");
    let target = format!("{blocker}/model.spring");
    let run = springmesh(&["convert", &cube, "-o", &target]);
    assert_eq!(run.code, 1);
    assert!(run.stderr.contains(&target), "{}", run.stderr);
    let run = springmesh(&["sample", "cloth", "-o", &target]);
    assert_eq!(run.code, 1);
    assert!(run.stderr.starts_with(&format!("error: {target}: ")), "{}", run.stderr);
}

#[test]
fn bad_usage_exits_with_2() {
    for args in [
        vec![],
        vec!["convert"],
        vec!["frobnicate"],
        vec!["simulate", "x.spring", "--frames", "d"],
        vec!["info"],
    ] {
        let run = springmesh(&args);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
    }
}
