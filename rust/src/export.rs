//! A chunk column → buffers Java wraps without copying (direct ByteBuffers).
//!
//! Columns go through Arrow's physical layout (vortex-arrow's `execute_arrow`): values, LSB-first
//! validity bits, i32 offsets + bytes for strings. Dictionary-encoded strings stay encoded: their
//! codes are exported, and the dictionary once per dictionary (see [`crate::cache::dictionaries`]). Every
//! buffer is an Arrow [`Buffer`], reference counted, so its memory lives as long as the export,
//! and lies in the allocator's arenas ([`crate::runtime::memory::pinned`]), so that a Java read racing with
//! the free cannot fault.
//!
//! What Java indexes with is checked here, because vortex does not check it when it reads a file:
//! dictionary codes against the dictionary, string offsets against their bytes (and UTF-8). A
//! corrupt file fails with an error naming the column instead of reading the wrong entry.

use std::sync::Arc;

use arrow::array::Array as _;
use arrow::array::ArrayRef as ArrowArrayRef;
use arrow::array::AsArray;
use arrow::buffer::BooleanBuffer;
use arrow::buffer::Buffer;
use arrow::datatypes::DataType as ArrowType;
use arrow::datatypes::Field;
use vortex_array::ArrayRef;
use vortex_array::ExecutionCtx;
use vortex_array::arrays::StructArray;
use vortex_array::arrays::struct_::StructArrayExt;
use vortex_array::dtype::DType;
use vortex_array::dtype::PType;
use vortex_arrow::ArrowSessionExt;

use crate::cache::dictionaries;
use crate::error::Context;
use crate::error::Error;
use crate::error::Result;
use crate::filter::dict::string_dictionary;
use crate::runtime::memory::pinned;
use crate::runtime::session::session;
use crate::types::ChildType;
use crate::types::ColumnType;

/// A column exported for Java.
#[derive(Debug, Default)]
pub struct Exported {
    /// Dictionary-encoded: `values` are codes and `dictionary` the entries.
    pub is_dictionary: bool,
    pub len: usize,
    /// Bytes per code (1, 2 or 4) for a dictionary.
    pub code_width: u8,
    /// The dictionary's process-unique id.
    pub dictionary_id: u64,
    /// LSB-first validity bits; `None` when every row is valid.
    pub validity: Option<Buffer>,
    /// Primitive values, boolean bits, 16-byte decimals, or codes.
    pub values: Option<Buffer>,
    /// `len + 1` i32 offsets of variable-length values.
    pub offsets: Option<Buffer>,
    /// The bytes the offsets point into.
    pub data: Option<Buffer>,
    pub dictionary: Option<Arc<Exported>>,
    /// A struct's fields, or a list's one element array (whose rows the list `offsets`, `len + 1`
    /// i32s, index; a fixed-size list's row `i` is elements `i * size .. (i + 1) * size`).
    pub children: Vec<Exported>,
}

/// Exports `column` (of Java type `ty`, read from the open file `file`: its dictionaries are
/// cached under it, [`crate::cache::dictionaries`]) for Java.
pub fn export_column(column: &ArrayRef, ty: &ColumnType, name: &str, file: u64, ctx: &mut ExecutionCtx) -> Result<Exported> {
    if ty == &ColumnType::Unsupported {
        return Err(Error::UnsupportedColumn {
            column: name.to_string(),
            dtype: column.dtype().to_string(),
        });
    }
    if matches!(ty, ColumnType::Utf8 | ColumnType::Binary) {
        if let Some((codes, values)) = string_dictionary(column) {
            return export_dictionary(&codes, &values, ty, name, file, ctx);
        }
    }
    if let ColumnType::Struct(fields) = ty {
        return export_struct(column, fields, name, file, ctx);
    }
    export_plain(column, ty, name, ctx)
}

/// A struct's fields are exported one by one from vortex's arrays, so a dictionary-encoded field
/// stays encoded; the struct's own validity comes apart from its fields'.
fn export_struct(column: &ArrayRef, fields: &[ChildType], name: &str, file: u64, ctx: &mut ExecutionCtx) -> Result<Exported> {
    let array = column
        .clone()
        .execute::<StructArray>(ctx)
        .context(|| format!("column '{name}': cannot decode {}", column.dtype()))?;
    let len = array.len();
    let valid = array.struct_validity().to_array(len);
    let valid = to_arrow(&valid, ArrowType::Boolean, name, ctx)?;
    let valid = valid.as_boolean();
    let validity = (valid.true_count() < len).then(|| pinned(bits(valid.values())));
    let mut children = Vec::with_capacity(fields.len());
    for (f, child) in fields.iter().zip(array.iter_unmasked_fields()) {
        children.push(export_column(child, &f.ty, &format!("{name}.{}", f.name), file, ctx)?);
    }
    Ok(Exported {
        len,
        validity,
        children,
        ..Exported::default()
    })
}

