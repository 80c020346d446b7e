//! The one error type of `springmesh-analysis`.

/// Everything that can stop an analysis of a model.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AnalysisError {
    /// The vibration modes could not be computed ([`crate::modes`]).
    #[error("the vibration modes cannot be computed: {reason}")]
    Modes {
        /// What failed.
        reason: String,
    },
    /// Simulating the model failed (it diverged, or its data is unusable).
    #[error("the model cannot be simulated: {0}")]
    Simulation(#[from] springmesh_core::CoreError),
    /// A stiffness target cannot be reached, or the model cannot be tuned
    /// ([`crate::stiffness_fit`]).
    #[error("cannot tune: {reason}")]
    Fit {
        /// Why.
        reason: String,
    },
}
