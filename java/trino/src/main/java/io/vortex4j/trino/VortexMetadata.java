package io.vortex4j.trino;

import io.airlift.slice.Slice;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.AggregateFunction;
import io.trino.spi.connector.AggregationApplicationResult;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.connector.ConnectorInsertTableHandle;
import io.trino.spi.connector.ConnectorMetadata;
import io.trino.spi.connector.ConnectorOutputMetadata;
import io.trino.spi.connector.ConnectorOutputTableHandle;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.ConnectorTableLayout;
import io.trino.spi.connector.ConnectorTableMetadata;
import io.trino.spi.connector.ConnectorTableVersion;
import io.trino.spi.connector.Constraint;
import io.trino.spi.connector.ConstraintApplicationResult;
import io.trino.spi.connector.LimitApplicationResult;
import io.trino.spi.connector.RetryMode;
import io.trino.spi.connector.SaveMode;
import io.trino.spi.connector.ProjectionApplicationResult;
import io.trino.spi.connector.RelationColumnsMetadata;
import io.trino.spi.expression.ConnectorExpression;
import io.trino.spi.connector.SchemaNotFoundException;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.connector.SortItem;
import io.trino.spi.connector.TopNApplicationResult;
import io.trino.spi.statistics.ComputedStatistics;
import io.trino.spi.statistics.TableStatistics;
import io.trino.spi.type.Type;
import io.vortex4j.reader.Field;
import io.vortex4j.reader.dataset.VortexDataset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import static io.trino.spi.StandardErrorCode.ALREADY_EXISTS;
import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;

/**
 * Tables and columns of the catalog location (schema {@code default}), push-down of filters,
 * limits and aggregates, statistics, and the begin/finish steps of writes.
 */
final class VortexMetadata implements io.trino.spi.connector.ConnectorMetadata {
    private final Catalog catalog;
    private final TransactionTables tables;

    /** The metadata of {@code catalog} in a transaction that sees it as {@code tables}. */
    VortexMetadata(Catalog catalog, TransactionTables tables) {
        this.catalog = catalog;
        this.tables = tables;
    }

    @Override
    public List<String> listSchemaNames(ConnectorSession session) {
        return List.of(Catalog.SCHEMA);
    }

    @Override
    public ConnectorTableHandle getTableHandle(ConnectorSession session, SchemaTableName name,
            Optional<ConnectorTableVersion> startVersion, Optional<ConnectorTableVersion> endVersion) {
        if (startVersion.isPresent() || endVersion.isPresent()) {
            throw new TrinoException(NOT_SUPPORTED, "This connector does not support versioned tables");
        }
        if (!name.getSchemaName().equals(Catalog.SCHEMA)) {
            return null;
        }
        Optional<String> location = tables.location(name.getTableName());
        return location.map(p -> tables.with(p, d -> Datasets.handle(name, d))).orElse(null);
    }

    @Override
    public ConnectorTableMetadata getTableMetadata(ConnectorSession session, ConnectorTableHandle table) {
        VortexTableHandle handle = (VortexTableHandle) table;
        List<ColumnMetadata> columns = new ArrayList<>();
        for (VortexColumnHandle c : columns(handle)) {
            columns.add(c.metadata());
        }
        return new ConnectorTableMetadata(handle.name(), columns);
    }

    @Override
    public List<SchemaTableName> listTables(ConnectorSession session, Optional<String> schema) {
        if (schema.isPresent() && !schema.get().equals(Catalog.SCHEMA)) {
            return List.of();
        }
        return tables.names().stream().map(n -> new SchemaTableName(Catalog.SCHEMA, n)).toList();
    }

    @Override
    public Iterator<RelationColumnsMetadata> streamRelationColumns(ConnectorSession session, Optional<String> schema,
            UnaryOperator<Set<SchemaTableName>> filter) {
        List<RelationColumnsMetadata> out = new ArrayList<>();
        for (SchemaTableName name : filter.apply(new LinkedHashSet<>(listTables(session, schema)))) {
            Optional<String> location = tables.location(name.getTableName());
            try {
                location.ifPresent(p -> out.add(RelationColumnsMetadata.forTable(name,
                        tables.with(p, Datasets::columns).stream().map(VortexColumnHandle::metadata).toList())));
            } catch (TrinoException unreadable) {
                // left out here; its queries say why
            }
        }
        return out.iterator();
    }

    @Override
    public Map<String, ColumnHandle> getColumnHandles(ConnectorSession session, ConnectorTableHandle table) {
        Map<String, ColumnHandle> handles = new LinkedHashMap<>();
        for (VortexColumnHandle c : columns((VortexTableHandle) table)) {
            handles.put(c.metadata().getName(), c);
        }
        return handles;
    }

    @Override
    public ColumnMetadata getColumnMetadata(ConnectorSession session, ConnectorTableHandle table, ColumnHandle column) {
        return column instanceof AggregateColumnHandle a ? a.metadata() : ((VortexColumnHandle) column).metadata();
    }

