//! Vortex chunks out to CSV, Parquet or Arrow IPC files, with the arrow-rs writers: the selected
//! rows of each chunk (the caller's filter, e.g. the reader's dictionary filter) are decoded by
//! vortex-arrow and appended, so memory stays bounded by a chunk.

use std::fs::File;
use std::io::BufWriter;
use std::path::Path;
use std::path::PathBuf;
use std::sync::Arc;

use arrow::array::ArrayRef as ArrowArrayRef;
use arrow::array::Date32Array;
use arrow::array::Int64Array;
use arrow::array::RecordBatch;
use arrow::array::StringArray;
use arrow::csv::WriterBuilder as CsvWriterBuilder;
use arrow::datatypes::DataType;
use arrow::datatypes::Date32Type;
use arrow::compute::kernels::cast_utils::Parser;
use arrow::datatypes::Field;
use arrow::datatypes::Schema;
use arrow::datatypes::SchemaRef;
use arrow::ipc::writer::FileWriter as IpcWriter;
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::basic::ZstdLevel;
use parquet::file::properties::WriterProperties;
use vortex_array::ArrayRef;
use vortex_array::dtype::DType;
use vortex_arrow::ArrowSessionExt;
use vortex_buffer::BitBuffer;
use vortex_buffer::ByteBuffer;
use vortex_mask::Mask;

use crate::error::Context;
use crate::error::Error;
use crate::error::Result;
use crate::runtime::session::execution_ctx;
use crate::runtime::session::session;

/// An export format and its options.
#[derive(Debug, Clone, PartialEq)]
pub enum ExportFormat {
    Csv { header: bool, delimiter: u8, null: String },
    Parquet,
    /// The Arrow IPC file format.
    Arrow,
}

impl ExportFormat {
    /// Parses `csv`, `parquet` or `arrow` with `key=value` options (`header`, `delimiter`,
    /// `null` for CSV).
    pub fn parse<S: AsRef<str>>(format: &str, options: &[S]) -> Result<Self> {
        let mut header = true;
        let mut delimiter = b',';
        let mut null = String::new();
        for o in options {
            let o = o.as_ref();
            let (k, v) = o.split_once('=').ok_or_else(|| Error::Invalid(format!("option '{o}' is not key=value")))?;
            match k {
                "header" => header = v == "true",
                "delimiter" => {
                    delimiter = match v {
                        "\\t" | "tab" => b'\t',
                        _ if v.len() == 1 && v.is_ascii() => v.as_bytes()[0],
                        _ => return Err(Error::Invalid(format!("delimiter must be one ASCII character, not '{v}'"))),
                    }
                }
                "null" => null = v.to_string(),
                _ => return Err(Error::Invalid(format!("unknown export option '{k}'"))),
            }
        }
        match format {
            "csv" => Ok(ExportFormat::Csv { header, delimiter, null }),
            "parquet" => Ok(ExportFormat::Parquet),
            "arrow" | "ipc" => Ok(ExportFormat::Arrow),
            _ => Err(Error::Invalid(format!("unknown export format '{format}' (csv, parquet or arrow)"))),
        }
    }
}

enum Writer {
    Csv(arrow::csv::Writer<BufWriter<File>>),
    Parquet(ArrowWriter<File>),
    Arrow(IpcWriter<BufWriter<File>>),
}

/// Where an exported column's values come from.
#[derive(Debug, Clone, PartialEq)]
pub enum ExportColumn {
    /// The next column of each chunk, of this dtype.
    Stored(DType),
    /// A Hive partition column: one value for all the rows of a file, set with
    /// [`Exporter::set_partition_values`].
    Partition(PartitionType),
}

/// The type of a Hive partition column, as the dataset reader infers it from the folder names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PartitionType {
    Int64,
    Date,
    Utf8,
}

impl PartitionType {
    /// `int64`, `date` or `utf8`.
    pub fn parse(name: &str) -> Result<Self> {
        match name {
            "int64" => Ok(PartitionType::Int64),
            "date" => Ok(PartitionType::Date),
            "utf8" => Ok(PartitionType::Utf8),
            _ => Err(Error::Invalid(format!("unknown partition column type '{name}' (int64, date or utf8)"))),
        }
    }

