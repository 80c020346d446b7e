//! `springmesh simulate`: JSON fields, every flag family, and the benchmark cloth.

use crate::common::{GridSprings, grid_cloth};
use crate::{at, read_pc2, scratch, springmesh};
use serde_json::Value;
use springmesh_core::io;

fn cloth(dir: &std::path::Path) -> String {
    let path = at(dir, "cloth.spring");
    springmesh(&["sample", "cloth", "-o", &path]).ok();
    path
}

fn num(v: &Value, key: &str) -> f64 {
    v[key].as_f64().unwrap_or_else(|| panic!("{key} in {v}"))
}

#[test]
fn json_reports_every_field() {
    let dir = scratch("simulate-json");
    let v = springmesh(&["simulate", &cloth(&dir), "--seconds", "0.5", "--json"]).ok().json();
    for key in [
        "steps",
        "sim_seconds",
        "wall_seconds",
        "step_wall_seconds",
        "finite",
        "kinetic_energy",
        "elastic_energy",
        "gravitational_energy",
        "broken_springs",
        "max_speed",
    ] {
        assert!(v.get(key).is_some(), "{key} missing from {v}");
    }
    assert_eq!(v["steps"], 30);
    assert!((num(&v, "sim_seconds") - 0.5).abs() < 1e-6);
    assert_eq!(v["finite"], true);
    assert!(
        num(&v, "step_wall_seconds") > 0.0
            && num(&v, "step_wall_seconds") <= num(&v, "wall_seconds")
    );
    // 625 nodes of 10 g start 1.5 m up: 6.25 kg · 9.81 m/s² · 1.5 m = 92 J of potential energy.
    assert!(
        num(&v, "kinetic_energy") > 0.0 && num(&v, "gravitational_energy") < 90.0,
        "it falls: {v}"
    );
    assert!(num(&v, "max_speed") > 1.0);
}

#[test]
fn time_step_integrator_gravity_and_damping_flags() {
    let dir = scratch("simulate-flags");
    let file = cloth(&dir);
    let run = |extra: &[&str]| {
        let mut args = vec!["simulate", file.as_str(), "--seconds", "0.2", "--json"];
        args.extend_from_slice(extra);
        springmesh(&args).ok().json()
    };
    assert_eq!(run(&["--dt", "0.01"])["steps"], 20);
    let still = run(&["--no-gravity"]);
    assert_eq!(
        (num(&still, "kinetic_energy"), num(&still, "max_speed")),
        (0.0, 0.0),
        "nothing moves it"
    );
    for integrator in ["explicit", "adaptive", "xpbd"] {
        let v = run(&["--integrator", integrator, "--substeps", "64"]);
        assert_eq!(v["finite"], true, "{integrator}");
    }
    let free = num(&run(&["--damping", "0"]), "kinetic_energy");
    let damped = num(&run(&["--damping", "20"]), "kinetic_energy");
    assert!(damped < 0.5 * free, "damping slows the fall: {damped} vs {free}");
    assert!(
        springmesh(&["simulate", &file, "--seconds", "0.1", "--parallel", "--json"]).ok().json()["finite"]
            == true
    );
    for bad in [["--dt", "0"], ["--substeps", "0"], ["--damping", "-1"], ["--seconds", "-3"]] {
        let mut args = vec!["simulate", file.as_str()];
        args.extend_from_slice(&bad);
        assert_eq!(springmesh(&args).code, 2, "{bad:?}");
    }
}

