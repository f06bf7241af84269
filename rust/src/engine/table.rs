//! A Vortex table (one file or a dataset's files, as Java lists them) as a DataFusion table.

use std::sync::Arc;

use arrow::array::Array as _;
use arrow::array::AsArray;
use arrow::array::RecordBatch;
use arrow::datatypes::Field;
use arrow::datatypes::Schema;
use arrow::datatypes::SchemaRef;
use async_trait::async_trait;
use datafusion::catalog::Session;
use datafusion::catalog::TableProvider;
use datafusion::common::DFSchema;
use datafusion::common::Result as DfResult;
use datafusion::common::Statistics;
use datafusion::common::stats::Precision;
use datafusion::datasource::TableType;
use datafusion::error::DataFusionError;
use datafusion::execution::context::ExecutionProps;
use datafusion::logical_expr::Expr;
use datafusion::logical_expr::TableProviderFilterPushDown;
use datafusion::logical_expr::physical_planning_context::PhysicalPlanningContext;
use datafusion::physical_expr::create_physical_expr;
use datafusion::physical_plan::ExecutionPlan;

use super::filters::translate;
use super::scan::PartitionColumn;
use super::scan::Reading;
use super::scan::Split;
use super::scan::VortexScanExec;
use super::scan::partition_values;
use super::types::engine_field;
use crate::convert::export::arrow_field;
use crate::error::Error;
use crate::error::Result;
use crate::io::file::open;
use crate::predicate::Predicate;

/// A table: its splits, in the order Java planned them.
#[derive(Debug)]
pub struct VortexTable {
    name: String,
    /// The file columns, then the partition columns.
    schema: SchemaRef,
    /// The file columns alone, in their stored types (a timestamp in its unit): the filters over
    /// them are our scan's.
    file_schema: SchemaRef,
    partition_columns: Arc<[PartitionColumn]>,
    splits: Arc<[Split]>,
}

impl VortexTable {
    /// The table `name` over `splits` (its columns those of the first split's file, then
    /// `partition_columns`, whose values each split carries), scanned in up to the session's
    /// target partitions, read as its [`Reading`] says (ahead when it says nothing).
    pub fn new(name: &str, splits: Vec<Split>, partition_columns: Vec<PartitionColumn>) -> Result<Self> {
        let first = splits
            .first()
            .ok_or_else(|| Error::Invalid(format!("table {name}: no splits to read its columns from")))?;
        if let Some(s) = splits.iter().find(|s| s.partition.len() != partition_columns.len()) {
            return Err(Error::file(&s.path, format!("{} partition values for {} partition columns", s.partition.len(), partition_columns.len())));
        }
        let file = open(&first.path)?;
        let dtypes = file.columns()?.iter().map(|c| Ok((c.name.clone(), file.column_dtype(&c.name)?))).collect::<Result<Vec<_>>>()?;
        let fields = dtypes.iter().map(|(n, d)| engine_field(n, d)).collect::<Result<Vec<_>>>()?;
        let stored = dtypes.iter().map(|(n, d)| arrow_field(n, d)).collect::<Result<Vec<_>>>()?;
        let file_schema = Arc::new(Schema::new(stored));
        // Nullable where a split is in the default partition, as the reader types the column.
        let partition_fields = partition_columns
            .iter()
            .enumerate()
            .map(|(k, (n, t))| Field::new(n, t.arrow(), splits.iter().any(|s| s.partition[k].is_none())));
        let schema = Arc::new(Schema::new(fields.into_iter().chain(partition_fields).collect::<Vec<_>>()));
        Ok(VortexTable {
            name: name.to_string(),
            schema,
            file_schema,
            partition_columns: partition_columns.into(),
            splits: splits.into(),
        })
    }

    /// Whether `filter` reads partition columns only (and some).
    fn on_partitions(&self, filter: &Expr) -> bool {
        let columns = filter.column_refs();
        !columns.is_empty() && columns.iter().all(|c| self.partition_columns.iter().any(|(n, _)| *n == c.name))
    }

