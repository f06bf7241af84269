//! Partial aggregates folded on our scan's batches: a DataFusion partial (or single-stage)
//! `AggregateExec` that reads our scan (through projections and filters) and groups by string columns, with COUNT(*)
//! and SUMs of integer columns or of decimal arithmetic (+, -, * of decimal columns, literals
//! and widening casts), becomes a [`ScanAggregateExec`]. The scan hands the group columns up as
//! dictionary codes, so rows are grouped by a per-batch table over the codes of the chunk's
//! dictionaries, never by hashing strings; the arithmetic runs on the decimals' unscaled
//! integers in 64 bits, a batch whose values or steps leave 64 bits again in 128 bits with
//! DataFusion's checks. The filters between the scan and the aggregate are evaluated by
//! DataFusion on each batch, as before. The output is the partial aggregate's own (its groups
//! and accumulator states), so the final aggregate above is unchanged and the answers are
//! DataFusion's to the bit: sums wrap as its accumulators do, a decimal step overflowing 128 bits
//! is the same error.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use arrow::array::Array;
use arrow::array::ArrayRef;
use arrow::array::AsArray;
use arrow::array::BinaryArray;
use arrow::array::BooleanArray;
use arrow::array::Decimal128Array;
use arrow::array::Int64Array;
use arrow::array::RecordBatch;
use arrow::array::StringArray;
use arrow::buffer::BooleanBuffer;
use arrow::buffer::NullBuffer;
use arrow::compute::filter_record_batch;
use arrow::datatypes::DataType;
use arrow::datatypes::Int32Type;
use arrow::datatypes::SchemaRef;
use datafusion::common::Result as DfResult;
use datafusion::common::ScalarValue;
use datafusion::common::cast::as_boolean_array;
use datafusion::common::tree_node::Transformed;
use datafusion::common::tree_node::TreeNode;
use datafusion::common::tree_node::TreeNodeRecursion;
use datafusion::error::DataFusionError;
use datafusion::execution::SendableRecordBatchStream;
use datafusion::execution::TaskContext;
use datafusion::logical_expr::ColumnarValue;
use datafusion::logical_expr::Operator;
use datafusion::physical_expr::EquivalenceProperties;
use datafusion::physical_expr::PhysicalExpr;
use datafusion::physical_expr::conjunction;
use datafusion::physical_expr::expressions::BinaryExpr;
use datafusion::physical_expr::expressions::CastExpr;
use datafusion::physical_expr::expressions::Column;
use datafusion::physical_expr::expressions::Literal;
use datafusion::physical_plan::ChildrenPropertiesMode;
use datafusion::physical_plan::DisplayAs;
use datafusion::physical_plan::DisplayFormatType;
use datafusion::physical_plan::ExecutionPlan;
use datafusion::physical_plan::PlanProperties;
use datafusion::physical_plan::ReplaceChildrenOptions;
use datafusion::physical_plan::aggregates::AggregateExec;
use datafusion::physical_plan::aggregates::AggregateMode;
use datafusion::physical_plan::coop::CooperativeExec;
use datafusion::physical_plan::execution_plan::Boundedness;
use datafusion::physical_plan::execution_plan::EmissionType;
use datafusion::physical_plan::filter::FilterExec;
use datafusion::physical_plan::projection::ProjectionExec;
use datafusion::physical_plan::stream::RecordBatchStreamAdapter;
use futures::StreamExt;

use super::scan::VortexScanExec;

/// Distinct code combinations of a batch's group columns above which rows are grouped through a
/// hash map instead of a table indexed by the codes.
const CODE_TABLE_LIMIT: usize = 1 << 16;

/// `plan` with each partial or single-stage aggregate that reads one of our scans as described above folded on
/// the scan's batches.
pub(super) fn fold_on_scans(plan: Arc<dyn ExecutionPlan>) -> DfResult<Arc<dyn ExecutionPlan>> {
    let folded = plan.transform_up(|node| match node.downcast_ref::<AggregateExec>().and_then(ScanAggregateExec::of) {
        Some(exec) => Ok(Transformed::yes(Arc::new(exec) as Arc<dyn ExecutionPlan>)),
        None => Ok(Transformed::no(node)),
    })?;
    Ok(folded.data)
}

/// A number an aggregate folds, over the scan's columns: unscaled integers at a decimal scale.
#[derive(Debug, Clone)]
enum Num {
    Column(usize),
    Constant(i128),
    Add(Box<Num>, Box<Num>),
    Sub(Box<Num>, Box<Num>),
    Mul(Box<Num>, Box<Num>),
}

/// One aggregate of the partial aggregate.
#[derive(Debug, Clone)]
enum Fold {
    /// COUNT of a non-null literal: the rows.
    Rows,
    /// SUM of `num`, whose rows with a null in one of `columns` are skipped; its state is of type
    /// `state` (a decimal of the argument's scale, or a 64-bit integer).
    Sum { num: Num, columns: Vec<usize>, state: DataType },
}

/// A partial or single-stage aggregate folded on our scan's batches (see the module's
/// documentation). Both output a sum and a count as the same types (a sum's state is its value).
#[derive(Debug)]
pub struct ScanAggregateExec {
    /// The scan, its group columns as codes.
    scan: Arc<dyn ExecutionPlan>,
    /// The filters between the scan and the aggregate, over the scan's columns.
    filter: Option<Arc<dyn PhysicalExpr>>,
    /// The group columns (the scan's column indexes).
    groups: Vec<usize>,
    folds: Vec<Fold>,
    /// The partial aggregate's output: the groups, then each aggregate's state.
    schema: SchemaRef,
    properties: Arc<PlanProperties>,
    /// The aggregate's groups and aggregates as DataFusion names them (EXPLAIN).
    names: (Vec<String>, Vec<String>),
}

