package io.vortex4j.reader.predicate;

import io.vortex4j.reader.array.Binary;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The byte encoding of a {@link Predicate} for the native library, defined in
 * {@code docs/predicate-encoding.md} (version 1).
 */
public final class PredicateCodec {
    static final int VERSION = 1;
    private static final int COMPARE = 1, BETWEEN = 2, IN = 3, NOT_IN = 4, IS_NULL = 5,
            IS_NOT_NULL = 6, AND = 7, OR = 8, NOT = 9, LIKE = 10, LIST_CONTAINS = 11, LIST_LENGTH = 12;
    private static final int LIKE_NEGATED = 1, LIKE_CASE_INSENSITIVE = 2;
    private static final int CONTAINS_NEGATED = 1, CONTAINS_SQL_NULLS = 2;
    private static final int L_NULL = 0, L_BOOL = 1, L_I64 = 2, L_F64 = 3, L_UTF8 = 4,
            L_BINARY = 5, L_DECIMAL = 6, L_U64 = 7;
    private static final BigInteger U64_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

    private PredicateCodec() {}

    /** Encodes {@code p}; throws {@link IllegalArgumentException} for a literal it cannot carry. */
    public static byte[] encode(Predicate p) {
        Writer w = new Writer();
        w.u8(VERSION);
        node(w, p);
        return w.bytes();
    }

    /** Decodes bytes made by {@link #encode} (used by the round-trip tests). */
    public static Predicate decode(byte[] bytes) {
        ByteBuffer in = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        int version = Byte.toUnsignedInt(in.get());
        if (version != VERSION) {
            throw new IllegalArgumentException("predicate encoding version " + version + ", expected " + VERSION);
        }
        Predicate p = readNode(in);
        if (in.hasRemaining()) {
            throw new IllegalArgumentException(in.remaining() + " trailing bytes after the predicate");
        }
        return p;
    }

    private static void node(Writer w, Predicate p) {
        if (p instanceof Predicate.Compare c) {
            w.u8(COMPARE);
            w.u8(c.op().ordinal());
            w.str(c.column());
            literal(w, c.value());
        } else if (p instanceof Predicate.Between b) {
            w.u8(BETWEEN);
            w.str(b.column());
            literal(w, b.low());
            literal(w, b.high());
        } else if (p instanceof Predicate.In in) {
            w.u8(in.negated() ? NOT_IN : IN);
            w.str(in.column());
            w.u32(in.values().size());
            for (Object v : in.values()) {
                literal(w, v);
            }
        } else if (p instanceof Predicate.IsNull n) {
            w.u8(n.negated() ? IS_NOT_NULL : IS_NULL);
            w.str(n.column());
        } else if (p instanceof Predicate.Like l) {
            w.u8(LIKE);
            w.u8((l.negated() ? LIKE_NEGATED : 0) | (l.caseInsensitive() ? LIKE_CASE_INSENSITIVE : 0));
            w.str(l.column());
            w.str(text(l.pattern()));
            w.str(l.escape() == null ? "" : text(l.escape().toString()));
        } else if (p instanceof Predicate.ListContains l) {
            w.u8(LIST_CONTAINS);
            w.u8((l.negated() ? CONTAINS_NEGATED : 0) | (l.sqlNulls() ? CONTAINS_SQL_NULLS : 0));
            w.str(l.column());
            literal(w, l.value());
        } else if (p instanceof Predicate.ListLength l) {
            w.u8(LIST_LENGTH);
            w.u8(l.op().ordinal());
            w.str(l.column());
            w.i64(l.length());
        } else if (p instanceof Predicate.Computed) {
            throw new IllegalArgumentException("the predicate " + p + " is a Java function, evaluated in Java");
        } else if (p instanceof Predicate.And a) {
            w.u8(AND);
            children(w, a.children());
        } else if (p instanceof Predicate.Or o) {
            w.u8(OR);
            children(w, o.children());
        } else {
            w.u8(NOT);
            node(w, ((Predicate.Not) p).child());
        }
    }

