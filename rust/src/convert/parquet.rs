//! Parquet files as Arrow record batches, with the `parquet` crate's Arrow reader.

use std::fs::File;

use arrow::array::RecordBatch;
use arrow::datatypes::SchemaRef;
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
        let builder = ParquetRecordBatchReaderBuilder::try_new(file)
            .map_err(|e| Error::file(path, format!("not a readable Parquet file: {e}")))?;
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
