/**
 * The contract between zerocopy's engine and the strategies it drives.
 *
 * <p>A {@link io.zerocopy.spi.TransferStrategy} is a small step ("move at most N bytes from here");
 * the engine in {@code io.zerocopy} owns the loop around it. Third-party strategies are registered
 * with {@code provides io.zerocopy.spi.TransferStrategy with ...} (or a {@code META-INF/services}
 * entry on the class path).
 */
module io.zerocopy.api {
    exports io.zerocopy.spi;
}