    private List<VortexColumnHandle> columns(VortexTableHandle table) {
        return tables.with(table.location(), Datasets::columns);
    }

    @Override
    public TableStatistics getTableStatistics(ConnectorSession session, ConnectorTableHandle table) {
        VortexTableHandle handle = (VortexTableHandle) table;
        return tables.with(handle.location(), d -> Statistics.of(handle, d));
    }

    @Override
    public Optional<ConstraintApplicationResult<ConnectorTableHandle>> applyFilter(ConnectorSession session,
            ConnectorTableHandle table, Constraint constraint) {
        if (!VortexSessionProperties.pushdown(session) || ((VortexTableHandle) table).aggregation().isPresent()
                || rowsCut((VortexTableHandle) table)) {
            return Optional.empty();
        }
        return FilterPushdown.apply((VortexTableHandle) table, constraint).map(r -> r.transform(h -> h));
    }

    @Override
    public Optional<ProjectionApplicationResult<ConnectorTableHandle>> applyProjection(ConnectorSession session,
            ConnectorTableHandle table, List<ConnectorExpression> projections, Map<String, ColumnHandle> assignments) {
        if (!VortexSessionProperties.pushdown(session) || ((VortexTableHandle) table).aggregation().isPresent()) {
            return Optional.empty();
        }
        return ProjectionPushdown.apply((VortexTableHandle) table, projections, assignments)
                .map(r -> new ProjectionApplicationResult<>(r.getHandle(), r.getProjections(), r.getAssignments(), false));
    }

    @Override
    public Optional<LimitApplicationResult<ConnectorTableHandle>> applyLimit(ConnectorSession session,
            ConnectorTableHandle table, long limit) {
        VortexTableHandle handle = (VortexTableHandle) table;
        if (!VortexSessionProperties.pushdown(session) || handle.aggregation().isPresent()
                || (handle.limit().isPresent() && handle.limit().getAsLong() <= limit)) {
            return Optional.empty();
        }
        return Optional.of(new LimitApplicationResult<>(handle.withLimit(limit), false, false));
    }

    /** Whether a limit or top-n was pushed: a filter or aggregate over those rows is not one over the table. */
    private static boolean rowsCut(VortexTableHandle handle) {
        return handle.limit().isPresent() || handle.topN().isPresent();
    }

    @Override
    public Optional<TopNApplicationResult<ConnectorTableHandle>> applyTopN(ConnectorSession session, ConnectorTableHandle table,
            long topNCount, List<SortItem> sortItems, Map<String, ColumnHandle> assignments) {
        VortexTableHandle handle = (VortexTableHandle) table;
        // After a pushed limit the table's rows are already cut: the top-n of those is Trino's to take.
        if (!VortexSessionProperties.pushdown(session) || handle.aggregation().isPresent() || handle.limit().isPresent()
                || handle.topN().isPresent()) {
            return Optional.empty();
        }
        return TopNPushdown.apply(handle, topNCount, sortItems, assignments)
                .map(h -> new TopNApplicationResult<>(h, false, false));
    }

    @Override
    public Optional<AggregationApplicationResult<ConnectorTableHandle>> applyAggregation(ConnectorSession session,
            ConnectorTableHandle table, List<AggregateFunction> aggregates, Map<String, ColumnHandle> assignments,
            List<List<ColumnHandle>> groupingSets) {
        if (!VortexSessionProperties.pushdown(session) || rowsCut((VortexTableHandle) table)) {
            return Optional.empty();
        }
        long maxGroups = VortexSessionProperties.aggregationPushdownMaxGroups(session);
        VortexTableHandle handle = (VortexTableHandle) table;
        return AggregationPushdown.apply(handle, aggregates, assignments, groupingSets, maxGroups,
                        groupBy -> tables.with(handle.location(), d -> Statistics.groups(handle, d, groupBy)))
                .map(r -> new AggregationApplicationResult<>(r.getHandle(), r.getProjections(), r.getAssignments(),
                        r.getGroupingColumnMapping(), r.isPrecalculateStatistics()));
    }

    @Override
    public void createTable(ConnectorSession session, ConnectorTableMetadata metadata, SaveMode saveMode) {
        VortexWriteHandle handle = beginWrite(metadata, saveMode);
        if (handle != null) {
            Staging.writeEmpty(handle.folder(), handle.writeId(), Staging.schema(handle));
        }
        tables.changed();
    }

    @Override
    public ConnectorOutputTableHandle beginCreateTable(ConnectorSession session, ConnectorTableMetadata metadata,
            Optional<ConnectorTableLayout> layout, RetryMode retryMode, boolean replace) {
        checkRetries(retryMode);
        return beginWrite(metadata, replace ? SaveMode.REPLACE : SaveMode.FAIL);
    }

