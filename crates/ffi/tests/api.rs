//! Issue 14, acceptance 2: the C API called from Rust as C would call it. Null pointers, a
//! garbage file, a truncated buffer, a NaN or negative time step, an anchor index out of range:
//! an error code and a message, no crash, and the state unchanged.
#![allow(unsafe_code)] // Calling the extern "C" functions is what is tested.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Test code.

use springmesh::*;
use springmesh_core::io::{self, FileFormat};
use springmesh_core::{Node, NodeId, Spring, SpringKind, SpringModel};
use std::ffi::{CStr, CString};
use std::path::Path;
use std::ptr::{null, null_mut};

/// This thread's last error.
fn last_error() -> String {
    // SAFETY: sm_last_error returns a NUL-terminated string valid until the next failing call.
    unsafe { CStr::from_ptr(sm_last_error()) }.to_string_lossy().into_owned()
}

/// A hanging chain of 4 nodes, node 0 anchored, with one face, as `.spring` bytes.
fn chain_bytes() -> Vec<u8> {
    let mut m = SpringModel::default();
    for i in 0..4 {
        m.nodes.push(Node { position: glam::Vec3::new(i as f32 * 0.1, 0.0, 0.0), mass: 0.01 });
    }
    for i in 0..3 {
        m.springs.push(Spring::new(NodeId(i), NodeId(i + 1), 0.1, 500.0, SpringKind::Stretch));
    }
    m.faces.push(springmesh_core::Face { nodes: [NodeId(0), NodeId(1), NodeId(2)], uvs: None });
    m.anchors = vec![NodeId(0)];
    io::encode(&m, FileFormat::Binary, Path::new("chain.spring")).unwrap()
}

/// Loads `bytes` through the API.
fn load(bytes: &[u8]) -> (i32, *mut SmModel) {
    let mut model = null_mut();
    // SAFETY: `bytes` is a live slice and `model` a local pointer.
    let code = unsafe { sm_model_load_memory(bytes.as_ptr(), bytes.len(), &mut model) };
    (code, model)
}

/// A simulation of the chain.
fn chain_sim() -> *mut SmSim {
    let (code, model) = load(&chain_bytes());
    assert_eq!(code, SM_OK, "{}", last_error());
    let mut sim = null_mut();
    // SAFETY: `model` is live; `sim` a local pointer; the model is freed once, after.
    unsafe {
        assert_eq!(sm_sim_new(model, &mut sim), SM_OK);
        sm_model_free(model);
    }
    sim
}

/// The packed positions of `sim`.
fn positions(sim: *const SmSim) -> Vec<f32> {
    let mut out = vec![0.0; 12];
    // SAFETY: `sim` is live and `out` has room for 12 floats.
    let n = unsafe { sm_sim_copy_positions(sim, out.as_mut_ptr(), out.len()) };
    out.truncate(n);
    out
}

