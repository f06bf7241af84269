//! Java's columns (values, offsets, validity per node) as Arrow arrays, nested ones included.

use std::sync::Arc;

use arrow::array::ArrayRef as ArrowArrayRef;
use arrow::array::BinaryArray;
use arrow::array::BooleanArray;
use arrow::array::Date32Array;
use arrow::array::Decimal128Array;
use arrow::array::FixedSizeListArray as ArrowFixedSizeList;
use arrow::array::ListArray as ArrowList;
use arrow::array::NullArray;
use arrow::array::PrimitiveArray as ArrowPrimitive;
use arrow::array::StringArray;
use arrow::array::StructArray as ArrowStruct;
use arrow::array::Time32MillisecondArray;
use arrow::array::Time32SecondArray;
use arrow::array::Time64MicrosecondArray;
use arrow::array::Time64NanosecondArray;
use arrow::array::TimestampMicrosecondArray;
use arrow::array::TimestampMillisecondArray;
use arrow::array::TimestampNanosecondArray;
use arrow::array::TimestampSecondArray;
use arrow::buffer::Buffer;
use arrow::buffer::NullBuffer;
use arrow::buffer::OffsetBuffer;
use arrow::buffer::ScalarBuffer;
use arrow::datatypes::ArrowPrimitiveType;
use arrow::datatypes::Field;
use vortex_array::dtype::PType;

use super::ColumnData;
use super::ColumnSpec;
use crate::error::Error;
use crate::error::Result;
use crate::types::ChildType;
use crate::types::ColumnType;
use crate::types::Unit;

fn nulls(validity: Option<Vec<bool>>) -> Option<NullBuffer> {
    validity.map(NullBuffer::from).filter(|n| n.null_count() > 0)
}

fn primitive<T: ArrowPrimitiveType>(values: Vec<T::Native>, nulls: Option<NullBuffer>) -> ArrowArrayRef {
    Arc::new(ArrowPrimitive::<T>::new(ScalarBuffer::from(values), nulls))
}

/// Reinterprets signed Java values as the unsigned values with the same bits.
fn bits_of<S: Copy, U>(v: Vec<S>, f: impl Fn(S) -> U) -> Vec<U> {
    v.into_iter().map(f).collect()
}