impl ScanAggregateExec {
    /// `agg` folded on its scan, if it is an aggregate of the shape this operator folds.
    fn of(agg: &AggregateExec) -> Option<Self> {
        let plain = matches!(agg.mode(), AggregateMode::Partial | AggregateMode::Single)
            && agg.group_expr().is_single()
            && agg.limit_options().is_none()
            && agg.dynamic_expressions_produced().is_empty();
        if !plain {
            return None;
        }
        let groups = agg.group_expr().expr();
        let aggregates = agg.aggr_expr();
        if aggregates.iter().any(|a| a.is_distinct() || !a.order_bys().is_empty()) || agg.filter_expr().iter().any(Option::is_some) {
            return None;
        }
        // Every expression the aggregate evaluates, taken down to the scan's columns.
        let mut exprs: Vec<Arc<dyn PhysicalExpr>> = groups.iter().map(|(e, _)| e.clone()).collect();
        for a in aggregates {
            match a.expressions().as_slice() {
                [arg] => exprs.push(arg.clone()),
                _ => return None,
            }
        }
        let mut filters = Vec::new();
        let mut node = agg.input().clone();
        let scan = loop {
            if let Some(scan) = node.downcast_ref::<VortexScanExec>() {
                break scan.clone();
            } else if let Some(p) = node.downcast_ref::<ProjectionExec>() {
                let projected: Vec<Arc<dyn PhysicalExpr>> = p.expr().iter().map(|e| e.expr.clone()).collect();
                exprs = through(&exprs, |i| projected.get(i).cloned())?;
                filters = through(&filters, |i| projected.get(i).cloned())?;
                node = p.input().clone();
            } else if let Some(f) = node.downcast_ref::<FilterExec>() {
                if f.fetch().is_some() {
                    return None;
                }
                let input = f.input().clone();
                if let Some(projection) = f.projection() {
                    let schema = input.schema();
                    let column = |i: usize| -> Option<Arc<dyn PhysicalExpr>> {
                        let j = *projection.get(i)?;
                        Some(Arc::new(Column::new(schema.field(j).name(), j)))
                    };
                    exprs = through(&exprs, column)?;
                    filters = through(&filters, column)?;
                }
                filters.push(f.predicate().clone());
                node = input;
            } else if node.downcast_ref::<CooperativeExec>().is_some() {
                let child = node.children()[0].clone();
                node = child;
            } else {
                return None;
            }
        };
        let schema = scan.schema();
        let (group_exprs, args) = exprs.split_at(groups.len());
        let group_columns: Vec<usize> = group_exprs.iter().map(|e| e.downcast_ref::<Column>().map(Column::index)).collect::<Option<_>>()?;
        // The group columns become codes: the filters must not read them as they were typed.
        let mut filtered = Vec::new();
        for f in &filters {
            f.apply(|e| {
                if let Some(c) = e.downcast_ref::<Column>() {
                    filtered.push(c.index());
                }
                Ok(TreeNodeRecursion::Continue)
            })
            .ok()?;
        }
        if group_columns.iter().any(|c| filtered.contains(c)) {
            return None;
        }
        let output = agg.schema();
        let mut folds = Vec::new();
        for (k, (a, arg)) in aggregates.iter().zip(args).enumerate() {
            if a.state_fields().ok()?.len() != 1 {
                return None;
            }
            let state = output.field(groups.len() + k).data_type().clone();
            let fold = match a.fun().name() {
                "count" => match arg.downcast_ref::<Literal>() {
                    Some(l) if !l.value().is_null() => Fold::Rows,
                    _ => return None,
                },
                "sum" => {
                    let (num, scale) = compile(arg, &schema)?;
                    match (&state, arg.data_type(&schema).ok()?) {
                        (DataType::Decimal128(_, s), DataType::Decimal128(_, _)) if *s == scale => {}
                        (DataType::Int64, DataType::Int8 | DataType::Int16 | DataType::Int32 | DataType::Int64)
                            if matches!(num, Num::Column(_)) => {}
                        _ => return None,
                    }
                    let mut columns = Vec::new();
                    num.columns(&mut columns);
                    Fold::Sum { num, columns, state }
                }
                _ => return None,
            };
            folds.push(fold);
        }
        // The decimals the sums read (and the filters do not) are read in 64 bits where they fit.
        let mut narrow = Vec::new();
        for fold in &folds {
            if let Fold::Sum { columns, .. } = fold {
                narrow.extend(columns.iter().filter(|c| !filtered.contains(c)));
            }
        }
        let scan = scan.with_compact_reads(&group_columns, &narrow)?;
        let properties = PlanProperties::new(
            EquivalenceProperties::new(output.clone()),
            scan.properties().partitioning.clone(),
            EmissionType::Final,
            Boundedness::Bounded,
        );
        let names = (groups.iter().map(|(_, n)| n.clone()).collect(), aggregates.iter().map(|a| a.name().to_string()).collect());
        Some(ScanAggregateExec {
            scan: Arc::new(scan),
            filter: (!filters.is_empty()).then(|| conjunction(filters)),
            groups: group_columns,
            folds,
            schema: output,
            properties: Arc::new(properties),
            names,
        })
    }
}

/// `exprs` over an operator's input: each column `i` of its output replaced by `column(i)`.
fn through(exprs: &[Arc<dyn PhysicalExpr>], column: impl Fn(usize) -> Option<Arc<dyn PhysicalExpr>>) -> Option<Vec<Arc<dyn PhysicalExpr>>> {
    exprs
        .iter()
        .map(|e| {
            e.clone()
                .transform_up(|node| match node.downcast_ref::<Column>() {
                    Some(c) => match column(c.index()) {
                        Some(replaced) => Ok(Transformed::yes(replaced)),
                        None => Err(DataFusionError::Internal("no such column".into())),
                    },
                    None => Ok(Transformed::no(node)),
                })
                .ok()
                .map(|t| t.data)
        })
        .collect()
}

