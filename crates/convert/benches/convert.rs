//! Conversion of a generated mesh of about a million triangles, on one thread.
//!
//! The mesh is a sphere made of a cube's six faces, each 289 × 289 quads (1,002,252
//! triangles), with each face's vertices separate as an exporter writes them, so the seams
//! have to be welded. `stretch_bend` converts it with default options; `vicinity` adds
//! vicinity springs at 1.5 × the mean edge length (measured on the mesh). Before timing, each case is converted once
//! with a counting allocator and its peak heap is printed.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Bench code.

use criterion::{Criterion, criterion_group, criterion_main};
use glam::Vec3;
use springmesh_convert::{ConvertOptions, RawMesh, convert_mesh};
use std::alloc::{GlobalAlloc, Layout, System};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

struct Peak;

static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: defers to the system allocator unchanged; only counts bytes.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Peak {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let now = CURRENT.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(now, Ordering::Relaxed);
        // SAFETY: the caller's contract is passed on unchanged.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        CURRENT.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let now = CURRENT.fetch_add(new_size, Ordering::Relaxed) + new_size;
        PEAK.fetch_max(now, Ordering::Relaxed);
        CURRENT.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: as above.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Peak = Peak;

/// A unit sphere of 6 × n × n quads, each cube face with its own vertices.
fn cube_sphere(n: usize) -> RawMesh {
    let mut m = RawMesh::default();
    let faces = [
        (Vec3::X, Vec3::Y, Vec3::Z),
        (Vec3::NEG_X, Vec3::Z, Vec3::Y),
        (Vec3::Y, Vec3::Z, Vec3::X),
        (Vec3::NEG_Y, Vec3::X, Vec3::Z),
        (Vec3::Z, Vec3::X, Vec3::Y),
        (Vec3::NEG_Z, Vec3::Y, Vec3::X),
    ];
    for (normal, u, v) in faces {
        let base = m.positions.len() as u32;
        for j in 0..=n {
            for i in 0..=n {
                let (s, t) = (2.0 * i as f32 / n as f32 - 1.0, 2.0 * j as f32 / n as f32 - 1.0);
                m.positions.push((normal + u * s + v * t).normalize());
            }
        }
        let id = |i: usize, j: usize| base + (j * (n + 1) + i) as u32;
        for j in 0..n {
            for i in 0..n {
                m.push_triangle([id(i, j), id(i + 1, j), id(i + 1, j + 1)], None);
                m.push_triangle([id(i, j), id(i + 1, j + 1), id(i, j + 1)], None);
            }
        }
    }
    m
}

fn bench(c: &mut Criterion) {
    let mesh = cube_sphere(289);
    let edges = mesh.triangles.iter().flat_map(|t| [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])]);
    let total: f64 = edges
        .map(|(a, b)| f64::from(mesh.positions[a as usize].distance(mesh.positions[b as usize])))
        .sum();
    let mean_edge = (total / (3 * mesh.triangles.len()) as f64) as f32;
    let cases = [
        ("stretch_bend", ConvertOptions::default()),
        (
            "vicinity",
            ConvertOptions { vicinity_radius: Some(1.5 * mean_edge), ..ConvertOptions::default() },
        ),
    ];
    let mut group = c.benchmark_group("convert_1m_triangles");
    group.sample_size(10);
    for (name, options) in cases {
        let before = CURRENT.load(Ordering::Relaxed);
        PEAK.store(before, Ordering::Relaxed);
        let conversion =
            convert_mesh(mesh.clone(), &options, Path::new("sphere")).expect("converts");
        let peak = PEAK.load(Ordering::Relaxed) - before;
        println!(
            "{name}: {} triangles -> {} nodes, {} springs; peak heap {:.0} MB (with the input mesh)",
            mesh.triangles.len(),
            conversion.report.nodes,
            conversion.report.springs.total,
            peak as f64 / 1e6,
        );
        drop(conversion);
        group.bench_function(name, |b| {
            b.iter_batched(
                || mesh.clone(),
                |m| convert_mesh(m, &options, Path::new("sphere")).expect("converts"),
                criterion::BatchSize::LargeInput,
            )
        });
    }
    group.finish();
}

/// Vicinity pairs of random clouds of n and 4n points at the same density (about 8 neighbours
/// within the radius): with a grid the time grows 4×, not 16× as all pairs would.
fn vicinity_scaling(c: &mut Criterion) {
    let mut group = c.benchmark_group("vicinity_scaling");
    group.sample_size(10);
    for n in [100_000usize, 400_000] {
        let side = (n as f32).cbrt();
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 40) as f32 / (1u64 << 24) as f32 * side
        };
        let points: Vec<Vec3> = (0..n).map(|_| Vec3::new(next(), next(), next())).collect();
        let none = springmesh_convert::springs::distinct(n, &[]);
        let found = springmesh_convert::vicinity::vicinity_pairs(&points, 1.25, None, &none).len();
        println!(
            "vicinity_scaling/{n}: {found} pairs ({:.1} per point)",
            2.0 * found as f64 / n as f64
        );
        group.bench_function(n.to_string(), |b| {
            b.iter(|| springmesh_convert::vicinity::vicinity_pairs(&points, 1.25, None, &none))
        });
    }
    group.finish();
}

criterion_group!(benches, bench, vicinity_scaling);
criterion_main!(benches);
