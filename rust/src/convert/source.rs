//! An input being converted: Arrow record batches of one schema, read in order.

use std::sync::Arc;

use arrow::array::RecordBatch;
use arrow::datatypes::DataType;
use arrow::datatypes::Field;
use arrow::datatypes::Schema;
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

/// Whether columns of types `a` and `b` hold the same kind of values: the same type, or two
/// layouts of strings (32- or 64-bit offsets, views), or two of binary. Inputs of one conversion
/// may differ so (Parquet is read as views, CSV as offsets).
pub fn same_values(a: &DataType, b: &DataType) -> bool {
    fn kind(t: &DataType) -> Option<u8> {
        match t {
            DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View => Some(0),
            DataType::Binary | DataType::LargeBinary | DataType::BinaryView => Some(1),
            _ => None,
        }
    }
    a == b || kind(a).is_some_and(|k| kind(b) == Some(k))
}

/// `schema` with its string and binary views as offset layouts (what the CSV reader decodes).
pub fn without_views(schema: &SchemaRef) -> SchemaRef {
    let fields: Vec<Field> = schema
        .fields()
        .iter()
        .map(|f| match f.data_type() {
            DataType::Utf8View => f.as_ref().clone().with_data_type(DataType::Utf8),
            DataType::BinaryView => f.as_ref().clone().with_data_type(DataType::Binary),
            _ => f.as_ref().clone(),
        })
        .collect();
    Arc::new(Schema::new_with_metadata(fields, schema.metadata().clone()))
}
