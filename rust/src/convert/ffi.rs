//! Arrow's C Data Interface for the JVM: chunk columns out as `ArrowArray`/`ArrowSchema`
//! structs that Arrow Java imports (their release callbacks own the native buffers, so the JVM
//! frees them when its vectors close), and Arrow batches in, for writing Vortex files.
//!
//! Columns are decoded by vortex-arrow; buffers whose canonical form already is Arrow's layout
//! (primitives, validity bits) are handed over without a copy. A dictionary-encoded string
//! column can be exported as its codes (Int32 indices) plus its dictionary, the latter only when
//! it differs from the one the caller already holds: chunks sharing a dictionary (as the
//! reference writer's do) share one Arrow dictionary.

use std::sync::Arc;
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering;

use arrow::array::Array as _;
use arrow::array::ArrayRef as ArrowArrayRef;
use arrow::array::AsArray as _;
use arrow::array::DictionaryArray;
use arrow::array::Int32Array;
use arrow::array::RecordBatch;
use arrow::array::StructArray as ArrowStructArray;
use arrow::datatypes::DataType;
use arrow::datatypes::Field;
use arrow::datatypes::Int32Type;
use arrow::datatypes::Schema;
use arrow::datatypes::SchemaRef;
use arrow::ffi::FFI_ArrowArray;
use arrow::ffi::FFI_ArrowSchema;
use vortex_array::ArrayRef;
use vortex_arrow::ArrowSessionExt;

use super::export::export_field;
use super::sink::RollingSink;
use super::sink::Target;
use crate::cache::dictionaries;
use crate::error::Context;
use crate::error::Error;
use crate::error::Result;
use crate::filter::dict::string_dictionary;
use crate::runtime::session::execution_ctx;
use crate::runtime::session::session;
use crate::scan::chunk::Chunk;
use crate::write::Drive;

/// Ids of dictionaries made for chunks that are not dictionary-encoded (never shared); the
/// high bit keeps them apart from [`dictionaries`] ids.
static IDENTITY_DICTIONARIES: AtomicU64 = AtomicU64::new(1 << 63);

/// A dictionary column's export: the codes, and the dictionary unless the caller has it.
pub struct ExportedCodes {
    pub codes: FFI_ArrowArray,
    pub dictionary_id: u64,
    pub dictionary: Option<FFI_ArrowArray>,
}

fn to_c(array: &ArrowArrayRef) -> FFI_ArrowArray {
    FFI_ArrowArray::new(&array.to_data())
}

/// The C schema of columns `names` (of vortex dtypes `dtypes`) as a struct, in the types
/// [`export_plain`] exports them in.
pub fn export_schema(names: &[String], dtypes: &[vortex_array::dtype::DType]) -> Result<FFI_ArrowSchema> {
    let fields = names.iter().zip(dtypes).map(|(n, d)| export_field(n, d)).collect::<Result<Vec<_>>>()?;
    FFI_ArrowSchema::try_from(Schema::new(fields)).map_err(|e| Error::Invalid(format!("cannot describe the schema for Arrow: {e}")))
}

/// The rows of `column` that `selection` selects (all without one).
fn selected(column: &ArrayRef, selection: Option<&[u64]>, name: &str) -> Result<ArrayRef> {
    match selection {
        None => Ok(column.clone()),
        Some(words) => column
            .filter(super::export::selection_mask(words, column.len())?)
            .context(|| format!("column '{name}': cannot filter")),
    }
}

fn decode(column: &ArrayRef, field: &Field) -> Result<ArrowArrayRef> {
    session()
        .arrow()
        .execute_arrow(column.clone(), Some(field), &mut execution_ctx())
        .context(|| format!("column '{}': cannot decode", field.name()))
}

/// The Arrow field column `i` of `chunk` is exported as (plain, not dictionary-encoded).
pub fn column_field(chunk: &Chunk, i: usize) -> Result<Field> {
    let column = chunk_column(chunk, i)?;
    export_field(&chunk.data.names[i], column.dtype())
}

fn chunk_column(chunk: &Chunk, i: usize) -> Result<&ArrayRef> {
    chunk.data.columns.get(i).ok_or_else(|| {
        Error::file(&chunk.data.path, format!("column index {i} out of range: the scan has {} columns", chunk.data.columns.len()))
    })
}

/// The selected rows of column `i` of `chunk` decoded into Arrow's layout.
pub fn export_plain(chunk: &Chunk, i: usize, selection: Option<&[u64]>) -> Result<FFI_ArrowArray> {
    Ok(to_c(&arrow_column(chunk, i, selection)?))
}

