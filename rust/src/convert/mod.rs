//! Getting data in and out: Parquet, CSV and Arrow IPC files into Vortex files ([`Converter`]),
//! Vortex chunks out to CSV, Parquet and Arrow IPC ([`export`]), and Arrow's C Data Interface
//! for the JVM ([`ffi`]).
//!
//! A conversion streams: each input is decoded batch by batch on a reader thread, a few batches
//! ahead (bounded memory whatever its size), and written with the reference writer's default
//! strategy: the calling thread converts the batches and hands them to the file's writer
//! thread, which runs the writer and writes each segment when it is ready, while the strategy's
//! compression runs on a worker pool and the writer thread. While a conversion runs, the
//! allocator keeps more freed blocks resident ([`crate::runtime::memory::Retaining`]).

pub mod csv;
pub mod export;
pub mod ffi;
pub mod ipc;
pub mod options;
pub mod parquet;
pub mod partition;
pub mod read_ahead;
pub mod sink;
pub mod source;

use std::path::Path;
use std::path::PathBuf;
use std::sync::Arc;

use arrow::array::RecordBatch;
use arrow::datatypes::Field;
use arrow::datatypes::Schema;
use arrow::datatypes::SchemaRef;
use vortex_io::runtime::current::CurrentThreadWorkerPool;

pub use options::ConvertOptions;
pub use options::CsvOptions;
pub use options::Format;
pub use sink::WrittenFile;

use crate::error::Error;
use crate::error::Result;
use crate::runtime::memory::Retaining;
use crate::runtime::session::RUNTIME;
use crate::write::Drive;
use partition::PartitionedSink;
use read_ahead::ReadAhead;
use sink::RollingSink;
use source::Source;

/// Rows per batch read from the inputs unless `batch-rows` says otherwise.
pub const DEFAULT_BATCH_ROWS: usize = 64 * 1024;

/// How far a conversion is.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Progress {
    pub rows: u64,
    pub bytes_done: u64,
    pub bytes_total: u64,
    pub bad_rows: u64,
}

/// What a conversion wrote.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    pub rows: u64,
    /// Malformed CSV records skipped.
    pub bad_rows: u64,
    pub files: Vec<WrittenFile>,
}

enum Output {
    Files(RollingSink),
    Partitions(PartitionedSink),
}

/// A conversion in progress: [`Converter::step`] until it returns false, then
/// [`Converter::finish`]. Dropped unfinished, the file being written is deleted.
pub struct Converter {
    inputs: Vec<(String, Format)>,
    next_input: usize,
    source: Option<Box<dyn Source>>,
    schema: SchemaRef,
    opts: ConvertOptions,
    output: Output,
    progress: Progress,
    /// Bytes and bad rows of the inputs already read.
    done_before: (u64, u64),
    _pool: CurrentThreadWorkerPool,
    /// Freed blocks of the writer stay resident while converting (see [`Retaining`]).
    _retaining: Retaining,
}

impl Converter {
    /// Starts converting `inputs` (files, or folders searched recursively for `.parquet`,
    /// `.csv`, `.arrow`/`.arrows`/`.feather` files) into `out`. Every input must have the
    /// schema of the first (nullability may differ: the output column is then nullable).
    pub fn new<S: AsRef<str>>(inputs: &[S], out: &str, opts: ConvertOptions) -> Result<Self> {
        let inputs = list_inputs(inputs, opts.format)?;
        let bytes_total = inputs.iter().map(|(p, _)| std::fs::metadata(p).map_or(0, |m| m.len())).sum();
        let batch_rows = opts.batch_rows.unwrap_or(DEFAULT_BATCH_ROWS);
        let first = open_source(&inputs[0], &opts, None, batch_rows)?;
        let schema = merged_schema(&inputs, first.schema())?;
        let first = Box::new(ReadAhead::start(first, &inputs[0].0)?);
        let several = opts.max_rows_per_file.is_some() || !opts.partition_by.is_empty();
        let target = sink::target(Path::new(out), several)?;
        let output = if opts.partition_by.is_empty() {
            Output::Files(RollingSink::new(target, Arc::clone(&schema), opts.max_rows_per_file, Drive::Thread)?)
        } else {
            let sink::Target::Folder(root) = target else {
                unreachable!("partitioned output is a folder");
            };
            Output::Partitions(PartitionedSink::new(root, &schema, &opts.partition_by, opts.max_rows_per_file)?)
        };
        let pool = strategy_workers();
        Ok(Converter {
            inputs,
            next_input: 1,
            source: Some(first),
            schema,
            opts,
            output,
            progress: Progress {
                bytes_total,
                ..Progress::default()
            },
            done_before: (0, 0),
            _pool: pool,
            _retaining: Retaining::start(),
        })
    }