/// `expr` as a [`Num`] and its scale, computing exactly what DataFusion computes: integer
/// columns, decimal columns and literals, +, - and * typed as decimals (arrow raises both sides
/// of + and - to the larger scale; a product's scale is the sum), casts to a decimal keeping
/// every integer digit at a scale not below the input's. None for anything else.
fn compile(expr: &Arc<dyn PhysicalExpr>, schema: &arrow::datatypes::Schema) -> Option<(Num, i8)> {
    let t = expr.data_type(schema).ok()?;
    let (num, scale) = if let Some(c) = expr.downcast_ref::<Column>() {
        let scale = match schema.field(c.index()).data_type() {
            DataType::Decimal128(_, s) => *s,
            DataType::Int8 | DataType::Int16 | DataType::Int32 | DataType::Int64 => 0,
            _ => return None,
        };
        (Num::Column(c.index()), scale)
    } else if let Some(l) = expr.downcast_ref::<Literal>() {
        match l.value() {
            ScalarValue::Decimal128(Some(v), _, s) => (Num::Constant(*v), *s),
            ScalarValue::Int64(Some(v)) => (Num::Constant(*v as i128), 0),
            ScalarValue::Int32(Some(v)) => (Num::Constant(*v as i128), 0),
            ScalarValue::Int16(Some(v)) => (Num::Constant(*v as i128), 0),
            ScalarValue::Int8(Some(v)) => (Num::Constant(*v as i128), 0),
            _ => return None,
        }
    } else if let Some(b) = expr.downcast_ref::<BinaryExpr>() {
        // Integer arithmetic wraps in DataFusion; only decimal arithmetic (checked) is folded.
        if !matches!(t, DataType::Decimal128(_, _)) {
            return None;
        }
        let (l, ls) = compile(b.left(), schema)?;
        let (r, rs) = compile(b.right(), schema)?;
        match b.op() {
            Operator::Multiply => (Num::Mul(Box::new(l), Box::new(r)), ls.checked_add(rs)?),
            Operator::Plus | Operator::Minus => {
                let s = ls.max(rs);
                let (l, r) = (Box::new(rescaled(l, s - ls)?), Box::new(rescaled(r, s - rs)?));
                (if *b.op() == Operator::Plus { Num::Add(l, r) } else { Num::Sub(l, r) }, s)
            }
            _ => return None,
        }
    } else if let Some(c) = expr.downcast_ref::<CastExpr>() {
        let (num, s) = compile(c.expr(), schema)?;
        let digits = |t: &DataType| -> Option<i16> {
            match t {
                DataType::Decimal128(p, s) => Some(*p as i16 - *s as i16),
                DataType::Int8 => Some(3),
                DataType::Int16 => Some(5),
                DataType::Int32 => Some(10),
                DataType::Int64 => Some(19),
                _ => None,
            }
        };
        let to = match c.cast_type() {
            DataType::Decimal128(_, to) if *to >= s => *to,
            _ => return None,
        };
        if digits(c.cast_type())? < digits(&c.expr().data_type(schema).ok()?)? {
            return None;
        }
        (rescaled(num, to - s)?, to)
    } else {
        return None;
    };
    // What DataFusion typed the expression as must be what this computes.
    match t {
        DataType::Decimal128(_, s) if s == scale => Some((num, scale)),
        DataType::Int8 | DataType::Int16 | DataType::Int32 | DataType::Int64 if scale == 0 => Some((num, scale)),
        _ => None,
    }
}

/// `num` raised by `digits` decimal digits.
fn rescaled(num: Num, digits: i8) -> Option<Num> {
    if digits == 0 {
        return Some(num);
    }
    let factor = 10i128.checked_pow(u32::try_from(digits).ok()?)?;
    Some(Num::Mul(Box::new(num), Box::new(Num::Constant(factor))))
}

impl Num {
    /// Adds the columns `self` reads to `columns`.
    fn columns(&self, columns: &mut Vec<usize>) {
        match self {
            Num::Column(c) if !columns.contains(c) => columns.push(*c),
            Num::Column(_) | Num::Constant(_) => {}
            Num::Add(l, r) | Num::Sub(l, r) | Num::Mul(l, r) => {
                l.columns(columns);
                r.columns(columns);
            }
        }
    }
}

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Num::Column(c) => write!(f, "#{c}"),
            Num::Constant(v) => write!(f, "{v}"),
            Num::Add(l, r) => write!(f, "({l} + {r})"),
            Num::Sub(l, r) => write!(f, "({l} - {r})"),
            Num::Mul(l, r) => write!(f, "({l} * {r})"),
        }
    }
}

/// The unscaled integers an evaluation runs on: 64 bits (overflow noted, the batch then evaluated
/// again) or 128 bits (overflow an error, as arrow's checked decimal arithmetic).
trait Lane: Copy + Default + Send + Ord + 'static {
    fn of(v: i128) -> Option<Self>;
    /// `v` cut to this width (check with [`Lane::wide`]).
    fn narrow(v: i128) -> Self;
    fn wide(self) -> i128;
    /// `a op b`, wrapping.
    fn wrapping(op: Step, a: Self, b: Self) -> Self;
    /// `a op b`, and whether it overflowed.
    fn overflowing(op: Step, a: Self, b: Self) -> (Self, bool);
}

#[derive(Clone, Copy, Debug)]
enum Step {
    Add,
    Sub,
    Mul,
}

