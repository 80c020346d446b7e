//! The band layout: springs at one index offset, lane by lane
//! ([`crate::sim::forces::bands`] explains the idea and walks them).

use std::collections::BTreeMap;

/// Fewest springs of one offset that make a band: below this a band's fixed costs (the
/// passes' set-up, its scratch) are not paid back.
pub(crate) const MIN_BAND: usize = 256;

/// Smallest offset of a long band: the explicit pass walks it in one pass, Xpbd in stripes
/// ([`crate::sim::forces::bands`]).
pub(crate) const LONG_OFFSET: usize = 64;

/// A lane without a spring.
pub(crate) const NO_SPRING: u32 = u32::MAX;

/// The springs in bands, sorted by offset, one band per offset.
#[derive(Clone, Debug, Default)]
pub(crate) struct Bands {
    bands: Vec<Band>,
}

/// The springs from node `start + j` to node `start + j + offset`, lane j.
#[derive(Clone, Debug)]
pub(crate) struct Band {
    pub offset: usize,
    pub start: usize,
    /// Per lane: the index of its spring ([`NO_SPRING`] in an empty lane), in the arrays the
    /// constants are copied from ([`Bands::refresh`]).
    pub spring: Vec<u32>,
    /// Per lane, copied from the spring: stiffness (N/m), rest length (m), damping (N·s/m);
    /// all 0 in an empty lane, so that it adds nothing.
    pub stiffness: Vec<f32>,
    pub rest: Vec<f32>,
    pub damping: Vec<f32>,
}

impl Band {
    /// Lanes of the band, empty ones included.
    pub fn lanes(&self) -> usize {
        self.spring.len()
    }
}

impl Bands {
    /// Puts in bands the springs `(a[i], b[i])` for which `eligible[i]` holds, where their
    /// offset has at least [`MIN_BAND`] of them filling three lanes in four
    /// ([`crate::sim::forces::bands`]). Returns the bands, whose lanes name the springs by `i`
    /// and hold no constants yet ([`Bands::refresh`]), and, per spring, whether it went into
    /// one.
    pub fn find(a: &[u32], b: &[u32], eligible: &[bool]) -> (Bands, Vec<bool>) {
        let ends = |i: usize| {
            let (x, y) = (a[i] as usize, b[i] as usize);
            (x.min(y), x.abs_diff(y))
        };
        // Per offset: springs, first and last first end.
        let mut spans: BTreeMap<usize, (usize, usize, usize)> = BTreeMap::new();
        for i in (0..a.len()).filter(|&i| eligible[i]) {
            let (first, offset) = ends(i);
            let span = spans.entry(offset).or_insert((0, first, first));
            *span = (span.0 + 1, span.1.min(first), span.2.max(first));
        }
        let bands: Vec<Band> = spans
            .into_iter()
            .filter(|&(offset, (count, lo, hi))| {
                offset > 0 && count >= MIN_BAND && 4 * count >= 3 * (hi - lo + 1)
            })
            .map(|(offset, (_, lo, hi))| Band {
                offset,
                start: lo,
                spring: vec![NO_SPRING; hi - lo + 1],
                stiffness: vec![0.0; hi - lo + 1],
                rest: vec![0.0; hi - lo + 1],
                damping: vec![0.0; hi - lo + 1],
            })
            .collect();
        let mut bands = Bands { bands };
        let mut taken = vec![false; a.len()];
        for i in (0..a.len()).filter(|&i| eligible[i]) {
            let (first, offset) = ends(i);
            // A repeated spring (which validation rejects) finds its lane full and stays in
            // the colour batches.
            if let Some(lane) = bands.lane(first, offset).filter(|l| **l == NO_SPRING) {
                *lane = i as u32;
                taken[i] = true;
            }
        }
        (bands, taken)
    }

    /// The lane of the spring between `first` and `first + offset`, if in a band.
    fn lane(&mut self, first: usize, offset: usize) -> Option<&mut u32> {
        let i = self.bands.binary_search_by_key(&offset, |b| b.offset).ok()?;
        let band = &mut self.bands[i];
        first.checked_sub(band.start).and_then(|lane| band.spring.get_mut(lane))
    }

    /// Renames every lane's spring i to `new[i]` ([`NO_SPRING`]: the spring is gone and its
    /// lane empties). Call [`Bands::refresh`] after.
    pub fn renumber(&mut self, new: &[u32]) {
        for lane in self.bands.iter_mut().flat_map(|b| &mut b.spring) {
            *lane = new.get(*lane as usize).copied().unwrap_or(NO_SPRING);
        }
    }

    /// Copies each lane's constants from its spring's entries of `rest`, `stiffness` and
    /// `damping`; an empty lane gets zeros. The one place the lanes' constants are written.
    pub fn refresh(&mut self, rest: &[f32], stiffness: &[f32], damping: &[f32]) {
        for band in &mut self.bands {
            for (j, &i) in band.spring.iter().enumerate() {
                let i = i as usize;
                band.rest[j] = rest.get(i).copied().unwrap_or(0.0);
                band.stiffness[j] = stiffness.get(i).copied().unwrap_or(0.0);
                band.damping[j] = damping.get(i).copied().unwrap_or(0.0);
            }
        }
    }

    pub fn is_empty(&self) -> bool {
        self.bands.is_empty()
    }

    /// Every band, in offset order.
    pub fn all(&self) -> &[Band] {
        &self.bands
    }

    /// The long bands (offset ≥ [`LONG_OFFSET`]): those Xpbd projects in stripes.
    pub fn long(&self) -> impl Iterator<Item = &Band> {
        self.bands.iter().filter(|b| b.offset >= LONG_OFFSET)
    }

    /// True when Xpbd has stripes to project.
    pub fn has_long(&self) -> bool {
        self.long().next().is_some()
    }
}
