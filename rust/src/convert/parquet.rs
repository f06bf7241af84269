//! Parquet files as Arrow record batches, with the `parquet` crate's Arrow reader.
//!
//! String and binary columns are read as Arrow views (`Utf8View`, `BinaryView`): vortex's own
//! layout for them, so vortex-arrow takes the batches without rebuilding the strings, and the
//! reader makes the views of a dictionary-encoded page without copying its values per row.

use std::fs::File;
use std::sync::Arc;

use arrow::array::RecordBatch;
use arrow::datatypes::DataType;
use arrow::datatypes::Field;
use arrow::datatypes::Schema;
use arrow::datatypes::SchemaRef;
use parquet::arrow::arrow_reader::ArrowReaderMetadata;
use parquet::arrow::arrow_reader::ArrowReaderOptions;
use parquet::arrow::arrow_reader::ParquetRecordBatchReader;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

use super::source::Source;
use crate::error::Error;
use crate::error::Result;

/// A Parquet file being read, row group by row group.
pub struct ParquetSource {
    path: String,
    reader: ParquetRecordBatchReader,
    schema: SchemaRef,
    rows: u64,
    rows_done: u64,
    size: u64,
}

impl ParquetSource {
    /// Opens `path`, reading batches of `batch_rows` rows.
    pub fn open(path: &str, batch_rows: usize) -> Result<Self> {
        let file = File::open(path).map_err(|e| Error::file(path, format!("cannot open: {e}")))?;
        let size = file.metadata().map(|m| m.len()).unwrap_or(0);
        let unreadable = |e: parquet::errors::ParquetError| Error::file(path, format!("not a readable Parquet file: {e}"));
        let natural = ArrowReaderMetadata::load(&file, ArrowReaderOptions::new()).map_err(unreadable)?;
        let viewed = ArrowReaderOptions::new().with_schema(as_views(natural.schema()));
        let metadata = ArrowReaderMetadata::try_new(Arc::clone(natural.metadata()), viewed).map_err(unreadable)?;
        let builder = ParquetRecordBatchReaderBuilder::new_with_metadata(file, metadata);
        let rows = builder.metadata().file_metadata().num_rows().max(0) as u64;
        let schema = builder.schema().clone();
        let reader = builder
            .with_batch_size(batch_rows)
            .build()
            .map_err(|e| Error::file(path, format!("cannot read: {e}")))?;
        Ok(ParquetSource {
            path: path.to_string(),
            reader,
            schema,
            rows,
            rows_done: 0,
            size,
        })
    }
}

/// `schema` with its top-level string and binary columns as views.
fn as_views(schema: &SchemaRef) -> SchemaRef {
    let fields: Vec<Field> = schema
        .fields()
        .iter()
        .map(|f| {
            let t = match f.data_type() {
                DataType::Utf8 | DataType::LargeUtf8 => DataType::Utf8View,
                DataType::Binary | DataType::LargeBinary => DataType::BinaryView,
                t => t.clone(),
            };
            f.as_ref().clone().with_data_type(t)
        })
        .collect();
    Arc::new(Schema::new_with_metadata(fields, schema.metadata().clone()))
}

impl Source for ParquetSource {
    fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }

    fn next_batch(&mut self) -> Result<Option<RecordBatch>> {
        match self.reader.next() {
            None => Ok(None),
            Some(Ok(b)) => {
                self.rows_done += b.num_rows() as u64;
                Ok(Some(b))
            }
            Some(Err(e)) => Err(Error::file(&self.path, format!("cannot read row {}: {e}", self.rows_done))),
        }
    }

    fn bytes_done(&self) -> u64 {
        if self.rows == 0 {
            return self.size;
        }
        (self.size as u128 * self.rows_done as u128 / self.rows as u128) as u64
    }
}