    /// The schema of the rows being written (partition columns included).
    pub fn schema(&self) -> &SchemaRef {
        &self.schema
    }

    /// Converts up to `batches` more batches; false when every input is read.
    pub fn step(&mut self, batches: usize) -> Result<bool> {
        for _ in 0..batches {
            let Some(source) = self.source.as_mut() else {
                return Ok(false);
            };
            let path = &self.inputs[self.next_input - 1].0;
            match source.next_batch()? {
                Some(batch) => {
                    let batch = conform(batch, &self.schema, path)?;
                    let rows = batch.num_rows() as u64;
                    match &mut self.output {
                        Output::Files(s) => s.push(&batch),
                        Output::Partitions(s) => s.push(&batch),
                    }
                    .map_err(|e| in_input(e, path))?;
                    self.progress.rows += rows;
                    self.progress.bytes_done = self.done_before.0 + source.bytes_done();
                    self.progress.bad_rows = self.done_before.1 + source.bad_rows();
                }
                None => {
                    self.done_before.0 += std::fs::metadata(path).map_or(0, |m| m.len());
                    self.done_before.1 += source.bad_rows();
                    self.progress.bytes_done = self.done_before.0;
                    self.progress.bad_rows = self.done_before.1;
                    self.source = None;
                    if self.next_input < self.inputs.len() {
                        let batch_rows = self.opts.batch_rows.unwrap_or(DEFAULT_BATCH_ROWS);
                        let next = &self.inputs[self.next_input];
                        let source = open_source(next, &self.opts, Some(Arc::clone(&self.schema)), batch_rows)?;
                        self.source = Some(Box::new(ReadAhead::start(source, &next.0)?));
                        self.next_input += 1;
                    }
                }
            }
        }
        Ok(self.source.is_some())
    }

    /// How far the conversion is.
    pub fn progress(&self) -> Progress {
        self.progress
    }

    /// Finishes the output files (an input with no rows still gives a file with its schema).
    pub fn finish(mut self) -> Result<Summary> {
        while self.step(usize::MAX)? {}
        let files = match &mut self.output {
            Output::Files(s) => s.finish(true)?,
            Output::Partitions(s) => s.finish()?,
        };
        Ok(Summary {
            rows: self.progress.rows,
            bad_rows: self.progress.bad_rows,
            files,
        })
    }
}

/// The workers the default strategy's tasks (statistics, compression) run on while a conversion
/// lives, one per core, beside each file's writer thread; they stop when the pool is dropped.
pub fn strategy_workers() -> CurrentThreadWorkerPool {
    let pool = RUNTIME.new_pool();
    pool.set_workers(std::thread::available_parallelism().map_or(1, |n| n.get()));
    pool
}

/// Converts `inputs` into `out` in one go.
pub fn convert<S: AsRef<str>>(inputs: &[S], out: &str, opts: ConvertOptions) -> Result<Summary> {
    Converter::new(inputs, out, opts)?.finish()
}

/// Names the input in errors that concern its data (a column vortex cannot hold, ...).
fn in_input(e: Error, path: &str) -> Error {
    match e {
        Error::Column { column, message } => Error::file(path, format!("column '{column}': {message}")),
        Error::Vortex { context, source } => Error::Vortex { context: format!("{path}: {context}"), source },
        other => other,
    }
}

fn open_source(input: &(String, Format), opts: &ConvertOptions, schema: Option<SchemaRef>, batch_rows: usize) -> Result<Box<dyn Source>> {
    let (path, format) = input;
    Ok(match format {
        Format::Parquet => Box::new(parquet::ParquetSource::open(path, batch_rows)?),
        Format::Csv => Box::new(csv::CsvSource::open(path, &opts.csv, schema.as_ref().map(source::without_views), batch_rows)?),
        Format::Arrow => Box::new(ipc::IpcSource::open(path)?),
    })
}