    /// The Arrow type of the column's values.
    pub fn arrow(self) -> DataType {
        match self {
            PartitionType::Int64 => DataType::Int64,
            PartitionType::Date => DataType::Date32,
            PartitionType::Utf8 => DataType::Utf8,
        }
    }
}

/// A file being exported. Written under a temporary name and renamed by [`Exporter::finish`];
/// dropped unfinished, the partial file is deleted.
pub struct Exporter {
    path: PathBuf,
    partial: PathBuf,
    schema: SchemaRef,
    columns: Vec<ExportColumn>,
    /// The current file's values of the partition columns, in column order.
    partition_values: Vec<Option<String>>,
    writer: Option<Writer>,
    rows: u64,
}

/// The Arrow field a Vortex column is exported as: vortex-arrow's mapping, with view types as
/// their classic forms (every reader of the three formats takes those).
pub fn export_field(name: &str, dtype: &DType) -> Result<Field> {
    let f = arrow_field(name, dtype)?;
    let t = match f.data_type() {
        DataType::Utf8View => DataType::Utf8,
        DataType::BinaryView => DataType::Binary,
        t => t.clone(),
    };
    Ok(f.with_data_type(t))
}

/// vortex-arrow's Arrow field for a column of vortex type `dtype` (strings and binaries as views).
pub fn arrow_field(name: &str, dtype: &DType) -> Result<Field> {
    session().arrow().to_arrow_field(name, dtype).context(|| format!("column '{name}': {dtype} has no Arrow type"))
}

impl Exporter {
    /// Creates `path` for columns `names` of vortex dtypes `dtypes`.
    pub fn create(path: &str, format: &ExportFormat, names: &[String], dtypes: &[DType]) -> Result<Self> {
        let columns: Vec<ExportColumn> = dtypes.iter().map(|d| ExportColumn::Stored(d.clone())).collect();
        Self::create_columns(path, format, names, &columns)
    }

    /// Creates `path` for columns `names` stored in the chunks or taken from the partition
    /// values (nullable, as a partition value may be `__HIVE_DEFAULT_PARTITION__`).
    pub fn create_columns(path: &str, format: &ExportFormat, names: &[String], columns: &[ExportColumn]) -> Result<Self> {
        let fields = names
            .iter()
            .zip(columns)
            .map(|(n, c)| match c {
                ExportColumn::Stored(d) => export_field(n, d),
                ExportColumn::Partition(t) => Ok(Field::new(n, t.arrow(), true)),
            })
            .collect::<Result<Vec<_>>>()?;
        let partitions = columns.iter().filter(|c| matches!(c, ExportColumn::Partition(_))).count();
        let schema = Arc::new(Schema::new(fields));
        let path = PathBuf::from(path);
        let mut name = path.file_name().unwrap_or_default().to_os_string();
        name.push(".partial");
        let partial = path.with_file_name(name);
        let shown = path.display().to_string();
        let file = File::create(&partial).map_err(|e| Error::file(&shown, format!("cannot create: {e}")))?;
        let failed = |e: String| Error::file(&shown, e);
        let writer = match format {
            ExportFormat::Csv { header, delimiter, null } => {
                if let Some(f) = schema.fields().iter().find(|f| f.data_type().is_nested()) {
                    return Err(Error::column(f.name(), format!("{} cannot be written as CSV", f.data_type())));
                }
                Writer::Csv(
                    CsvWriterBuilder::new()
                        .with_header(*header)
                        .with_delimiter(*delimiter)
                        .with_null(null.clone())
                        .build(BufWriter::with_capacity(1 << 20, file)),
                )
            }
            ExportFormat::Parquet => {
                let props = WriterProperties::builder()
                    .set_compression(Compression::ZSTD(ZstdLevel::default()))
                    .build();
                Writer::Parquet(ArrowWriter::try_new(file, Arc::clone(&schema), Some(props)).map_err(|e| failed(e.to_string()))?)
            }
            ExportFormat::Arrow => Writer::Arrow(
                IpcWriter::try_new_buffered(file, &schema).map_err(|e| failed(e.to_string()))?,
            ),
        };
        Ok(Exporter {
            path,
            partial,
            schema,
            columns: columns.to_vec(),
            partition_values: vec![None; partitions],
            writer: Some(writer),
            rows: 0,
        })
    }

