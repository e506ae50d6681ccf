package io.zerocopy.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.channels.SocketChannel;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The receiver the socket tests count descriptors around must not leave one of its own. A reader
 * thread that is interrupted while its accept takes a connection gets
 * {@code ClosedByInterruptException}, and the JDK (17 and 25 alike) leaves the accepted socket open
 * for good; a short test on a busy machine closes its receiver at just that moment.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LoopbackReceiverTest {
    private static final int ROUNDS = 20;

    @Test
    void close_whileTheReaderIsTakingAConnection_leavesNoDescriptor() throws Exception {
        assumeTrue(ProcSelf.available(), "needs /proc/self");
        ProcSelf.openWhatTheJdkKeeps();
        int before = ProcSelf.openDescriptors();
        List<String> targetsBefore = ProcSelf.descriptorTargets();
        for (int i = 0; i < ROUNDS; i++) {
            LoopbackReceiver receiver = LoopbackReceiver.gated(0);
            Thread reader =
                    awaitInAccept("loopback-receiver-" + receiver.address().getPort());
            // the connection wakes the reader's accept; the close comes before it can return
            SocketChannel client = receiver.connectChannel();
            try {
                receiver.close();
            } finally {
                client.close();
            }
            assertThat(reader.isAlive()).as("reader thread ended").isFalse();
        }
        assertThat(ProcSelf.awaitDescriptorsAtMost(before))
                .as(
                        "open descriptors after %d receivers closed as they accepted; before %s, after %s",
                        ROUNDS, targetsBefore, ProcSelf.descriptorTargets())
                .isLessThanOrEqualTo(before);
    }

    /** Waits until the thread of this name is inside the native accept call, and returns it. */
    private static Thread awaitInAccept(String name) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (true) {
            for (Thread t : Thread.getAllStackTraces().keySet()) {
                if (t.getName().equals(name)
                        && Arrays.stream(t.getStackTrace())
                                .anyMatch(frame -> frame.isNativeMethod()
                                        && frame.getMethodName().startsWith("accept"))) {
                    return t;
                }
            }
            assertThat(System.nanoTime()).as("%s reached accept", name).isLessThan(deadline);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1)); // polling interval, not synchronisation
        }
    }
}
