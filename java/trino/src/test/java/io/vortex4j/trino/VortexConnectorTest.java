package io.vortex4j.trino;

import io.trino.testing.BaseConnectorTest;
import io.trino.testing.QueryRunner;
import io.trino.testing.TestingConnectorBehavior;
import io.vortex4j.trino.local.VortexQueryRunner;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Trino's connector suite on a 3-node cluster (a coordinator, two workers) over a folder into
 * which the TPC-H "tiny" tables are copied with CREATE TABLE AS: every answer is checked against
 * H2 or Trino's own TPC-H connector. What the connector does not do is declared below, so the
 * suite checks that it fails the way Trino expects.
 */
public class VortexConnectorTest extends BaseConnectorTest {
    @Override
    protected QueryRunner createQueryRunner() throws Exception {
        Path dir = Files.createTempDirectory("vortex-trino-test");
        return VortexQueryRunner.create(dir, 2, REQUIRED_TPCH_TABLES);
    }

    @Override
    protected boolean hasBehavior(TestingConnectorBehavior behavior) {
        return switch (behavior) {
            case SUPPORTS_INSERT, SUPPORTS_CREATE_TABLE, SUPPORTS_CREATE_TABLE_WITH_DATA,
                    SUPPORTS_PREDICATE_PUSHDOWN, SUPPORTS_PREDICATE_PUSHDOWN_WITH_VARCHAR_EQUALITY,
                    SUPPORTS_PREDICATE_PUSHDOWN_WITH_VARCHAR_INEQUALITY, SUPPORTS_NEGATIVE_DATE -> true;
            case SUPPORTS_DELETE, SUPPORTS_UPDATE, SUPPORTS_MERGE, SUPPORTS_TRUNCATE,
                    SUPPORTS_ARRAY, SUPPORTS_MAP_TYPE, SUPPORTS_ROW_TYPE,
                    SUPPORTS_PREDICATE_EXPRESSION_PUSHDOWN, SUPPORTS_LIMIT_PUSHDOWN, SUPPORTS_TOPN_PUSHDOWN,
                    SUPPORTS_AGGREGATION_PUSHDOWN, SUPPORTS_JOIN_PUSHDOWN, SUPPORTS_DEREFERENCE_PUSHDOWN,
                    SUPPORTS_CREATE_SCHEMA, SUPPORTS_CREATE_OR_REPLACE_TABLE,
                    SUPPORTS_CREATE_TABLE_WITH_TABLE_COMMENT, SUPPORTS_CREATE_TABLE_WITH_COLUMN_COMMENT,
                    SUPPORTS_RENAME_TABLE, SUPPORTS_ADD_COLUMN, SUPPORTS_RENAME_COLUMN, SUPPORTS_SET_COLUMN_TYPE,
                    SUPPORTS_COMMENT_ON_TABLE, SUPPORTS_CREATE_VIEW, SUPPORTS_CREATE_MATERIALIZED_VIEW,
                    SUPPORTS_NOT_NULL_CONSTRAINT, SUPPORTS_DEFAULT_COLUMN_VALUE, SUPPORTS_MULTI_STATEMENT_WRITES,
                    SUPPORTS_NATIVE_QUERY -> false;
            default -> super.hasBehavior(behavior);
        };
    }
}