macro_rules! lane {
    ($t:ty) => {
        impl Lane for $t {
            fn of(v: i128) -> Option<Self> {
                <$t>::try_from(v).ok()
            }
            #[inline(always)]
            fn narrow(v: i128) -> Self {
                v as $t
            }
            #[inline(always)]
            fn wide(self) -> i128 {
                self as i128
            }
            #[inline(always)]
            fn wrapping(op: Step, a: Self, b: Self) -> Self {
                match op {
                    Step::Add => a.wrapping_add(b),
                    Step::Sub => a.wrapping_sub(b),
                    Step::Mul => a.wrapping_mul(b),
                }
            }
            #[inline(always)]
            fn overflowing(op: Step, a: Self, b: Self) -> (Self, bool) {
                match op {
                    Step::Add => a.overflowing_add(b),
                    Step::Sub => a.overflowing_sub(b),
                    Step::Mul => a.overflowing_mul(b),
                }
            }
        }
    };
}
lane!(i64);
lane!(i128);

/// How the operands of a step over rows come: both per row, or one of them one value for all.
#[derive(Clone, Copy)]
enum Operands {
    Rows,
    OneRight,
    OneLeft,
}

/// `xs op ys` per row (an operand of one value, `Operands`, broadcast), wrapping or noting
/// overflow in `over`.
fn rows_op<T: Lane>(op: Step, checked: bool, xs: &[T], ys: &[T], operands: Operands, over: &mut bool) -> Vec<T> {
    macro_rules! apply {
        ($op:expr, $checked:expr) => {{
            let mut o = false;
            let mut f = |x: T, y: T| {
                if $checked {
                    let (v, f) = T::overflowing($op, x, y);
                    o |= f;
                    v
                } else {
                    T::wrapping($op, x, y)
                }
            };
            let out: Vec<T> = match operands {
                Operands::Rows => xs.iter().zip(ys).map(|(x, y)| f(*x, *y)).collect(),
                Operands::OneRight => xs.iter().map(|x| f(*x, ys[0])).collect(),
                Operands::OneLeft => ys.iter().map(|y| f(xs[0], *y)).collect(),
            };
            *over |= o;
            out
        }};
    }
    match (op, checked) {
        (Step::Add, true) => apply!(Step::Add, true),
        (Step::Add, false) => apply!(Step::Add, false),
        (Step::Sub, true) => apply!(Step::Sub, true),
        (Step::Sub, false) => apply!(Step::Sub, false),
        (Step::Mul, true) => apply!(Step::Mul, true),
        (Step::Mul, false) => apply!(Step::Mul, false),
    }
}

/// Row `i` of an integer or decimal array, unscaled.
fn array_value(array: &ArrayRef, i: usize) -> i128 {
    match array.data_type() {
        DataType::Decimal128(_, _) => array.as_primitive::<arrow::datatypes::Decimal128Type>().value(i),
        DataType::Decimal64(_, _) => array.as_primitive::<arrow::datatypes::Decimal64Type>().value(i) as i128,
        DataType::Int64 => array.as_primitive::<arrow::datatypes::Int64Type>().value(i) as i128,
        DataType::Int32 => array.as_primitive::<arrow::datatypes::Int32Type>().value(i) as i128,
        DataType::Int16 => array.as_primitive::<arrow::datatypes::Int16Type>().value(i) as i128,
        _ => array.as_primitive::<arrow::datatypes::Int8Type>().value(i) as i128,
    }
}

/// A value of an evaluation: per row, or one for every row.
enum Val<'a, T: Clone> {
    Rows(std::borrow::Cow<'a, [T]>),
    One(T),
}

/// The columns an evaluation reads, as unscaled integers (null rows as 0).
struct Lanes<T> {
    columns: HashMap<usize, Vec<T>>,
    /// Per column, the least and greatest of its values (null rows' 0 among them).
    ranges: HashMap<usize, (i128, i128)>,
}

impl<T: Lane> Lanes<T> {
    /// Columns `used` of `batch`; None if a value does not fit `T`.
    fn of(batch: &RecordBatch, used: &[usize]) -> DfResult<Option<Self>> {
        let mut columns = HashMap::new();
        let mut ranges = HashMap::new();
        for &c in used {
            let array = batch.column(c);
            let mut fits = true;
            macro_rules! take {
                ($t:ty) => {{
                    let a = array.as_primitive::<$t>();
                    a.values()
                        .iter()
                        .map(|v| {
                            let n = T::narrow(*v as i128);
                            fits &= n.wide() == *v as i128;
                            n
                        })
                        .collect::<Vec<T>>()
                }};
            }
            let mut values = match array.data_type() {
                DataType::Decimal128(_, _) => take!(arrow::datatypes::Decimal128Type),
                DataType::Decimal64(_, _) => take!(arrow::datatypes::Decimal64Type),
                DataType::Int64 => take!(arrow::datatypes::Int64Type),
                DataType::Int32 => take!(arrow::datatypes::Int32Type),
                DataType::Int16 => take!(arrow::datatypes::Int16Type),
                DataType::Int8 => take!(arrow::datatypes::Int8Type),
                t => return Err(DataFusionError::Internal(format!("folded aggregate: column {c} is {t}"))),
            };
            if let Some(nulls) = array.nulls() {
                // A null row's value is whatever the array holds: 0, and fitting or not ignored.
                fits = true;
                for i in 0..values.len() {
                    if nulls.is_null(i) {
                        values[i] = T::default();
                    } else {
                        let v = array_value(array, i);
                        fits &= T::narrow(v).wide() == v;
                    }
                }
            }
            if !fits {
                return Ok(None);
            }
            let range = match values.first() {
                Some(first) => {
                    let (lo, hi) = values.iter().fold((*first, *first), |(lo, hi), v| (lo.min(*v), hi.max(*v)));
                    (lo.wide(), hi.wide())
                }
                None => (0, 0),
            };
            ranges.insert(c, range);
            columns.insert(c, values);
        }
        Ok(Some(Lanes { columns, ranges }))
    }

