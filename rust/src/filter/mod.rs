//! Filter kernels: a predicate leaf evaluated on a chunk's column, straight into selection words
//! (LSB-first, [`bits`]).
//!
//! - [`dict`]: a leaf on a dictionary-encoded column, once per entry (a code table), then rows
//!   selected by code lookup fused into FastLanes unpacking;
//! - [`int`]: comparisons, ranges and short `IN` lists on bit-packed integers, in the packed domain;
//! - [`list`]: containment and length of list columns;
//! - [`column_selection`]: any other leaf by vortex's compute on the encoded column.
//!
//! [`unpack`] is the fused unpack-and-test loop `dict` and `int` share.

pub(crate) mod bits;
mod column;
pub mod dict;
pub(crate) mod int;
pub(crate) mod list;
pub(crate) mod unpack;

pub use column::column_selection;

/// Which kernel computed a leaf's selection on a chunk (the `path` code table, docs/jni.md): what
/// a prepared filter reports per leaf when asked, so that tests and diagnostics can tell the
/// dictionary kernel answered rather than a slower path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeafPath {
    /// Java evaluated it and passed its selection.
    Java = 0,
    /// The dictionary kernel ([`dict`]).
    Dictionary = 1,
    /// The packed-integer kernel ([`int`]).
    PackedIntegers = 2,
    /// vortex's compute on the column ([`column_selection`]).
    Compute = 3,
    /// The list kernels ([`list`]).
    List = 4,
    /// Not evaluated natively on this chunk: the filter was declined.
    Declined = 5,
    /// Not reached (an AND stopped at a child that selected nothing).
    NotEvaluated = 6,
}

impl LeafPath {
    /// Every path with the name Java's `LeafPath` gives it.
    pub(crate) const ALL: [(&'static str, LeafPath); 7] = [
        ("JAVA", LeafPath::Java),
        ("DICTIONARY", LeafPath::Dictionary),
        ("PACKED_INTEGERS", LeafPath::PackedIntegers),
        ("COMPUTE", LeafPath::Compute),
        ("LIST", LeafPath::List),
        ("DECLINED", LeafPath::Declined),
        ("NOT_EVALUATED", LeafPath::NotEvaluated),
    ];
}
