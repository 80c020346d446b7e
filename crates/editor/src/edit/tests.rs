#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Test code.

use super::*;
use glam::Vec3;
use proptest::prelude::*;
use springmesh_core::model::Shape;
use springmesh_core::{Face, SpringKind};

/// A unit square of two triangles, 0 (0,0) 1 (1,0) 2 (1,1) 3 (0,1), faces 0-1-2 and 0-2-3:
/// stretch springs 0-1, 1-2, 2-0, 2-3, 3-0 and the bend spring 1-3 across the diagonal;
/// nodes 0 and 3 anchored.
fn square() -> SpringModel {
    let mut m = SpringModel::default();
    for (x, y) in [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)] {
        m.nodes.push(Node { position: Vec3::new(x, y, 0.0), mass: 0.1 });
    }
    for (a, b, kind) in [
        (0, 1, SpringKind::Stretch),
        (1, 2, SpringKind::Stretch),
        (2, 0, SpringKind::Stretch),
        (2, 3, SpringKind::Stretch),
        (3, 0, SpringKind::Stretch),
        (1, 3, SpringKind::Bend),
    ] {
        let rest = m.distance(NodeId(a), NodeId(b)).unwrap();
        m.springs.push(Spring::new(NodeId(a), NodeId(b), rest, 100.0, kind));
    }
    for nodes in [[0, 1, 2], [0, 2, 3]] {
        m.faces.push(Face { nodes: nodes.map(NodeId), uvs: None });
    }
    m.anchors = vec![NodeId(0), NodeId(3)];
    m
}

fn pairs(m: &SpringModel) -> Vec<(u32, u32)> {
    m.springs.iter().map(|s| (s.a.0, s.b.0)).collect()
}

/// Applies `edit`, checks that its inverse restores the model exactly, and returns the
/// edited model.
fn round_trip(model: &SpringModel, edit: Edit) -> SpringModel {
    let mut edited = model.clone();
    let inverse = apply(&mut edited, edit).expect("fits");
    let mut back = edited.clone();
    apply(&mut back, inverse).expect("the inverse fits");
    assert_eq!(&back, model);
    edited
}

#[test]
fn removing_a_node_takes_its_springs_faces_and_anchor_and_renumbers_the_rest() {
    let m = round_trip(&square(), Edit::RemoveNodes(vec![NodeId(0)]));
    // Left: 1-2, 2-3 and 1-3, renumbered 1→0, 2→1, 3→2; both faces had node 0.
    assert_eq!(m.nodes.len(), 3);
    assert_eq!(pairs(&m), vec![(0, 1), (1, 2), (0, 2)]);
    assert_eq!(m.springs.kinds()[2], SpringKind::Bend);
    assert!(m.faces.is_empty());
    assert_eq!(m.anchors, vec![NodeId(2)]);
    assert_eq!(m.validate(), Ok(()));
}

#[test]
fn every_edit_is_undone_exactly() {
    let m = square();
    let added = round_trip(
        &m,
        Edit::AddSprings(vec![Spring::new(NodeId(0), NodeId(2), 1.5, 7.0, SpringKind::Manual)]),
    );
    assert_eq!(added.springs.len(), 7);
    let fewer = round_trip(&m, Edit::RemoveSprings(vec![SpringId(4), SpringId(1)]));
    assert_eq!(pairs(&fewer), vec![(0, 1), (2, 0), (2, 3), (1, 3)]);
    let stiff = Spring { stiffness: 5e4, ..m.springs.get(SpringId(2)).unwrap() };
    let set = round_trip(&m, Edit::SetSprings(vec![(SpringId(2), stiff)]));
    assert_eq!(set.springs.stiffnesses()[2], 5e4);
    let moved = Node { position: Vec3::new(2.0, 0.0, 0.0), mass: 0.5 };
    let set = round_trip(&m, Edit::SetNodes(vec![(NodeId(1), moved)]));
    assert_eq!(set.nodes.get(NodeId(1)), Some(moved));
    let toggled = round_trip(&m, Edit::ToggleAnchors(vec![NodeId(0), NodeId(1)]));
    assert_eq!(toggled.anchors, vec![NodeId(3), NodeId(1)]);
    let params = SimParams { substeps: 7, ..SimParams::default() };
    assert_eq!(round_trip(&m, Edit::SetParams(Box::new(params))).params.substeps, 7);
    assert_eq!(round_trip(&m, Edit::Replace(Box::default())), SpringModel::default());
}

