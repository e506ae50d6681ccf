package io.zerocopy.spi;

import java.util.Objects;

/**
 * A strategy's answer to "can you serve this request?", with the reason in words.
 *
 * <p>The reason ends up in the engine's debug log and in error messages, so it should say what a
 * person needs to know: {@code "target is not a FileChannel"} rather than {@code "unsupported"}.
 */
public final class Support {
    private final boolean supported;
    private final String reason;

    private Support(boolean supported, String reason) {
        this.supported = supported;
        this.reason = Objects.requireNonNull(reason, "reason");
    }

    /** The strategy can serve the request; {@code reason} says how (for example, which system call). */
    public static Support yes(String reason) {
        return new Support(true, reason);
    }

    /** The strategy cannot serve the request; {@code reason} says why. Nothing has moved yet. */
    public static Support no(String reason) {
        return new Support(false, reason);
    }

    /** Whether the strategy can serve the request. */
    public boolean supported() {
        return supported;
    }

    /** Why, in words. */
    public String reason() {
        return reason;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Support && ((Support) o).supported == supported && ((Support) o).reason.equals(reason);
    }

    @Override
    public int hashCode() {
        return Boolean.hashCode(supported) * 31 + reason.hashCode();
    }

    @Override
    public String toString() {
        return (supported ? "yes: " : "no: ") + reason;
    }
}
