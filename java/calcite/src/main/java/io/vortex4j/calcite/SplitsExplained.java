package io.vortex4j.calcite;

import io.vortex4j.reader.dataset.Split;
import io.vortex4j.reader.dataset.VortexDataset;
import io.vortex4j.reader.predicate.Predicate;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.sql.SqlExplainLevel;

/**
 * The files and splits a pushed scan over a dataset keeps, for EXPLAIN: {@code files=[3 of 10],
 * splits=[3]}. Planned as the scan plans them (files pruned by partition values never opened);
 * left out of plan digests, so planning itself opens no file for it.
 */
final class SplitsExplained {
    private SplitsExplained() {}

    /** Adds the files and splits items to {@code pw} when {@code table} is a folder or glob of files. */
    static RelWriter explain(RelWriter pw, VortexTable table, Predicate filter) {
        VortexDataset dataset = table.dataset();
        if (pw.getDetailLevel() == SqlExplainLevel.DIGEST_ATTRIBUTES || dataset.isSingleFile()) {
            return pw;
        }
        int files = dataset.fileCount();
        if (filter != null && hasParameters(filter)) {
            return pw.item("files", files + " listed, pruned when run").item("splits", "planned when run");
        }
        List<Split> splits = dataset.splits(filter);
        Set<String> kept = new HashSet<>();
        for (Split s : splits) {
            kept.add(s.path());
        }
        return pw.item("files", kept.size() + " of " + files).item("splits", splits.size());
    }

    private static boolean hasParameters(Predicate filter) {
        boolean[] found = {false};
        filter.bind(p -> {
            found[0] = true;
            return 0L;
        });
        return found[0];
    }
}
