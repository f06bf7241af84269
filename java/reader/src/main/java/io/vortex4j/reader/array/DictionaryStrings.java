package io.vortex4j.reader.array;

import java.nio.charset.StandardCharsets;

/**
 * Decoded entries of one dictionary, filled lazily: each entry is decoded from UTF-8 at most once.
 * Shared by every chunk of a scan that uses the same dictionary (the reference writer stores one
 * dictionary per column), so a string column is decoded once per scan, not once per row.
 *
 * <p>Public for the reader's own packages; not a user API.
 */
public final class DictionaryStrings {
    private final long id;
    private final String[] strings;

    DictionaryStrings(long id, int size) {
        this.id = id;
        this.strings = new String[size];
    }

    /** The native dictionary's identity: chunks sharing the dictionary share this object. */
    public long id() {
        return id;
    }

    int size() {
        return strings.length;
    }

    /**
     * Entry {@code code}, decoding it on first use; null for a null entry. The entry's bytes are
     * checked as read before their string is cached for the other chunks sharing the dictionary.
     */
    String get(VarBinArray dictionary, int code) {
        String s = strings[code];
        if (s == null && !dictionary.isNull(code)) {
            s = new String(dictionary.bytesUnchecked(code), StandardCharsets.UTF_8);
            strings[code] = s;
        }
        return s;
    }
}
