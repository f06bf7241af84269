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