    /**
     * {@code s}, which must be valid Unicode: an unpaired surrogate has no UTF-8 form (the
     * encoder would send '?', a different string), so such a literal stays in Java, where no
     * value read from a file ever equals it.
     */
    private static String text(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new IllegalArgumentException("the string " + Literals.toSql(s) + " holds an unpaired surrogate");
            }
        }
        return s;
    }

    private static void children(Writer w, List<Predicate> children) {
        w.u32(children.size());
        for (Predicate c : children) {
            node(w, c);
        }
    }

    private static void literal(Writer w, Object v) {
        if (v instanceof Predicate.Parameter p) {
            throw new IllegalArgumentException("parameter " + p + " is not bound (Predicate.bind)");
        }
        if (v == null) {
            w.u8(L_NULL);
        } else if (v instanceof Boolean) {
            w.u8(L_BOOL);
            w.u8((Boolean) v ? 1 : 0);
        } else if (v instanceof Long) {
            w.u8(L_I64);
            w.i64((Long) v);
        } else if (v instanceof Double) {
            w.u8(L_F64);
            w.i64(Double.doubleToRawLongBits((Double) v));
        } else if (v instanceof String) {
            w.u8(L_UTF8);
            w.str(text((String) v));
        } else if (v instanceof Binary) {
            byte[] b = ((Binary) v).toByteArray();
            w.u8(L_BINARY);
            w.u32(b.length);
            w.raw(b);
        } else if (v instanceof BigDecimal) {
            BigDecimal d = (BigDecimal) v;
            BigInteger unscaled = d.unscaledValue();
            if (unscaled.bitLength() > 127) {
                throw new IllegalArgumentException("decimal literal " + d + " does not fit 128 bits");
            }
            w.u8(L_DECIMAL);
            w.i32(d.scale());
            w.i128(unscaled);
        } else if (v instanceof BigInteger) {
            BigInteger b = (BigInteger) v;
            if (b.signum() < 0 || b.compareTo(U64_MAX) > 0) {
                throw new IllegalArgumentException("integer literal " + b + " does not fit 64 bits");
            }
            w.u8(L_U64);
            w.i64(b.longValue());
        } else {
            throw new IllegalArgumentException("the literal " + v + " (" + v.getClass().getSimpleName()
                    + ") cannot be sent to the native library");
        }
    }

    private static Predicate readNode(ByteBuffer in) {
        int tag = Byte.toUnsignedInt(in.get());
        switch (tag) {
            case COMPARE: {
                int op = Byte.toUnsignedInt(in.get());
                String column = readStr(in);
                return new Predicate.Compare(column, Predicate.Op.values()[op], readLiteral(in));
            }
            case BETWEEN: {
                String column = readStr(in);
                Object low = readLiteral(in);
                return new Predicate.Between(column, low, readLiteral(in));
            }
            case IN:
            case NOT_IN: {
                String column = readStr(in);
                int n = in.getInt();
                List<Object> values = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    values.add(readLiteral(in));
                }
                return new Predicate.In(column, values, tag == NOT_IN);
            }
            case IS_NULL:
                return Predicate.isNull(readStr(in));
            case IS_NOT_NULL:
                return Predicate.isNotNull(readStr(in));
            case AND:
            case OR: {
                int n = in.getInt();
                List<Predicate> children = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    children.add(readNode(in));
                }
                return tag == AND ? Predicate.and(children) : Predicate.or(children);
            }
            case NOT:
                return Predicate.not(readNode(in));
            case LIKE: {
                int flags = Byte.toUnsignedInt(in.get());
                String column = readStr(in);
                String pattern = readStr(in);
                String escape = readStr(in);
                return new Predicate.Like(column, pattern, escape.isEmpty() ? null : escape.charAt(0),
                        (flags & LIKE_CASE_INSENSITIVE) != 0, (flags & LIKE_NEGATED) != 0);
            }
            case LIST_CONTAINS: {
                int flags = Byte.toUnsignedInt(in.get());
                if ((flags & ~(CONTAINS_NEGATED | CONTAINS_SQL_NULLS)) != 0) {
                    throw new IllegalArgumentException("unknown LIST_CONTAINS flags " + flags);
                }
                String column = readStr(in);
                return new Predicate.ListContains(column, readLiteral(in), (flags & CONTAINS_SQL_NULLS) != 0,
                        (flags & CONTAINS_NEGATED) != 0);
            }
            case LIST_LENGTH: {
                int op = Byte.toUnsignedInt(in.get());
                String column = readStr(in);
                return new Predicate.ListLength(column, Predicate.Op.values()[op], in.getLong());
            }
            default:
                throw new IllegalArgumentException("unknown predicate node tag " + tag);
        }
    }

    private static Object readLiteral(ByteBuffer in) {
        int tag = Byte.toUnsignedInt(in.get());
        switch (tag) {
            case L_NULL:
                return null;
            case L_BOOL:
                return in.get() != 0;
            case L_I64:
                return in.getLong();
            case L_F64:
                return Double.longBitsToDouble(in.getLong());
            case L_UTF8:
                return readStr(in);
            case L_BINARY: {
                byte[] b = new byte[in.getInt()];
                in.get(b);
                return new Binary(b);
            }
            case L_DECIMAL: {
                int scale = in.getInt();
                byte[] be = new byte[16];
                for (int i = 15; i >= 0; i--) {
                    be[i] = in.get();
                }
                return new BigDecimal(new BigInteger(be), scale);
            }
            case L_U64: {
                long bits = in.getLong();
                return new BigInteger(Long.toUnsignedString(bits));
            }
            default:
                throw new IllegalArgumentException("unknown literal tag " + tag);
        }
    }

    private static String readStr(ByteBuffer in) {
        byte[] b = new byte[in.getInt()];
        in.get(b);
        return new String(b, StandardCharsets.UTF_8);
    }

    /** A little-endian byte sink (a plain growable array: long IN lists make big encodings). */
    private static final class Writer {
        private byte[] buf = new byte[64];
        private int n;

        private void room(int more) {
            if (n + more > buf.length) {
                buf = java.util.Arrays.copyOf(buf, Math.max(buf.length * 2, n + more));
            }
        }

        void u8(int v) {
            room(1);
            buf[n++] = (byte) v;
        }

        void u32(int v) {
            i32(v);
        }

        void i32(int v) {
            room(4);
            for (int i = 0; i < 4; i++) {
                buf[n++] = (byte) (v >>> (8 * i));
            }
        }

        void i64(long v) {
            room(8);
            for (int i = 0; i < 8; i++) {
                buf[n++] = (byte) (v >>> (8 * i));
            }
        }

        void i128(BigInteger v) {
            byte[] be = v.toByteArray();
            byte pad = (byte) (v.signum() < 0 ? 0xFF : 0);
            room(16);
            for (int i = 0; i < 16; i++) {
                int src = be.length - 1 - i;
                buf[n++] = src >= 0 ? be[src] : pad;
            }
        }

        void str(String s) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            u32(b.length);
            raw(b);
        }

        void raw(byte[] b) {
            room(b.length);
            System.arraycopy(b, 0, buf, n, b.length);
            n += b.length;
        }

        byte[] bytes() {
            return java.util.Arrays.copyOf(buf, n);
        }
    }
}
