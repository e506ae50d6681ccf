package io.zerocopy.spi;

/**
 * What an end of a transfer is, as far as choosing a strategy goes.
 *
 * <p>Only the JDK's own channel classes get {@link #FILE}, {@link #SOCKET} or {@link #PIPE}: the
 * kernel fast paths inside {@code FileChannel.transferTo} are reached only for those classes. A
 * user's subclass of {@code SocketChannel}, a TLS wrapper, or {@code Channels.newChannel(out)} is
 * {@link #OTHER}, because the JDK treats it as an arbitrary channel and copies through a heap
 * buffer.
 */
public enum ChannelKind {
    /** A JDK {@code FileChannel} over a regular file with a known size. */
    FILE,
    /** A JDK {@code SocketChannel}. */
    SOCKET,
    /** A JDK {@code Pipe.SinkChannel} or {@code Pipe.SourceChannel}. */
    PIPE,
    /** Any other channel: wrappers, user implementations, TLS, an adapted stream. */
    OTHER
}