    /// The Arrow schema of the exported rows.
    pub fn schema(&self) -> &SchemaRef {
        &self.schema
    }

    /// How many columns come from the chunks (the others are partition values).
    pub fn stored_columns(&self) -> usize {
        self.columns.iter().filter(|c| matches!(c, ExportColumn::Stored(_))).count()
    }

    /// Sets the partition columns' values (in column order; `None` for null) for the rows
    /// written next: those of the file being read. Each is checked against its column's type.
    pub fn set_partition_values(&mut self, values: Vec<Option<String>>) -> Result<()> {
        if values.len() != self.partition_values.len() {
            return Err(Error::Invalid(format!(
                "{} partition values for {} partition columns",
                values.len(),
                self.partition_values.len()
            )));
        }
        let partitions = self.schema.fields().iter().zip(&self.columns).filter_map(|(f, c)| match c {
            ExportColumn::Partition(t) => Some((f.name(), *t)),
            ExportColumn::Stored(_) => None,
        });
        for ((name, t), v) in partitions.zip(&values) {
            if let Some(v) = v {
                repeated(t, v, 0).map_err(|e| Error::column(name, e))?;
            }
        }
        self.partition_values = values;
        Ok(())
    }

    /// Appends the rows of `columns` (one chunk, `len` rows; the stored columns in export
    /// order) that `selection` (bitmap words, LSB first; `None`: every row) selects, with the
    /// current partition values.
    pub fn write(&mut self, columns: &[ArrayRef], len: usize, selection: Option<&[u64]>) -> Result<()> {
        if self.partition_values.is_empty() {
            let batch = to_record_batch(&self.schema, columns, len, selection)?;
            return self.write_batch(&batch);
        }
        let stored: Vec<Field> = (self.schema.fields().iter().zip(&self.columns))
            .filter(|(_, c)| matches!(c, ExportColumn::Stored(_)))
            .map(|(f, _)| f.as_ref().clone())
            .collect();
        let batch = to_record_batch(&Arc::new(Schema::new(stored)), columns, len, selection)?;
        let rows = batch.num_rows();
        let mut stored_columns = batch.columns().iter();
        let mut values = self.partition_values.iter();
        let mut out: Vec<ArrowArrayRef> = Vec::with_capacity(self.columns.len());
        for (field, column) in self.schema.fields().iter().zip(&self.columns) {
            out.push(match column {
                ExportColumn::Stored(_) => Arc::clone(stored_columns.next().expect("one per stored column")),
                ExportColumn::Partition(t) => match values.next().expect("one per partition column") {
                    Some(v) => repeated(*t, v, rows).map_err(|e| Error::column(field.name(), e))?,
                    None => arrow::array::new_null_array(&t.arrow(), rows),
                },
            });
        }
        let batch = RecordBatch::try_new_with_options(
            Arc::clone(&self.schema),
            out,
            &arrow::array::RecordBatchOptions::new().with_row_count(Some(rows)),
        )
        .map_err(|e| Error::Invalid(format!("cannot assemble a batch: {e}")))?;
        self.write_batch(&batch)
    }

    /// Appends an Arrow batch of the exporter's schema.
    pub fn write_batch(&mut self, batch: &RecordBatch) -> Result<()> {
        if batch.num_rows() == 0 {
            return Ok(());
        }
        let shown = self.path.display().to_string();
        let failed = |e: String| Error::file(&shown, format!("write failed: {e}"));
        match self.writer.as_mut().ok_or_else(|| Error::file(&shown, "the export is finished"))? {
            Writer::Csv(w) => w.write(batch).map_err(|e| failed(e.to_string()))?,
            Writer::Parquet(w) => w.write(batch).map_err(|e| failed(e.to_string()))?,
            Writer::Arrow(w) => w.write(batch).map_err(|e| failed(e.to_string()))?,
        }
        self.rows += batch.num_rows() as u64;
        Ok(())
    }

