//! Acceptance 10, memory: whatever a `.spring` file's length prefixes claim, decoding it
//! allocates in proportion to the bytes actually present.
//!
//! A counting global allocator records the largest single allocation while armed. This file
//! holds one test, so no other test allocates while it is armed.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Test code: a failed expectation is a failed test.

#[path = "common/mod.rs"]
mod common;

use common::files::{fix_checksum, length_prefix_offsets, small_file};
use springmesh_core::io;
use std::alloc::{GlobalAlloc, Layout, System};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

struct Counting;

static ARMED: AtomicBool = AtomicBool::new(false);
static LARGEST: AtomicUsize = AtomicUsize::new(0);

impl Counting {
    fn record(size: usize) {
        if ARMED.load(Ordering::Relaxed) {
            LARGEST.fetch_max(size, Ordering::Relaxed);
        }
    }
}

// SAFETY: defers every call to the system allocator unchanged; only records sizes.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        Self::record(layout.size());
        // SAFETY: the caller's contract is passed on unchanged.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        Self::record(new_size);
        // SAFETY: as above.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The largest single allocation made while decoding `bytes` (which must fail).
fn largest_allocation(bytes: &[u8]) -> usize {
    LARGEST.store(0, Ordering::Relaxed);
    ARMED.store(true, Ordering::Relaxed);
    let result = io::binary::decode(bytes, Path::new("hostile.spring"));
    ARMED.store(false, Ordering::Relaxed);
    assert!(result.is_err(), "the hostile file is refused");
    LARGEST.load(Ordering::Relaxed)
}

#[test]
fn length_prefixes_do_not_size_allocations() {
    let file = small_file();
    for at in length_prefix_offsets(&file) {
        let mut largest = Vec::new();
        for claim in [1u64 << 32, 1 << 60, u64::MAX] {
            let mut bytes = file.clone();
            bytes[at..at + 8].copy_from_slice(&claim.to_le_bytes());
            fix_checksum(&mut bytes);
            largest.push(largest_allocation(&bytes));
        }
        println!(
            "prefix at byte {at}: largest allocations {largest:?} bytes for a {}-byte file",
            file.len()
        );
        assert!(largest.iter().all(|&l| l == largest[0]), "independent of the claim");
        assert!(largest[0] <= 2 * file.len(), "bounded by the bytes present");
    }
}
