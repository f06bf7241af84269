//! The column types Java sees, and the codes they cross JNI with (kept in sync with
//! `io.vortex4j.reader.DataType.Kind`).

use std::sync::Arc;

use arrow::datatypes::DataType as ArrowType;
use arrow::datatypes::Field as ArrowField;
use arrow::datatypes::TimeUnit as ArrowUnit;
use vortex_array::dtype::DType;
use vortex_array::dtype::PType;

/// Units of time and timestamp values; the ordinal is the Java `DataType.TimeUnit` ordinal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    Seconds = 0,
    Millis = 1,
    Micros = 2,
    Nanos = 3,
}

impl Unit {
    fn of(unit: &ArrowUnit) -> Self {
        match unit {
            ArrowUnit::Second => Unit::Seconds,
            ArrowUnit::Millisecond => Unit::Millis,
            ArrowUnit::Microsecond => Unit::Micros,
            ArrowUnit::Nanosecond => Unit::Nanos,
        }
    }

    /// The Arrow unit.
    pub fn arrow(self) -> ArrowUnit {
        match self {
            Unit::Seconds => ArrowUnit::Second,
            Unit::Millis => ArrowUnit::Millisecond,
            Unit::Micros => ArrowUnit::Microsecond,
            Unit::Nanos => ArrowUnit::Nanosecond,
        }
    }

    /// From the Java ordinal.
    pub fn from_ordinal(ordinal: i32) -> Option<Self> {
        [Unit::Seconds, Unit::Millis, Unit::Micros, Unit::Nanos]
            .get(usize::try_from(ordinal).ok()?)
            .copied()
    }
}

/// A column type as Java reads it.
#[derive(Debug, Clone, PartialEq)]
pub enum ColumnType {
    Null,
    Bool,
    Int(PType),
    Utf8,
    Binary,
    Decimal { precision: u8, scale: i8 },
    /// Days since the epoch.
    Date,
    Time(Unit),
    Timestamp(Unit, Option<String>),
    /// Fields in order; validity of the struct itself apart from its fields'.
    Struct(Vec<ChildType>),
    /// Variable-length lists of one element type.
    List(Box<ChildType>),
    /// Lists of exactly `size` elements.
    FixedSizeList(Box<ChildType>, u32),
    Unsupported,
}

/// A field of a struct or the element of a list: named, typed, nullable, with its dtype as text.
#[derive(Debug, Clone, PartialEq)]
pub struct ChildType {
    pub name: String,
    pub ty: ColumnType,
    pub nullable: bool,
    pub dtype: String,
}

/// The name Arrow and Java give a list's element.
pub const ELEMENT: &str = "element";

impl ChildType {
    /// The child of dtype `dtype` named `name`.
    pub fn of(name: &str, dtype: &DType, to_arrow: &dyn Fn(&DType) -> Option<ArrowType>) -> Self {
        ChildType {
            name: name.to_string(),
            ty: ColumnType::of(dtype, to_arrow),
            nullable: dtype.is_nullable(),
            dtype: bare(dtype),
        }
    }

    /// The Arrow field of this child.
    pub fn arrow_field(&self) -> Option<ArrowField> {
        Some(ArrowField::new(&self.name, self.ty.arrow_type()?, self.nullable))
    }
}

/// `dtype` as text without its nullability (Java shows nullability apart). The null dtype is
/// always nullable (`with_nullability` panics on it).
pub fn bare(dtype: &DType) -> String {
    match dtype {
        DType::Null => dtype.to_string(),
        d => d.with_nullability(vortex_array::dtype::Nullability::NonNullable).to_string(),
    }
}