    /// The splits whose partition values the partition-only `filters` keep (a Hive folder's files
    /// are not read when its values fail them), as DataFusion's listing tables prune.
    fn pruned(&self, filters: &[&Expr]) -> Result<Arc<[Split]>> {
        if filters.is_empty() {
            return Ok(self.splits.clone());
        }
        // The partition columns end the table's schema.
        let all = self.schema.fields();
        let schema = Arc::new(Schema::new(all[all.len() - self.partition_columns.len()..].to_vec()));
        let df_schema = DFSchema::try_from(schema.as_ref().clone()).map_err(|e| Error::Invalid(e.to_string()))?;
        let props = ExecutionProps::new();
        let predicates = filters
            .iter()
            .map(|f| create_physical_expr(f, &df_schema, &props, &PhysicalPlanningContext::default()))
            .collect::<DfResult<Vec<_>>>()
            .map_err(|e| Error::Invalid(format!("table {}: partition filter: {e}", self.name)))?;
        let mut kept = Vec::new();
        for split in self.splits.iter() {
            let values = (self.partition_columns.iter().enumerate())
                .map(|(k, column)| partition_values(column, split, k, 1))
                .collect::<Result<Vec<_>>>()?;
            let row = RecordBatch::try_new(schema.clone(), values).map_err(|e| Error::file(&split.path, e.to_string()))?;
            let mut keep = true;
            for p in &predicates {
                let result = p
                    .evaluate(&row)
                    .and_then(|v| v.into_array(1))
                    .map_err(|e| Error::file(&split.path, format!("partition filter: {e}")))?;
                // NULL or false: no row of the split can pass.
                keep &= result.as_boolean_opt().is_some_and(|b| b.is_valid(0) && b.value(0));
            }
            if keep {
                kept.push(split.clone());
            }
        }
        Ok(kept.into())
    }
}

#[async_trait]
impl TableProvider for VortexTable {
    fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }

    fn table_type(&self) -> TableType {
        TableType::Base
    }

    async fn scan(
        &self,
        state: &dyn Session,
        projection: Option<&Vec<usize>>,
        filters: &[Expr],
        limit: Option<usize>,
    ) -> DfResult<Arc<dyn ExecutionPlan>> {
        let schema = match projection {
            Some(p) => Arc::new(self.schema.project(p)?),
            None => self.schema.clone(),
        };
        let mut conjuncts: Vec<Predicate> = filters.iter().filter_map(|f| translate(f, &self.file_schema)).collect();
        let filter = match conjuncts.len() {
            0 => None,
            1 => conjuncts.pop(),
            _ => Some(Predicate::And(conjuncts)),
        };
        let on_partitions: Vec<&Expr> = filters.iter().filter(|f| self.on_partitions(f)).collect();
        let splits = self.pruned(&on_partitions).map_err(|e| DataFusionError::External(Box::new(e)))?;
        Ok(Arc::new(VortexScanExec::new(
            &self.name,
            splits,
            schema,
            &self.file_schema,
            filter,
            limit,
            state.config().target_partitions(),
            state.config().get_extension::<Reading>().map_or(Reading::Ahead, |r| *r),
            self.partition_columns.clone(),
        )))
    }

    fn supports_filters_pushdown(&self, filters: &[&Expr]) -> DfResult<Vec<TableProviderFilterPushDown>> {
        // Inexact: DataFusion evaluates each filter again above the scan (see `filters`).
        Ok(filters
            .iter()
            .map(|f| match translate(f, &self.file_schema) {
                Some(_) => TableProviderFilterPushDown::Inexact,
                // Prunes splits by their partition values; evaluated again above all the same.
                None if self.on_partitions(f) => TableProviderFilterPushDown::Inexact,
                None => TableProviderFilterPushDown::Unsupported,
            })
            .collect())
    }

    fn statistics(&self) -> Option<Statistics> {
        let rows: u64 = self.splits.iter().map(|s| s.rows.end - s.rows.start).sum();
        Some(Statistics::new_unknown(&self.schema).with_num_rows(Precision::Exact(rows as usize)))
    }
}
