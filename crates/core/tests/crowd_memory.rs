//! Issue 66, item 2: a crowd of one model shares its compiled model. The 32nd member of a
//! crowd of one cloth or of the walking figure's cape, cloned from the first, adds its own
//! state and scratch, not a copy of the compiled springs and triangles; one that tunes its
//! parameters gets its own copy.
//!
//! A counting global allocator keeps the bytes live. This file holds one test, so no other
//! test allocates while it counts.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Test code: a failed expectation is a failed test.

#[path = "common/mod.rs"]
mod common;

use common::{GridSprings, grid_cloth};
use springmesh_core::{NodeId, Simulation, SpringKind, SpringModel, ValidModel, io};
use std::alloc::{GlobalAlloc, Layout, System};
use std::path::Path;
use std::sync::atomic::{AtomicIsize, Ordering};

struct Counting;

static LIVE: AtomicIsize = AtomicIsize::new(0);

// SAFETY: defers every call to the system allocator unchanged; only counts bytes.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        // SAFETY: the caller's contract is passed on unchanged.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_add(new_size as isize - layout.size() as isize, Ordering::Relaxed);
        // SAFETY: as above.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The bytes that `f` leaves allocated, and what it returns.
fn kept<T>(f: impl FnOnce() -> T) -> (isize, T) {
    let before = LIVE.load(Ordering::Relaxed);
    let value = f();
    (LIVE.load(Ordering::Relaxed) - before, value)
}

/// A 40 × 40 cloth of 2.5 cm cells held by two corners.
fn cloth() -> SpringModel {
    let n = 40;
    let mut model = grid_cloth(n, 0.025, 0.01, GridSprings { stiffness: 2000.0, damping: 0.5 });
    model.anchors = vec![NodeId(0), NodeId(n as u32 - 1)];
    model
}

/// The walking figure's cape, as `springmesh convert` made it (worn on the figure's
/// skeleton, with its body's capsules).
fn cape() -> SpringModel {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/models/walker_cape.spring");
    io::load(&path).expect("the walker's cape").into_inner()
}

/// `model` as it is, and without its bend springs.
fn with_and_without_bend(model: SpringModel) -> (ValidModel, ValidModel) {
    let mut fewer = model.clone();
    fewer.springs.retain(|_, s| s.kind != SpringKind::Bend);
    (ValidModel::new(model).expect("valid"), ValidModel::new(fewer).expect("valid"))
}

/// The bytes a crowd's 32nd member adds, cloned from the first and stepped once (a crowd of
/// 31 stepped once before it), and the bytes it adds when it tunes its parameters after.
fn crowd_of(model: &ValidModel) -> (isize, isize) {
    let dt = 1.0 / 60.0;
    let mut first = Simulation::new(model);
    first.step(dt).expect("finite");
    let mut crowd = vec![first];
    for _ in 1..31 {
        let mut member = crowd[0].clone();
        member.step(dt).expect("finite");
        crowd.push(member);
    }
    let (added, mut last) = kept(|| {
        let mut member = crowd[0].clone();
        member.step(dt).expect("finite");
        member
    });
    let (copied, ()) = kept(|| last.params_mut().damping = 0.01);
    (added, copied)
}

#[test]
fn the_32nd_member_of_a_crowd_adds_its_state_and_no_copy_of_the_model() {
    for (name, model) in [("cloth", cloth()), ("walker's cape", cape())] {
        let (full, fewer) = with_and_without_bend(model);
        let springs = full.springs.len() - fewer.springs.len();
        assert!(springs > 0, "{name}: bend springs to take away");
        let ((added, copied), (added_fewer, copied_fewer)) = (crowd_of(&full), crowd_of(&fewer));
        println!(
            "{name}, {} nodes: the 32nd member adds {added} B with {} springs, {added_fewer} B \
             with {springs} fewer; its own copy of the model when it tunes its parameters: \
             {copied} and {copied_fewer} B",
            full.nodes.len(),
            full.springs.len()
        );
        // What a member adds has no part per spring: the same without the bend springs.
        assert_eq!(
            added, added_fewer,
            "{name}: a member adds its nodes' state, nothing per spring"
        );
        // A member that tunes its parameters copies the model: at least a, b, rest length and
        // stiffness (16 bytes) per spring.
        assert!(
            copied - copied_fewer >= 16 * springs as isize,
            "{name}: {copied} - {copied_fewer} B"
        );
        // ... and its state: positions and velocities, 32 bytes per node, at least.
        assert!(added >= 32 * full.nodes.len() as isize, "{name}: {added} B");
    }
}