/// The selected rows of column `i` of `chunk` as an Arrow array of [`column_field`]'s type.
pub fn arrow_column(chunk: &Chunk, i: usize, selection: Option<&[u64]>) -> Result<ArrowArrayRef> {
    arrow_column_as(chunk, i, selection, &column_field(chunk, i)?)
}

/// The selected rows of column `i` of `chunk` as an Arrow array of `field`'s type.
pub fn arrow_column_as(chunk: &Chunk, i: usize, selection: Option<&[u64]>, field: &Field) -> Result<ArrowArrayRef> {
    let column = selected(chunk_column(chunk, i)?, selection, field.name())?;
    decode(&column, field)
}

/// Whether column `i` of `chunk` is a dictionary of strings (exported as codes).
pub fn is_dictionary(chunk: &Chunk, i: usize) -> Result<bool> {
    Ok(string_dictionary(chunk_column(chunk, i)?).is_some())
}

/// Column `i` of `chunk` (utf8 or binary) as Int32 dictionary codes, with the dictionary when
/// its id is not `known_id`. A column that is not dictionary-encoded in this chunk gets a
/// dictionary of its own values (codes 0, 1, ...), never shared.
pub fn export_codes(chunk: &Chunk, i: usize, known_id: u64, selection: Option<&[u64]>) -> Result<ExportedCodes> {
    let (codes, dictionary_id, values) = codes_of(chunk, i, Some(known_id), selection)?;
    Ok(ExportedCodes {
        codes: to_c(&codes),
        dictionary_id,
        dictionary: values.as_ref().map(to_c),
    })
}

/// The selected rows of string or binary column `i` of `chunk` as an Arrow dictionary of Int32
/// codes over values of `values_type`: the chunk's dictionary where the column is
/// dictionary-encoded (its entries decoded, not its rows), else the rows' own values.
pub fn arrow_dictionary(chunk: &Chunk, i: usize, selection: Option<&[u64]>, values_type: &DataType) -> Result<DictionaryArray<Int32Type>> {
    let name = &chunk.data.names[i];
    let (codes, _, values) = codes_of(chunk, i, None, selection)?;
    let values = values.ok_or_else(|| Error::column(name, "dictionary values missing"))?;
    let values = if values.data_type() == values_type {
        values
    } else {
        arrow::compute::cast(&values, values_type).map_err(|e| Error::column(name, format!("cannot read as {values_type}: {e}")))?
    };
    DictionaryArray::try_new(codes.as_primitive::<Int32Type>().clone(), values).map_err(|e| Error::column(name, format!("bad dictionary: {e}")))
}

/// Column `i`'s codes (Int32), its dictionary's id and its values (unless their id is `known_id`).
fn codes_of(chunk: &Chunk, i: usize, known_id: Option<u64>, selection: Option<&[u64]>) -> Result<(ArrowArrayRef, u64, Option<ArrowArrayRef>)> {
    let field = column_field(chunk, i)?;
    let name = field.name().clone();
    let column = chunk_column(chunk, i)?;
    let values_field = Field::new("values", field.data_type().clone(), true);
    let exported = match string_dictionary(column) {
        Some((codes, values)) => {
            let codes = selected(&codes, selection, &name)?;
            let id = dictionaries::dictionary(chunk.data.file, &values).id;
            // Codes are decoded at their own width (u8, u16 or u32), then widened.
            let width = match codes.dtype() {
                vortex_array::dtype::DType::Primitive(vortex_array::dtype::PType::U8, _) => DataType::UInt8,
                vortex_array::dtype::DType::Primitive(vortex_array::dtype::PType::U16, _) => DataType::UInt16,
                _ => DataType::UInt32,
            };
            let codes = decode(&codes, &Field::new(&name, width, true))?;
            let codes = arrow::compute::cast(&codes, &DataType::Int32)
                .map_err(|e| Error::column(&name, format!("dictionary codes beyond Int32: {e}")))?;
            let values = if Some(id) == known_id { None } else { Some(decode(&values, &values_field)?) };
            (codes, id, values)
        }
        None => {
            let values = decode(&selected(column, selection, &name)?, &values_field)?;
            let n = i32::try_from(values.len()).map_err(|_| Error::column(&name, "chunk too long for Int32 codes"))?;
            let codes: ArrowArrayRef = Arc::new(Int32Array::new((0..n).collect(), values.nulls().cloned()));
            (codes, IDENTITY_DICTIONARIES.fetch_add(1, Ordering::Relaxed), Some(values))
        }
    };
    Ok(exported)
}