#[test]
fn a_bad_edit_is_an_error_and_changes_nothing() {
    let cases = [
        (Edit::RemoveSprings(vec![SpringId(6)]), EditorError::NoSuchSpring { index: 6, count: 6 }),
        (
            Edit::RemoveNodes(vec![NodeId(1), NodeId(1)]),
            EditorError::Twice { what: "node", index: 1 },
        ),
        (
            Edit::AddSprings(vec![Spring::new(NodeId(2), NodeId(2), 1.0, 1.0, SpringKind::Manual)]),
            EditorError::SameNode { node: 2 },
        ),
        (Edit::SetAnchors(vec![NodeId(4)]), EditorError::NoSuchNode { index: 4, count: 4 }),
        (
            Edit::InsertSprings(vec![(
                SpringId(8),
                Spring::new(NodeId(0), NodeId(1), 1.0, 1.0, SpringKind::Manual),
            )]),
            EditorError::NoSuchSpring { index: 8, count: 6 },
        ),
    ];
    for (edit, error) in cases {
        let mut m = square();
        assert_eq!(apply(&mut m, edit), Err(error));
        assert_eq!(m, square());
    }
}

#[test]
fn connecting_two_nodes_makes_one_manual_spring_at_their_distance() {
    let m = square();
    let two = [NodeId(0), NodeId(2)].into();
    let springs = connecting_springs(&m, &two, Connect::Within(f32::INFINITY), 300.0, 0.5);
    // 0-2 already has a stretch spring: nothing new.
    assert!(springs.is_empty());
    let all = (0..4).map(NodeId).collect();
    // Six pairs among four nodes, five joined already... 0-1, 1-2, 2-0, 2-3, 3-0 and 1-3: all six.
    assert!(connecting_springs(&m, &all, Connect::Within(f32::INFINITY), 300.0, 0.5).is_empty());
    let mut bare = square();
    bare.springs = Default::default();
    let within = connecting_springs(&bare, &all, Connect::Within(1.0), 300.0, 0.5);
    assert_eq!(within.len(), 4, "the four sides; the diagonals are √2 m");
    assert!(within.iter().all(|s| s.rest_length == 1.0 && s.kind == SpringKind::Manual));
    let nearest = connecting_springs(&bare, &all, Connect::Nearest(1), 300.0, 0.5);
    // Each node's nearest is a side neighbour (ties go to the lower index): 0→1, 1→0, 2→1,
    // 3→0: pairs 0-1, 1-2, 0-3.
    let got: Vec<(u32, u32)> = nearest.iter().map(|s| (s.a.0, s.b.0)).collect();
    assert_eq!(got, vec![(0, 1), (0, 3), (1, 2)]);
}

/// A random edit for `m`, from raw numbers: indices are taken modulo a little more than the
/// model has, so some are out of range and must be refused.
fn edit_from(m: &SpringModel, (kind, i, j, x): (u8, u32, u32, f32)) -> Edit {
    let n = m.nodes.len() as u32 + 1;
    let s = m.springs.len() as u32 + 1;
    let node = |k: u32| NodeId(k % n);
    let spring = |k: u32| SpringId(k % s);
    match kind % 8 {
        0 => Edit::AddSprings(vec![Spring::new(
            node(i),
            node(j),
            x.abs(),
            100.0,
            SpringKind::Manual,
        )]),
        1 => Edit::RemoveSprings(vec![spring(i), spring(j)]),
        2 => {
            let base = m.springs.get(spring(i)).unwrap_or(Spring::new(
                NodeId(0),
                NodeId(1),
                1.0,
                1.0,
                SpringKind::Manual,
            ));
            Edit::SetSprings(vec![(spring(i), Spring { stiffness: x.abs(), ..base })])
        }
        3 => Edit::SetNodes(vec![(node(i), Node { position: Vec3::splat(x), mass: 0.2 })]),
        4 => Edit::ToggleAnchors(vec![node(i), node(j)]),
        5 => Edit::RemoveNodes(vec![node(i)]),
        6 => Edit::SetParams(Box::new(SimParams { damping: x.abs(), ..m.params.clone() })),
        _ => Edit::SetAnchors(vec![node(j)]),
    }
}

