//! Hive-style partitioned output: rows go to `OUT/k1=v1/k2=v2/part-NNNNN.vortex` by the values
//! of the partition columns, which are left out of the files (the folder names hold them).
//!
//! Values are written so that a dataset reader can type them back (see `docs/convert.md`):
//! integers in decimal, dates as `YYYY-MM-DD`, booleans as `true`/`false`, strings with the
//! characters Hive escapes written `%XX`, NULL as `__HIVE_DEFAULT_PARTITION__`. Row order
//! within a partition is the input order.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use arrow::array::Array;
use arrow::array::ArrayRef as ArrowArrayRef;
use arrow::array::RecordBatch;
use arrow::array::UInt32Array;
use arrow::compute::cast;
use arrow::compute::take_record_batch;
use arrow::datatypes::DataType;
use arrow::datatypes::Schema;
use arrow::datatypes::SchemaRef;
use arrow::util::display::ArrayFormatter;
use arrow::util::display::FormatOptions;

use super::sink::RollingSink;
use super::sink::Target;
use super::sink::WrittenFile;
use crate::error::Error;
use crate::error::Result;
use crate::write::Drive;

/// The folder name of a NULL partition value (Hive's).
pub const NULL_PARTITION: &str = "__HIVE_DEFAULT_PARTITION__";

/// Files kept open at once; the least recently used partition's file is finished beyond this
/// (a later row of it starts the partition's next file), which bounds memory.
const MAX_OPEN_FILES: usize = 32;

struct Partition {
    sink: RollingSink,
    last_used: u64,
}

/// Batches split by partition values, each partition a [`RollingSink`] in its own folder.
pub struct PartitionedSink {
    root: PathBuf,
    /// Indices of the partition columns in the input schema, and of the columns kept.
    keys: Vec<usize>,
    kept: Vec<usize>,
    names: Vec<String>,
    file_schema: SchemaRef,
    max_rows: Option<u64>,
    partitions: HashMap<String, Partition>,
    clock: u64,
    written: Vec<WrittenFile>,
}

impl PartitionedSink {
    /// A sink under `root` for batches of `schema` partitioned by `columns`.
    pub fn new(root: PathBuf, schema: &SchemaRef, columns: &[String], max_rows: Option<u64>) -> Result<Self> {
        let mut keys = Vec::new();
        for name in columns {
            let i = schema.index_of(name).map_err(|_| {
                let all: Vec<&str> = schema.fields().iter().map(|f| f.name().as_str()).collect();
                Error::column(name, format!("is not a column of the input (columns: {})", all.join(", ")))
            })?;
            if keys.contains(&i) {
                return Err(Error::column(name, "is named twice in --partition-by"));
            }
            check_key_type(name, schema.field(i).data_type())?;
            keys.push(i);
        }
        let kept: Vec<usize> = (0..schema.fields().len()).filter(|i| !keys.contains(i)).collect();
        if kept.is_empty() {
            return Err(Error::Invalid("partitioning by every column leaves no column for the files".into()));
        }
        let file_schema = Arc::new(Schema::new(kept.iter().map(|&i| schema.field(i).clone()).collect::<Vec<_>>()));
        Ok(PartitionedSink {
            root,
            keys,
            kept,
            names: columns.to_vec(),
            file_schema,
            max_rows,
            partitions: HashMap::new(),
            clock: 0,
            written: Vec::new(),
        })
    }

    /// Splits `batch` by partition and appends each part to its partition's files.
    pub fn push(&mut self, batch: &RecordBatch) -> Result<()> {
        let values = self
            .keys
            .iter()
            .zip(&self.names)
            .map(|(&k, name)| folder_values(name, batch.column(k)))
            .collect::<Result<Vec<_>>>()?;
        let folder = |row: usize| -> String {
            let parts: Vec<String> = self.names.iter().zip(&values).map(|(n, v)| format!("{}={}", escape(n), v[row])).collect();
            parts.join("/")
        };
        // Rows grouped by folder, groups in order of first appearance.
        let mut order: Vec<String> = Vec::new();
        let mut rows: HashMap<String, Vec<u32>> = HashMap::new();
        for row in 0..batch.num_rows() {
            let f = folder(row);
            rows.entry(f.clone())
                .or_insert_with(|| {
                    order.push(f);
                    Vec::new()
                })
                .push(row as u32);
        }
        let projected = batch
            .project(&self.kept)
            .map_err(|e| Error::Invalid(format!("cannot project a batch: {e}")))?;
        for f in order {
            let indices = rows.remove(&f).expect("grouped above");
            let part = if indices.len() == batch.num_rows() {
                projected.clone()
            } else {
                take_record_batch(&projected, &UInt32Array::from(indices))
                    .map_err(|e| Error::Invalid(format!("cannot split a batch by partition: {e}")))?
            };
            self.partition(&f)?.push(&part)?;
        }
        Ok(())
    }