#[test]
fn trajectory_frames_and_output() {
    let dir = scratch("simulate-files");
    let file = cloth(&dir);
    let csv = at(&dir, "t.csv");
    let frames = dir.join("frames");
    let out = at(&dir, "end.spring.json");
    springmesh(&[
        "simulate",
        &file,
        "--seconds",
        "0.5",
        "--trajectory",
        &csv,
        "--nodes",
        "0,7,624",
        "--frames",
        frames.to_str().unwrap(),
        "--fps",
        "10",
        "--output",
        &out,
    ])
    .ok();
    let text = std::fs::read_to_string(&csv).unwrap();
    let rows: Vec<&str> = text.lines().collect();
    assert_eq!(rows[0], "time,node,x,y,z");
    assert_eq!(rows.len(), 1 + 3 * 31, "3 nodes at 31 instants (0 to 30 steps)");
    assert!(rows[1].starts_with("0.000000,0,") && rows[3].starts_with("0.000000,624,"));
    let names: Vec<String> = {
        let mut n: Vec<String> = std::fs::read_dir(&frames)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        n.sort();
        n
    };
    assert_eq!(names.len(), 6, "t = 0, 0.1, ..., 0.5: {names:?}");
    assert_eq!(names[0], "frame_00001.obj");
    let obj = std::fs::read_to_string(frames.join("frame_00006.obj")).unwrap();
    assert_eq!(obj.lines().filter(|l| l.starts_with("v ")).count(), 625);
    assert_eq!(obj.lines().filter(|l| l.starts_with("vt ")).count(), 625);
    assert_eq!(obj.lines().filter(|l| l.starts_with("f ")).count(), 1152);
    assert!(obj.lines().any(|l| l.starts_with("f ") && l.contains('/')), "faces carry uvs");
    let end = io::load(out.as_ref()).unwrap();
    let start = io::load(file.as_ref()).unwrap();
    assert_eq!(end.springs, start.springs, "rest lengths unchanged");
    assert!(
        end.nodes.positions()[624].y < start.nodes.positions()[624].y - 0.1,
        "final positions saved"
    );
    // The trajectory must name existing nodes.
    assert_eq!(springmesh(&["simulate", &file, "--trajectory", &csv, "--nodes", "9999"]).code, 2);
}

/// The 128 × 128 cloth of the core benchmark (Xpbd, 5 sub-steps, k = 1e5 N/m, 1 kg nodes):
/// the CLI's step_wall_seconds is the stepping alone, comparable with `cargo bench -p
/// springmesh-core` (xpbd/128).
#[test]
fn benchmark_cloth_reports_stepping_time() {
    let dir = scratch("simulate-bench");
    let mut model = grid_cloth(128, 0.05, 1.0, GridSprings { stiffness: 1e5, damping: 0.0 });
    model.params.substeps = 5;
    let file = at(&dir, "bench.spring");
    io::save(&springmesh_core::ValidModel::new(model.clone()).unwrap(), file.as_ref()).unwrap();
    let v = springmesh(&["simulate", &file, "--seconds", "0.5", "--json"]).ok().json();
    let per_frame = num(&v, "step_wall_seconds") / num(&v, "steps");
    println!(
        "benchmark cloth: {} springs, {:.3} ms per 60 Hz frame (wall {:.3} s for {} steps)",
        model.springs.len(),
        per_frame * 1e3,
        num(&v, "wall_seconds"),
        v["steps"]
    );
    assert_eq!(v["steps"], 30);
    assert!(per_frame > 0.0 && num(&v, "step_wall_seconds") < num(&v, "wall_seconds"));
}

#[test]
fn a_failed_run_leaves_existing_outputs_as_they_were() {
    // Issue 16: a run that blows up (a stiff spring stepped explicitly at 60 Hz) used to
    // replace an existing --output and write the trajectory of the failed run.
    let dir = scratch("simulate-failed");
    let stiff = r#"{"nodes":[{"position":[0,0,0],"mass":0.001},{"position":[1.5,0,0],"mass":0.001}],
        "springs":[{"a":0,"b":1,"stiffness":1e9,"rest_length":1}],
        "params":{"integrator":"explicit","substeps":1,"gravity":[0,0,0],"damping":0}}"#;
    let model = crate::write(&dir, "stiff.spring.json", stiff.as_bytes());
    let out = crate::write(&dir, "out.spring.json", b"previous output");
    let trajectory = crate::write(&dir, "trajectory.csv", b"previous trajectory");
    let frames = dir.join("frames");
    std::fs::create_dir_all(&frames).unwrap();
    let first = crate::write(&frames, "frame_00001.obj", b"previous frame");
    let frames = frames.display().to_string();
    let run = springmesh(&[
        "simulate",
        &model,
        "--seconds",
        "10",
        "--output",
        &out,
        "--trajectory",
        &trajectory,
        "--frames",
        &frames,
        "--fps",
        "30",
        "--pc2",
        &at(&dir, "never.pc2"),
        "--json",
    ]);
    assert_eq!(run.code, 1, "the run fails: {}", run.stderr);
    assert!(run.stderr.starts_with("error: "), "{}", run.stderr);
    assert_eq!(std::fs::read(&out).unwrap(), b"previous output");
    assert_eq!(std::fs::read(&trajectory).unwrap(), b"previous trajectory");
    assert_eq!(std::fs::read(&first).unwrap(), b"previous frame");
    assert_eq!(std::fs::read_dir(&frames).unwrap().count(), 1, "no frame of the failed run");
    assert!(!dir.join("never.pc2").exists(), "no point cache of the failed run");
    let leftovers = std::fs::read_dir(&dir).unwrap().count();
    assert_eq!(leftovers, 4, "no temporary file left behind");
    // The report is of the last finite state, in numbers (it printed null energies), and
    // says why the run stopped.
    let v = run.json();
    assert_eq!(v["finite"], false);
    assert_eq!(v["frames"], 0);
    for field in ["kinetic_energy", "elastic_energy", "gravitational_energy", "gas_energy"] {
        assert!(v[field].as_f64().is_some_and(f64::is_finite), "{field}: {}", v[field]);
    }
    assert!(
        v["error"].as_str().is_some_and(|e| e.contains("would become non-finite")),
        "{}",
        v["error"]
    );
}

