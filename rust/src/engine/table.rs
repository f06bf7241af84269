//! A Vortex table (one file or a dataset's files, as Java lists them) as a DataFusion table.

use std::sync::Arc;

use arrow::datatypes::Schema;
use arrow::datatypes::SchemaRef;
use async_trait::async_trait;
use datafusion::catalog::Session;
use datafusion::catalog::TableProvider;
use datafusion::common::Result as DfResult;
use datafusion::common::Statistics;
use datafusion::common::stats::Precision;
use datafusion::datasource::TableType;
use datafusion::logical_expr::Expr;
use datafusion::logical_expr::TableProviderFilterPushDown;
use datafusion::physical_plan::ExecutionPlan;

use super::filters::translate;
use super::scan::Split;
use super::scan::VortexScanExec;
use super::types::engine_field;
use crate::error::Error;
use crate::error::Result;
use crate::io::file::open;
use crate::predicate::Predicate;

/// A table: its splits, in the order Java planned them.
#[derive(Debug)]
pub struct VortexTable {
    name: String,
    schema: SchemaRef,
    splits: Arc<[Split]>,
    /// DataFusion partitions a scan of it runs in.
    partitions: usize,
}

impl VortexTable {
    /// The table `name` over `splits` (its columns those of the first split's file), scanned in
    /// up to `partitions` partitions.
    pub fn new(name: &str, splits: Vec<Split>, partitions: usize) -> Result<Self> {
        let first = splits
            .first()
            .ok_or_else(|| Error::Invalid(format!("table {name}: no splits to read its columns from")))?;
        let file = open(&first.path)?;
        let fields = file
            .columns()?
            .iter()
            .map(|c| engine_field(&c.name, &file.column_dtype(&c.name)?))
            .collect::<Result<Vec<_>>>()?;
        Ok(VortexTable { name: name.to_string(), schema: Arc::new(Schema::new(fields)), splits: splits.into(), partitions })
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
        _state: &dyn Session,
        projection: Option<&Vec<usize>>,
        filters: &[Expr],
        limit: Option<usize>,
    ) -> DfResult<Arc<dyn ExecutionPlan>> {
        let schema = match projection {
            Some(p) => Arc::new(self.schema.project(p)?),
            None => self.schema.clone(),
        };
        let mut conjuncts: Vec<Predicate> = filters.iter().filter_map(|f| translate(f, &self.schema)).collect();
        let filter = match conjuncts.len() {
            0 => None,
            1 => conjuncts.pop(),
            _ => Some(Predicate::And(conjuncts)),
        };
        Ok(Arc::new(VortexScanExec::new(&self.name, self.splits.clone(), schema, filter, limit, self.partitions)))
    }

    fn supports_filters_pushdown(&self, filters: &[&Expr]) -> DfResult<Vec<TableProviderFilterPushDown>> {
        // Inexact: DataFusion evaluates each filter again above the scan (see `filters`).
        Ok(filters
            .iter()
            .map(|f| match translate(f, &self.schema) {
                Some(_) => TableProviderFilterPushDown::Inexact,
                None => TableProviderFilterPushDown::Unsupported,
            })
            .collect())
    }

    fn statistics(&self) -> Option<Statistics> {
        let rows: u64 = self.splits.iter().map(|s| s.rows.end - s.rows.start).sum();
        Some(Statistics::new_unknown(&self.schema).with_num_rows(Precision::Exact(rows as usize)))
    }
}
