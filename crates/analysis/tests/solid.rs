//! Solids (`--solid`): closed meshes the project generates keep their shape under their own
//! weight when filled, and sag when not; the fill is a rigid framework; any size works.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Test code.

use glam::{DVec3, Vec3};
use springmesh_analysis::check::{CheckOptions, CheckReport, check};
use springmesh_convert::{ConvertOptions, RawMesh, SolidOptions, convert_mesh, shapes};
use springmesh_core::{SpringKind, SpringModel};
use std::path::Path;

/// The mesh converted with the command line's defaults (and `--solid`, which makes no bend
/// springs), weighing as much as water filling it
/// (`--density 1000`, the solids' default): the hollow and the filled body weigh the same.
fn convert(mesh: RawMesh, solid: bool, scale: f32) -> SpringModel {
    let options = ConvertOptions {
        solid: solid.then(SolidOptions::default),
        bend: !solid,
        mass: springmesh_convert::MassMode::Density { density: 1000.0 },
        scale,
        ..ConvertOptions::default()
    };
    let conversion = convert_mesh(mesh, &options, Path::new("shape.obj")).expect("converts");
    conversion.model.into_inner()
}

fn checked(model: &SpringModel) -> CheckReport {
    check(model, &CheckOptions::default()).expect("finite")
}