#[test]
fn frames_of_a_run_that_finishes_are_all_there() {
    let dir = scratch("simulate-frames");
    let model = dir.join("string.spring").display().to_string();
    springmesh(&["sample", "string", "-o", &model]).ok();
    let frames = dir.join("frames").display().to_string();
    let v = springmesh(&[
        "simulate",
        &model,
        "--seconds",
        "1",
        "--frames",
        &frames,
        "--fps",
        "10",
        "--json",
    ])
    .ok()
    .json();
    assert_eq!(v["frames"], 11, "t = 0, 0.1, ..., 1.0");
    let names: Vec<String> = std::fs::read_dir(&frames)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 11, "no staging folder left: {names:?}");
    assert!(names.contains(&"frame_00011.obj".to_string()));
}

#[cfg(unix)]
#[test]
fn an_output_that_is_not_a_regular_file_is_refused() {
    // Issue 16: as root, -o naming a device node replaced the device with a file.
    let dir = scratch("simulate-device");
    let model = dir.join("string.spring").display().to_string();
    springmesh(&["sample", "string", "-o", &model]).ok();
    let folder = dir.join("a-folder");
    std::fs::create_dir_all(&folder).unwrap();
    for target in ["/dev/null", &folder.display().to_string()] {
        for args in [
            vec!["simulate", &model, "--seconds", "0.1", "--output", target],
            vec!["convert", "x.obj", "-o", target],
            vec!["sample", "cloth", "-o", target],
        ] {
            if args[0] == "convert" && target != "/dev/null" {
                continue; // a folder is convert's directory output
            }
            let run = springmesh(&args);
            assert_ne!(run.code, 0, "{args:?}");
            if args[0] != "convert" {
                assert!(run.stderr.contains("is not a regular file"), "{args:?}: {}", run.stderr);
            }
        }
    }
    assert!(std::fs::metadata("/dev/null").is_ok_and(|m| !m.is_file()));
}

/// MDD, read as its layout says (big endian): frame times, then frames of (x, y, z).
fn read_mdd(bytes: &[u8]) -> (Vec<f32>, Vec<Vec<[f32; 3]>>) {
    let int = |at: usize| i32::from_be_bytes(bytes[at..at + 4].try_into().unwrap());
    let float = |at: usize| f32::from_be_bytes(bytes[at..at + 4].try_into().unwrap());
    let (frames, points) = (int(0) as usize, int(4) as usize);
    let times = (0..frames).map(|f| float(8 + 4 * f)).collect();
    let data = 8 + 4 * frames;
    assert_eq!(bytes.len(), data + frames * points * 12);
    let frames = (0..frames)
        .map(|f| {
            (0..points)
                .map(|p| std::array::from_fn(|k| float(data + ((f * points + p) * 3 + k) * 4)))
                .collect()
        })
        .collect();
    (times, frames)
}

