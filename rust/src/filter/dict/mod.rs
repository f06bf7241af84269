//! THE kernel: a predicate on a dictionary-encoded column, evaluated once per dictionary entry.
//!
//! 1. The leaf is resolved against the column type ([`crate::predicate::resolve`]) and evaluated on the
//!    dictionary values with vortex's compute (compare on FSST/VarBinView values directly), giving
//!    one boolean per code: the [`CodeTable`]. It is cached per dictionary ([`crate::cache::dictionaries`]):
//!    files from the reference writer share one dictionary across a column's chunks.
//! 2. Rows are selected by code lookup into a bitmap, 64 rows per word. Bit-packed codes are
//!    unpacked and looked up in one pass (FastLanes' fused unpack-compare with the table as the
//!    comparison), one 1024-row block at a time, without materializing the codes.
//!
//! A null code, or a code pointing at a null dictionary entry, is a null row: it is selected
//! only by leaves true for null (`IS NULL`, `NOT IN ()`).

mod kernel;
mod table;

pub use kernel::select_rows;
pub use kernel::string_dictionary;
pub use table::CodeTable;
pub use table::code_table;
