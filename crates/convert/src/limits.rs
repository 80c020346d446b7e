//! Bounds on what an import may read, so that a small hostile file cannot make a conversion
//! take all memory or all night.
//!
//! Most of what a reader allocates is bounded by the file's own bytes: an OBJ vertex is a line
//! of text, a glTF accessor's elements must fit in a buffer that was read (to its declared
//! length, from a regular file). Two things are not:
//! - **instancing**: a glTF mesh placed by many nodes is read once per node, so its triangles
//!   multiply (a 31 KB file once took 8 s);
//! - **implicit elements**: a sparse accessor without a buffer view is zeros except for the
//!   values it lists, so its `count` costs memory but no bytes (a 603-byte file asked for
//!   2^27 vertices per primitive and used 2.6 GB).
//!
//! So every reader takes triangles and vertices from one [`Budget`]: at most
//! [`ImportLimits::max_triangles`] triangles after instancing and triangulation (default
//! [`DEFAULT_MAX_TRIANGLES`], raised by the CLI's `--max-triangles`), three vertices per allowed
//! triangle, and at most [`MAX_IMPLICIT_ELEMENTS`] implicit elements in all. Counts are taken
//! from what a file declares, before anything is read.

/// The default cap on triangles: 20 million, ten times the largest single scans commonly
/// shared (the full Stanford dragon has 0.87 million) and far beyond a model a game can step
/// in a frame; converting that many takes minutes and several GB.
pub const DEFAULT_MAX_TRIANGLES: usize = 20_000_000;

/// The most elements, over a whole file, of sparse accessors without a buffer view (1,048,576):
/// they are used for morph targets, not for the base mesh this reader takes.
pub const MAX_IMPLICIT_ELEMENTS: usize = 1 << 20;

/// What an import may read.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ImportLimits {
    /// The most triangles after instancing and polygon triangulation.
    pub max_triangles: usize,
    /// Lets glTF buffers and images and OBJ material libraries and textures be read from
    /// outside the mesh's folder, for trusted files (they must still be regular files).
    pub outside_references: bool,
}

impl Default for ImportLimits {
    fn default() -> Self {
        Self { max_triangles: DEFAULT_MAX_TRIANGLES, outside_references: false }
    }
}

/// What an import may still take; each `take_*` fails with a phrase for a "too large" error.
#[derive(Debug)]
pub(crate) struct Budget {
    max_triangles: usize,
    triangles: usize,
    vertices: usize,
    implicit: usize,
}

impl Budget {
    /// A full budget for `limits`.
    pub(crate) fn new(limits: &ImportLimits) -> Budget {
        Budget { max_triangles: limits.max_triangles, triangles: 0, vertices: 0, implicit: 0 }
    }

    /// Takes `n` triangles.
    pub(crate) fn take_triangles(&mut self, n: usize) -> Result<(), String> {
        self.triangles = self.triangles.saturating_add(n);
        if self.triangles > self.max_triangles {
            return Err(format!(
                "more than {} triangles after instancing (--max-triangles raises the limit)",
                self.max_triangles
            ));
        }
        Ok(())
    }

    /// Takes `n` vertices (three per allowed triangle).
    pub(crate) fn take_vertices(&mut self, n: usize) -> Result<(), String> {
        self.vertices = self.vertices.saturating_add(n);
        let max = self.max_triangles.saturating_mul(3);
        if self.vertices > max {
            return Err(format!(
                "more than {max} vertices after instancing, three per allowed triangle (--max-triangles raises the limit)"
            ));
        }
        Ok(())
    }

    /// Takes `n` implicit elements (of a sparse accessor without a buffer view).
    pub(crate) fn take_implicit(&mut self, n: usize) -> Result<(), String> {
        self.implicit = self.implicit.saturating_add(n);
        if self.implicit > MAX_IMPLICIT_ELEMENTS {
            return Err(format!(
                "sparse accessors without a buffer view claim more than {MAX_IMPLICIT_ELEMENTS} elements"
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_budget_runs_out_at_its_limits() {
        let mut budget =
            Budget::new(&ImportLimits { max_triangles: 10, outside_references: false });
        assert!(budget.take_triangles(6).is_ok() && budget.take_triangles(4).is_ok());
        assert!(budget.take_triangles(1).is_err());
        assert!(budget.take_vertices(30).is_ok() && budget.take_vertices(1).is_err());
        assert!(budget.take_implicit(MAX_IMPLICIT_ELEMENTS).is_ok());
        assert!(budget.take_implicit(1).is_err());
        assert!(budget.take_triangles(usize::MAX).is_err(), "no overflow");
    }
}