    fn partition(&mut self, folder: &str) -> Result<&mut RollingSink> {
        self.clock += 1;
        if !self.partitions.contains_key(folder) {
            let sink = RollingSink::new(Target::Folder(self.root.join(folder)), Arc::clone(&self.file_schema), self.max_rows, Drive::Caller)?;
            self.partitions.insert(folder.to_string(), Partition { sink, last_used: 0 });
        }
        let open = self.partitions.values().filter(|p| p.sink.is_open()).count();
        if open >= MAX_OPEN_FILES && !self.partitions[folder].sink.is_open() {
            let lru = self
                .partitions
                .iter_mut()
                .filter(|(_, p)| p.sink.is_open())
                .min_by_key(|(_, p)| p.last_used)
                .map(|(_, p)| p)
                .expect("files are open");
            lru.sink.close_current()?;
        }
        let p = self.partitions.get_mut(folder).expect("inserted above");
        p.last_used = self.clock;
        Ok(&mut p.sink)
    }

    /// Finishes every file; with no row at all, writes nothing but the (empty) root folder.
    pub fn finish(&mut self) -> Result<Vec<WrittenFile>> {
        std::fs::create_dir_all(&self.root)
            .map_err(|e| Error::file(self.root.display().to_string(), format!("cannot create: {e}")))?;
        let mut folders: Vec<&String> = self.partitions.keys().collect();
        folders.sort();
        let folders: Vec<String> = folders.into_iter().cloned().collect();
        for f in folders {
            let files = self.partitions.get_mut(&f).expect("listed").sink.finish(false)?;
            self.written.extend(files);
        }
        Ok(std::mem::take(&mut self.written))
    }
}

impl Drop for PartitionedSink {
    /// Unfinished (a failed conversion): the files finished so far go too (each partition's
    /// sink removes its own).
    fn drop(&mut self) {
        for f in &self.written {
            let _ = std::fs::remove_file(&f.path);
        }
    }
}

fn check_key_type(name: &str, t: &DataType) -> Result<()> {
    match t {
        DataType::Int8 | DataType::Int16 | DataType::Int32 | DataType::Int64 => Ok(()),
        DataType::UInt8 | DataType::UInt16 | DataType::UInt32 | DataType::UInt64 => Ok(()),
        DataType::Boolean | DataType::Date32 | DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View => Ok(()),
        DataType::Dictionary(_, v) => check_key_type(name, v),
        t => Err(Error::column(
            name,
            format!("cannot be a partition column: {t} (integers, dates, booleans and strings can)"),
        )),
    }
}

/// The folder-name value of every row of `column`.
fn folder_values(name: &str, column: &ArrowArrayRef) -> Result<Vec<String>> {
    let column = match column.data_type() {
        DataType::Dictionary(_, v) => cast(column, v).map_err(|e| Error::column(name, e.to_string()))?,
        _ => column.clone(),
    };
    let is_string = matches!(column.data_type(), DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View);
    let options = FormatOptions::default();
    let formatter = ArrayFormatter::try_new(column.as_ref(), &options).map_err(|e| Error::column(name, e.to_string()))?;
    let mut out = Vec::with_capacity(column.len());
    for row in 0..column.len() {
        if column.is_null(row) {
            out.push(NULL_PARTITION.to_string());
            continue;
        }
        let text = formatter.value(row).to_string();
        out.push(if is_string { escape(&text) } else { text });
    }
    Ok(out)
}

/// Hive's escaping of path characters: `%XX` for controls, `"#%'*/:=?\{[]^` and DEL.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        let special = (c as u32) < 0x20 || c == '\u{7f}' || "\"#%'*/:=?\\{[]^".contains(c);
        if special {
            out.push_str(&format!("%{:02X}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hive_escaping() {
        assert_eq!(escape("a/b=c"), "a%2Fb%3Dc");
        assert_eq!(escape("100%"), "100%25");
        assert_eq!(escape("Zürich"), "Zürich");
        assert_eq!(escape("tab\there"), "tab%09here");
    }
}