/// Moves an exported struct into memory the JVM allocated (an Arrow Java `ArrowArray` or
/// `ArrowSchema`); the JVM's import then owns it and calls its release callback.
///
/// # Safety
/// `address` must point to writable memory of `T`'s size and alignment whose current contents
/// need no release (freshly allocated, or already moved out by an import).
pub unsafe fn write_to<T>(address: i64, value: T) -> Result<()> {
    if address == 0 || address as usize % std::mem::align_of::<T>() != 0 {
        return Err(Error::Invalid(format!("bad C Data struct address {address:#x}")));
    }
    unsafe { std::ptr::write(address as *mut T, value) };
    Ok(())
}

/// Takes an Arrow record batch the JVM exported (a struct array and its schema); the C structs
/// are released (marked moved) so the JVM does not release them again.
///
/// # Safety
/// The addresses must point to valid, exported (not released) C Data structs.
pub unsafe fn import_batch(array: i64, schema: i64) -> Result<RecordBatch> {
    if array == 0 || schema == 0 {
        return Err(Error::Invalid("null C Data struct address".into()));
    }
    let array = unsafe { FFI_ArrowArray::from_raw(array as *mut FFI_ArrowArray) };
    let schema = unsafe { FFI_ArrowSchema::from_raw(schema as *mut FFI_ArrowSchema) };
    let data = unsafe { arrow::ffi::from_ffi(array, &schema) }
        .map_err(|e| Error::Invalid(format!("not a valid Arrow C Data array: {e}")))?;
    let DataType::Struct(_) = data.data_type() else {
        return Err(Error::Invalid(format!("a record batch is a struct array, not {}", data.data_type())));
    };
    if data.null_count() > 0 {
        return Err(Error::Invalid("a record batch has no null rows; this struct array has some".into()));
    }
    Ok(RecordBatch::from(ArrowStructArray::from(data)))
}

/// Arrow batches into one Vortex file, written with the default strategy.
pub struct ArrowFileWriter {
    schema: SchemaRef,
    sink: RollingSink,
}

impl ArrowFileWriter {
    /// Creates `path` for batches of `schema`.
    pub fn create(path: &str, schema: Schema) -> Result<Self> {
        if schema.fields().is_empty() {
            return Err(Error::file(path, "a file needs at least one column"));
        }
        let schema = Arc::new(schema);
        let sink = RollingSink::new(Target::File(path.into()), Arc::clone(&schema), None, Drive::Caller)
            .map_err(|e| match e {
                Error::Column { column, message } => Error::file(path, format!("column '{column}': {message}")),
                e => e,
            })?;
        Ok(ArrowFileWriter { schema, sink })
    }

    /// Creates `path` for batches whose schema is the exported C struct at `schema` (moved out
    /// and released here).
    ///
    /// # Safety
    /// `schema` must point to a valid, exported `ArrowSchema` of a struct type.
    pub unsafe fn create_from_c(path: &str, schema: i64) -> Result<Self> {
        if schema == 0 {
            return Err(Error::Invalid("null C Data schema address".into()));
        }
        let c = unsafe { FFI_ArrowSchema::from_raw(schema as *mut FFI_ArrowSchema) };
        let schema = Schema::try_from(&c).map_err(|e| Error::Invalid(format!("not a valid Arrow C Data schema: {e}")))?;
        Self::create(path, schema)
    }

    /// Appends a batch; its columns must have the writer's types (names are the writer's).
    pub fn write(&mut self, batch: RecordBatch) -> Result<()> {
        let types = |s: &Schema| s.fields().iter().map(|f| f.data_type().clone()).collect::<Vec<_>>();
        if types(&batch.schema()) != types(&self.schema) {
            return Err(Error::Invalid(format!(
                "a batch of {:?} for a file of {:?}",
                types(&batch.schema()),
                types(&self.schema)
            )));
        }
        let batch = RecordBatch::try_new(Arc::clone(&self.schema), batch.columns().to_vec())
            .map_err(|e| Error::Invalid(format!("the batch does not fit the file's schema: {e}")))?;
        self.sink.push(&batch)
    }

    /// Finishes the file; returns its size in bytes.
    pub fn finish(&mut self) -> Result<u64> {
        Ok(self.sink.finish(true)?.iter().map(|f| f.bytes).sum())
    }
}