#[test]
fn point_caches_hold_the_trajectory() {
    // Issue 15, acceptance 3: one frame per step, so frame k is the trajectory's step k.
    let dir = scratch("simulate-caches");
    let model = at(&dir, "string.spring");
    springmesh(&["sample", "string", "-o", &model]).ok();
    let (csv, pc2, mdd) = (at(&dir, "t.csv"), at(&dir, "s.pc2"), at(&dir, "s.mdd"));
    let dt = format!("{}", 1.0f32 / 60.0);
    springmesh(&[
        "simulate",
        &model,
        "--seconds",
        "0.5",
        "--dt",
        &dt,
        "--trajectory",
        &csv,
        "--pc2",
        &pc2,
        "--mdd",
        &mdd,
        "--fps",
        "60",
    ])
    .ok();
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut steps: Vec<Vec<[f32; 3]>> = Vec::new();
    let mut times: Vec<f32> = Vec::new();
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let (time, node): (f32, usize) = (f[0].parse().unwrap(), f[1].parse().unwrap());
        if node == 0 {
            steps.push(Vec::new());
            times.push(time);
        }
        let xyz = [f[2], f[3], f[4]].map(|v| v.parse::<f32>().unwrap());
        steps.last_mut().unwrap().push(xyz);
    }
    assert_eq!(steps.len(), 31, "t = 0 and 30 steps");
    let pc2 = read_pc2(&std::fs::read(&pc2).unwrap());
    let (mdd_times, mdd) = read_mdd(&std::fs::read(&mdd).unwrap());
    assert_eq!(pc2, steps, "PC2 frames are the trajectory's steps");
    assert_eq!(mdd, steps, "MDD frames too");
    for (a, b) in mdd_times.iter().zip(&times) {
        assert!((a - b).abs() < 1e-5, "frame times: {a} against {b}");
    }
}

#[test]
fn tethers_can_be_switched_off_for_a_run() {
    // The cloth sample (a converted sheet: tethers on) hanging from two corners for 10 s:
    // without tethers its springs stretch further at the same sub-steps, and hold more energy.
    let dir = scratch("simulate-tethers");
    let model = at(&dir, "cloth.spring");
    springmesh(&["sample", "cloth", "-o", &model]).ok();
    let elastic = |extra: &[&str]| {
        let mut args = vec!["simulate", &model, "--seconds", "10", "--json"];
        args.extend_from_slice(extra);
        let out = springmesh(&args).ok().stdout;
        let json: Value = serde_json::from_str(&out).unwrap();
        json["elastic_energy"].as_f64().unwrap()
    };
    let (with, without) = (elastic(&[]), elastic(&["--no-tethers"]));
    println!("cloth: elastic energy {with:.4} J with tethers, {without:.4} J without");
    assert!(without > 5.0 * with, "{without} against {with}");
}

/// A pendulum: a node anchored at (x, 1, 0), a 1 g node 0.2 m along x from it, swinging on a
/// 100 N/m spring; a ground 1 m down when `ground`.
fn pendulum(x: f32, ground: bool) -> String {
    let ground = if ground { r#","ground":{"height":0}"# } else { "" };
    format!(
        r#"{{"nodes":[{{"position":[{x},1,0],"mass":0.001}},{{"position":[{},1,0],"mass":0.001}}],
        "springs":[{{"a":0,"b":1,"stiffness":100}}],"anchors":[0],"params":{{"damping":0{ground}}}}}"#,
        x + 0.2
    )
}