/// The four shapes of the issue, about a metre across.
fn shapes() -> [(&'static str, RawMesh); 4] {
    [
        ("sphere", shapes::sphere(Vec3::new(0.0, 0.5, 0.0), 0.5, 16, 32)),
        ("torus", shapes::torus(Vec3::ZERO, 0.4, 0.15, 36, 16)),
        ("blob", shapes::blob()),
        ("open box", shapes::open_box()),
    ]
}

#[test]
fn filled_shapes_keep_their_shape_on_the_ground_and_hollow_ones_sag() {
    for (name, mesh) in shapes() {
        let hollow = checked(&convert(mesh.clone(), false, 1.0));
        let filled_model = convert(mesh, true, 1.0);
        let filled = checked(&filled_model);
        let interior = filled_model.springs.count_by_kind()[SpringKind::Interior as usize];
        println!(
            "{name}: hollow sag {:.2}%, filled sag {:.3}% (worst node {:.2}%), shake {:.4}%; {} nodes, {interior} interior springs",
            hollow.sag.error * 100.0,
            filled.sag.error * 100.0,
            filled.sag.max_node_error * 100.0,
            filled.shake.error * 100.0,
            filled_model.nodes.len()
        );
        assert!(!hollow.stable && hollow.sag.error > 0.02, "{name} hollow: {}", hollow.sag.error);
        assert!(
            filled.stable && filled.sag.error < 0.02,
            "{name} filled: {} {:?}",
            filled.sag.error,
            filled.course
        );
    }
}

#[test]
fn the_blob_keeps_its_shape_at_a_centimetre_a_metre_and_a_hundred_metres_at_the_same_cost() {
    // The same mesh at three sizes: the same nodes, springs and sub-steps, so the same cost
    // per frame, and within 1% of its diagonal at every frame, upright.
    let mut costs = Vec::new();
    for size in [0.01f32, 1.0, 100.0] {
        let model = convert(shapes::blob(), true, size / 1.2);
        let report = checked(&model);
        println!(
            "blob {size} m: worst {:.3}% at {:.2} s, tilt {:.2}°, shake {:.4}%, {} nodes, {} springs, {} sub-steps",
            report.sag.error * 100.0,
            report.course.worst_at,
            report.course.tilt_degrees,
            report.shake.error * 100.0,
            model.nodes.len(),
            model.springs.len(),
            model.params.substeps
        );
        assert!(report.stable && report.sag.error < 0.01, "{size} m: {}", report.sag.error);
        assert!(report.course.tilt_degrees < 5.0, "{size} m: {:?}", report.course);
        costs.push((model.nodes.len(), model.springs.len(), model.params.substeps));
    }
    assert!(costs.iter().all(|&c| c == costs[0]), "{costs:?}");
}

#[test]
fn a_blob_made_too_soft_buckles_and_the_check_says_when() {
    // The blob's legs under a hundredth of the modulus that holds it, without the shape
    // matching that would hold them anyway, give way. The check measures every frame: it
    // reports the worst moment and the tilt, not only how the model lies at the end.
    let options = |youngs_modulus| ConvertOptions {
        solid: Some(SolidOptions { spacing: None, youngs_modulus, max_nodes: None }),
        bend: false,
        mass: springmesh_convert::MassMode::Density { density: 1000.0 },
        ..ConvertOptions::default()
    };
    let blob = |youngs_modulus| {
        let options = options(youngs_modulus);
        convert_mesh(shapes::blob(), &options, Path::new("blob.obj")).expect("converts")
    };
    let stiff = blob(None);
    let modulus = stiff.report.solid.as_ref().expect("filled").youngs_modulus;
    let mut soft = blob(Some(modulus / 100.0)).model.into_inner();
    soft.params.shape_matching = None;
    let (good, bad) = (checked(&stiff.model), checked(&soft));
    println!(
        "blob: {:?}, worst {:.3}%; a hundredth as stiff: {:?}, worst {:.3}%",
        good.course,
        good.sag.error * 100.0,
        bad.course,
        bad.sag.error * 100.0
    );
    assert!(good.stable && good.course.stable_base, "{:?}", good.course);
    assert!(!bad.stable, "too soft to stand");
    assert!(bad.sag.error > 0.02 && bad.sag.error >= bad.course.end_error);
    assert!(bad.course.worst_at > 0.0 && bad.course.worst_at <= 5.0 + 1e-6);
}

/// Rank of a dense symmetric matrix by Gaussian elimination with full pivoting, counting pivots
/// above `tolerance` times the largest entry.
fn rank(mut a: Vec<Vec<f64>>, tolerance: f64) -> usize {
    let n = a.len();
    let largest = a.iter().flatten().fold(0.0f64, |m, &x| m.max(x.abs()));
    let mut rank = 0;
    for step in 0..n {
        let (mut pi, mut pj, mut best) = (step, step, 0.0);
        for (i, row) in a.iter().enumerate().skip(step) {
            for (j, &x) in row.iter().enumerate().skip(step) {
                if x.abs() > best {
                    (pi, pj, best) = (i, j, x.abs());
                }
            }
        }
        if best <= tolerance * largest {
            break;
        }
        a.swap(step, pi);
        for row in &mut a {
            row.swap(step, pj);
        }
        let pivot = a[step].clone();
        for row in a.iter_mut().skip(step + 1) {
            let f = row[step] / pivot[step];
            for (x, p) in row.iter_mut().zip(&pivot).skip(step) {
                *x -= f * p;
            }
        }
        rank += 1;
    }
    rank
}

#[test]
fn a_filled_mesh_is_a_rigid_framework_with_six_zero_modes() {
    // The stiffness matrix of springs at rest: K = Σ k (e_a − e_b)(e_a − e_b)ᵀ ⊗ u uᵀ. Its null
    // space is the motions that stretch no spring: six rigid motions for a rigid framework.
    let mesh = shapes::sphere(Vec3::ZERO, 0.5, 6, 8);
    let options = ConvertOptions {
        solid: Some(SolidOptions { spacing: Some(0.3), youngs_modulus: None, max_nodes: None }),
        bend: false,
        ..ConvertOptions::default()
    };
    let model =
        convert_mesh(mesh.clone(), &options, Path::new("ball.obj")).expect("converts").model;
    let stiffness = |model: &SpringModel| {
        let p = model.nodes.positions();
        let n = 3 * p.len();
        let mut k = vec![vec![0.0f64; n]; n];
        for s in model.springs.iter() {
            let (a, b) = (s.a.index(), s.b.index());
            let u: DVec3 = (p[b] - p[a]).as_dvec3().normalize();
            let u = u.to_array();
            for i in 0..3 {
                for j in 0..3 {
                    let v = f64::from(s.stiffness) * u[i] * u[j];
                    k[3 * a + i][3 * a + j] += v;
                    k[3 * b + i][3 * b + j] += v;
                    k[3 * a + i][3 * b + j] -= v;
                    k[3 * b + i][3 * a + j] -= v;
                }
            }
        }
        (n, rank(k, 1e-9))
    };
    let interior = model.nodes.len() - mesh.positions.len();
    let (n, r) = stiffness(&model);
    println!(
        "filled ball: {} nodes ({interior} inside), {} springs, {} zero modes",
        model.nodes.len(),
        model.springs.len(),
        n - r
    );
    assert!(interior >= 4, "the fill has a lattice: {interior}");
    assert_eq!(n - r, 6, "only the rigid motions are free");
    // Without its interior springs the lattice nodes are loose: three zero modes more each
    // (the shell alone is rigid, as every convex triangulated polyhedron is, by Dehn's theorem).
    let mut loose = model.clone().into_inner();
    loose.springs = model.springs.iter().filter(|s| s.kind != SpringKind::Interior).collect();
    let (n, r) = stiffness(&loose);
    assert_eq!(n - r, 6 + 3 * interior);
}

#[test]
fn a_flat_sheet_is_no_solid_and_says_so() {
    let mut sheet = RawMesh {
        positions: vec![Vec3::ZERO, Vec3::X, Vec3::new(1.0, 1.0, 0.0), Vec3::Y],
        ..RawMesh::default()
    };
    sheet.push_triangle([0, 1, 2], None);
    sheet.push_triangle([0, 2, 3], None);
    for mass in
        [springmesh_convert::MassMode::Density { density: 1000.0 }, ConvertOptions::default().mass]
    {
        let options = ConvertOptions {
            solid: Some(SolidOptions::default()),
            mass,
            ..ConvertOptions::default()
        };
        let result = convert_mesh(sheet.clone(), &options, Path::new("sheet.obj"));
        assert!(
            matches!(result, Err(springmesh_convert::ConvertError::NotSolid { .. })),
            "{:?}",
            result.map(|c| c.report)
        );
    }
}

#[test]
fn a_body_on_thin_legs_stands_and_without_shape_matching_its_legs_give_way() {
    // A box of n × n grids has (n + 1)³ − (n − 1)³ vertices: 343 − 125 = 218 for the body,
    // 64 − 8 = 56 for each leg.
    let mesh = shapes::stilts();
    assert_eq!(mesh.positions.len(), 218 + 4 * 56);
    let model = convert(mesh, true, 1.0);
    assert!(model.skin.is_none(), "every vertex a node");
    let standing = checked(&model);
    let mut loose = model.clone();
    loose.params.shape_matching = None;
    let buckled = checked(&loose);
    println!(
        "stilts ({} nodes, {} sub-steps, shape matching {:?}): worst {:.3}% at {:.2} s, tilt {:.2}°; without: worst {:.3}% at {:.2} s, tilt {:.1}°",
        model.nodes.len(),
        model.params.substeps,
        model.params.shape_matching,
        standing.sag.error * 100.0,
        standing.course.worst_at,
        standing.course.tilt_degrees,
        buckled.sag.error * 100.0,
        buckled.course.worst_at,
        buckled.course.tilt_degrees,
    );
    assert!(standing.course.stable_base, "four feet make a base");
    assert!(standing.stable && standing.sag.error < 0.01, "{}", standing.sag.error);
    assert!(standing.course.tilt_degrees < 5.0, "{:?}", standing.course);
    assert!(!buckled.stable, "its legs give way: {:?}", buckled.course);
    assert!(buckled.sag.error > 0.02 || buckled.course.tilt_degrees > 5.0);
    assert!(buckled.course.worst_at > 0.0 && buckled.course.worst_at <= 5.0 + 1e-6);
}