pub(super) fn to_arrow(spec: &ColumnSpec, rows: usize, data: ColumnData, validity: Option<Vec<bool>>) -> Result<ArrowArrayRef> {
    use arrow::datatypes::*;
    let wrong = || Error::column(&spec.name, format!("data of the wrong kind for a {:?} column", spec.ty));
    let len_ok = |n: usize| {
        (n == rows)
            .then_some(())
            .ok_or_else(|| Error::column(&spec.name, format!("{n} values for {rows} rows")))
    };
    if let Some(v) = &validity {
        len_ok(v.len())?;
    }
    let n = nulls(validity);
    if n.is_some() && !spec.nullable {
        return Err(Error::column(&spec.name, "is not nullable but the batch has nulls"));
    }
    Ok(match (&spec.ty, data) {
        (ColumnType::Null, _) => Arc::new(NullArray::new(rows)),
        (ColumnType::Bool, ColumnData::Bool(v)) => {
            len_ok(v.len())?;
            Arc::new(BooleanArray::new(v.into(), n))
        }
        (ColumnType::Int(p), d) => {
            let count = match &d {
                ColumnData::I8(v) => v.len(),
                ColumnData::I16(v) => v.len(),
                ColumnData::I32(v) => v.len(),
                ColumnData::I64(v) => v.len(),
                ColumnData::F32(v) => v.len(),
                ColumnData::F64(v) => v.len(),
                _ => return Err(wrong()),
            };
            len_ok(count)?;
            match (p, d) {
                (PType::I8, ColumnData::I8(v)) => primitive::<Int8Type>(v, n),
                (PType::U8, ColumnData::I8(v)) => primitive::<UInt8Type>(bits_of(v, |x| x as u8), n),
                (PType::I16, ColumnData::I16(v)) => primitive::<Int16Type>(v, n),
                (PType::U16, ColumnData::I16(v)) => primitive::<UInt16Type>(bits_of(v, |x| x as u16), n),
                (PType::I32, ColumnData::I32(v)) => primitive::<Int32Type>(v, n),
                (PType::U32, ColumnData::I32(v)) => primitive::<UInt32Type>(bits_of(v, |x| x as u32), n),
                (PType::I64, ColumnData::I64(v)) => primitive::<Int64Type>(v, n),
                (PType::U64, ColumnData::I64(v)) => primitive::<UInt64Type>(bits_of(v, |x| x as u64), n),
                (PType::F16, ColumnData::F32(v)) => {
                    primitive::<Float16Type>(bits_of(v, <Float16Type as ArrowPrimitiveType>::Native::from_f32), n)
                }
                (PType::F32, ColumnData::F32(v)) => primitive::<Float32Type>(v, n),
                (PType::F64, ColumnData::F64(v)) => primitive::<Float64Type>(v, n),
                _ => return Err(wrong()),
            }
        }
        (ColumnType::Utf8 | ColumnType::Binary, ColumnData::Bytes { data, offsets }) => {
            len_ok(offsets.len().saturating_sub(1))?;
            let offsets = OffsetBuffer::new(ScalarBuffer::from(offsets));
            let data = Buffer::from_vec(data);
            if spec.ty == ColumnType::Utf8 {
                Arc::new(StringArray::try_new(offsets, data, n).map_err(|e| Error::column(&spec.name, e.to_string()))?)
            } else {
                Arc::new(BinaryArray::try_new(offsets, data, n).map_err(|e| Error::column(&spec.name, e.to_string()))?)
            }
        }
        (ColumnType::Decimal { precision, scale }, ColumnData::I8(bytes)) => {
            len_ok(bytes.len() / 16)?;
            let values: Vec<i128> = bytes
                .chunks_exact(16)
                .map(|c| i128::from_le_bytes(std::array::from_fn(|i| c[i] as u8)))
                .collect();
            let a = Decimal128Array::new(ScalarBuffer::from(values), n)
                .with_precision_and_scale(*precision, *scale)
                .map_err(|e| Error::column(&spec.name, e.to_string()))?;
            Arc::new(a)
        }
        (ColumnType::Date, ColumnData::I32(v)) => {
            len_ok(v.len())?;
            Arc::new(Date32Array::new(ScalarBuffer::from(v), n))
        }
        (ColumnType::Time(u), ColumnData::I64(v)) => {
            len_ok(v.len())?;
            let narrow = || -> Result<Vec<i32>> {
                v.iter()
                    .map(|&x| i32::try_from(x).map_err(|_| Error::column(&spec.name, format!("time {x} out of range"))))
                    .collect()
            };
            match u {
                Unit::Seconds => Arc::new(Time32SecondArray::new(ScalarBuffer::from(narrow()?), n)),
                Unit::Millis => Arc::new(Time32MillisecondArray::new(ScalarBuffer::from(narrow()?), n)),
                Unit::Micros => Arc::new(Time64MicrosecondArray::new(ScalarBuffer::from(v), n)),
                Unit::Nanos => Arc::new(Time64NanosecondArray::new(ScalarBuffer::from(v), n)),
            }
        }
        (ColumnType::Timestamp(u, tz), ColumnData::I64(v)) => {
            len_ok(v.len())?;
            let tz = tz.clone();
            match u {
                Unit::Seconds => Arc::new(TimestampSecondArray::new(ScalarBuffer::from(v), n).with_timezone_opt(tz)),
                Unit::Millis => Arc::new(TimestampMillisecondArray::new(ScalarBuffer::from(v), n).with_timezone_opt(tz)),
                Unit::Micros => Arc::new(TimestampMicrosecondArray::new(ScalarBuffer::from(v), n).with_timezone_opt(tz)),
                Unit::Nanos => Arc::new(TimestampNanosecondArray::new(ScalarBuffer::from(v), n).with_timezone_opt(tz)),
            }
        }
        (ColumnType::Struct(fields), ColumnData::Nested { children, offsets: None }) if children.len() == fields.len() => {
            let mut arrays = Vec::with_capacity(children.len());
            for (f, (d, v)) in fields.iter().zip(children) {
                arrays.push(to_arrow(&child_spec(spec, f), rows, d, v)?);
            }
            let fields = fields.iter().map(|f| arrow_field(spec, f)).collect::<Result<Vec<_>>>()?;
            Arc::new(ArrowStruct::try_new(fields.into(), arrays, n).map_err(|e| Error::column(&spec.name, e.to_string()))?)
        }
        (ColumnType::List(e), ColumnData::Nested { mut children, offsets: Some(offsets) }) if children.len() == 1 => {
            len_ok(offsets.len().saturating_sub(1))?;
            if offsets.first() != Some(&0) || offsets.windows(2).any(|w| w[0] > w[1]) {
                return Err(Error::column(&spec.name, "list offsets must start at 0 and never decrease"));
            }
            let (d, v) = children.pop().expect("one child");
            let elements = to_arrow(&child_spec(spec, e), offsets[offsets.len() - 1] as usize, d, v)?;
            let offsets = OffsetBuffer::new(ScalarBuffer::from(offsets));
            Arc::new(
                ArrowList::try_new(Arc::new(arrow_field(spec, e)?), offsets, elements, n)
                    .map_err(|e| Error::column(&spec.name, e.to_string()))?,
            )
        }
        (ColumnType::FixedSizeList(e, size), ColumnData::Nested { mut children, offsets: None }) if children.len() == 1 => {
            let (d, v) = children.pop().expect("one child");
            let elements = to_arrow(&child_spec(spec, e), rows * *size as usize, d, v)?;
            Arc::new(
                ArrowFixedSizeList::try_new(Arc::new(arrow_field(spec, e)?), *size as i32, elements, n)
                    .map_err(|e| Error::column(&spec.name, e.to_string()))?,
            )
        }
        _ => return Err(wrong()),
    })
}

/// A struct field or list element of `parent` as a column of its own. Nulls are let through
/// here: Arrow's nested constructors reject those of a non-nullable child that its parent's
/// nulls do not cover.
fn child_spec(parent: &ColumnSpec, child: &ChildType) -> ColumnSpec {
    ColumnSpec { name: format!("{}.{}", parent.name, child.name), ty: child.ty.clone(), nullable: true }
}

fn arrow_field(parent: &ColumnSpec, child: &ChildType) -> Result<Field> {
    child
        .arrow_field()
        .ok_or_else(|| Error::column(&format!("{}.{}", parent.name, child.name), "has a type vortex4j cannot write"))
}
