//! The code tables Java and Rust share (docs/jni.md, "Code tables"), written from Rust's own
//! definitions, so that a Java test checks its enums against them.

use jni::EnvUnowned;
use jni::objects::JClass;
use jni::sys::jobject;
use vortex_array::dtype::PType;

use super::call;
use super::values::raw;
use crate::aggregate::Func;
use crate::filter::LeafPath;
use crate::predicate::prepared;
use crate::types::ChildType;
use crate::types::ColumnType;
use crate::types::Unit;

/// One line per member, `table name code`: the type codes (`type`), time units (`unit`),
/// aggregate functions (`aggregate`), the prepared filter's tree tags (`tree`) and the kernels
/// that compute a leaf's selection (`path`).
pub(crate) fn tables() -> String {
    let child = || ChildType { name: "x".into(), ty: ColumnType::Null, nullable: true, dtype: "null".into() };
    let mut types = vec![("NULL", ColumnType::Null), ("BOOL", ColumnType::Bool)];
    for (name, p) in [
        ("INT8", PType::I8),
        ("INT16", PType::I16),
        ("INT32", PType::I32),
        ("INT64", PType::I64),
        ("UINT8", PType::U8),
        ("UINT16", PType::U16),
        ("UINT32", PType::U32),
        ("UINT64", PType::U64),
        ("FLOAT16", PType::F16),
        ("FLOAT32", PType::F32),
        ("FLOAT64", PType::F64),
    ] {
        types.push((name, ColumnType::Int(p)));
    }
    types.extend([
        ("UTF8", ColumnType::Utf8),
        ("BINARY", ColumnType::Binary),
        ("DECIMAL", ColumnType::Decimal { precision: 10, scale: 2 }),
        ("DATE", ColumnType::Date),
        ("TIME", ColumnType::Time(Unit::Millis)),
        ("TIMESTAMP", ColumnType::Timestamp(Unit::Millis, None)),
        ("STRUCT", ColumnType::Struct(vec![child()])),
        ("LIST", ColumnType::List(Box::new(child()))),
        ("FIXED_SIZE_LIST", ColumnType::FixedSizeList(Box::new(child()), 2)),
        ("UNSUPPORTED", ColumnType::Unsupported),
    ]);
    let mut lines: Vec<String> = types.iter().map(|(name, t)| format!("type {name} {}", t.code())).collect();
    for (name, unit) in [("SECONDS", Unit::Seconds), ("MILLISECONDS", Unit::Millis), ("MICROSECONDS", Unit::Micros), ("NANOSECONDS", Unit::Nanos)] {
        lines.push(format!("unit {name} {}", ColumnType::Time(unit).params().0));
    }
    for (ordinal, name) in (0..).zip(["COUNT_STAR", "COUNT", "SUM", "MIN", "MAX"]) {
        let func = Func::from_ordinal(ordinal).expect("five aggregate functions");
        let expected = match name {
            "COUNT_STAR" => Func::CountStar,
            "COUNT" => Func::Count,
            "SUM" => Func::Sum,
            "MIN" => Func::Min,
            _ => Func::Max,
        };
        assert!(func == expected, "aggregate ordinal {ordinal} is {func:?}, not {name}");
        lines.push(format!("aggregate {name} {ordinal}"));
    }
    for (name, tag) in prepared::TREE_TAGS {
        lines.push(format!("tree {name} {tag}"));
    }
    for (name, path) in LeafPath::ALL {
        lines.push(format!("path {name} {}", path as i32));
    }
    lines.join("\n")
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_io_vortex4j_reader_internal_Native_codeTables<'l>(mut env: EnvUnowned<'l>, _: JClass<'l>) -> jobject {
    call(&mut env, |env| Ok(raw(jni::objects::JString::from_str(env, tables())?)))
}
