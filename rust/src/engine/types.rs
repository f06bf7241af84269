//! The Arrow types the engine reads a table's columns as: Calcite's view of each column, so the
//! plan Calcite made (and isthmus typed) matches the table DataFusion scans.
//!
//! Strings stay views (vortex's canonical layout, no copy of their bytes); binaries are classic
//! offsets and bytes, the type datafusion-substrait reads Substrait's binary as. A
//! TIMESTAMP is Calcite's TIMESTAMP(0) for a seconds column and TIMESTAMP(3) otherwise, without a
//! zone (Calcite reads a zoned column as its UTC date-time): finer units are floored to
//! milliseconds, as Calcite floors them; a TIME likewise (TIME(0) or TIME(3)). Unsigned integers are
//! the wider signed types Calcite shows them as (a UINT64 a DECIMAL(20, 0)).

use std::sync::Arc;

use arrow::array::Array as _;
use arrow::array::ArrayRef;
use arrow::array::Int64Array;
use arrow::compute::cast;
use arrow::datatypes::DataType;
use arrow::datatypes::Field;
use arrow::datatypes::TimeUnit;
use vortex_array::dtype::DType;

use crate::convert::export::arrow_field;
use crate::error::Error;
use crate::error::Result;

/// The field column `name` of vortex type `dtype` is read as.
pub fn engine_field(name: &str, dtype: &DType) -> Result<Field> {
    let field = arrow_field(name, dtype)?;
    let t = match field.data_type() {
        DataType::Timestamp(stored, _) => DataType::Timestamp(read_unit(*stored), None),
        DataType::Time64(_) => DataType::Time32(TimeUnit::Millisecond),
        DataType::UInt8 => DataType::Int16,
        DataType::UInt16 => DataType::Int32,
        DataType::UInt32 => DataType::Int64,
        DataType::UInt64 => DataType::Decimal128(20, 0),
        // datafusion-substrait 55 takes a string view for the Substrait string type, not a binary view
        // for its binary type.
        DataType::BinaryView => DataType::Binary,
        _ => return Ok(field),
    };
    Ok(field.with_data_type(t))
}

/// The unit a timestamp stored in `stored` is read in: seconds stay seconds (Calcite's
/// TIMESTAMP(0)), anything finer is floored to milliseconds (TIMESTAMP(3)).
pub fn read_unit(stored: TimeUnit) -> TimeUnit {
    if stored == TimeUnit::Second { TimeUnit::Second } else { TimeUnit::Millisecond }
}

/// Whether a column stored as `stored` (as vortex decodes it) is decoded first, then turned into
/// its engine type by [`to_engine`]: timestamps and times (read in another unit, without a zone)
/// and unsigned integers (widened).
pub fn converted(stored: &Field) -> bool {
    matches!(
        stored.data_type(),
        DataType::Timestamp(_, _)
            | DataType::Time32(_)
            | DataType::Time64(_)
            | DataType::UInt8
            | DataType::UInt16
            | DataType::UInt32
            | DataType::UInt64
    )
}

/// `array`, a column as vortex-arrow decodes it, as `field`'s type ([`engine_field`]).
pub fn to_engine(array: ArrayRef, field: &Field) -> Result<ArrayRef> {
    let failed = |e: arrow::error::ArrowError| Error::column(field.name(), format!("cannot read as {}: {e}", field.data_type()));
    match (array.data_type(), field.data_type()) {
        (from, to) if from == to => Ok(array),
        (DataType::Timestamp(from, _), DataType::Timestamp(to, None)) => {
            let per = per_second(*from) / per_second(*to);
            let raw = cast(&array, &DataType::Int64).map_err(failed)?;
            let raw = if per > 1 {
                let values = raw.as_any().downcast_ref::<Int64Array>().expect("a cast to Int64 gives Int64");
                Arc::new(values.unary::<_, arrow::datatypes::Int64Type>(|v| v.div_euclid(per))) as ArrayRef
            } else {
                raw
            };
            cast(&raw, field.data_type()).map_err(failed)
        }
        (DataType::Time64(from), DataType::Time32(to)) => {
            // A time of day is never negative: dividing floors it.
            let per = per_second(*from) / per_second(*to);
            let raw = cast(&array, &DataType::Int64).map_err(failed)?;
            let values = raw.as_any().downcast_ref::<Int64Array>().expect("a cast to Int64 gives Int64");
            let read = Arc::new(values.unary::<_, arrow::datatypes::Int64Type>(|v| v.div_euclid(per))) as ArrayRef;
            cast(&cast(&read, &DataType::Int32).map_err(failed)?, field.data_type()).map_err(failed)
        }
        // Unsigned integers widened into the signed type Calcite shows them as (no value lost).
        (DataType::UInt8 | DataType::UInt16 | DataType::UInt32 | DataType::UInt64, to) => cast(&array, to).map_err(failed),
        (from, to) => Err(Error::column(field.name(), format!("decoded as {from}, not readable as {to}"))),
    }
}

/// Ticks of `unit` in one second.
pub fn per_second(unit: TimeUnit) -> i64 {
    match unit {
        TimeUnit::Second => 1,
        TimeUnit::Millisecond => 1_000,
        TimeUnit::Microsecond => 1_000_000,
        TimeUnit::Nanosecond => 1_000_000_000,
    }
}

#[cfg(test)]
mod tests {
    use arrow::array::Decimal128Array;
    use arrow::array::Time32MillisecondArray;
    use arrow::array::Time64MicrosecondArray;
    use arrow::array::TimestampMicrosecondArray;
    use arrow::array::UInt64Array;
    use arrow::array::TimestampMillisecondArray;

    use super::*;

    #[test]
    fn finer_timestamps_are_floored_to_milliseconds_without_their_zone() {
        let micros = TimestampMicrosecondArray::from(vec![Some(1_500), Some(-1_500), None, Some(-1_000), Some(999)])
            .with_timezone("UTC");
        let field = Field::new("ts", DataType::Timestamp(TimeUnit::Millisecond, None), true);
        let read = to_engine(Arc::new(micros), &field).unwrap();
        let expected = TimestampMillisecondArray::from(vec![Some(1), Some(-2), None, Some(-1), Some(0)]);
        assert_eq!(read.as_ref(), &expected as &dyn arrow::array::Array);
    }

    #[test]
    fn finer_times_are_floored_to_milliseconds_and_unsigned_integers_widened() {
        let micros = Time64MicrosecondArray::from(vec![Some(1_999), None, Some(86_399_999_999)]);
        let field = Field::new("t", DataType::Time32(TimeUnit::Millisecond), true);
        let read = to_engine(Arc::new(micros), &field).unwrap();
        let expected = Time32MillisecondArray::from(vec![Some(1), None, Some(86_399_999)]);
        assert_eq!(read.as_ref(), &expected as &dyn arrow::array::Array);

        let big = UInt64Array::from(vec![Some(u64::MAX), Some(0), None]);
        let field = Field::new("u", DataType::Decimal128(20, 0), true);
        let read = to_engine(Arc::new(big), &field).unwrap();
        let expected = Decimal128Array::from(vec![Some(u64::MAX as i128), Some(0), None]).with_precision_and_scale(20, 0).unwrap();
        assert_eq!(read.as_ref(), &expected as &dyn arrow::array::Array);
    }
}