#[test]
fn a_model_loads_and_steps_and_reads_back() {
    let (code, model) = load(&chain_bytes());
    assert_eq!(code, SM_OK);
    // SAFETY: `model` is live until freed at the end; buffers have the room passed.
    unsafe {
        assert_eq!(
            (sm_model_node_count(model), sm_model_spring_count(model), sm_model_face_count(model)),
            (4, 3, 1)
        );
        let mut faces = [0u32; 8];
        assert_eq!(sm_model_faces(model, faces.as_mut_ptr(), faces.len()), 3);
        assert_eq!(faces[..3], [0, 1, 2]);
        let mut short = [0u32; 2];
        assert_eq!(sm_model_faces(model, short.as_mut_ptr(), 2), 2, "never past cap");
        let mut anchors = [9u32; 4];
        assert_eq!(sm_model_anchors(model, anchors.as_mut_ptr(), 4), 1);
        assert_eq!(anchors[0], 0);
        assert_eq!(sm_model_uvs(model, null_mut(), 0), 0, "no uvs");
        sm_model_free(model);
    }
    let sim = chain_sim();
    // SAFETY: `sim` is live until freed at the end.
    unsafe {
        let before = positions(sim);
        assert_eq!(sm_sim_step(sim, 1.0 / 60.0), SM_OK);
        assert_eq!(last_error(), "");
        let after = positions(sim);
        assert!(after[4] < before[4], "node 1 falls");
        let direct = std::slice::from_raw_parts(sm_sim_positions(sim), 12);
        assert_eq!(direct, &after[..]);
        let mut e = SmEnergy::default();
        sm_sim_energy(sim, &mut e);
        assert!(e.kinetic > 0.0 && e.gravitational.is_finite());
        let target = [0.0f32, 0.5, 0.0];
        assert_eq!(sm_sim_set_anchor_position(sim, 0, target.as_ptr()), SM_OK);
        assert_eq!(sm_sim_step(sim, 1.0 / 60.0), SM_OK);
        assert_eq!(positions(sim)[..3], target);
        // A copy starts where the original is and then goes its own way: the original's
        // anchor moved again does not move the copy's.
        let mut copy = null_mut();
        assert_eq!(sm_sim_clone(sim, &mut copy), SM_OK);
        assert_eq!(positions(copy), positions(sim));
        let moved = [0.0f32, 0.7, 0.0];
        assert_eq!(sm_sim_set_anchor_position(sim, 0, moved.as_ptr()), SM_OK);
        assert_eq!((sm_sim_step(sim, 1.0 / 60.0), sm_sim_step(copy, 1.0 / 60.0)), (SM_OK, SM_OK));
        assert_eq!((&positions(sim)[..3], &positions(copy)[..3]), (&moved[..], &target[..]));
        assert_eq!(sm_sim_clone(null(), &mut copy), SM_ERR_NULL);
        assert!(copy.is_null());
        sm_sim_free(sim);
    }
    assert!(sm_version() >= 0x000100);
}

#[test]
fn null_pointers_are_errors_not_crashes() {
    // SAFETY: every pointer passed is NULL or a live local; the API checks them.
    unsafe {
        let mut model = null_mut();
        assert_eq!(sm_model_load(null(), &mut model), SM_ERR_NULL);
        assert!(model.is_null());
        assert!(last_error().contains("path is NULL"), "{}", last_error());
        let path = CString::new("x.spring").unwrap();
        assert_eq!(sm_model_load(path.as_ptr(), null_mut()), SM_ERR_NULL);
        assert_eq!(sm_model_load_memory(null(), 5, &mut model), SM_ERR_NULL);
        assert_eq!(sm_sim_new(null(), &mut null_mut()), SM_ERR_NULL);
        assert_eq!(sm_sim_step(null_mut(), 0.01), SM_ERR_NULL);
        assert_eq!(sm_model_node_count(null()), 0);
        assert_eq!(sm_sim_positions(null()), null());
        assert_eq!(sm_sim_copy_positions(null(), null_mut(), 9), 0);
        let mut e = SmEnergy { kinetic: 1.0, elastic: 1.0, gravitational: 1.0 };
        sm_sim_energy(null(), &mut e);
        assert_eq!(e, SmEnergy::default());
        sm_sim_energy(null(), null_mut());
        sm_model_free(null_mut());
        sm_sim_free(null_mut());
        let sim = chain_sim();
        assert_eq!(sm_sim_set_anchor_position(sim, 0, null()), SM_ERR_NULL);
        assert_eq!(sm_sim_add_force(sim, None, null_mut()), SM_ERR_NULL);
        sm_sim_free(sim);
    }
}

