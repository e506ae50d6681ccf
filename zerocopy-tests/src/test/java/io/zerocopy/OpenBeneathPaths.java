package io.zerocopy;

/**
 * Which native path {@link OpenDirectory#openBeneath} takes, for tests in other packages: one
 * {@code openat2} where the kernel has it, or the walk of one {@code openat} per step. In package
 * {@code io.zerocopy} to reach the switch; the Java 22 part by reflection, since this module
 * compiles against the Java 17 classes.
 */
public final class OpenBeneathPaths {
    private OpenBeneathPaths() {}

    /** Whether opens beneath try {@code openat2} first ({@code true}, as by default) or walk alone. */
    public static void inOneCall(boolean tried) {
        BeneathOpener.inOneCall = tried;
    }

    /** Whether this JVM still calls {@code openat2} (false once its kernel said it cannot serve). */
    public static boolean openat2InUse() throws ReflectiveOperationException {
        java.lang.reflect.Method tried =
                Class.forName("io.zerocopy.Openat2Beneath").getDeclaredMethod("tried");
        tried.setAccessible(true);
        return BeneathOpener.inOneCall && (boolean) tried.invoke(null);
    }
}
