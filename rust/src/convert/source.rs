//! An input being converted: Arrow record batches of one schema, read in order.

use arrow::array::RecordBatch;
use arrow::datatypes::SchemaRef;

use crate::error::Result;

/// A file read as Arrow record batches, in bounded memory.
pub trait Source: Send {
    /// The schema every batch has.
    fn schema(&self) -> SchemaRef;

    /// The next batch, or `None` at the end of the file.
    fn next_batch(&mut self) -> Result<Option<RecordBatch>>;

    /// Bytes of the file consumed so far (for progress; estimated where the reader cannot say).
    fn bytes_done(&self) -> u64;

    /// Malformed records skipped (CSV with `skip-bad-rows`).
    fn bad_rows(&self) -> u64 {
        0
    }
}
