/**
 * The strategy SPI: what a transfer strategy is and what it is given.
 *
 * <h2>Division of labour</h2>
 * <p>The engine (in {@code io.zerocopy.Transfers}) owns everything that has to be right once:
 * validating arguments, choosing a strategy, the loop over short counts, the per-call cap of the
 * platform, waiting on non-blocking channels, detecting a source file that shrinks, the stall
 * timeout, interrupts, rate limiting, progress callbacks and the final accounting. A strategy only
 * knows how to make one step of progress:
 *
 * <ol>
 *   <li>{@link io.zerocopy.spi.TransferStrategy#supports} says, before a byte moves, whether it can
 *       serve a {@link io.zerocopy.spi.TransferRequest} at all;</li>
 *   <li>{@link io.zerocopy.spi.TransferStrategy#open} creates the per-transfer state (buffers,
 *       mappings);</li>
 *   <li>{@link io.zerocopy.spi.TransferStep#move} moves at most a given number of bytes and may
 *       return a short count, zero, or {@code -1} at the end of the source;</li>
 *   <li>{@link io.zerocopy.spi.TransferStep#close} releases what {@code open} acquired.</li>
 * </ol>
 *
 * <h2>Ownership</h2>
 * <p>The channels in a request belong to the caller of {@code Transfers}. A strategy never closes
 * them, never changes their blocking mode, and never registers them with a selector. It may read a
 * file source only with positional reads ({@code read(dst, position)}, {@code transferTo},
 * {@code map}), so the source's own position is the engine's business.
 */
package io.zerocopy.spi;