    @Override
    public Optional<ConnectorOutputMetadata> finishCreateTable(ConnectorSession session, ConnectorOutputTableHandle table,
            Collection<Slice> fragments, Collection<ComputedStatistics> statistics) {
        VortexWriteHandle handle = (VortexWriteHandle) table;
        Staging.commit(handle.folder(), fragments);
        if (fragments.isEmpty()) {
            Staging.writeEmpty(handle.folder(), handle.writeId(), Staging.schema(handle));
        }
        tables.changed();
        return Optional.empty();
    }

    @Override
    public ConnectorInsertTableHandle beginInsert(ConnectorSession session, ConnectorTableHandle table,
            List<ColumnHandle> columns, RetryMode retryMode) {
        checkRetries(retryMode);
        VortexTableHandle handle = (VortexTableHandle) table;
        String location = handle.location();
        if (!TableFiles.isFolder(location)) {
            throw new TrinoException(NOT_SUPPORTED, handle.name() + " is the single file " + location
                    + "; INSERT adds files to a table folder");
        }
        List<String> names = new ArrayList<>();
        List<Type> types = new ArrayList<>();
        for (ColumnHandle c : columns) {
            VortexColumnHandle v = (VortexColumnHandle) c;
            names.add(v.name());
            types.add(v.type());
        }
        // Partition folders nest in the dataset's order of keys.
        List<Integer> partitionChannels = new ArrayList<>();
        for (Field f : tables.with(location, VortexDataset::partitionColumns)) {
            int channel = names.indexOf(f.name());
            if (channel < 0) {
                throw new TrinoException(NOT_SUPPORTED, handle.name() + ": INSERT must give partition column " + f.name());
            }
            partitionChannels.add(channel);
        }
        VortexWriteHandle write = new VortexWriteHandle(location, names, types, writeId(), partitionChannels);
        Staging.schema(write);
        return write;
    }

    @Override
    public Optional<ConnectorOutputMetadata> finishInsert(ConnectorSession session, ConnectorInsertTableHandle insert,
            List<ConnectorTableHandle> sourceTables, Collection<Slice> fragments, Collection<ComputedStatistics> statistics) {
        Staging.commit(((VortexWriteHandle) insert).folder(), fragments);
        tables.changed();
        return Optional.empty();
    }

    @Override
    public void dropTable(ConnectorSession session, ConnectorTableHandle table) {
        TableFiles.delete(((VortexTableHandle) table).location());
        tables.changed();
    }

    /** Creates the folder of a new table; null when it exists and {@code mode} is IGNORE. */
    private VortexWriteHandle beginWrite(ConnectorTableMetadata metadata, SaveMode mode) {
        SchemaTableName name = metadata.getTable();
        if (!name.getSchemaName().equals(Catalog.SCHEMA)) {
            throw new SchemaNotFoundException(name.getSchemaName());
        }
        if (mode == SaveMode.REPLACE) {
            throw new TrinoException(NOT_SUPPORTED, "This connector does not support replacing tables");
        }
        if (metadata.getComment().isPresent()) {
            throw new TrinoException(NOT_SUPPORTED, "This connector does not support creating tables with table comment");
        }
        if (!metadata.getProperties().isEmpty()) {
            throw new TrinoException(NOT_SUPPORTED, "Vortex tables take no properties, not " + metadata.getProperties().keySet());
        }
        int length = name.getTableName().getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        if (length > Catalog.MAX_NAME_BYTES) {
            throw new TrinoException(NOT_SUPPORTED, "Table name must be shorter than or equal to '" + Catalog.MAX_NAME_BYTES
                    + "' characters but got '" + length + "': it names a folder");
        }
        List<String> names = new ArrayList<>();
        List<Type> types = new ArrayList<>();
        for (ColumnMetadata c : metadata.getColumns()) {
            if (c.isHidden()) {
                continue;
            }
            if (c.getComment() != null && !c.getComment().isEmpty()) {
                throw new TrinoException(NOT_SUPPORTED, "This connector does not support creating tables with column comment");
            }
            names.add(c.getName());
            types.add(c.getType());
        }
        Staging.schema(names, types); // fails naming a column Vortex cannot store
        // A write consults the location as it is now, not as the transaction first listed it.
        if (catalog.tables().location(name.getTableName()).isPresent()) {
            if (mode == SaveMode.IGNORE) {
                return null;
            }
            throw new TrinoException(ALREADY_EXISTS, "table " + name + " already exists");
        }
        String folder = catalog.newTableFolder(name.getTableName());
        TableFiles.createFolder(folder);
        return new VortexWriteHandle(folder, names, types, writeId(), List.of());
    }

    private static String writeId() {
        return UUID.randomUUID().toString();
    }

    private static void checkRetries(RetryMode mode) {
        if (mode != RetryMode.NO_RETRIES) {
            throw new TrinoException(NOT_SUPPORTED, "Vortex writes do not support query retries");
        }
    }
}
