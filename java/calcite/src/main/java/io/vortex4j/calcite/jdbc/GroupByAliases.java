package io.vortex4j.calcite.jdbc;

import org.apache.calcite.config.CalciteConnectionConfig;
import org.apache.calcite.config.CalciteConnectionConfigImpl;
import org.apache.calcite.config.CalciteConnectionProperty;
import org.apache.calcite.sql.validate.SqlConformance;
import org.apache.calcite.sql.validate.SqlDelegatingConformance;

/**
 * The conformance statements are validated with: unless the connection names one ({@code
 * conformance=...}), Calcite's default with GROUP BY taking the select list's ordinals ({@code
 * GROUP BY 1}) and aliases ({@code GROUP BY m}), and HAVING its aliases, as DuckDB and PostgreSQL
 * do. A name that is a column of the FROM clause stays the column, as in PostgreSQL.
 */
final class GroupByAliases extends SqlDelegatingConformance {
    private GroupByAliases(SqlConformance delegate) {
        super(delegate);
    }

    static SqlConformance of(CalciteConnectionConfig config) {
        boolean chosen = config instanceof CalciteConnectionConfigImpl impl
                && impl.isSet(CalciteConnectionProperty.CONFORMANCE);
        return chosen ? config.conformance() : new GroupByAliases(config.conformance());
    }

    @Override
    public boolean isGroupByAlias() {
        return true;
    }

    @Override
    public boolean isGroupByOrdinal() {
        return true;
    }

    @Override
    public boolean isHavingAlias() {
        return true;
    }
}