fn export_dictionary(
    codes: &ArrayRef,
    values: &ArrayRef,
    ty: &ColumnType,
    name: &str,
    file: u64,
    ctx: &mut ExecutionCtx,
) -> Result<Exported> {
    let dictionary = export_entries(values, ty, name, file, ctx)?;
    let (code_type, width) = match codes.dtype() {
        DType::Primitive(PType::U8, _) => (ArrowType::UInt8, 1),
        DType::Primitive(PType::U16, _) => (ArrowType::UInt16, 2),
        _ => (ArrowType::UInt32, 4),
    };
    let arrow = to_arrow(codes, code_type, name, ctx)?;
    check_codes(&arrow, dictionary.len, name)?;
    let data = arrow.to_data();
    Ok(Exported {
        is_dictionary: true,
        len: codes.len(),
        code_width: width as u8,
        dictionary_id: dictionary.dictionary_id,
        validity: validity(&arrow),
        values: Some(pinned(data.buffers()[0].slice_with_length(data.offset() * width, data.len() * width))),
        dictionary: Some(dictionary),
        ..Exported::default()
    })
}

/// The entries of a dictionary, exported once per dictionary and shared; the export carries the
/// dictionary's id.
pub fn export_entries(values: &ArrayRef, ty: &ColumnType, name: &str, file: u64, ctx: &mut ExecutionCtx) -> Result<Arc<Exported>> {
    let entry = dictionaries::dictionary(file, values);
    entry.export(|| {
        let mut e = export_plain(values, ty, name, ctx)?;
        e.dictionary_id = entry.id;
        Ok(e)
    })
}

fn to_arrow(array: &ArrayRef, target: ArrowType, name: &str, ctx: &mut ExecutionCtx) -> Result<ArrowArrayRef> {
    let field = Field::new(name, target, true);
    session()
        .arrow()
        .execute_arrow(array.clone(), Some(&field), ctx)
        .context(|| format!("column '{name}': cannot decode {}", array.dtype()))
}

fn validity(array: &ArrowArrayRef) -> Option<Buffer> {
    array.nulls().filter(|n| n.null_count() > 0).map(|n| pinned(bits(n.inner())))
}

/// Every non-null code must index one of the dictionary's `entries`.
fn check_codes(codes: &ArrowArrayRef, entries: usize, name: &str) -> Result<()> {
    use arrow::compute::max;
    use arrow::datatypes::UInt8Type;
    use arrow::datatypes::UInt16Type;
    use arrow::datatypes::UInt32Type;
    let largest = match codes.data_type() {
        ArrowType::UInt8 => max(codes.as_primitive::<UInt8Type>()).map(u64::from),
        ArrowType::UInt16 => max(codes.as_primitive::<UInt16Type>()).map(u64::from),
        _ => max(codes.as_primitive::<UInt32Type>()).map(u64::from),
    };
    match largest {
        Some(code) if code >= entries as u64 => Err(Error::column(
            name,
            format!("corrupt data: dictionary code {code} but the dictionary has {entries} entries"),
        )),
        _ => Ok(()),
    }
}

/// Offsets must rise within their bytes and strings must be UTF-8: Arrow's full validation.
fn check_var_bin(array: &ArrowArrayRef, name: &str) -> Result<()> {
    array
        .to_data()
        .validate_full()
        .map_err(|e| Error::column(name, format!("corrupt data: {e}")))
}

/// List offsets must rise within their elements (Java indexes elements with them); the elements
/// themselves are checked as they are exported.
fn check_offsets(array: &ArrowArrayRef, name: &str) -> Result<()> {
    let list = array.as_list::<i32>();
    let offsets = list.value_offsets();
    let elements = list.values().len() as i64;
    let bad = offsets.windows(2).any(|w| w[1] < w[0]) || offsets.iter().any(|&o| o < 0 || o as i64 > elements);
    if bad {
        return Err(Error::column(name, format!("corrupt data: list offsets outside its {elements} elements")));
    }
    Ok(())
}

/// Bits starting at bit 0 (copied only when the source starts mid-byte).
fn bits(b: &BooleanBuffer) -> Buffer {
    if b.offset() % 8 == 0 {
        b.inner().slice_with_length(b.offset() / 8, b.len().div_ceil(8))
    } else {
        b.sliced()
    }
}

fn export_plain(array: &ArrayRef, ty: &ColumnType, name: &str, ctx: &mut ExecutionCtx) -> Result<Exported> {
    let target = ty.arrow_type().expect("supported types have an Arrow type");
    let arrow = to_arrow(array, target, name, ctx)?;
    export_arrow(&arrow, name)
}

