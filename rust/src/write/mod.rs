//! Writing Vortex files with the reference writer's default strategy (statistics, dictionary
//! encoding of low-cardinality columns, compression), from columns Java hands over in Arrow's
//! physical layout.
//!
//! [`FileWriter`] takes Java's columns ([`columns`] makes them Arrow arrays, vortex's Arrow
//! import their encodings); [`VortexFileSink`] writes struct arrays (conversions too), through
//! the [`output`] file.

mod columns;
mod output;
mod sink;

use arrow::datatypes::Field;
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
use crate::types::ColumnType;

use columns::to_arrow;

pub use sink::Drive;
pub use sink::VortexFileSink;

/// One column of a batch, as Java sends it.
#[derive(Debug, Clone, PartialEq)]
pub enum ColumnData {
    Null,
    Bool(Vec<bool>),
    I8(Vec<i8>),
    I16(Vec<i16>),
    I32(Vec<i32>),
    I64(Vec<i64>),
    F32(Vec<f32>),
    F64(Vec<f64>),
    /// Variable-length values: `rows + 1` offsets into `data`.
    Bytes { data: Vec<u8>, offsets: Vec<i32> },
    /// A struct's fields, or the one element column of a list or fixed-size list, each with its
    /// validity; a list's `rows + 1` offsets into its elements.
    Nested { children: Vec<(ColumnData, Option<Vec<bool>>)>, offsets: Option<Vec<i32>> },
}

/// A column of the file being written.
#[derive(Debug, Clone)]
pub struct ColumnSpec {
    pub name: String,
    pub ty: ColumnType,
    pub nullable: bool,
}

/// A file being written from the columns Java sends. Dropped unfinished, it deletes the partial
/// file.
pub struct FileWriter {
    path: String,
    columns: Vec<ColumnSpec>,
    fields: Vec<Field>,
    sink: VortexFileSink,
}

impl FileWriter {
    /// Creates (or truncates) `path` for a table of `columns`.
    pub fn create(path: &str, columns: Vec<ColumnSpec>) -> Result<Self> {
        if columns.is_empty() {
            return Err(Error::file(path, "a file needs at least one column"));
        }
        let arrow = session().arrow();
        let mut fields = Vec::new();
        let mut dtypes = Vec::new();
        for c in &columns {
            let t = c.ty.arrow_type().ok_or_else(|| {
                Error::column(&c.name, "has a type vortex4j cannot write")
            })?;
            let field = Field::new(&c.name, t, c.nullable);
            dtypes.push(
                arrow
                    .from_arrow_field(&field)
                    .context(|| format!("column '{}': no vortex dtype", c.name))?,
            );
            fields.push(field);
        }
        let names: FieldNames = columns.iter().map(|c| c.name.as_str()).collect();
        let dtype = DType::Struct(StructFields::new(names, dtypes), Nullability::NonNullable);
        Ok(FileWriter {
            path: path.to_string(),
            columns,
            fields,
            sink: VortexFileSink::create(path, dtype, Drive::Caller)?,
        })
    }

    /// The columns being written.
    pub fn columns(&self) -> &[ColumnSpec] {
        &self.columns
    }

    /// Appends `rows` rows; `validity[i]` marks the valid rows of column `i` (None: all valid).
    pub fn push(&mut self, rows: usize, data: Vec<ColumnData>, validity: Vec<Option<Vec<bool>>>) -> Result<()> {
        if data.len() != self.columns.len() || validity.len() != self.columns.len() {
            return Err(Error::Invalid(format!(
                "{}: a batch of {} columns for a file of {}",
                self.path,
                data.len(),
                self.columns.len()
            )));
        }
        let arrow = session().arrow();
        let mut arrays: Vec<ArrayRef> = Vec::with_capacity(data.len());
        for ((spec, field), (d, v)) in self.columns.iter().zip(&self.fields).zip(data.into_iter().zip(validity)) {
            let a = to_arrow(spec, rows, d, v)?;
            arrays.push(
                arrow
                    .from_arrow_array(a, field)
                    .context(|| format!("{}: column '{}'", self.path, spec.name))?,
            );
        }
        let names: FieldNames = self.columns.iter().map(|c| c.name.as_str()).collect();
        let chunk = StructArray::try_new(names, arrays, rows, Validity::NonNullable)
            .context(|| format!("{}: cannot assemble a batch", self.path))?;
        self.sink.push(chunk.into_array())
    }

    /// Writes the footer and flushes the file to disk; returns the file size.
    pub fn finish(&mut self) -> Result<u64> {
        self.sink.finish()
    }
}
