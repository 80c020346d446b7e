//! Issue 15, acceptance 2: re-converting an edited mesh keeps the hand edits.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Test code.

use springmesh_convert::keep::keep_edits;
use springmesh_convert::{ConvertOptions, convert_file};
use springmesh_core::{NodeId, Spring, SpringKind, SpringModel};
use std::path::{Path, PathBuf};

/// A 10 × 10 grid OBJ, 0.1 m apart in x and z (vertex i at (i % 10, 0, i / 10) × 0.1); vertex
/// `moved` raised by 1 cm; vertex `gone` (if any) used by no face.
fn grid(dir: &Path, name: &str, moved: Option<usize>, gone: Option<usize>) -> PathBuf {
    let mut obj = String::new();
    for i in 0..100 {
        let y = if Some(i) == moved { 0.01 } else { 0.0 };
        obj += &format!("v {} {y} {}\n", (i % 10) as f32 * 0.1, (i / 10) as f32 * 0.1);
    }
    for j in 0..9 {
        for i in 0..9 {
            let a = j * 10 + i;
            for t in [[a, a + 10, a + 1], [a + 1, a + 10, a + 11]] {
                if gone.is_none_or(|g| !t.contains(&g)) {
                    obj += &format!("f {} {} {}\n", t[0] + 1, t[1] + 1, t[2] + 1);
                }
            }
        }
    }
    let path = dir.join(name);
    std::fs::write(&path, obj).unwrap();
    path
}

fn spring(m: &SpringModel, a: u32, b: u32) -> Option<Spring> {
    m.springs.iter().find(|s| s.pair() == (NodeId(a.min(b)), NodeId(a.max(b))))
}

/// The converted grid with five edits: two corners anchored, a manual spring 0–99, the
/// stretch spring 44–45 deleted, spring 11–12 at 1234 N/m, node 55 at 0.5 kg.
fn edited(dir: &Path) -> SpringModel {
    let mut m = convert_file(&grid(dir, "grid.obj", None, None), &ConvertOptions::default())
        .unwrap()
        .model
        .into_inner();
    m.anchors = vec![NodeId(0), NodeId(9)];
    let mut springs: Vec<Spring> =
        m.springs.iter().filter(|s| s.pair() != (NodeId(44), NodeId(45))).collect();
    for s in &mut springs {
        if s.pair() == (NodeId(11), NodeId(12)) {
            s.stiffness = 1234.0;
        }
    }
    springs.push(Spring::new(NodeId(0), NodeId(99), 1.27, 50.0, SpringKind::Manual));
    m.springs = springs.into_iter().collect();
    m.nodes.masses_mut()[55] = 0.5;
    m
}

#[test]
fn a_moved_vertex_keeps_every_edit() {
    let dir = std::env::temp_dir().join(format!("springmesh-keep-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let old = edited(&dir);
    assert!(spring(&old, 44, 45).is_none() && spring(&old, 0, 99).is_some());
    let options = ConvertOptions::from_metadata(&old.metadata.conversion).expect("recorded");
    assert_eq!(options, ConvertOptions::default(), "the recorded options read back");
    let mut new = convert_file(&grid(&dir, "moved.obj", Some(22), None), &options).unwrap();
    let kept = keep_edits(&old, &mut new, &options, Path::new("old.spring")).unwrap();
    let m = &new.model;
    println!("kept {:?}, dropped {:?}", kept.kept, kept.dropped);
    assert_eq!(m.anchors, vec![NodeId(0), NodeId(9)]);
    assert_eq!(spring(m, 0, 99).map(|s| (s.kind, s.stiffness)), Some((SpringKind::Manual, 50.0)));
    assert!(spring(m, 44, 45).is_none(), "the deleted spring stays deleted");
    assert_eq!(spring(m, 11, 12).map(|s| s.stiffness), Some(1234.0));
    assert_eq!(m.nodes.masses()[55], 0.5);
    assert!(
        (m.nodes.positions()[22].y - 0.01).abs() < 1e-7,
        "the moved vertex is where the new mesh puts it"
    );
    assert!(kept.dropped.is_empty(), "{:?}", kept.dropped);
    assert_eq!(
        kept.kept.values().sum::<usize>(),
        6,
        "2 anchors, 1 added, 1 deleted, 1 changed, 1 mass"
    );

    // The vertex an anchor was on is deleted: that anchor (and the spring to it) is dropped.
    let mut new = convert_file(&grid(&dir, "gone.obj", None, Some(0)), &options).unwrap();
    let kept = keep_edits(&old, &mut new, &options, Path::new("old.spring")).unwrap();
    let dropped: Vec<&str> = kept.dropped.iter().map(|d| d.edit.as_str()).collect();
    assert!(dropped.contains(&"anchor on node 0"), "{dropped:?}");
    assert!(kept.dropped.iter().all(|d| d.reason == "node 0 has no match in the new mesh"));
}

/// A UV sphere of 1 m diameter (40 rings of 75 segments, 2,927 vertices) with vertex `moved`
/// pushed 1 mm outwards.
fn ball(moved: Option<usize>) -> springmesh_convert::RawMesh {
    let mut mesh = springmesh_convert::shapes::sphere(glam::Vec3::new(0.0, 0.5, 0.0), 0.5, 40, 75);
    if let Some(v) = moved {
        let p = mesh.positions[v];
        mesh.positions[v] = p + (p - glam::Vec3::new(0.0, 0.5, 0.0)).normalize() * 1e-3;
    }
    mesh
}

#[test]
fn a_caged_solid_keeps_its_edits_on_its_cage() {
    use springmesh_convert::{MassMode, SolidOptions, convert_mesh};
    let options = ConvertOptions {
        solid: Some(SolidOptions { max_nodes: Some(200), ..SolidOptions::default() }),
        bend: false,
        mass: MassMode::Density { density: 1000.0 },
        ..ConvertOptions::default()
    };
    let source = Path::new("ball.obj");
    let mut old = convert_mesh(ball(None), &options, source).unwrap().model.into_inner();
    assert!(old.skin.is_some(), "2,927 vertices over a budget of 200: a cage");
    let deleted = old.springs.iter().next().unwrap().pair();
    old.anchors = vec![NodeId(3), NodeId(7)];
    old.springs = old.springs.iter().filter(|s| s.pair() != deleted).collect();
    old.nodes.masses_mut()[5] *= 2.0;
    let recorded = ConvertOptions::from_metadata(&old.metadata.conversion).expect("recorded");

    let mut new = convert_mesh(ball(Some(1000)), &recorded, source).unwrap();
    let kept = keep_edits(&old, &mut new, &recorded, Path::new("old.spring")).unwrap();
    println!("kept {:?}, dropped {:?}", kept.kept, kept.dropped);
    assert!(kept.dropped.is_empty(), "{:?}", kept.dropped);
    let m = &new.model;
    assert_eq!(m.nodes.len(), old.nodes.len(), "the same cage");
    assert_eq!(m.anchors, vec![NodeId(3), NodeId(7)]);
    assert!(spring(m, deleted.0.0, deleted.1.0).is_none(), "the deleted spring stays deleted");
    assert_eq!(m.nodes.masses()[5], old.nodes.masses()[5]);
    assert_eq!(kept.kept.values().sum::<usize>(), 4, "2 anchors, 1 deleted spring, 1 mass");
    let skin = m.skin.as_ref().unwrap();
    assert!(skin.positions()[1000].distance(ball(Some(1000)).positions[1000]) < 1e-6);
}