/// Exports an Arrow array (of a type [`ColumnType::arrow_type`] gives), nested ones recursively.
fn export_arrow(arrow: &ArrowArrayRef, name: &str) -> Result<Exported> {
    let target = arrow.data_type().clone();
    let data = arrow.to_data();
    let (len, offset) = (data.len(), data.offset());
    let mut out = Exported {
        len,
        validity: validity(&arrow),
        ..Exported::default()
    };
    let fixed = |width: usize| data.buffers()[0].slice_with_length(offset * width, len * width);
    match &target {
        ArrowType::Null => {}
        ArrowType::Boolean => {
            out.values = Some(pinned(bits(&BooleanBuffer::new(data.buffers()[0].clone(), offset, len))));
        }
        ArrowType::Float16 => {
            let halves = fixed(2);
            let widened: Vec<f32> = halves
                .typed_data::<<arrow::datatypes::Float16Type as arrow::datatypes::ArrowPrimitiveType>::Native>()
                .iter()
                .map(|h| h.to_f32())
                .collect();
            out.values = Some(pinned(Buffer::from_vec(widened)));
        }
        ArrowType::Time32(_) => {
            let widened: Vec<i64> = fixed(4).typed_data::<i32>().iter().map(|&v| v as i64).collect();
            out.values = Some(pinned(Buffer::from_vec(widened)));
        }
        ArrowType::Utf8 | ArrowType::Binary => {
            check_var_bin(arrow, name)?;
            out.offsets = Some(pinned(data.buffers()[0].slice_with_length(offset * 4, (len + 1) * 4)));
            out.data = Some(pinned(data.buffers()[1].clone()));
        }
        ArrowType::Struct(fields) => {
            let s = arrow.as_struct();
            for (f, child) in fields.iter().zip(s.columns()) {
                out.children.push(export_arrow(child, &format!("{name}.{}", f.name()))?);
            }
        }
        ArrowType::List(_) => {
            check_offsets(arrow, name)?;
            out.offsets = Some(pinned(data.buffers()[0].slice_with_length(offset * 4, (len + 1) * 4)));
            out.children.push(export_arrow(arrow.as_list::<i32>().values(), &format!("{name}.{}", crate::types::ELEMENT))?);
        }
        ArrowType::FixedSizeList(_, size) => {
            let size = *size as usize;
            let elements = arrow.as_fixed_size_list().values().slice(offset * size, len * size);
            out.children.push(export_arrow(&elements, &format!("{name}.{}", crate::types::ELEMENT))?);
        }
        t => {
            let width = t.primitive_width().ok_or_else(|| Error::UnsupportedColumn {
                column: name.to_string(),
                dtype: t.to_string(),
            })?;
            out.values = Some(pinned(fixed(width)));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use vortex_array::IntoArray;
    use vortex_array::arrays::DictArray;
    use vortex_array::arrays::PrimitiveArray;
    use vortex_array::arrays::VarBinViewArray;
    use vortex_array::validity::Validity;
    use vortex_buffer::Buffer;

    use super::*;
    use crate::runtime::memory::in_arena;
    use crate::runtime::session::execution_ctx;

    fn dictionary(codes: &[u16], valid: &[bool]) -> ArrayRef {
        let values = VarBinViewArray::from_iter_nullable_str([Some("a"), None, Some("b")]).into_array();
        let codes = PrimitiveArray::new(codes.iter().copied().collect::<Buffer<u16>>(), Validity::from_iter(valid.iter().copied()));
        // vortex does not check codes against the dictionary here either (it would cost a pass).
        DictArray::try_new(codes.into_array(), values).unwrap().into_array()
    }

    #[test]
    fn a_code_beyond_the_dictionary_is_an_error_naming_the_column() {
        let column = dictionary(&[0, 2, 7, 1], &[true, true, true, true]);
        let err = export_column(&column, &ColumnType::Utf8, "sym", 0, &mut execution_ctx()).unwrap_err().to_string();
        assert_eq!(err, "column 'sym': corrupt data: dictionary code 7 but the dictionary has 3 entries");
        assert!(err.contains("'sym'"));
    }

    #[test]
    fn a_null_code_may_hold_anything() {
        let column = dictionary(&[0, 2, 7, 1], &[true, true, false, true]);
        let e = export_column(&column, &ColumnType::Utf8, "sym", 0, &mut execution_ctx()).unwrap();
        assert!(e.is_dictionary && e.len == 4);
    }

    #[test]
    fn every_exported_buffer_lies_in_an_arena() {
        let column = dictionary(&[0, 2, 0, 1], &[true, false, true, true]);
        let e = export_column(&column, &ColumnType::Utf8, "sym", 0, &mut execution_ctx()).unwrap();
        let d = e.dictionary.as_ref().unwrap();
        for b in [&e.validity, &e.values, &d.validity, &d.offsets, &d.data].into_iter().flatten() {
            assert!(in_arena(b.as_ptr(), b.len()), "a buffer of {} bytes outside the arenas", b.len());
        }
    }
}