    /// The least and greatest value `num` and every step of it can take on this batch, if each
    /// fits `T`: then its evaluation cannot overflow and runs unchecked.
    fn range(&self, num: &Num) -> Option<(i128, i128)> {
        let (lo, hi) = match num {
            Num::Column(c) => self.ranges[c],
            Num::Constant(v) => (*v, *v),
            Num::Add(l, r) | Num::Sub(l, r) | Num::Mul(l, r) => {
                let ((a, b), (c, d)) = (self.range(l)?, self.range(r)?);
                match num {
                    Num::Add(..) => (a.checked_add(c)?, b.checked_add(d)?),
                    Num::Sub(..) => (a.checked_sub(d)?, b.checked_sub(c)?),
                    _ => {
                        let p = [a.checked_mul(c)?, a.checked_mul(d)?, b.checked_mul(c)?, b.checked_mul(d)?];
                        (*p.iter().min()?, *p.iter().max()?)
                    }
                }
            }
        };
        (T::of(lo).is_some() && T::of(hi).is_some()).then_some((lo, hi))
    }

    /// `num` per row; `overflow` set when a step overflowed `T`. Unchecked (`checked` false)
    /// only where [`Lanes::range`] proved that no step overflows.
    fn eval(&self, num: &Num, checked: bool, overflow: &mut bool) -> Val<'_, T> {
        let (l, r, op) = match num {
            Num::Column(c) => return Val::Rows(std::borrow::Cow::Borrowed(&self.columns[c])),
            Num::Constant(v) => match T::of(*v) {
                Some(v) => return Val::One(v),
                None => {
                    *overflow = true;
                    return Val::One(T::default());
                }
            },
            Num::Add(l, r) => (l, r, Step::Add),
            Num::Sub(l, r) => (l, r, Step::Sub),
            Num::Mul(l, r) => (l, r, Step::Mul),
        };
        let (a, b) = (self.eval(l, checked, overflow), self.eval(r, checked, overflow));
        match (a, b) {
            (Val::One(x), Val::One(y)) => {
                let (v, o) = T::overflowing(op, x, y);
                *overflow |= o;
                Val::One(v)
            }
            (Val::Rows(xs), Val::One(y)) => Val::Rows(rows_op(op, checked, &xs, &[y], Operands::OneRight, overflow).into()),
            (Val::One(x), Val::Rows(ys)) => Val::Rows(rows_op(op, checked, &[x], &ys, Operands::OneLeft, overflow).into()),
            (Val::Rows(xs), Val::Rows(ys)) => Val::Rows(rows_op(op, checked, &xs, &ys, Operands::Rows, overflow).into()),
        }
    }
}

/// The groups of one partition and each aggregate's per-group state.
struct Folding {
    groups: Vec<usize>,
    folds: Vec<Fold>,
    filter: Option<Arc<dyn PhysicalExpr>>,
    schema: SchemaRef,
    /// The columns the sums read.
    used: Vec<usize>,
    /// Per group column, its distinct values (None: null) and their indexes.
    values: Vec<Vec<Option<Vec<u8>>>>,
    indexes: Vec<HashMap<Option<Vec<u8>>, u32>>,
    /// Per group, its value index per group column (flattened), and the groups by those.
    tuples: Vec<u32>,
    group_of: HashMap<Vec<u32>, u32>,
    /// Per aggregate: per group, rows (COUNT) or summed values, and the sums' non-null rows.
    counts: Vec<Vec<i64>>,
    sums: Vec<Vec<i128>>,
}

impl Folding {
    fn new(exec: &ScanAggregateExec) -> Self {
        let n = exec.groups.len();
        let mut used: Vec<usize> = Vec::new();
        for f in &exec.folds {
            if let Fold::Sum { columns, .. } = f {
                for c in columns {
                    if !used.contains(c) {
                        used.push(*c);
                    }
                }
            }
        }
        let mut folding = Folding {
            used,
            groups: exec.groups.clone(),
            folds: exec.folds.clone(),
            filter: exec.filter.clone(),
            schema: exec.schema.clone(),
            values: vec![Vec::new(); n],
            indexes: vec![HashMap::new(); n],
            tuples: Vec::new(),
            group_of: HashMap::new(),
            counts: vec![Vec::new(); exec.folds.len()],
            sums: vec![Vec::new(); exec.folds.len()],
        };
        if n == 0 {
            // Without GROUP BY there is one group, rows or none.
            folding.group(&[]);
        }
        folding
    }

    /// The group of the value indexes `tuple` (one per group column), made if new.
    fn group(&mut self, tuple: &[u32]) -> u32 {
        if let Some(g) = self.group_of.get(tuple) {
            return *g;
        }
        let g = self.group_of.len() as u32;
        self.group_of.insert(tuple.to_vec(), g);
        self.tuples.extend_from_slice(tuple);
        for (c, s) in self.counts.iter_mut().zip(&mut self.sums) {
            c.push(0);
            s.push(0);
        }
        g
    }

    /// The index of value `v` of group column `k`, made if new.
    fn value(&mut self, k: usize, v: Option<&[u8]>) -> u32 {
        let key = v.map(<[u8]>::to_vec);
        if let Some(i) = self.indexes[k].get(&key) {
            return *i;
        }
        let i = self.values[k].len() as u32;
        self.values[k].push(key.clone());
        self.indexes[k].insert(key, i);
        i
    }