impl ColumnType {
    /// The Java-facing type of `dtype`. Extension dtypes (dates, times, timestamps) are
    /// recognized through their Arrow equivalent, which `to_arrow` computes.
    /// Nested types whose parts include an unsupported type are unsupported as a whole.
    pub fn of(dtype: &DType, to_arrow: &dyn Fn(&DType) -> Option<ArrowType>) -> Self {
        let nested = match dtype {
            DType::Struct(fields, _) => Some(ColumnType::Struct(
                fields
                    .names()
                    .iter()
                    .zip(fields.fields())
                    .map(|(name, d)| ChildType::of(name.as_ref(), &d, to_arrow))
                    .collect(),
            )),
            DType::List(element, _) => Some(ColumnType::List(Box::new(ChildType::of(ELEMENT, element, to_arrow)))),
            DType::FixedSizeList(element, size, _) => Some(ColumnType::FixedSizeList(
                Box::new(ChildType::of(ELEMENT, element, to_arrow)),
                *size,
            )),
            _ => None,
        };
        if let Some(t) = nested {
            return if t.children().iter().all(|c| c.ty.is_supported()) { t } else { ColumnType::Unsupported };
        }
        match dtype {
            DType::Null => ColumnType::Null,
            DType::Bool(_) => ColumnType::Bool,
            DType::Primitive(p, _) => ColumnType::Int(*p),
            DType::Utf8(_) => ColumnType::Utf8,
            DType::Binary(_) => ColumnType::Binary,
            DType::Decimal(d, _) if d.precision() <= 38 => ColumnType::Decimal {
                precision: d.precision(),
                scale: d.scale(),
            },
            DType::Extension(_) => match to_arrow(dtype) {
                Some(ArrowType::Date32) | Some(ArrowType::Date64) => ColumnType::Date,
                Some(ArrowType::Time32(u)) | Some(ArrowType::Time64(u)) => {
                    ColumnType::Time(Unit::of(&u))
                }
                Some(ArrowType::Timestamp(u, tz)) => {
                    ColumnType::Timestamp(Unit::of(&u), tz.map(|t| t.to_string()))
                }
                _ => ColumnType::Unsupported,
            },
            _ => ColumnType::Unsupported,
        }
    }

    /// False for a type Java cannot read.
    pub fn is_supported(&self) -> bool {
        self != &ColumnType::Unsupported
    }

    /// The fields of a struct, the element of a list; empty for flat types.
    pub fn children(&self) -> &[ChildType] {
        match self {
            ColumnType::Struct(fields) => fields,
            ColumnType::List(e) | ColumnType::FixedSizeList(e, _) => std::slice::from_ref(&**e),
            _ => &[],
        }
    }

    /// The type code shared with Java.
    pub fn code(&self) -> i32 {
        match self {
            ColumnType::Null => 0,
            ColumnType::Bool => 1,
            ColumnType::Int(p) => match p {
                PType::I8 => 2,
                PType::I16 => 3,
                PType::I32 => 4,
                PType::I64 => 5,
                PType::U8 => 6,
                PType::U16 => 7,
                PType::U32 => 8,
                PType::U64 => 9,
                PType::F16 => 10,
                PType::F32 => 11,
                PType::F64 => 12,
            },
            ColumnType::Utf8 => 13,
            ColumnType::Binary => 14,
            ColumnType::Decimal { .. } => 15,
            ColumnType::Date => 16,
            ColumnType::Time(_) => 17,
            ColumnType::Timestamp(..) => 18,
            ColumnType::Struct(_) => 19,
            ColumnType::List(_) => 20,
            ColumnType::FixedSizeList(..) => 21,
            ColumnType::Unsupported => 99,
        }
    }

    /// The two integer parameters shared with Java: (precision, scale) or (unit, 0).
    pub fn params(&self) -> (i32, i32) {
        match self {
            ColumnType::Decimal { precision, scale } => (*precision as i32, *scale as i32),
            ColumnType::Time(u) | ColumnType::Timestamp(u, _) => (*u as i32, 0),
            ColumnType::FixedSizeList(_, size) => (*size as i32, 0),
            _ => (0, 0),
        }
    }

    /// The time zone of a timestamp.
    pub fn timezone(&self) -> Option<&str> {
        match self {
            ColumnType::Timestamp(_, tz) => tz.as_deref(),
            _ => None,
        }
    }

