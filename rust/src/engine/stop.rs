//! Stopping a running query. DataFusion stops a plan when its stream is dropped, but an operator
//! that produces many batches from state (a hash join probing one input batch against a large
//! build side, an aggregate folding all of them) runs on without returning to whoever waits for
//! the query's next batch. Every operator's output is therefore checked against the query's
//! cancel flag, batch by batch, so a cancel stops the plan within one batch of any operator.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering;

use datafusion::common::Result as DfResult;
use datafusion::common::tree_node::Transformed;
use datafusion::common::tree_node::TreeNode;
use datafusion::common::tree_node::TreeNodeRecursion;
use datafusion::error::DataFusionError;
use datafusion::execution::SendableRecordBatchStream;
use datafusion::execution::TaskContext;
use datafusion::physical_expr::PhysicalExpr;
use datafusion::physical_plan::ChildrenPropertiesMode;
use datafusion::physical_plan::DisplayAs;
use datafusion::physical_plan::DisplayFormatType;
use datafusion::physical_plan::ExecutionPlan;
use datafusion::physical_plan::PlanProperties;
use datafusion::physical_plan::ReplaceChildrenOptions;
use datafusion::physical_plan::stream::RecordBatchStreamAdapter;
use futures::StreamExt;
use tokio::sync::Notify;

/// Stops a query: raised once, wakes whoever waits for its next batch.
#[derive(Default)]
pub struct Cancel {
    raised: AtomicBool,
    pub(super) notify: Notify,
}

impl Cancel {
    pub fn raise(&self) {
        self.raised.store(true, Ordering::SeqCst);
        self.notify.notify_waiters();
    }

    pub(super) fn raised(&self) -> bool {
        self.raised.load(Ordering::SeqCst)
    }
}

/// `plan` with every operator's output checked against `cancel`.
pub(super) fn stoppable(plan: Arc<dyn ExecutionPlan>, cancel: &Arc<Cancel>) -> DfResult<Arc<dyn ExecutionPlan>> {
    let wrapped = plan.transform_up(|node| {
        let node: Arc<dyn ExecutionPlan> = Arc::new(Stoppable { input: node, cancel: cancel.clone() });
        Ok(Transformed::yes(node))
    })?;
    Ok(wrapped.data)
}

/// An operator's output, ending in an error once the query is cancelled. Added to the physical
/// plan after it is optimized, just before execution (EXPLAIN does not show it).
#[derive(Debug)]
struct Stoppable {
    input: Arc<dyn ExecutionPlan>,
    cancel: Arc<Cancel>,
}

impl fmt::Debug for Cancel {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "Cancel({})", self.raised())
    }
}

impl DisplayAs for Stoppable {
    fn fmt_as(&self, _t: DisplayFormatType, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "Stoppable")
    }
}

impl ExecutionPlan for Stoppable {
    fn name(&self) -> &str {
        "Stoppable"
    }

    fn properties(&self) -> &Arc<PlanProperties> {
        self.input.properties()
    }

    fn children(&self) -> Vec<&Arc<dyn ExecutionPlan>> {
        vec![&self.input]
    }

    fn apply_expressions(
        &self,
        _f: &mut dyn FnMut(&Arc<dyn PhysicalExpr>) -> DfResult<TreeNodeRecursion>,
    ) -> DfResult<TreeNodeRecursion> {
        Ok(TreeNodeRecursion::Continue)
    }

    fn replace_children(
        self: Arc<Self>,
        mut children: Vec<Arc<dyn ExecutionPlan>>,
        _options: ReplaceChildrenOptions,
    ) -> DfResult<Arc<dyn ExecutionPlan>> {
        if children.len() != 1 {
            return Err(DataFusionError::Internal(format!("Stoppable has one input, not {}", children.len())));
        }
        Ok(Arc::new(Stoppable { input: children.swap_remove(0), cancel: self.cancel.clone() }))
    }

    #[allow(deprecated)]
    fn with_new_children(self: Arc<Self>, children: Vec<Arc<dyn ExecutionPlan>>) -> DfResult<Arc<dyn ExecutionPlan>> {
        self.replace_children(children, ReplaceChildrenOptions::new(ChildrenPropertiesMode::Recompute))
    }

    fn execute(&self, partition: usize, context: Arc<TaskContext>) -> DfResult<SendableRecordBatchStream> {
        let input = self.input.execute(partition, context)?;
        let schema = input.schema();
        let cancel = self.cancel.clone();
        let checked = input.map(move |batch| {
            if cancel.raised() { Err(DataFusionError::Execution("the query was cancelled".into())) } else { batch }
        });
        Ok(Box::pin(RecordBatchStreamAdapter::new(schema, checked)))
    }
}
