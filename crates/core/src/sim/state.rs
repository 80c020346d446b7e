//! Node state and the three buffers that make a rejected step free.
//!
//! A step is made of sub-steps, each reading one state and writing another. Keeping three
//! buffers — the committed state and two scratch states that the sub-steps alternate between —
//! means the committed state is never written during a step: rejecting a step (non-finite
//! values) costs nothing, and accepting it is an index change, not a copy.

use glam::Vec3A;

/// Positions (m) and velocities (m/s) of every node at one instant.
#[derive(Clone, Debug, Default)]
pub(crate) struct State {
    pub pos: Vec<Vec3A>,
    pub vel: Vec<Vec3A>,
}

/// The committed state and two scratch states.
#[derive(Clone, Debug)]
pub(crate) struct States {
    bufs: [State; 3],
    committed: usize,
}

impl States {
    /// Three copies of `initial`, the first one committed.
    pub fn new(initial: State) -> Self {
        Self { bufs: [initial.clone(), initial.clone(), initial], committed: 0 }
    }

    /// The state that the last accepted step produced.
    pub fn committed(&self) -> &State {
        &self.bufs[self.committed]
    }

    /// The committed state, for changes made between steps.
    pub fn committed_mut(&mut self) -> &mut State {
        &mut self.bufs[self.committed]
    }

    /// The buffer index of the committed state: where a step's first sub-step reads from.
    pub fn committed_index(&self) -> usize {
        self.committed
    }

    /// The source state `src` and a scratch state to write the next sub-step into, which is
    /// neither `src` nor the committed state. Returns the scratch buffer's index too.
    pub fn pair(&mut self, src: usize) -> (&State, &mut State, usize) {
        let dst = if src == self.committed { (src + 1) % 3 } else { 3 - src - self.committed };
        let (from, to) = self.pair_at(src, dst);
        (from, to, dst)
    }

    /// State `src` to read and state `dst` (another buffer) to write.
    pub fn pair_at(&mut self, src: usize, dst: usize) -> (&State, &mut State) {
        let (lo, hi) = self.bufs.split_at_mut(src.max(dst));
        if src < dst { (&lo[src], &mut hi[0]) } else { (&hi[0], &mut lo[dst]) }
    }

    /// State at buffer `index`.
    pub fn get(&self, index: usize) -> &State {
        &self.bufs[index]
    }

    /// State at buffer `index`, writable (for corrections after a sub-step).
    pub fn get_mut(&mut self, index: usize) -> &mut State {
        &mut self.bufs[index]
    }

    /// Makes buffer `index` the committed state.
    pub fn commit(&mut self, index: usize) {
        self.committed = index;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sub_steps_never_write_the_committed_state() {
        let mut s = States::new(State { pos: vec![Vec3A::ZERO], vel: vec![Vec3A::ZERO] });
        let mut src = s.committed_index();
        for i in 1..=5 {
            let (_, dst, d) = s.pair(src);
            dst.pos[0] = Vec3A::splat(i as f32);
            assert_ne!(d, s.committed_index());
            assert_ne!(d, src);
            src = d;
        }
        assert_eq!(s.committed().pos[0], Vec3A::ZERO);
        s.commit(src);
        assert_eq!(s.committed().pos[0], Vec3A::splat(5.0));
    }
}
