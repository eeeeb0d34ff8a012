package java.util.concurrent.locks;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;

/**
 * Field access for JvmsightLockScan through whichever Unsafe this JDK has:
 * jdk.internal.misc.Unsafe (JDK 9+, in this module) or sun.misc.Unsafe
 * (JDK 8), its accessors found by name (getReference since JDK 12,
 * getObject before) and bound to it as method handles. Static final handles
 * are constants to the JIT: a compiled GET_INT.invokeExact is the same plain
 * load as a direct Unsafe.getInt. Defined by the agent in the bootstrap
 * loader before JvmsightLockScan, which links against it.
 */
final class JvmsightUnsafe {
    private JvmsightUnsafe() {}

    // Null where no Unsafe is found; available() then says false.
    private static final Object UNSAFE = findUnsafe();
    private static final MethodHandle GET_INT = method("getInt", int.class, Object.class, long.class);
    private static final MethodHandle GET_REFERENCE =
            method(new String[] {"getReference", "getObject"}, Object.class, Object.class, long.class);

    /** Whether getInt and getReference work on this JDK. */
    static boolean available() {
        return GET_INT != null && GET_REFERENCE != null;
    }

    private static Object findUnsafe() {
        for (String name : new String[] {"jdk.internal.misc.Unsafe", "sun.misc.Unsafe"}) {
            try {
                Field f = Class.forName(name).getDeclaredField("theUnsafe");
                f.setAccessible(true);
                return f.get(null);
            } catch (ReflectiveOperationException | RuntimeException | Error e) {
                // the next one
            }
        }
        return null;
    }

    private static MethodHandle method(String name, Class<?> result, Class<?>... params) {
        return method(new String[] {name}, result, params);
    }

    /** The first of these Unsafe methods that exists, bound to UNSAFE; null if none. */
    private static MethodHandle method(String[] names, Class<?> result, Class<?>... params) {
        if (UNSAFE == null) return null;
        for (String name : names) {
            try {
                return lookup().findVirtual(UNSAFE.getClass(), name, MethodType.methodType(result, params)).bindTo(UNSAFE);
            } catch (ReflectiveOperationException | RuntimeException e) {
                // the next name
            }
        }
        return null;
    }

    /**
     * Ours (JDK 9+: this module's jdk.internal.misc), or the public one on
     * JDK 8, which refuses a full lookup to bootstrap classes in java.* but
     * reaches sun.misc.Unsafe's public methods without it.
     */
    private static MethodHandles.Lookup lookup() {
        try {
            return MethodHandles.lookup();
        } catch (IllegalArgumentException e) {
            return MethodHandles.publicLookup();
        }
    }

    static long offset(Class<?> c, String field) throws ReflectiveOperationException {
        MethodHandle offset = method("objectFieldOffset", long.class, Field.class);
        if (offset == null) throw new NoSuchMethodException("objectFieldOffset");
        try {
            return (long) offset.invoke(c.getDeclaredField(field));
        } catch (Throwable e) {
            throw unchecked(e);
        }
    }

    /** Calls the first of these Unsafe methods that exists, with args (the receiver bound). Warm-up only, not hot. */
    static Object call(String[] names, Class<?> result, Class<?>[] params, Object... args) throws ReflectiveOperationException {
        MethodHandle m = method(names, result, params);
        if (m == null) throw new NoSuchMethodException(names[0]);
        try {
            return m.invokeWithArguments(args);
        } catch (Throwable e) {
            throw unchecked(e);
        }
    }

    /** What a method handle threw, to rethrow: errors as they are, checked exceptions wrapped. */
    private static RuntimeException unchecked(Throwable e) {
        if (e instanceof Error) throw (Error) e;
        return e instanceof RuntimeException ? (RuntimeException) e : new IllegalStateException(e);
    }

    static int getInt(Object o, long offset) {
        try {
            return (int) GET_INT.invokeExact(o, offset);
        } catch (Throwable e) {
            throw unchecked(e);
        }
    }

    static Object getReference(Object o, long offset) {
        try {
            return (Object) GET_REFERENCE.invokeExact(o, offset);
        } catch (Throwable e) {
            throw unchecked(e);
        }
    }
}
