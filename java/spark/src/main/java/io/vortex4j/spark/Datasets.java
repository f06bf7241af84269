package io.vortex4j.spark;

import io.vortex4j.VortexException;
import io.vortex4j.reader.Field;
import io.vortex4j.reader.Schema;
import io.vortex4j.reader.dataset.Split;
import io.vortex4j.reader.dataset.VortexDataset;
import io.vortex4j.reader.predicate.Predicate;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The {@link VortexDataset}s of a table's locations (usually one: a file, a folder of files and
 * Hive {@code key=value/} folders, or a glob), as one table: every location must have the same
 * columns. A location with no files yet (an output folder) contributes none.
 */
public final class Datasets {
    private final List<String> locations;
    private final List<VortexDataset> datasets;
    private final Schema schema;

    private Datasets(List<String> locations, List<VortexDataset> datasets, Schema schema) {
        this.locations = locations;
        this.datasets = datasets;
        this.schema = schema;
    }

    /** Lists the files at {@code locations} and reads the first footer of each location. */
    public static Datasets open(List<String> locations) {
        List<VortexDataset> datasets = new ArrayList<>();
        Schema schema = null;
        for (String location : locations) {
            String local = localPath(location);
            if (!io.vortex4j.reader.Stores.isRemote(local) && SourceFiles.list(local).isEmpty()) {
                continue; // nothing written there yet
            }
            VortexDataset d = VortexDataset.open(local);
            if (schema == null) {
                schema = d.schema();
            } else if (!sameColumns(schema, d.schema())) {
                throw new VortexException(location + ": columns " + d.schema() + " differ from " + schema
                        + " of " + locations.get(0) + "; all locations of a table must have the same columns");
            }
            datasets.add(d);
        }
        return new Datasets(locations, datasets, schema);
    }

    /** A {@code file:} URI as a path; other locations unchanged. */
    public static String localPath(String location) {
        return location.startsWith("file:") ? Paths.get(java.net.URI.create(location)).toString() : location;
    }

    private static boolean sameColumns(Schema a, Schema b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (!a.field(i).name().equals(b.field(i).name()) || !a.field(i).type().equals(b.field(i).type())) {
                return false;
            }
        }
        return true;
    }

    /** True when no location holds a file. */
    public boolean isEmpty() {
        return datasets.isEmpty();
    }

    /** The columns: file columns, then partition columns; null when there are no files. */
    public Schema schema() {
        return schema;
    }

    /** The partition columns (from the Hive folders of the first location). */
    public List<Field> partitionColumns() {
        return datasets.isEmpty() ? List.of() : datasets.get(0).partitionColumns();
    }

    /** The splits of every location for {@code filter} (over {@link #schema()}), in location order. */
    public List<Split> splits(Predicate filter, long targetRows) {
        List<Split> out = new ArrayList<>();
        for (VortexDataset d : datasets) {
            out.addAll(d.splits(filter, targetRows));
        }
        return out;
    }

    /** The files whose footers were read so far (planning opens only the files it keeps). */
    public Set<String> openedFiles() {
        Set<String> out = new LinkedHashSet<>();
        for (VortexDataset d : datasets) {
            out.addAll(d.openedFiles());
        }
        return out;
    }

    public List<String> locations() {
        return locations;
    }
}
