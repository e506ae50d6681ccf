package io.zerocopy.examples.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The threads engine asks the JDK for one read sub-poller (docs/virtual-threads.md), and leaves an
 * operator's own count alone.
 */
class ReadPollersTest {
    private String saved;

    @BeforeEach
    void save() {
        saved = System.getProperty(ThreadsEngine.READ_POLLERS);
    }

    @AfterEach
    void restore() {
        if (saved == null) {
            System.clearProperty(ThreadsEngine.READ_POLLERS);
        } else {
            System.setProperty(ThreadsEngine.READ_POLLERS, saved);
        }
    }

    @Test
    void oneReadPoller_unset_asksForOne() {
        System.clearProperty(ThreadsEngine.READ_POLLERS);

        ThreadsEngine.oneReadPoller();

        assertThat(System.getProperty(ThreadsEngine.READ_POLLERS)).isEqualTo("1");
    }

    @Test
    void oneReadPoller_operatorsCount_keptAsItIs() {
        System.setProperty(ThreadsEngine.READ_POLLERS, "4");

        ThreadsEngine.oneReadPoller();

        assertThat(System.getProperty(ThreadsEngine.READ_POLLERS)).isEqualTo("4");
    }
}