/// The input files: each argument a file, or a folder searched recursively (names starting with
/// `.` or `_` skipped, as Spark and Hive do for their markers), in name order.
fn list_inputs<S: AsRef<str>>(inputs: &[S], forced: Option<Format>) -> Result<Vec<(String, Format)>> {
    let mut out = Vec::new();
    for input in inputs {
        let path = PathBuf::from(input.as_ref());
        if path.is_dir() {
            let mut files = Vec::new();
            walk(&path, &mut files)?;
            files.sort();
            for f in files {
                if let Some(format) = forced.or_else(|| Format::of(&f)) {
                    out.push((f.to_string_lossy().into_owned(), format));
                }
            }
        } else if path.is_file() {
            let format = forced.or_else(|| Format::of(&path)).ok_or_else(|| {
                Error::file(input.as_ref(), "has no known extension (.parquet, .csv, .arrow); say which with --format")
            })?;
            out.push((input.as_ref().to_string(), format));
        } else {
            return Err(Error::file(input.as_ref(), "no such file or folder"));
        }
    }
    if out.is_empty() {
        return Err(Error::Invalid("no input files (.parquet, .csv, .arrow) found".into()));
    }
    Ok(out)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    let entries = std::fs::read_dir(dir).map_err(|e| Error::file(dir.display().to_string(), format!("cannot list: {e}")))?;
    for entry in entries {
        let entry = entry.map_err(|e| Error::file(dir.display().to_string(), format!("cannot list: {e}")))?;
        let name = entry.file_name();
        if name.to_string_lossy().starts_with(['.', '_']) {
            continue;
        }
        let path = entry.path();
        if path.is_dir() {
            walk(&path, out)?;
        } else {
            out.push(path);
        }
    }
    Ok(())
}

/// The first input's schema, with a column nullable when it is nullable in any Parquet or Arrow
/// input (their schemas are read from the footers; CSV columns are always nullable). Types must
/// agree; the first difference is an error naming the file and column.
fn merged_schema(inputs: &[(String, Format)], first: SchemaRef) -> Result<SchemaRef> {
    let mut fields: Vec<Field> = first.fields().iter().map(|f| f.as_ref().clone()).collect();
    for input in inputs.iter().skip(1).filter(|(_, f)| *f != Format::Csv) {
        let other = open_source(input, &ConvertOptions::default(), None, 1)?.schema();
        check_same_columns(&input.0, &first, &other)?;
        for (f, o) in fields.iter_mut().zip(other.fields()) {
            if o.is_nullable() && !f.is_nullable() {
                *f = f.clone().with_nullable(true);
            }
        }
    }
    Ok(Arc::new(Schema::new_with_metadata(fields, first.metadata().clone())))
}

fn check_same_columns(path: &str, expected: &Schema, actual: &Schema) -> Result<()> {
    let names = |s: &Schema| s.fields().iter().map(|f| f.name().clone()).collect::<Vec<_>>();
    if names(expected) != names(actual) {
        return Err(Error::file(
            path,
            format!("has columns {:?}, the first input {:?}", names(actual), names(expected)),
        ));
    }
    for (e, a) in expected.fields().iter().zip(actual.fields()) {
        if !source::same_values(e.data_type(), a.data_type()) {
            return Err(Error::file(
                path,
                format!("column '{}' is {}, in the first input {}", e.name(), a.data_type(), e.data_type()),
            ));
        }
    }
    Ok(())
}

/// A batch of an input under the merged schema (same columns; nullability may widen, and
/// strings or binary may come in another layout, cast to the first input's).
fn conform(batch: RecordBatch, schema: &SchemaRef, path: &str) -> Result<RecordBatch> {
    if batch.schema().fields() == schema.fields() {
        return Ok(batch);
    }
    check_same_columns(path, schema, &batch.schema())?;
    let mut columns = batch.columns().to_vec();
    for (c, f) in columns.iter_mut().zip(schema.fields()) {
        if c.data_type() != f.data_type() {
            *c = arrow::compute::cast(c, f.data_type())
                .map_err(|e| Error::file(path, format!("column '{}': cannot read as {}: {e}", f.name(), f.data_type())))?;
        }
    }
    RecordBatch::try_new(Arc::clone(schema), columns)
        .map_err(|e| Error::file(path, format!("does not fit the first input's schema: {e}")))
}
