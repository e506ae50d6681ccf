/**
 * Moves bytes between files, sockets and streams by the fastest correct path the platform offers.
 * Start at {@link io.zerocopy.Transfers}: {@code copy} to send on this thread, {@code open} for a
 * {@link io.zerocopy.Transfer} an event loop drives, {@code copyAsync} for a future. A server that
 * writes a head before the body opens an {@link io.zerocopy.OpenFile} (or one beneath an
 * {@link io.zerocopy.OpenDirectory}) and sends a {@link io.zerocopy.FileRegion} with a prefix.
 *
 * <h2>How it is built</h2>
 *
 * <p>Every transfer takes one path through five layers, each using only its own and those below
 * it. The public vocabulary of the first layer (options, results, exceptions, regions, the
 * {@code Transfer} and listener interfaces) is the exception: every layer speaks it. A test reads
 * this list and fails when a class is missing from it or names a class of a layer above its own.
 *
 * <ol>
 *   <li><b>Verbs</b>, what a caller names: {@code Transfers}, {@code OpenFile},
 *       {@code OpenDirectory}, {@code OpenFileCache}, {@code CachedFile}, {@code BeneathOpener},
 *       {@code PathCopy}, {@code AsyncCopies}; the vocabulary {@code FileRegion},
 *       {@code TransferOptions}, {@code TransferResult}, {@code Transfer}, {@code TransferListener},
 *       {@code TransferException}, {@code TruncatedSourceException}, {@code TransferTimeoutException},
 *       {@code ResourceShortageException}, {@code SymbolicLinkException}.
 *   <li><b>Planning</b>, what is asked and which row of the table serves it: {@code Opener} turns
 *       a verb's arguments into a request and its facts, {@code Preflight} and {@code SourceFile}
 *       check them, {@code Selection} (with {@code Exclusions} and
 *       {@code Strategies}) chooses.
 *   <li><b>Running</b>, one state machine for every transfer: {@code RealTransfer} steps the chosen
 *       strategy, {@code Engine} waits for the blocking verbs, {@code Choice} holds what was chosen
 *       and why, {@code Stall}, {@code RatePacer}, {@code TransferFailures},
 *       {@code TransferEvents} and {@code TransferEvent} keep its clock, its pace, its failures'
 *       words and its recording.
 *   <li><b>Strategies</b>, one step of progress each: {@code BuiltInStrategy},
 *       {@code BufferedStrategy}, {@code MappedStrategy}, {@code TransferToStrategy},
 *       {@code TransferFromStrategy}, {@code NativeStrategy}, {@code NativeSendStep},
 *       {@code SpliceStrategy}, {@code SpliceStep}, {@code SidedStep}, {@code PrefixWrite},
 *       {@code ParkingBridge}, {@code KeptFailure}, {@code Writes}.
 *   <li><b>Platform</b>, what the JDK and the kernel give: {@code TransferFacts} (what is known of
 *       both ends, read by every layer above), {@code Peers}, {@code Platform},
 *       {@code ChannelKinds}, {@code StreamChannels}, {@code FileChannels}, {@code FileSliceChannel},
 *       {@code DirectBuffers}, {@code Slots}, {@code Mappings}, {@code Mapping}, {@code NativeFiles},
 *       {@code Scratch}, {@code NativeFile}, {@code FifoReads}, {@code Openat2Beneath}, {@code LinuxFile},
 *       {@code LinuxCalls}, {@code LinuxAbi}, {@code KernelNames}, {@code Descriptors},
 *       {@code SocketWaits}, {@code SocketRoom}, {@code Wake}, {@code OpenFailures},
 *       {@code OpenedFile}, {@code Checks}, {@code Logs}, {@code Cleaners}.
 * </ol>
 */
package io.zerocopy;