    /// Folds the rows of `batch` the filters keep.
    fn add(&mut self, batch: RecordBatch) -> DfResult<()> {
        let kept = match &self.filter {
            Some(f) => match f.evaluate(&batch)? {
                ColumnarValue::Array(mask) => {
                    let mask = as_boolean_array(&mask)?;
                    let kept = match mask.nulls() {
                        Some(n) => mask.values() & n.inner(),
                        None => mask.values().clone(),
                    };
                    match kept.count_set_bits() {
                        0 => return Ok(()),
                        n if n == kept.len() => None,
                        _ => Some(kept),
                    }
                }
                ColumnarValue::Scalar(ScalarValue::Boolean(Some(true))) => None,
                ColumnarValue::Scalar(_) => return Ok(()),
            },
            None => None,
        };
        if self.fold(&batch, kept.as_ref())? {
            return Ok(());
        }
        // A step overflowed 128 bits, perhaps on a row the filters drop: those kept alone.
        if let Some(kept) = kept {
            let batch = filter_record_batch(&batch, &BooleanArray::new(kept, None))?;
            if self.fold(&batch, None)? {
                return Ok(());
            }
        }
        Err(DataFusionError::Execution("Arithmetic overflow: a decimal sum's argument left 128 bits".into()))
    }

    /// Folds the rows of `batch` that `kept` marks (None: all); false, with nothing folded, when
    /// a step overflows 128 bits.
    fn fold(&mut self, batch: &RecordBatch, kept: Option<&BooleanBuffer>) -> DfResult<bool> {
        let mut groups = self.row_groups(batch, kept)?;
        // The rows dropped go to one more group, never output.
        let dropped = self.group_of.len() as u32;
        if kept.is_some() {
            groups.iter_mut().filter(|g| **g == u32::MAX).for_each(|g| *g = dropped);
        }
        // Rows per group: the counts of COUNT(*) and of sums over columns without nulls.
        let mut rows_of = vec![0i64; dropped as usize + 1];
        for g in &groups {
            rows_of[*g as usize] += 1;
        }
        // Every sum evaluated before any is folded: in 64 bits, those that overflow in 128.
        let narrow = Lanes::<i64>::of(batch, &self.used)?;
        let mut in_64 = Vec::new();
        for fold in &self.folds {
            let value = match (fold, &narrow) {
                (Fold::Sum { num, .. }, Some(lanes)) => {
                    let mut overflow = false;
                    let range = lanes.range(num);
                    let v = lanes.eval(num, range.is_none(), &mut overflow);
                    (!overflow).then_some((v, range))
                }
                _ => None,
            };
            in_64.push(value);
        }
        let needs_128 = self.folds.iter().zip(&in_64).any(|(f, v)| matches!(f, Fold::Sum { .. }) && v.is_none());
        let wide = if needs_128 { Lanes::<i128>::of(batch, &self.used)? } else { None };
        let mut in_128 = Vec::new();
        for (fold, v) in self.folds.iter().zip(&in_64) {
            let value = match (fold, v, &wide) {
                (Fold::Sum { num, .. }, None, Some(lanes)) => {
                    let mut overflow = false;
                    let v = lanes.eval(num, true, &mut overflow);
                    if overflow {
                        return Ok(false);
                    }
                    Some(v)
                }
                (Fold::Sum { .. }, None, None) => return Err(DataFusionError::Internal("folded aggregate: a value beyond 128 bits".into())),
                _ => None,
            };
            in_128.push(value);
        }
        for (k, fold) in self.folds.iter().enumerate() {
            let Fold::Sum { columns, .. } = fold else {
                add_counts(&mut self.counts[k], &rows_of);
                continue;
            };
            let nulls = columns.iter().fold(None::<NullBuffer>, |acc, c| NullBuffer::union(acc.as_ref(), batch.column(*c).nulls()));
            let nulls = nulls.filter(|n| n.null_count() > 0);
            match (&in_64[k], &in_128[k]) {
                (Some((v, range)), _) => {
                    // Values proved below 2^46 sum in 64 bits over a batch of at most 2^16 rows.
                    let bound = range.is_some_and(|(lo, hi)| lo.abs().max(hi.abs()) < 1 << 46);
                    if bound && batch.num_rows() <= 1 << 16 {
                        fold_sums_64(&mut self.sums[k], &mut self.counts[k], &groups, &rows_of, v, nulls.as_ref());
                    } else {
                        fold_sums(&mut self.sums[k], &mut self.counts[k], &groups, &rows_of, v, nulls.as_ref());
                    }
                }
                (None, Some(v)) => fold_sums(&mut self.sums[k], &mut self.counts[k], &groups, &rows_of, v, nulls.as_ref()),
                (None, None) => unreachable!("every sum was evaluated"),
            }
        }
        Ok(true)
    }

