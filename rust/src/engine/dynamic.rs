//! The filters DataFusion's operators raise while running (a hash join's build-side key bounds
//! and set, a top-k's bound: its dynamic filters), applied by our scan on the reading thread so
//! rows that cannot match never travel up the plan. Their owners apply them again, so a filter
//! that keeps most rows only costs: one found to keep more than half of what it saw is dropped,
//! and a join's filter on the scan right below it, which only repeats the join's lookup, is
//! removed from the plan.

use std::sync::Arc;

use arrow::array::RecordBatch;
use arrow::compute::filter_record_batch;
use datafusion::common::Result as DfResult;
use datafusion::common::ScalarValue;
use datafusion::common::cast::as_boolean_array;
use datafusion::logical_expr::ColumnarValue;
use datafusion::physical_expr::PhysicalExpr;
use datafusion::physical_plan::ChildrenPropertiesMode;
use datafusion::physical_plan::ExecutionPlan;
use datafusion::physical_plan::ReplaceChildrenOptions;
use datafusion::physical_plan::coop::CooperativeExec;
use datafusion::physical_plan::filter::FilterExec;
use datafusion::physical_plan::joins::HashJoinExec;
use datafusion::physical_plan::projection::ProjectionExec;

use super::scan::VortexScanExec;

/// Rows a filter is judged on before it may be dropped.
const JUDGED_AFTER_ROWS: usize = 1 << 16;

/// One scan partition's dynamic filters and what each has kept so far.
pub(super) struct DynamicFilters {
    filters: Vec<Tracked>,
}

struct Tracked {
    filter: Arc<dyn PhysicalExpr>,
    /// Rows evaluated once the filter had its operator's values (before that it keeps all).
    seen: usize,
    kept: usize,
}

impl DynamicFilters {
    pub(super) fn new(filters: &[Arc<dyn PhysicalExpr>]) -> Self {
        DynamicFilters { filters: filters.iter().map(|f| Tracked { filter: f.clone(), seen: 0, kept: 0 }).collect() }
    }

    /// The rows of `batch` every filter keeps (`None`: none).
    pub(super) fn apply(&mut self, batch: RecordBatch) -> DfResult<Option<RecordBatch>> {
        let mut batch = batch;
        let mut i = 0;
        while i < self.filters.len() {
            let t = &mut self.filters[i];
            let before = batch.num_rows();
            match t.filter.evaluate(&batch)? {
                // Not raised yet: the operator is still collecting its values.
                ColumnarValue::Scalar(ScalarValue::Boolean(Some(true))) => {}
                ColumnarValue::Scalar(_) => return Ok(None),
                ColumnarValue::Array(mask) => {
                    batch = filter_record_batch(&batch, as_boolean_array(&mask)?)?;
                    t.seen += before;
                    t.kept += batch.num_rows();
                }
            }
            if batch.num_rows() == 0 {
                return Ok(None);
            }
            if t.seen >= JUDGED_AFTER_ROWS && t.kept * 2 > t.seen {
                self.filters.swap_remove(i);
            } else {
                i += 1;
            }
        }
        Ok(Some(batch))
    }
}

/// `plan` without the dynamic filters that only repeat a hash join's own work: a join's filter
/// on its keys, reaching the scan directly below its probe side, drops just the rows the join
/// would drop next (at the cost of a second hash lookup per row). The filters that cross another
/// join or a repartition on their way down stay: they drop rows before that work.
pub(super) fn without_local_filters(plan: Arc<dyn ExecutionPlan>) -> DfResult<Arc<dyn ExecutionPlan>> {
    drop_local(plan, &[])
}

/// `node` with the filters of expression ids `local` dropped from a scan reached through
/// operators that keep rows as they come.
fn drop_local(node: Arc<dyn ExecutionPlan>, local: &[u64]) -> DfResult<Arc<dyn ExecutionPlan>> {
    if let Some(scan) = node.downcast_ref::<VortexScanExec>() {
        if local.is_empty() {
            return Ok(node);
        }
        let scan = scan.without_dynamic(|f| f.expression_id().is_some_and(|id| local.contains(&id)));
        return Ok(Arc::new(scan));
    }
    let children = node.children();
    if children.is_empty() {
        return Ok(node);
    }
    let passes_rows = node.downcast_ref::<CooperativeExec>().is_some()
        || node.downcast_ref::<ProjectionExec>().is_some()
        || node.downcast_ref::<FilterExec>().is_some();
    let produced: Vec<u64> = if node.downcast_ref::<HashJoinExec>().is_some() {
        node.dynamic_expressions_produced().iter().filter_map(|e| e.expression_id()).collect()
    } else {
        Vec::new()
    };
    let new_children = children
        .iter()
        .enumerate()
        .map(|(i, child)| {
            let ids: &[u64] = if passes_rows {
                local
            } else if i == 1 {
                // A hash join's probe side.
                &produced
            } else {
                &[]
            };
            drop_local(Arc::clone(child), ids)
        })
        .collect::<DfResult<Vec<_>>>()?;
    if new_children.iter().zip(&children).all(|(n, c)| Arc::ptr_eq(n, c)) {
        return Ok(node);
    }
    node.replace_children(new_children, ReplaceChildrenOptions::new(ChildrenPropertiesMode::Keep))
}
