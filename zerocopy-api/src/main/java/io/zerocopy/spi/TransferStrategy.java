package io.zerocopy.spi;

import java.io.IOException;

/**
 * One way of moving bytes from a source channel to a target channel, such as
 * {@code FileChannel.transferTo} or a reusable buffer.
 *
 * <p>A strategy is a factory of {@link TransferStep}s and should be stateless and thread-safe: the
 * engine shares one instance between all transfers. Per-transfer state lives in the step.
 *
 * <h2>Contract</h2>
 * <ul>
 *   <li>{@link #supports} decides before a byte moves, from the request alone, and must not perform
 *       I/O. Returning "no" is how a strategy steps aside; the engine then tries the next one.</li>
 *   <li>A step moves at most what it is asked, may return short counts or zero, and returns
 *       {@code -1} only at end of stream.</li>
 *   <li>Nothing the caller passed in is closed, repositioned, switched between blocking modes or
 *       registered with a selector. A FILE source is read only at explicit positions.</li>
 *   <li>Everything {@link #open} acquires is released by {@link TransferStep#close()}.</li>
 * </ul>
 *
 * <h2>Registering a strategy</h2>
 * <p>Declare {@code provides io.zerocopy.spi.TransferStrategy with com.example.SpliceStrategy;} in
 * your {@code module-info}, or list the class in
 * {@code META-INF/services/io.zerocopy.spi.TransferStrategy} on the class path. The class needs a
 * public no-argument constructor. Registered strategies can be forced by {@link #name()}, and the
 * selector considers them before the built-in table, so keep {@link #supports} narrow.
 */
public interface TransferStrategy {

    /**
     * A short, unique, stable name, used to force or exclude the strategy in options and system
     * properties: not blank, without a comma or leading or trailing white space. Built-in names:
     * {@code transferTo}, {@code transferFrom}, {@code mmap}, {@code buffered}, {@code splice} and
     * {@code native} (Linux, Java 22+). A registered strategy whose name breaks these rules, is
     * taken, or cannot be read is left out, with a warning in the log.
     */
    String name();

    /**
     * Whether this strategy can serve the request at all (not whether it is the fastest; the
     * selector decides that). Must not perform I/O.
     */
    Support supports(TransferRequest request);

    /**
     * Creates the per-transfer state for a request that {@link #supports} accepted.
     *
     * @throws IOException if acquiring resources fails; nothing has moved yet
     */
    TransferStep open(TransferRequest request) throws IOException;
}
