//! What can go wrong inside the editor's library: an edit that does not fit the model.

use thiserror::Error;

/// An error of the editor library.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum EditorError {
    /// An edit named a node the model does not have.
    #[error("there is no node {index}: the model has {count} nodes")]
    NoSuchNode {
        /// The index named.
        index: usize,
        /// Nodes in the model.
        count: usize,
    },
    /// An edit named a spring the model does not have.
    #[error("there is no spring {index}: the model has {count} springs")]
    NoSuchSpring {
        /// The index named.
        index: usize,
        /// Springs in the model.
        count: usize,
    },
    /// A spring from a node to itself.
    #[error("a spring needs two different nodes, not node {node} twice")]
    SameNode {
        /// The node.
        node: usize,
    },
    /// The same node or spring named twice in one edit.
    #[error("{what} {index} is named twice")]
    Twice {
        /// "node" or "spring".
        what: &'static str,
        /// The index.
        index: usize,
    },
    /// Removing cage nodes would leave a vertex of the drawn surface on no node.
    #[error("surface vertex {vertex} rides only on the nodes being removed; keep one of them")]
    SkinLeftBehind {
        /// The skin vertex.
        vertex: usize,
    },
    /// A change of the skeleton binding for a model worn on none.
    #[error("the model is worn on no skeleton")]
    NotWorn,
    /// A skeleton binding the model cannot take.
    #[error("the skeleton binding does not fit the model: {reason}")]
    BadRig {
        /// The first problem found.
        reason: String,
    },
    /// There is nothing to undo or redo.
    #[error("nothing to {what}")]
    NothingTo {
        /// "undo" or "redo".
        what: &'static str,
    },
}
