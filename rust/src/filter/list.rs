//! Filters on list columns with vortex's own scalar functions: containment (`list_contains`,
//! with or without SQL's null semantics) and length (`list_length`), as filter expressions for
//! the scan's pruning and filtered scan, and as selections of a chunk's column.

use vortex_array::ArrayRef;
use vortex_array::ExecutionCtx;
use vortex_array::arrays::BoolArray;
use vortex_array::arrays::bool::BoolArrayExt;
use vortex_array::dtype::DType;
use vortex_array::dtype::PType;
use vortex_array::expr::Expression;
use vortex_array::expr::list_contains_opts;
use vortex_array::expr::list_length;
use vortex_array::expr::lit;
use vortex_array::expr::not;
use vortex_array::expr::root;
use vortex_array::scalar_fn::fns::list_contains::ListContainsOptions;

use crate::error::Context;
use crate::error::Error;
use crate::error::Result;
use crate::filter::bits::mask_words;
use crate::predicate::CmpOp;
use crate::predicate::Literal;
use crate::predicate::Predicate;
use crate::predicate::resolve::Resolved;
use crate::predicate::resolve::resolve;

/// Whether `leaf` is a list leaf (this module's, never [`resolve`]'s).
pub fn is_list_leaf(leaf: &Predicate) -> bool {
    matches!(leaf, Predicate::ListContains { .. } | Predicate::ListLength { .. })
}

/// The filter expression of the list leaf `leaf` over `read`, the expression reading `column`
/// (of type `dtype`). The value a list must contain is taken as the element type holds it
/// exactly; one it cannot hold is an error (the callers send values of the element type).
pub fn expression(column: &str, read: Expression, dtype: &DType, leaf: &Predicate) -> Result<Expression> {
    let element = match dtype {
        DType::List(e, _) | DType::FixedSizeList(e, _, _) => &**e,
        _ => return Err(Error::column(column, format!("is {dtype}, not a list: {leaf:?}"))),
    };
    match leaf {
        Predicate::ListContains { value, sql_nulls, negated, .. } => {
            let probe = Predicate::Compare { column: column.to_string(), op: CmpOp::Eq, value: value.clone() };
            let Resolved::Cmp(CmpOp::Eq, needle) = resolve(&probe, element)? else {
                return Err(Error::column(column, format!("{value:?} is not a value of the element type {element}")));
            };
            let options = ListContainsOptions { sql_null_semantics: *sql_nulls };
            let contains = list_contains_opts(read, lit(needle), options);
            Ok(if *negated { not(contains) } else { contains })
        }
        Predicate::ListLength { op, length, .. } => {
            let lengths = DType::Primitive(PType::U64, dtype.nullability());
            let probe = Predicate::Compare { column: column.to_string(), op: *op, value: Literal::I64(*length) };
            crate::predicate::expression::resolved(column, list_length(read), &lengths, &resolve(&probe, &lengths)?)
        }
        _ => Err(Error::Invalid(format!("not a list leaf: {leaf:?}"))),
    }
}

/// The rows of `list` (the chunk column `name`) the list leaf `leaf` selects, as LSB-first words.
pub fn selection(list: &ArrayRef, name: &str, leaf: &Predicate, ctx: &mut ExecutionCtx) -> Result<Vec<u64>> {
    let filter = expression(name, root(), list.dtype(), leaf)?;
    let context = || format!("column '{name}': cannot evaluate {leaf:?}");
    let applied = list.clone().apply(&filter).context(context)?;
    let result = applied.execute::<BoolArray>(ctx).context(context)?;
    // A null (unknown) row selects nothing.
    Ok(mask_words(result.to_mask_fill_null_false(ctx), list.len()))
}