    /// Completes the file (footer, flush) and moves it into place; returns the rows written.
    pub fn finish(&mut self) -> Result<u64> {
        let shown = self.path.display().to_string();
        let failed = |e: String| Error::file(&shown, format!("cannot finish: {e}"));
        let file = match self.writer.take().ok_or_else(|| Error::file(&shown, "the export is finished"))? {
            Writer::Csv(mut w) => {
                if self.rows == 0 {
                    // arrow-csv writes the header with the first batch: a file without rows still has it.
                    w.write(&RecordBatch::new_empty(Arc::clone(&self.schema))).map_err(|e| failed(e.to_string()))?;
                }
                w.into_inner().into_inner().map_err(|e| failed(e.to_string()))?
            }
            Writer::Parquet(w) => w.into_inner().map_err(|e| failed(e.to_string()))?,
            Writer::Arrow(mut w) => {
                w.finish().map_err(|e| failed(e.to_string()))?;
                w.into_inner().map_err(|e| failed(e.to_string()))?.into_inner().map_err(|e| failed(e.to_string()))?
            }
        };
        file.sync_all().map_err(|e| failed(e.to_string()))?;
        std::fs::rename(&self.partial, &self.path).map_err(|e| failed(e.to_string()))?;
        Ok(self.rows)
    }
}

impl Drop for Exporter {
    fn drop(&mut self) {
        if self.writer.take().is_some() {
            let _ = std::fs::remove_file(&self.partial);
        }
    }
}

/// The selected rows of a chunk's columns as an Arrow batch of `schema`.
pub fn to_record_batch(schema: &SchemaRef, columns: &[ArrayRef], len: usize, selection: Option<&[u64]>) -> Result<RecordBatch> {
    if columns.len() != schema.fields().len() {
        return Err(Error::Invalid(format!("{} columns for a schema of {}", columns.len(), schema.fields().len())));
    }
    let mask = selection.map(|words| selection_mask(words, len)).transpose()?;
    let arrow = session().arrow();
    let mut ctx = execution_ctx();
    let mut out: Vec<ArrowArrayRef> = Vec::with_capacity(columns.len());
    for (column, field) in columns.iter().zip(schema.fields()) {
        let column = match &mask {
            Some(m) => column
                .filter(m.clone())
                .context(|| format!("column '{}': cannot filter", field.name()))?,
            None => column.clone(),
        };
        out.push(
            arrow
                .execute_arrow(column, Some(field.as_ref()), &mut ctx)
                .context(|| format!("column '{}': cannot decode", field.name()))?,
        );
    }
    let rows = mask.as_ref().map_or(len, |m| m.true_count());
    RecordBatch::try_new_with_options(
        Arc::clone(schema),
        out,
        &arrow::array::RecordBatchOptions::new().with_row_count(Some(rows)),
    )
    .map_err(|e| Error::Invalid(format!("cannot assemble a batch: {e}")))
}

/// `rows` copies of a partition value given as text (decimal digits, `YYYY-MM-DD`, or the string).
/// `rows` copies of partition value `value` (as the folder names it) of type `t`.
pub fn repeated(t: PartitionType, value: &str, rows: usize) -> std::result::Result<ArrowArrayRef, String> {
    Ok(match t {
        PartitionType::Int64 => {
            let v: i64 = value.parse().map_err(|_| format!("partition value '{value}' is not an int64"))?;
            Arc::new(Int64Array::from_value(v, rows))
        }
        PartitionType::Date => {
            let v = Date32Type::parse(value).ok_or_else(|| format!("partition value '{value}' is not a date"))?;
            Arc::new(Date32Array::from_value(v, rows))
        }
        PartitionType::Utf8 => Arc::new(StringArray::from_iter_values(std::iter::repeat_n(value, rows))),
    })
}

/// A row selection of `len` rows from bitmap words.
pub fn selection_mask(words: &[u64], len: usize) -> Result<Mask> {
    if words.len() != len.div_ceil(64) {
        return Err(Error::Invalid(format!("a selection of {} words for {len} rows", words.len())));
    }
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    Ok(Mask::from_buffer(BitBuffer::new(ByteBuffer::copy_from(bytes), len)))
}

/// Whether `path` names a folder that exists (exports write one file).
pub fn check_target(path: &str) -> Result<()> {
    if Path::new(path).is_dir() {
        return Err(Error::file(path, "is a folder; export writes one file"));
    }
    Ok(())
}