#[test]
fn several_models_share_one_world() {
    // Two pendulums 5 m apart never meet: in one world each swings as it does alone, and the
    // point cache holds the first's points, then the second's.
    let dir = scratch("simulate-world");
    let a = crate::write(&dir, "a.spring.json", pendulum(0.0, true).as_bytes());
    let b = crate::write(&dir, "b.spring.json", pendulum(5.0, false).as_bytes());
    let cache = |files: &[&str], name: &str| {
        let pc2 = at(&dir, name);
        let mut args = vec!["simulate"];
        args.extend_from_slice(files);
        args.extend_from_slice(&["--seconds", "0.5", "--pc2", &pc2, "--fps", "60", "--json"]);
        let run = springmesh(&args).ok();
        (read_pc2(&std::fs::read(&pc2).unwrap()), run.json())
    };
    let (alone_a, _) = cache(&[&a], "a.pc2");
    let (alone_b, _) = cache(&[&b], "b.pc2");
    let (both, json) = cache(&[&a, &b], "both.pc2");
    assert_eq!(both.len(), 31, "t = 0 and 30 frames");
    for (k, frame) in both.iter().enumerate() {
        assert_eq!(frame[..2], alone_a[k][..], "frame {k}: the first's points");
        assert_eq!(frame[2..], alone_b[k][..], "frame {k}: then the second's");
    }
    let bodies = json["bodies"].as_array().expect("each body's figures");
    assert_eq!(bodies.len(), 2);
    assert!(bodies.iter().all(|b| b["finite"] == true && b["steps"] == 30), "{json}");
    let refused = springmesh(&["simulate", &a, &b, "--output", &at(&dir, "o.spring")]);
    assert_eq!(refused.code, 2, "one model's output: {}", refused.stderr);
    // A pendulum cut loose (no anchor, no ground of its own) falls 1 s: alone through y = 0,
    // in the first's world onto its ground.
    let loose = pendulum(10.0, false).replace(r#""anchors":[0],"#, "");
    let c = crate::write(&dir, "c.spring.json", loose.as_bytes());
    let lowest = |files: &[&str], name: &str| {
        let pc2 = at(&dir, name);
        let mut args = vec!["simulate"];
        args.extend_from_slice(files);
        args.extend_from_slice(&["--seconds", "1", "--pc2", &pc2, "--fps", "60"]);
        springmesh(&args).ok();
        let frames = read_pc2(&std::fs::read(&pc2).unwrap());
        let last = frames.last().unwrap().clone();
        last[last.len() - 2..].iter().map(|p| p[1]).fold(f32::MAX, f32::min)
    };
    assert!(lowest(&[&c], "c.pc2") < -2.0, "alone it falls through");
    assert!(lowest(&[&a, &c], "ac.pc2") >= 0.0, "with the first's ground it lands");
}

#[test]
fn a_capsule_given_on_the_command_line_holds_what_falls_on_it() {
    // A loose pendulum (two 1 g nodes 0.2 m apart along x, 1 m up) falls onto a capsule lying
    // along x at y = 0.5, 0.1 m thick: at no frame is a node inside it, and it comes to rest
    // on it.
    let dir = scratch("simulate-capsule");
    let loose = pendulum(0.0, false).replace(r#""anchors":[0],"#, "");
    let model = crate::write(&dir, "loose.spring.json", loose.as_bytes());
    let pc2 = at(&dir, "fall.pc2");
    let capsule = "capsule:-1,0.5,0,1,0.5,0,0.1";
    springmesh(&[
        "simulate",
        &model,
        "--collider",
        capsule,
        "--seconds",
        "2",
        "--pc2",
        &pc2,
        "--fps",
        "60",
    ])
    .ok();
    let frames = read_pc2(&std::fs::read(&pc2).unwrap());
    assert_eq!(frames.len(), 121);
    for (k, frame) in frames.iter().enumerate() {
        for p in frame {
            // The distance from the node to the axis (the segment from x = -1 to 1 at y = 0.5).
            let along = p[0].clamp(-1.0, 1.0);
            let d = ((p[0] - along).powi(2) + (p[1] - 0.5).powi(2) + p[2].powi(2)).sqrt();
            assert!(d >= 0.1 - 1e-4, "frame {k}: a node {d} m from the axis, inside");
        }
    }
    let last = frames.last().unwrap();
    assert!(last.iter().all(|p| p[1] > 0.55), "it rests on the capsule: {last:?}");
    let bad = springmesh(&["simulate", &model, "--collider", "capsule:0,0,0,1,0,0,-1"]);
    assert_ne!(bad.code, 0);
    assert!(bad.stderr.contains("colliders[0].radius"), "{}", bad.stderr);
}

#[test]
fn bodies_placed_overlapping_are_warned_of() {
    // The cloth sample twice, one on the other: every surface point of one is on one of the
    // other's (625 pairs at least). The same cloth with a pendulum far away: no warning.
    let dir = scratch("simulate-overlap");
    let cloth = at(&dir, "cloth.spring");
    springmesh(&["sample", "cloth", "-o", &cloth]).ok();
    let run = springmesh(&["simulate", &cloth, &cloth, "--seconds", "0.05"]).ok();
    let warning = run.stderr.lines().find(|l| l.contains("start overlapping"));
    let warning = warning.unwrap_or_else(|| panic!("warned: {}", run.stderr));
    let pairs: usize = warning
        .split('(')
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("a count: {warning}"));
    assert!(pairs >= 625, "{warning}");
    let far = crate::write(&dir, "far.spring.json", pendulum(50.0, false).as_bytes());
    let run = springmesh(&["simulate", &cloth, &far, "--seconds", "0.05"]).ok();
    assert!(!run.stderr.contains("overlapping"), "{}", run.stderr);
}
