//! Arrow record batches into Vortex files: one file, or a folder of files of at most
//! `max_rows_per_file` rows each (`part-00000.vortex`, `part-00001.vortex`, ...), written with
//! the reference writer's default strategy (statistics, dictionaries for low-cardinality
//! columns, compression). Columns are converted by vortex-arrow.

use std::path::Path;
use std::path::PathBuf;

use arrow::array::RecordBatch;
use arrow::datatypes::SchemaRef;
use vortex_array::ArrayRef;
use vortex_array::IntoArray;
use vortex_array::arrays::StructArray;
use vortex_array::dtype::DType;
use vortex_array::dtype::FieldNames;
use vortex_array::dtype::Nullability;
use vortex_array::dtype::StructFields;
use vortex_array::validity::Validity;
use vortex_arrow::ArrowSessionExt;

use crate::error::Context;
use crate::error::Error;
use crate::error::Result;
use crate::runtime::session::session;
use crate::write::Drive;
use crate::write::VortexFileSink;

/// A file `convert` wrote.
#[derive(Debug, Clone, PartialEq)]
pub struct WrittenFile {
    pub path: PathBuf,
    pub rows: u64,
    pub bytes: u64,
}

/// The vortex dtype of batches of `schema`, or an error naming the column vortex cannot hold.
pub fn vortex_dtype(schema: &SchemaRef) -> Result<DType> {
    let arrow = session().arrow();
    let mut dtypes = Vec::with_capacity(schema.fields().len());
    for f in schema.fields() {
        dtypes.push(
            arrow
                .from_arrow_field(f)
                .context(|| format!("column '{}': Arrow type {} has no Vortex dtype", f.name(), f.data_type()))?,
        );
    }
    let names: FieldNames = schema.fields().iter().map(|f| f.name().as_str()).collect();
    Ok(DType::Struct(StructFields::new(names, dtypes), Nullability::NonNullable))
}

/// A batch as a vortex struct array (the columns converted by vortex-arrow, zero-copy where the
/// layouts agree).
pub fn to_vortex(batch: &RecordBatch, schema: &SchemaRef) -> Result<ArrayRef> {
    let arrow = session().arrow();
    let mut columns = Vec::with_capacity(batch.num_columns());
    for (column, field) in batch.columns().iter().zip(schema.fields()) {
        columns.push(
            arrow
                .from_arrow_array(column.clone(), field.as_ref())
                .context(|| format!("column '{}': cannot convert {}", field.name(), field.data_type()))?,
        );
    }
    let names: FieldNames = schema.fields().iter().map(|f| f.name().as_str()).collect();
    Ok(StructArray::try_new(names, columns, batch.num_rows(), Validity::NonNullable)
        .context(|| "cannot assemble a batch".to_string())?
        .into_array())
}

/// Where the files go.
#[derive(Debug, Clone)]
pub enum Target {
    /// Exactly this file.
    File(PathBuf),
    /// Numbered files in this folder.
    Folder(PathBuf),
}

/// Batches of one schema into one file or a folder of files, rolling over at `max_rows`.
///
/// A single file is written under a temporary name and renamed when complete, so a failed
/// conversion leaves any earlier file of that name as it was; a sink dropped before
/// [`RollingSink::finish`] removes the files it wrote.
pub struct RollingSink {
    target: Target,
    max_rows: Option<u64>,
    schema: SchemaRef,
    dtype: DType,
    drive: Drive,
    current: Option<VortexFileSink>,
    written: Vec<WrittenFile>,
    /// Files started so far (numbers the next one).
    started: usize,
}

impl RollingSink {
    /// A sink for batches of `schema`, its files' writers driven by `drive`; nothing is created
    /// before the first row (or `finish`).
    pub fn new(target: Target, schema: SchemaRef, max_rows: Option<u64>, drive: Drive) -> Result<Self> {
        let dtype = vortex_dtype(&schema)?;
        Ok(RollingSink {
            target,
            max_rows,
            schema,
            dtype,
            drive,
            current: None,
            written: Vec::new(),
            started: 0,
        })
    }

