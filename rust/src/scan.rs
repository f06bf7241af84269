//! Chunked scans with column projection, and vortex's own filtered scan (the reference).

use vortex_array::ArrayRef;
use vortex_array::arrays::Struct;
use vortex_array::arrays::StructArray;
use vortex_array::arrays::struct_::StructArrayExt;
use vortex_array::expr::Expression;
use vortex_array::expr::root;
use vortex_array::expr::select;
use vortex_array::dtype::FieldNames;
use vortex_array::expr::BoundExpression;
use vortex_error::VortexResult;
use vortex_layout::layouts::row_idx::row_idx;

use crate::error::Context;
use crate::error::Error;
use crate::error::Result;
use crate::file::OpenFile;
use crate::predicate::Predicate;
use crate::session::RUNTIME;
use crate::session::execution_ctx;
use crate::types::ColumnType;

/// A scan in progress: an iterator over the projected chunks of a file.
pub struct Scan {
    path: String,
    names: Vec<String>,
    types: Vec<ColumnType>,
    chunks: Box<dyn Iterator<Item = VortexResult<ArrayRef>> + Send>,
}

/// One chunk of a scan: the projected columns over the same rows.
pub struct ChunkColumns {
    pub path: String,
    pub names: Vec<String>,
    pub types: Vec<ColumnType>,
    pub columns: Vec<ArrayRef>,
    pub len: usize,
}

fn bind(file: &OpenFile, expr: Expression) -> Result<BoundExpression> {
    expr.bind(file.file.dtype())
        .and_then(|e| e.optimize_recursive())
        .context(|| format!("{}: cannot plan the scan", file.path))
}

impl Scan {
    /// Starts a scan of `columns` (in that order) of `file`.
    pub fn open(file: &OpenFile, columns: &[String]) -> Result<Self> {
        let all = file.columns()?;
        let types = columns
            .iter()
            .map(|name| {
                file.column_dtype(name)?;
                Ok(all.iter().find(|c| &c.name == name).expect("checked").ty.clone())
            })
            .collect::<Result<Vec<_>>>()?;
        let names: FieldNames = columns.iter().map(|c| c.as_str()).collect();
        let projection = bind(file, select(names, root()))?;
        let chunks = file
            .file
            .scan()
            .and_then(|s| s.with_projection(projection).into_iter(&*RUNTIME))
            .context(|| format!("{}: cannot start a scan", file.path))?;
        Ok(Scan {
            path: file.path.clone(),
            names: columns.to_vec(),
            types,
            chunks: Box::new(chunks),
        })
    }

    /// The next chunk, or `None` at the end.
    pub fn next_chunk(&mut self) -> Result<Option<ChunkColumns>> {
        let Some(chunk) = self.chunks.next() else {
            return Ok(None);
        };
        let chunk = chunk.context(|| format!("{}: cannot read the next chunk", self.path))?;
        let len = chunk.len();
        let columns = split_columns(&chunk)
            .context(|| format!("{}: cannot split a chunk into columns", self.path))?;
        if columns.len() != self.names.len() {
            return Err(Error::file(
                &self.path,
                format!("scan returned {} columns, expected {}", columns.len(), self.names.len()),
            ));
        }
        Ok(Some(ChunkColumns {
            path: self.path.clone(),
            names: self.names.clone(),
            types: self.types.clone(),
            columns,
            len,
        }))
    }
}

/// The fields of a struct chunk, keeping each field's encoding.
fn split_columns(chunk: &ArrayRef) -> VortexResult<Vec<ArrayRef>> {
    if let Some(s) = chunk.as_opt::<Struct>() {
        return Ok((0..s.struct_fields().nfields()).map(|i| s.unmasked_field(i).clone()).collect());
    }
    let mut ctx = execution_ctx();
    let s = chunk.clone().execute::<StructArray>(&mut ctx)?;
    Ok((0..s.struct_fields().nfields()).map(|i| s.unmasked_field(i).clone()).collect())
}

/// vortex's own scan of `file` with `filter` as its filter expression and `projection` (an
/// expression over the file's columns) as what each selected row yields.
fn filtered_scan(
    file: &OpenFile,
    filter: &Predicate,
    projection: Expression,
) -> Result<impl Iterator<Item = VortexResult<ArrayRef>> + use<>> {
    let expr = bind(file, crate::expression::to_expression(file, filter)?)?;
    let projection = bind(file, projection)?;
    file.file
        .scan()
        .and_then(|s| s.with_filter(expr).with_projection(projection).into_iter(&*RUNTIME))
        .context(|| format!("{}: cannot start the filtered scan", file.path))
}

/// The reference: vortex's own filtered scan projecting the row index. Returns the selected rows
/// in ascending order.
pub fn filtered_rows(file: &OpenFile, filter: &Predicate) -> Result<Vec<u64>> {
    let mut rows = Vec::new();
    let mut ctx = execution_ctx();
    for chunk in filtered_scan(file, filter, row_idx())? {
        let chunk = chunk.context(|| format!("{}: filtered scan failed", file.path))?;
        let idx = chunk
            .execute::<vortex_array::arrays::PrimitiveArray>(&mut ctx)
            .context(|| format!("{}: cannot decode row indices", file.path))?;
        rows.extend_from_slice(idx.as_slice::<u64>());
    }
    Ok(rows)
}

/// vortex's filtered scan projecting `columns` of the selected rows; returns the number of rows.
/// The benchmark baseline: the same filter and columns, vortex doing all the work. With
/// `materialize` the projected columns are decoded (what a consumer reading them pays); without
/// it only the filter is evaluated.
pub fn filtered_count(
    file: &OpenFile,
    filter: &Predicate,
    columns: &[String],
    materialize: bool,
) -> Result<u64> {
    for name in columns {
        file.column_dtype(name)?;
    }
    let names: FieldNames = columns.iter().map(|c| c.as_str()).collect();
    let mut count = 0u64;
    let mut ctx = execution_ctx();
    for chunk in filtered_scan(file, filter, select(names, root()))? {
        let chunk = chunk.context(|| format!("{}: filtered scan failed", file.path))?;
        count += chunk.len() as u64;
        if materialize {
            chunk
                .execute::<vortex_array::Canonical>(&mut ctx)
                .context(|| format!("{}: cannot decode the filtered chunk", file.path))?;
        }
    }
    Ok(count)
}