    /// From the code and parameters Java sends (for writing); nested types take their
    /// `children` (fields of a struct, the one element of a list).
    pub fn from_java(code: i32, p1: i32, p2: i32, tz: Option<String>, mut children: Vec<ChildType>) -> Option<Self> {
        Some(match code {
            19 => ColumnType::Struct(children),
            20 | 21 if children.len() == 1 => {
                let element = Box::new(children.pop()?);
                if code == 20 {
                    ColumnType::List(element)
                } else {
                    ColumnType::FixedSizeList(element, u32::try_from(p1).ok().filter(|&s| s > 0)?)
                }
            }
            0 => ColumnType::Null,
            1 => ColumnType::Bool,
            2 => ColumnType::Int(PType::I8),
            3 => ColumnType::Int(PType::I16),
            4 => ColumnType::Int(PType::I32),
            5 => ColumnType::Int(PType::I64),
            6 => ColumnType::Int(PType::U8),
            7 => ColumnType::Int(PType::U16),
            8 => ColumnType::Int(PType::U32),
            9 => ColumnType::Int(PType::U64),
            10 => ColumnType::Int(PType::F16),
            11 => ColumnType::Int(PType::F32),
            12 => ColumnType::Int(PType::F64),
            13 => ColumnType::Utf8,
            14 => ColumnType::Binary,
            15 => ColumnType::Decimal {
                precision: u8::try_from(p1).ok().filter(|p| (1..=38).contains(p))?,
                scale: i8::try_from(p2).ok()?,
            },
            16 => ColumnType::Date,
            17 => ColumnType::Time(Unit::from_ordinal(p1)?),
            18 => ColumnType::Timestamp(Unit::from_ordinal(p1)?, tz),
            _ => return None,
        })
    }

    /// The Arrow type a column of this type is exported as (and imported from when writing).
    /// F16 is exported as F16 and widened by the exporter; times use Time64 for every unit
    /// (Time32 for seconds and milliseconds, as Arrow requires, and the exporter widens).
    pub fn arrow_type(&self) -> Option<ArrowType> {
        Some(match self {
            ColumnType::Null => ArrowType::Null,
            ColumnType::Bool => ArrowType::Boolean,
            ColumnType::Int(p) => match p {
                PType::I8 => ArrowType::Int8,
                PType::I16 => ArrowType::Int16,
                PType::I32 => ArrowType::Int32,
                PType::I64 => ArrowType::Int64,
                PType::U8 => ArrowType::UInt8,
                PType::U16 => ArrowType::UInt16,
                PType::U32 => ArrowType::UInt32,
                PType::U64 => ArrowType::UInt64,
                PType::F16 => ArrowType::Float16,
                PType::F32 => ArrowType::Float32,
                PType::F64 => ArrowType::Float64,
            },
            ColumnType::Utf8 => ArrowType::Utf8,
            ColumnType::Binary => ArrowType::Binary,
            ColumnType::Decimal { precision, scale } => ArrowType::Decimal128(*precision, *scale),
            ColumnType::Date => ArrowType::Date32,
            ColumnType::Time(u @ (Unit::Seconds | Unit::Millis)) => ArrowType::Time32(u.arrow()),
            ColumnType::Time(u) => ArrowType::Time64(u.arrow()),
            ColumnType::Timestamp(u, tz) => {
                ArrowType::Timestamp(u.arrow(), tz.as_deref().map(Into::into))
            }
            ColumnType::Struct(fields) => {
                ArrowType::Struct(fields.iter().map(|f| f.arrow_field()).collect::<Option<Vec<_>>>()?.into())
            }
            ColumnType::List(e) => ArrowType::List(Arc::new(e.arrow_field()?)),
            ColumnType::FixedSizeList(e, size) => ArrowType::FixedSizeList(Arc::new(e.arrow_field()?), *size as i32),
            ColumnType::Unsupported => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn java_codes_round_trip() {
        let element = || vec![ChildType { name: ELEMENT.into(), ty: ColumnType::Bool, nullable: true, dtype: "bool".into() }];
        for code in (0..=21).chain([99]) {
            let p1 = if code == 15 { 10 } else { 2 };
            if let Some(t) = ColumnType::from_java(code, p1, 2, None, element()) {
                assert_eq!(t.code(), code);
            } else {
                assert_eq!(code, 99);
            }
        }
    }

    #[test]
    fn decimal_precision_is_checked() {
        assert!(ColumnType::from_java(15, 0, 0, None, vec![]).is_none());
        assert!(ColumnType::from_java(15, 39, 0, None, vec![]).is_none());
        assert_eq!(
            ColumnType::from_java(15, 12, 3, None, vec![]),
            Some(ColumnType::Decimal {
                precision: 12,
                scale: 3
            })
        );
    }
}