    fn open_next(&mut self) -> Result<&mut VortexFileSink> {
        if self.current.is_none() {
            let path = match &self.target {
                Target::File(p) => {
                    if self.started > 0 {
                        return Err(Error::Invalid("a single-file target cannot roll over".into()));
                    }
                    partial(p)
                }
                Target::Folder(dir) => {
                    std::fs::create_dir_all(dir)
                        .map_err(|e| Error::file(dir.display().to_string(), format!("cannot create: {e}")))?;
                    dir.join(format!("part-{:05}.vortex", self.started))
                }
            };
            self.current = Some(VortexFileSink::create(&path.to_string_lossy(), self.dtype.clone(), self.drive)?);
            self.started += 1;
        }
        Ok(self.current.as_mut().expect("opened above"))
    }

    /// Appends a batch, starting new files where `max_rows` says.
    pub fn push(&mut self, batch: &RecordBatch) -> Result<()> {
        let mut offset = 0;
        while offset < batch.num_rows() {
            let room = match self.max_rows {
                Some(max) => {
                    let used = self.current.as_ref().map_or(0, |c| c.rows());
                    (max - used) as usize
                }
                None => usize::MAX,
            };
            let n = room.min(batch.num_rows() - offset);
            let part = batch.slice(offset, n);
            let array = to_vortex(&part, &self.schema)?;
            self.open_next()?.push(array)?;
            offset += n;
            if self.max_rows.is_some_and(|max| self.current.as_ref().is_some_and(|c| c.rows() >= max)) {
                self.close_current()?;
            }
        }
        Ok(())
    }

    /// Finishes the open file, if any; the next row starts a new one.
    pub fn close_current(&mut self) -> Result<()> {
        if let Some(mut sink) = self.current.take() {
            let bytes = sink.finish()?;
            let mut path = PathBuf::from(sink.path());
            if let Target::File(p) = &self.target {
                std::fs::rename(&path, p).map_err(|e| Error::file(p.display().to_string(), format!("cannot replace: {e}")))?;
                path = p.clone();
            }
            self.written.push(WrittenFile { path, rows: sink.rows(), bytes });
        }
        Ok(())
    }

    /// Whether a file is open (rows pushed since the last roll-over).
    pub fn is_open(&self) -> bool {
        self.current.is_some()
    }

    /// Closes the open file. With `keep_empty`, a sink that wrote nothing still writes one
    /// empty file, so the output has the schema.
    pub fn finish(&mut self, keep_empty: bool) -> Result<Vec<WrittenFile>> {
        if keep_empty && self.started == 0 {
            self.open_next()?;
        }
        self.close_current()?;
        Ok(std::mem::take(&mut self.written))
    }
}

impl Drop for RollingSink {
    /// An unfinished sink (a failed conversion) removes the files it completed; the open one
    /// deletes itself.
    fn drop(&mut self) {
        for f in &self.written {
            let _ = std::fs::remove_file(&f.path);
        }
    }
}

/// Where a single file is written until it is complete.
fn partial(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".partial");
    path.with_file_name(name)
}

/// The target for `out`: a file when it ends in `.vortex` and nothing asks for several files.
pub fn target(out: &Path, several: bool) -> Result<Target> {
    let is_file_name = out.extension().is_some_and(|e| e == "vortex");
    if is_file_name && !several {
        if let Some(parent) = out.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent)
                .map_err(|e| Error::file(parent.display().to_string(), format!("cannot create: {e}")))?;
        }
        return Ok(Target::File(out.to_path_buf()));
    }
    if is_file_name {
        return Err(Error::file(
            out.display().to_string(),
            "several output files need a folder, not a .vortex file name",
        ));
    }
    if out.is_file() {
        return Err(Error::file(out.display().to_string(), "is a file; the output must be a folder"));
    }
    // Numbered files among older ones would mix two tables: start from an empty folder.
    if std::fs::read_dir(out).is_ok_and(|mut d| d.next().is_some()) {
        return Err(Error::file(out.display().to_string(), "is not empty; convert writes a folder of files into a new or empty folder"));
    }
    Ok(Target::Folder(out.to_path_buf()))
}