#[test]
fn garbage_and_truncated_inputs_are_errors() {
    let good = chain_bytes();
    for bytes in [&b"garbage that is no model"[..], &good[..good.len() - 7], &good[..10], &[]] {
        let (code, model) = load(bytes);
        assert_eq!(code, SM_ERR_FILE, "{bytes:?}");
        assert!(model.is_null());
        assert!(!last_error().is_empty());
    }
    let dir = std::env::temp_dir().join(format!("springmesh-ffi-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let garbage = dir.join("garbage.spring");
    std::fs::write(&garbage, b"\x89SPR\r\n\x1a\n not really").unwrap();
    let path = CString::new(garbage.to_str().unwrap()).unwrap();
    let mut model = null_mut();
    // SAFETY: `path` is NUL-terminated and `model` a local pointer.
    let code = unsafe { sm_model_load(path.as_ptr(), &mut model) };
    assert_eq!(code, SM_ERR_FILE);
    assert!(last_error().contains("garbage.spring"), "{}", last_error());
    assert!(model.is_null());
}

#[test]
fn bad_steps_and_indices_change_nothing() {
    let sim = chain_sim();
    // SAFETY: `sim` is live until freed at the end; arrays are live locals.
    unsafe {
        assert_eq!(sm_sim_step(sim, 1.0 / 60.0), SM_OK);
        let (before, time) = (positions(sim), sm_sim_time(sim));
        for dt in [f32::NAN, -1.0, 0.0, f32::INFINITY] {
            assert_eq!(sm_sim_step(sim, dt), SM_ERR_ARGUMENT, "{dt}");
            assert!(last_error().contains("time step"), "{}", last_error());
        }
        let far = [1.0f32, 2.0, 3.0];
        assert_eq!(sm_sim_set_anchor_position(sim, 7, far.as_ptr()), SM_ERR_ARGUMENT);
        assert_eq!(sm_sim_set_anchor_position(sim, 2, far.as_ptr()), SM_ERR_ARGUMENT, "free node");
        let nan = [f32::NAN, 0.0, 0.0];
        assert_eq!(sm_sim_set_anchor_position(sim, 0, nan.as_ptr()), SM_ERR_ARGUMENT);
        assert_eq!(sm_sim_set_collider_pose(sim, 0, far.as_ptr(), null()), SM_ERR_ARGUMENT);
        for (thickness, friction) in [(f32::NAN, 0.5), (-0.01, 0.5), (0.01, -1.0), (0.01, f32::NAN)]
        {
            let code = sm_sim_set_self_collision(sim, thickness, friction);
            assert_eq!(code, SM_ERR_ARGUMENT, "{thickness} {friction}");
        }
        assert!(last_error().contains("friction"), "{}", last_error());
        assert_eq!(sm_sim_set_self_collision(null_mut(), 0.01, 0.5), SM_ERR_NULL);
        assert_eq!(positions(sim), before);
        assert_eq!(sm_sim_time(sim), time);
        assert_eq!(sm_sim_step(sim, 1.0 / 60.0), SM_OK, "and it still steps");
        assert_eq!(sm_sim_set_self_collision(sim, 0.01, 0.5), SM_OK);
        assert_eq!(sm_sim_step(sim, 1.0 / 60.0), SM_OK, "with self-collision");
        assert_eq!(sm_sim_set_self_collision(sim, 0.0, 0.5), SM_OK, "off");
        sm_sim_free(sim);
    }
}

/// A force callback pushing every node along +x by 1 mN; `user` counts the calls.
unsafe extern "C" fn push(
    user: *mut std::ffi::c_void,
    _time: f64,
    _positions: *const f32,
    _velocities: *const f32,
    forces: *mut f32,
    count: u32,
) {
    // SAFETY: `user` is the counter this test passed; `forces` holds 3 × count floats.
    unsafe {
        *user.cast::<u32>() += 1;
        for i in 0..count as usize {
            *forces.add(3 * i) += 1e-3;
        }
    }
}

#[test]
fn a_force_callback_is_called_with_its_user_pointer() {
    let sim = chain_sim();
    let mut calls = 0u32;
    // SAFETY: `sim` is live; `calls` outlives the simulation (freed below).
    unsafe {
        let zero = [0.0f32; 3];
        assert_eq!(sm_sim_set_gravity(sim, zero.as_ptr()), SM_OK);
        let user = (&mut calls as *mut u32).cast();
        assert_eq!(sm_sim_add_force(sim, Some(push), user), SM_OK);
        for _ in 0..10 {
            assert_eq!(sm_sim_step(sim, 1.0 / 60.0), SM_OK);
        }
        assert!(positions(sim)[9] > 0.3, "pushed along +x: {}", positions(sim)[9]);
        sm_sim_free(sim);
    }
    assert_eq!(calls, 10, "once per step");
}

/// A tetrahedron cage (nodes 0..4, node 0 anchored) with a skin of two vertices: one at the
/// middle of edge 0–1, one on node 2, and one triangle over them and a third at node 3.
fn skinned_bytes() -> Vec<u8> {
    use springmesh_core::model::{Faces, Skin, SkinVertex};
    let corners = [glam::Vec3::ZERO, glam::Vec3::X, glam::Vec3::Y, glam::Vec3::Z];
    let mut m = SpringModel::default();
    for p in corners {
        m.nodes.push(Node { position: p, mass: 0.1 });
    }
    for (a, b) in [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)] {
        let rest = corners[a as usize].distance(corners[b as usize]);
        m.springs.push(Spring::new(NodeId(a), NodeId(b), rest, 1000.0, SpringKind::Interior));
    }
    m.anchors = vec![NodeId(0)];
    let vertex = |weights: [f32; 4]| SkinVertex {
        position: corners.iter().zip(weights).map(|(&p, w)| w * p).sum(),
        nodes: [0, 1, 2, 3].map(NodeId),
        weights,
    };
    let vertices = [[0.5, 0.5, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0]].map(vertex);
    let mut faces = Faces::default();
    faces.push(springmesh_core::Face { nodes: [0, 1, 2].map(NodeId), uvs: None });
    m.skin = Some(Skin::new(vertices, faces, Vec::new()));
    io::encode(&m, FileFormat::Binary, Path::new("skinned.spring")).unwrap()
}

#[test]
fn a_skinned_model_gives_its_surface_and_a_plain_one_its_nodes() {
    let (code, model) = load(&skinned_bytes());
    assert_eq!(code, SM_OK, "{}", last_error());
    let mut sim = null_mut();
    // SAFETY: `model` and `sim` are live until freed; buffers have the room passed.
    unsafe {
        assert_eq!(sm_model_surface_vertex_count(model), 3);
        assert_eq!((sm_model_node_count(model), sm_model_face_count(model)), (4, 1));
        let mut faces = [9u32; 3];
        assert_eq!(sm_model_faces(model, faces.as_mut_ptr(), 3), 3);
        assert_eq!(faces, [0, 1, 2], "the faces index the surface's vertices");
        assert_eq!(sm_sim_new(model, &mut sim), SM_OK);
        sm_model_free(model);
        for _ in 0..10 {
            assert_eq!(sm_sim_step(sim, 1.0 / 60.0), SM_OK);
        }
        assert_eq!(sm_sim_surface_vertex_count(sim), 3);
        let nodes = std::slice::from_raw_parts(sm_sim_positions(sim), 12).to_vec();
        let mut surface = [0.0f32; 9];
        assert_eq!(sm_sim_copy_surface_positions(sim, surface.as_mut_ptr(), 9), 9);
        // Vertex 0 is the midpoint of nodes 0 and 1; vertex 1 is node 2, vertex 2 node 3.
        for k in 0..3 {
            assert!((surface[k] - 0.5 * (nodes[k] + nodes[3 + k])).abs() < 1e-6);
            assert_eq!(surface[3 + k], nodes[6 + k]);
            assert_eq!(surface[6 + k], nodes[9 + k]);
        }
        let mut normals = [0.0f32; 9];
        assert_eq!(sm_sim_copy_surface_normals(sim, normals.as_mut_ptr(), 9), 9);
        let length =
            (normals[0] * normals[0] + normals[1] * normals[1] + normals[2] * normals[2]).sqrt();
        assert!((length - 1.0).abs() < 1e-5, "a unit normal: {normals:?}");
        assert_eq!(
            sm_sim_copy_surface_positions(sim, surface.as_mut_ptr(), 4),
            4,
            "never past cap"
        );
        sm_sim_free(sim);
    }
    let chain = chain_sim();
    // SAFETY: `chain` is live until freed; buffers have the room passed.
    unsafe {
        let mut surface = [0.0f32; 12];
        assert_eq!(sm_sim_copy_surface_positions(chain, surface.as_mut_ptr(), 12), 12);
        assert_eq!(surface.to_vec(), positions(chain), "without a skin: the nodes");
        let (mut a, mut b) = ([0.0f32; 12], [0.0f32; 12]);
        sm_sim_copy_normals(chain, a.as_mut_ptr(), 12);
        sm_sim_copy_surface_normals(chain, b.as_mut_ptr(), 12);
        assert_eq!(a, b);
        sm_sim_free(chain);
    }
    // SAFETY: NULL is allowed everywhere and answers 0.
    unsafe {
        assert_eq!(sm_model_surface_vertex_count(null()), 0);
        assert_eq!(sm_sim_copy_surface_positions(null(), null_mut(), 9), 0);
    }
}

#[test]
fn a_world_of_several_models_steps_and_reads_back_each_body() {
    let (code, model) = load(&chain_bytes());
    assert_eq!(code, SM_OK, "{}", last_error());
    let mut world = null_mut();
    // SAFETY: `world`, `model` and the arrays are live until freed at the end.
    unsafe {
        assert_eq!(sm_world_new(&mut world), SM_OK);
        let mut index = 7;
        assert_eq!(sm_world_add(world, model, &mut index), SM_OK);
        assert_eq!(index, 0);
        assert_eq!(sm_world_add(world, model, &mut index), SM_OK);
        assert_eq!(index, 1);
        sm_model_free(model);
        assert_eq!(sm_world_body_count(world), 2);
        assert_eq!(sm_world_set_threads(world, 1), SM_OK);
        assert_eq!(sm_world_step(world, f32::NAN), SM_ERR_ARGUMENT);
        for _ in 0..10 {
            assert_eq!(sm_world_step(world, 1.0 / 60.0), SM_OK, "{}", last_error());
        }
        let mut out = [0.0f32; 12];
        assert_eq!(sm_world_copy_surface_positions(world, 1, out.as_mut_ptr(), out.len()), 12);
        assert!(out.iter().all(|v| v.is_finite()));
        assert_eq!(out[..3], [0.0, 0.0, 0.0], "the anchored node stays");
        assert_eq!(sm_world_copy_surface_positions(world, 2, out.as_mut_ptr(), out.len()), 0);
        assert!(last_error().contains("body 2"), "{}", last_error());
        assert_eq!(sm_world_step(null_mut(), 1.0 / 60.0), SM_ERR_NULL);
        assert_eq!(sm_world_body_count(null()), 0);
        sm_world_free(world);
    }
}

#[test]
fn a_capsule_added_under_the_chain_holds_it_up_and_moves_with_its_pose() {
    let sim = chain_sim();
    // SAFETY: `sim` is live until freed at the end; arrays are live locals.
    unsafe {
        let (a, b) = ([0.2f32, -0.1, -1.0], [0.2f32, -0.1, 1.0]);
        let mut index = 9;
        let code = sm_sim_add_capsule(sim, a.as_ptr(), b.as_ptr(), -0.05, 0.5, 0.0, &mut index);
        assert_eq!(code, SM_ERR_ARGUMENT, "a negative radius");
        assert!(last_error().contains("radius"), "{}", last_error());
        assert_eq!((sm_sim_collider_count(sim), index), (0, 9), "nothing added");
        let code = sm_sim_add_capsule(sim, a.as_ptr(), b.as_ptr(), 0.05, 0.5, 0.0, &mut index);
        assert_eq!((code, index, sm_sim_collider_count(sim)), (SM_OK, 0, 1));
        // The chain swings down from its anchor at x = 0 onto the capsule across it at x = 0.2.
        let outside = |p: &[f32], axis_y: f32| {
            p.chunks(3).all(|q| (q[0] - 0.2).hypot(q[1] - axis_y) >= 0.05 - 1e-4)
        };
        for _ in 0..60 {
            assert_eq!(sm_sim_step(sim, 1.0 / 60.0), SM_OK);
            assert!(outside(&positions(sim), -0.1), "{:?}", positions(sim));
        }
        let rests_on_it = positions(sim).chunks(3).any(|q| (q[0] - 0.2).abs() < 0.06);
        assert!(rests_on_it, "{:?}", positions(sim));
        // Raised by 3 cm over one frame, it lifts the chain with it.
        let centre = [0.2f32, -0.07, 0.0];
        assert_eq!(sm_sim_set_collider_pose(sim, 0, centre.as_ptr(), null()), SM_OK);
        assert_eq!(sm_sim_step(sim, 1.0 / 60.0), SM_OK);
        assert!(outside(&positions(sim), -0.07), "{:?}", positions(sim));
        sm_sim_free(sim);
    }
}

#[test]
fn a_worn_model_names_its_joints_and_takes_a_pose() {
    // The chain worn on one joint "Hand" at the origin: node 0 kinematic, the rest free.
    let mut m = io::decode(&chain_bytes(), Path::new("chain.spring")).unwrap().into_inner();
    m.rig = Some(springmesh_core::model::Rig {
        joints: vec![springmesh_core::model::Joint {
            name: "Hand".into(),
            parent: None,
            inverse_bind: glam::Mat4::IDENTITY,
        }],
        node_joints: vec![[0; 4]; 4],
        node_weights: vec![[1.0, 0.0, 0.0, 0.0]; 4],
        max_distance: vec![Some(0.0), None, None, None],
        backstop: Vec::new(),
        colliders: Vec::new(),
    });
    let bytes = io::encode(&m, FileFormat::Binary, Path::new("worn.spring")).unwrap();
    let (code, model) = load(&bytes);
    assert_eq!(code, SM_OK, "{}", last_error());
    let mut sim = null_mut();
    // SAFETY: `model` and `sim` are live until freed; arrays are live locals.
    unsafe {
        assert_eq!(sm_sim_new(model, &mut sim), SM_OK);
        sm_model_free(model);
        assert_eq!(sm_sim_joint_count(sim), 1);
        assert_eq!(CStr::from_ptr(sm_sim_joint_name(sim, 0)).to_str(), Ok("Hand"));
        assert!(sm_sim_joint_name(sim, 1).is_null());
        let mut rest = [0.0f32; 16];
        assert_eq!(sm_sim_rest_pose(sim, rest.as_mut_ptr(), 16), 16);
        assert_eq!(rest, glam::Mat4::IDENTITY.to_cols_array());
        // The hand moved 5 cm along z: node 0 follows it exactly.
        let moved = glam::Mat4::from_translation(glam::Vec3::Z * 0.05).to_cols_array();
        assert_eq!(sm_sim_set_pose(sim, moved.as_ptr(), 1), SM_OK);
        assert_eq!(sm_sim_step(sim, 1.0 / 60.0), SM_OK);
        assert!((positions(sim)[2] - 0.05).abs() < 1e-6, "{:?}", positions(sim));
        assert_eq!(sm_sim_set_pose(sim, moved.as_ptr(), 2), SM_ERR_ARGUMENT, "two joints");
        assert!(last_error().contains("1 joints"), "{}", last_error());
        let nan = [f32::NAN; 16];
        assert_eq!(sm_sim_set_pose(sim, nan.as_ptr(), 1), SM_ERR_ARGUMENT);
        assert_eq!(sm_sim_set_pose(sim, null(), 1), SM_ERR_NULL);
        // Teleported 10 m along x: node 0 arrives with the hand, and every node moves with it,
        // none by more than 1 m/s × the step besides.
        let before = positions(sim);
        let far = glam::Mat4::from_translation(glam::Vec3::new(10.0, 0.0, 0.05)).to_cols_array();
        assert_eq!(sm_sim_teleport(sim, far.as_ptr(), 1), SM_OK);
        assert_eq!(sm_sim_step(sim, 1.0 / 60.0), SM_OK);
        let after = positions(sim);
        assert!((after[0] - 10.0).abs() < 1e-5, "{after:?}");
        for (k, (a, b)) in after.iter().zip(&before).enumerate() {
            let carried = if k % 3 == 0 { b + 10.0 } else { *b };
            assert!((a - carried).abs() < 1.0 / 60.0, "coordinate {k}: {b} -> {a}");
        }
        // The same jump back through set_pose is a teleport on its own; none with it off.
        assert_eq!(sm_sim_set_teleport(sim, f32::NAN, 1.0), SM_ERR_ARGUMENT);
        assert_eq!(sm_sim_set_teleport(sim, 0.0, 0.0), SM_OK);
        assert_eq!(sm_sim_reset(sim, moved.as_ptr(), 1), SM_OK);
        assert!((positions(sim)[0]).abs() < 1e-5, "{:?}", positions(sim));
        assert_eq!(sm_sim_teleport(sim, nan.as_ptr(), 1), SM_ERR_ARGUMENT);
        sm_sim_free(sim);
    }
}

#[test]
fn a_held_rigid_ball_in_the_way_of_the_swinging_chain_keeps_it_out_and_takes_its_push() {
    let sim = chain_sim();
    let ball = SmRigidBody {
        shape: SM_RIGID_SPHERE,
        position: [0.25, -0.12, 0.0],
        rotation: [0.0, 0.0, 0.0, 1.0],
        radius: 0.05,
        center_of_mass: [0.25, -0.12, 0.0],
        friction: 0.5,
        ..SmRigidBody::default()
    };
    // SAFETY: `sim` is live until freed at the end; arrays are live locals.
    unsafe {
        let wrong = SmRigidBody { shape: 7, ..ball };
        assert_eq!(sm_sim_set_rigid_bodies(sim, &wrong, 1), SM_ERR_ARGUMENT);
        assert!(last_error().contains("shape kind 7"), "{}", last_error());
        assert_eq!(sm_sim_set_rigid_bodies(sim, null(), 1), SM_ERR_NULL);
        // A triangle's corners, in a line: refused by name; apart: a face the nodes meet.
        let mut face = SmRigidBody { shape: SM_RIGID_TRIANGLE, ..ball };
        face.corners = [0.0, -2.0, 0.0, 1.0, -2.0, 0.0, 2.0, -2.0, 0.0];
        assert_eq!(sm_sim_set_rigid_bodies(sim, &face, 1), SM_ERR_ARGUMENT);
        assert!(last_error().contains(".c must be off the line"), "{}", last_error());
        face.corners[8] = 1.0;
        assert_eq!(sm_sim_set_rigid_bodies(sim, &face, 1), SM_OK);
        let mut pushed = [0.0f32; 3];
        for _ in 0..60 {
            // A ball the engine holds (its inverse mass 0): it stays, and what it took is read.
            assert_eq!(sm_sim_set_rigid_bodies(sim, &ball, 1), SM_OK);
            assert_eq!(sm_sim_step(sim, 1.0 / 60.0), SM_OK);
            let mut impulse = [0.0f32; 12];
            assert_eq!(sm_sim_rigid_impulses(sim, impulse.as_mut_ptr(), 12), 12);
            (0..3).for_each(|k| pushed[k] += impulse[k]);
            let outside = positions(sim)
                .chunks(3)
                .all(|q| (q[0] - 0.25).hypot(q[1] + 0.12).hypot(q[2]) >= 0.05 - 1e-3);
            assert!(outside, "{:?}", positions(sim));
        }
        // The chain swings down onto the ball: it pushes it down.
        assert!(pushed[1] < -1e-4, "{pushed:?}");
        assert_eq!(sm_sim_set_rigid_bodies(sim, null(), 0), SM_OK);
        assert_eq!(sm_sim_rigid_impulses(sim, null_mut(), 0), 0);
        sm_sim_free(sim);
    }
}