    /// Each row's group, from its group columns' codes; `u32::MAX` for a row `kept` drops (its
    /// group is not made).
    fn row_groups(&mut self, batch: &RecordBatch, kept: Option<&BooleanBuffer>) -> DfResult<Vec<u32>> {
        let rows = batch.num_rows();
        let drops = |i: usize| kept.is_some_and(|k| !k.value(i));
        if self.groups.is_empty() {
            return Ok((0..rows).map(|i| if drops(i) { u32::MAX } else { 0 }).collect());
        }
        // Per group column: each code's value index, the last one for null; and per row its
        // combination of codes, as a mixed-radix number over the columns' code counts.
        let mut slots: Vec<Vec<u32>> = Vec::new();
        let mut at: Vec<u64> = vec![0; rows];
        let mut combinations: Option<u64> = Some(1);
        for (k, &c) in self.groups.clone().iter().enumerate() {
            let dictionary = batch.column(c).as_dictionary_opt::<Int32Type>().ok_or_else(|| {
                DataFusionError::Internal(format!("folded aggregate: group column {c} is not read as codes"))
            })?;
            let entries = dictionary.values();
            let mut slot: Vec<u32> = (0..entries.len()).map(|j| self.value(k, bytes(entries, j))).collect();
            slot.push(self.value(k, None));
            let size = slot.len() as u64;
            let keys = dictionary.keys();
            let null = size - 1;
            match keys.nulls().filter(|n| n.null_count() > 0) {
                None => at.iter_mut().zip(keys.values()).for_each(|(a, c)| *a = a.wrapping_mul(size).wrapping_add(*c as u64)),
                Some(n) => at.iter_mut().zip(keys.values()).enumerate().for_each(|(i, (a, c))| {
                    let c = if n.is_valid(i) { *c as u64 } else { null };
                    *a = a.wrapping_mul(size).wrapping_add(c)
                }),
            }
            combinations = combinations.and_then(|n| n.checked_mul(size));
            slots.push(slot);
        }
        // The value indexes of combination `a`.
        let tuple_of = |mut a: u64, tuple: &mut [u32]| {
            for k in (0..slots.len()).rev() {
                let size = slots[k].len() as u64;
                tuple[k] = slots[k][(a % size) as usize];
                a /= size;
            }
        };
        let mut tuple = vec![0u32; slots.len()];
        match combinations {
            Some(n) if n as usize <= CODE_TABLE_LIMIT => {
                // The group of each combination of this batch's codes, found once.
                let mut table = vec![u32::MAX; n as usize];
                Ok(at
                    .into_iter()
                    .enumerate()
                    .map(|(i, a)| {
                        if drops(i) {
                            return u32::MAX;
                        }
                        let g = table[a as usize];
                        if g != u32::MAX {
                            return g;
                        }
                        tuple_of(a, &mut tuple);
                        let g = self.group(&tuple);
                        table[a as usize] = g;
                        g
                    })
                    .collect())
            }
            _ => {
                // Too many combinations for a table (and perhaps for 64 bits): row by row.
                let mut out = Vec::with_capacity(rows);
                let columns: Vec<_> = self.groups.iter().map(|c| batch.column(*c).as_dictionary::<Int32Type>().keys().clone()).collect();
                for row in 0..rows {
                    if drops(row) {
                        out.push(u32::MAX);
                        continue;
                    }
                    for (k, keys) in columns.iter().enumerate() {
                        tuple[k] = slots[k][if keys.is_null(row) { slots[k].len() - 1 } else { keys.value(row) as usize }];
                    }
                    out.push(self.group(&tuple));
                }
                Ok(out)
            }
        }
    }

    /// The partial aggregate's output: a row per group.
    fn finish(self) -> DfResult<RecordBatch> {
        let n = self.group_of.len();
        let width = self.groups.len();
        let mut columns: Vec<ArrayRef> = Vec::new();
        for k in 0..width {
            let field = self.schema.field(k);
            let values = (0..n).map(|g| self.values[k][self.tuples[g * width + k] as usize].as_deref());
            let array: ArrayRef = match field.data_type() {
                DataType::Utf8View | DataType::Utf8 | DataType::LargeUtf8 => {
                    let strings = values.map(|v| v.map(std::str::from_utf8).transpose()).collect::<Result<StringArray, _>>();
                    Arc::new(strings.map_err(|e| DataFusionError::Internal(format!("folded aggregate: group value not UTF-8: {e}")))?)
                }
                _ => Arc::new(values.collect::<BinaryArray>()),
            };
            columns.push(arrow::compute::cast(&array, field.data_type())?);
        }
        for (k, fold) in self.folds.iter().enumerate() {
            let counts = &self.counts[k];
            let array: ArrayRef = match fold {
                Fold::Rows => Arc::new(Int64Array::from(counts.clone())),
                Fold::Sum { state: DataType::Decimal128(p, s), .. } => {
                    let sums = self.sums[k].iter().zip(counts).map(|(v, c)| (*c > 0).then_some(*v));
                    Arc::new(sums.collect::<Decimal128Array>().with_precision_and_scale(*p, *s)?)
                }
                Fold::Sum { .. } => {
                    // A 64-bit sum wraps, as DataFusion's does.
                    Arc::new(self.sums[k].iter().zip(counts).map(|(v, c)| (*c > 0).then_some(*v as i64)).collect::<Int64Array>())
                }
            };
            columns.push(array);
        }
        Ok(RecordBatch::try_new(self.schema.clone(), columns)?)
    }
}

/// Adds each group's rows to its counts.
fn add_counts(counts: &mut [i64], rows_of: &[i64]) {
    counts.iter_mut().zip(rows_of).for_each(|(c, r)| *c += r);
}

/// Adds `values` (per row, of group `groups[row]`, skipping `nulls`) to `sums`, and the rows added
/// to `counts` (`rows_of`: rows per group without nulls). A group beyond `sums` holds the rows
/// the filters dropped. The sums wrap, as DataFusion's accumulators do.
fn fold_sums<T: Lane>(sums: &mut [i128], counts: &mut [i64], groups: &[u32], rows_of: &[i64], values: &Val<'_, T>, nulls: Option<&NullBuffer>) {
    if let Some(nulls) = nulls {
        for i in nulls.valid_indices() {
            let g = groups[i] as usize;
            if g >= sums.len() {
                continue; // a dropped row
            }
            let v = match values {
                Val::Rows(r) => r[i].wide(),
                Val::One(x) => x.wide(),
            };
            sums[g] = sums[g].wrapping_add(v);
            counts[g] += 1;
        }
        return;
    }
    add_counts(counts, rows_of);
    match values {
        Val::One(x) => sums.iter_mut().zip(rows_of).for_each(|(s, r)| *s = s.wrapping_add(x.wide().wrapping_mul(*r as i128))),
        Val::Rows(r) => {
            let per_group = group_sums(groups, r, rows_of.len(), |a: i128, v: &T| a.wrapping_add(v.wide()), i128::wrapping_add);
            sums.iter_mut().zip(per_group).for_each(|(s, v)| *s = s.wrapping_add(v));
        }
    }
}