proptest! {
    /// Any sequence of edits, undone in reverse order, gives back the model exactly; refused
    /// edits change nothing; and every index stays within the model at every step.
    #[test]
    fn undoing_a_random_edit_sequence_restores_the_model(
        raw in prop::collection::vec((any::<u8>(), 0u32..12, 0u32..12, -3.0f32..3.0), 1..30)
    ) {
        let mut model = square();
        let original = model.clone();
        let mut undo = Vec::new();
        for r in raw {
            let edit = edit_from(&model, r);
            let before = model.clone();
            match apply(&mut model, edit) {
                Ok(inverse) => undo.push(inverse),
                Err(_) => prop_assert_eq!(&model, &before),
            }
            let n = model.nodes.len();
            prop_assert!(model.springs.iter().all(|s| s.a.index() < n && s.b.index() < n));
            prop_assert!(model.faces.nodes().iter().flatten().all(|c| c.index() < n));
            prop_assert!(model.anchors.iter().all(|a| a.index() < n));
        }
        while let Some(inverse) = undo.pop() {
            apply(&mut model, inverse).expect("an inverse always fits");
        }
        prop_assert_eq!(model, original);
    }
}

/// The square worn on one joint at the origin: every node bound to it, nodes 0 and 3
/// kinematic (max distance 0, the anchors), 1 and 2 within 0.2 m; a capsule on the joint.
fn worn_square() -> SpringModel {
    use springmesh_core::model::{Joint, JointCollider, Obstacle, Rig, Shape, Surface};
    let mut m = square();
    let capsule =
        Shape::Capsule { a: Vec3::new(0.0, 0.0, -0.5), b: Vec3::new(1.0, 0.0, -0.5), radius: 0.1 };
    m.rig = Some(Rig {
        joints: vec![Joint {
            name: "root".into(),
            parent: None,
            inverse_bind: glam::Mat4::IDENTITY,
        }],
        node_joints: vec![[0; 4]; 4],
        node_weights: vec![[1.0, 0.0, 0.0, 0.0]; 4],
        max_distance: vec![Some(0.0), Some(0.2), Some(0.2), Some(0.0)],
        backstop: Vec::new(),
        colliders: vec![JointCollider {
            joint: 0,
            collider: Obstacle { shape: capsule, surface: Surface::default() },
        }],
    });
    assert_eq!(m.validate(), Ok(()));
    m
}

#[test]
fn a_max_distance_of_zero_anchors_a_node_and_any_other_frees_it_and_undo_restores_both() {
    let m = worn_square();
    let pinned = round_trip(&m, set_max_distance(&m, &[NodeId(1)], Some(0.0)).expect("worn"));
    assert_eq!(pinned.anchors, vec![NodeId(0), NodeId(3), NodeId(1)]);
    assert_eq!(pinned.rig.as_ref().expect("worn").max_distance[1], Some(0.0));
    let freed = round_trip(&m, set_max_distance(&m, &[NodeId(0), NodeId(2)], None).expect("worn"));
    assert_eq!(freed.anchors, vec![NodeId(3)]);
    assert_eq!(
        freed.rig.as_ref().expect("worn").max_distance,
        vec![None, Some(0.2), None, Some(0.0)]
    );
    assert_eq!(freed.validate(), Ok(()));
    assert_eq!(set_max_distance(&square(), &[NodeId(1)], Some(0.1)), None, "not worn");
    // A value under the kinematic tolerance (a typed 0.0004) anchors as 0 does, stored as 0.
    let near = round_trip(&m, set_max_distance(&m, &[NodeId(2)], Some(4e-4)).expect("worn"));
    assert_eq!(near.anchors, vec![NodeId(0), NodeId(3), NodeId(2)]);
    assert_eq!(near.rig.as_ref().expect("worn").max_distance[2], Some(0.0));
}

#[test]
fn character_colliders_are_replaced_and_a_collider_on_a_missing_joint_is_refused() {
    let m = worn_square();
    let mut colliders = m.rig.as_ref().expect("worn").colliders.clone();
    colliders[0].collider.shape = Shape::Sphere { center: Vec3::ZERO, radius: 0.3 };
    let edited = round_trip(&m, set_character_colliders(&m, colliders.clone()).expect("worn"));
    assert_eq!(edited.rig.as_ref().expect("worn").colliders, colliders);
    colliders[0].joint = 1;
    let mut refused = m.clone();
    let edit = set_character_colliders(&m, colliders).expect("worn");
    assert!(matches!(apply(&mut refused, edit), Err(EditorError::BadRig { .. })));
    assert_eq!(refused, m, "a refused edit changes nothing");
    let mut plain = square();
    let edit = Edit::SetRig { rig: Box::default(), anchors: Vec::new() };
    assert_eq!(apply(&mut plain, edit), Err(EditorError::NotWorn));
}
