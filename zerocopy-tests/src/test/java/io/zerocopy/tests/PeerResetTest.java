package io.zerocopy.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.zerocopy.Copier;
import io.zerocopy.TransferException;
import io.zerocopy.TransferOptions;
import io.zerocopy.TransferTimeoutException;
import io.zerocopy.Transfers;
import io.zerocopy.TruncatedSourceException;
import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The peer reads a little, then resets the connection ({@code SO_LINGER} 0) while the file is still
 * being sent: the copy must fail promptly with a {@link TransferException} that counts at least
 * the bytes the peer read, with the socket error as its cause.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PeerResetTest {
    private static final long SEED = Seeds.announce(PeerResetTest.class);

    private static final int SIZE = 8 << 20;

    /** The peer resets once it has read this much. */
    private static final int READ_BEFORE_RESET = 64 << 10;

    @TempDir
    static Path dir;

    private static Path file;

    @BeforeAll
    static void createFile() throws Exception {
        file = TestFiles.write(dir.resolve("source"), TestFiles.randomBytes(SIZE, SEED));
    }

    static Stream<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        for (String strategy : new String[] {"transferTo", "mmap", "buffered"}) {
            for (String mode : new String[] {"blocking", "non-blocking"}) {
                cases.add(Arguments.of(strategy, mode, SEED));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} to a {1} socket (seed {2})")
    @MethodSource("cases")
    void copy_peerResetsConnection(String strategy, String mode, long seed) throws Exception {
        RecordingListener listener = new RecordingListener();
        Copier copier = Transfers.with(TransferOptions.builder().strategy(strategy).listener(listener).build());
        try (LoopbackReceiver receiver = LoopbackReceiver.resettingAfter(READ_BEFORE_RESET, LoopbackReceiver.SMALL_BUFFER);
                SocketChannel channel = receiver.connectChannel()) {
            channel.configureBlocking(mode.equals("blocking"));

            TransferException failure = catchThrowableOfType(TransferException.class,
                    () -> copier.copy(file, (WritableByteChannel) channel));
            long readByPeer = receiver.readBeforeReset();

            assertThat(failure).as("TransferException").isNotNull()
                    .isNotInstanceOf(TransferTimeoutException.class)
                    .isNotInstanceOf(TruncatedSourceException.class);
            assertThat(failure.getCause()).as("cause").isInstanceOf(IOException.class);
            assertThat(readByPeer).as("bytes the peer read").isGreaterThanOrEqualTo(READ_BEFORE_RESET);
            // Everything the peer read went through the sender's kernel, so it was counted.
            assertThat(failure.bytesTransferred()).as("bytes transferred")
                    .isGreaterThanOrEqualTo(readByPeer)
                    .isLessThan(SIZE);
            assertThat(listener.failure()).as("onFailure").isSameAs(failure);
            assertThat(listener.strategy()).isEqualTo(strategy);
        }
    }
}