/// Per group (`n` of them, the last one the dropped rows'), the sum of `values` of its rows
/// (`groups[row]`), `add`ing a value and `merge`ing sums: in four sets, so that rows of the same
/// group do not wait on each other.
fn group_sums<A: Copy + Default, V>(groups: &[u32], values: &[V], n: usize, add: impl Fn(A, &V) -> A, merge: impl Fn(A, A) -> A) -> Vec<A> {
    let mut sets = vec![A::default(); 4 * n];
    let (gs, g_rest) = groups.as_chunks::<4>();
    let (vs, v_rest) = values.as_chunks::<4>();
    for (g, v) in gs.iter().zip(vs) {
        for j in 0..4 {
            let at = j * n + g[j] as usize;
            sets[at] = add(sets[at], &v[j]);
        }
    }
    for (g, v) in g_rest.iter().zip(v_rest) {
        sets[*g as usize] = add(sets[*g as usize], v);
    }
    (0..n).map(|g| (1..4).fold(sets[g], |s, j| merge(s, sets[j * n + g]))).collect()
}

/// [`fold_sums`] of values whose batch sums are known to fit 64 bits: summed in 64 bits per
/// batch, then added to the 128-bit sums.
fn fold_sums_64(sums: &mut [i128], counts: &mut [i64], groups: &[u32], rows_of: &[i64], values: &Val<'_, i64>, nulls: Option<&NullBuffer>) {
    let Val::Rows(r) = values else {
        return fold_sums(sums, counts, groups, rows_of, values, nulls);
    };
    if nulls.is_some() {
        return fold_sums(sums, counts, groups, rows_of, values, nulls);
    }
    add_counts(counts, rows_of);
    let per_group = group_sums(groups, r, rows_of.len(), |a: i64, v: &i64| a + v, |a, b| a + b);
    sums.iter_mut().zip(per_group).for_each(|(s, v)| *s = s.wrapping_add(v as i128));
}

/// Entry `j` of a string or binary array as bytes (None: null).
fn bytes(array: &ArrayRef, j: usize) -> Option<&[u8]> {
    if array.is_null(j) {
        return None;
    }
    Some(match array.data_type() {
        DataType::Utf8View => array.as_string_view().value(j).as_bytes(),
        DataType::Utf8 => array.as_string::<i32>().value(j).as_bytes(),
        DataType::LargeUtf8 => array.as_string::<i64>().value(j).as_bytes(),
        DataType::BinaryView => array.as_binary_view().value(j),
        DataType::Binary => array.as_binary::<i32>().value(j),
        _ => array.as_binary::<i64>().value(j),
    })
}

impl DisplayAs for ScanAggregateExec {
    fn fmt_as(&self, _t: DisplayFormatType, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "VortexAggregate: gby=[{}], aggr=[{}]", self.names.0.join(", "), self.names.1.join(", "))?;
        if let Some(filter) = &self.filter {
            write!(f, ", filter={filter}")?;
        }
        Ok(())
    }
}

impl ExecutionPlan for ScanAggregateExec {
    fn name(&self) -> &str {
        "VortexAggregate"
    }

    fn properties(&self) -> &Arc<PlanProperties> {
        &self.properties
    }

    fn children(&self) -> Vec<&Arc<dyn ExecutionPlan>> {
        vec![&self.scan]
    }

    fn apply_expressions(
        &self,
        f: &mut dyn FnMut(&Arc<dyn PhysicalExpr>) -> DfResult<TreeNodeRecursion>,
    ) -> DfResult<TreeNodeRecursion> {
        match &self.filter {
            Some(filter) => f(filter),
            None => Ok(TreeNodeRecursion::Continue),
        }
    }

    fn replace_children(
        self: Arc<Self>,
        mut children: Vec<Arc<dyn ExecutionPlan>>,
        _options: ReplaceChildrenOptions,
    ) -> DfResult<Arc<dyn ExecutionPlan>> {
        if children.len() != 1 {
            return Err(DataFusionError::Internal(format!("VortexAggregate has one input, not {}", children.len())));
        }
        Ok(Arc::new(ScanAggregateExec {
            scan: children.swap_remove(0),
            filter: self.filter.clone(),
            groups: self.groups.clone(),
            folds: self.folds.clone(),
            schema: self.schema.clone(),
            properties: self.properties.clone(),
            names: self.names.clone(),
        }))
    }

    #[allow(deprecated)]
    fn with_new_children(self: Arc<Self>, children: Vec<Arc<dyn ExecutionPlan>>) -> DfResult<Arc<dyn ExecutionPlan>> {
        self.replace_children(children, ReplaceChildrenOptions::new(ChildrenPropertiesMode::Recompute))
    }

    fn execute(&self, partition: usize, context: Arc<TaskContext>) -> DfResult<SendableRecordBatchStream> {
        let mut input = self.scan.execute(partition, context)?;
        let mut folding = Folding::new(self);
        let stream = futures::stream::once(async move {
            while let Some(batch) = input.next().await {
                folding.add(batch?)?;
            }
            folding.finish()
        });
        Ok(Box::pin(RecordBatchStreamAdapter::new(self.schema.clone(), stream)))
    }
}
