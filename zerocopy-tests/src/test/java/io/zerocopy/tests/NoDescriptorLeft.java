package io.zerocopy.tests;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test that leaves a file descriptor open: counts this JVM's descriptors before each test
 * (after opening what the JDK keeps for good) and again after it, once the test has closed what it
 * opened, waiting a bounded time for closes still in flight (Linux only: elsewhere it checks
 * nothing). Register it on an instance field with {@code @RegisterExtension}.
 */
final class NoDescriptorLeft implements BeforeEachCallback, AfterEachCallback {
    private final ThreadKind threads;
    private int before = -1;
    private List<String> targetsBefore = List.of();

    /** {@code threads}: the kind of thread the tests copy on, whose first use may open descriptors for good. */
    NoDescriptorLeft(ThreadKind threads) {
        this.threads = threads;
    }

    @Override
    public void beforeEach(ExtensionContext context) throws Exception {
        if (!ProcSelf.available()) {
            return;
        }
        threads.openWhatTheJdkKeeps();
        before = ProcSelf.openDescriptors();
        targetsBefore = ProcSelf.descriptorTargets();
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        if (before < 0) {
            return;
        }
        assertThat(ProcSelf.awaitDescriptorsAtMost(before))
                .as(
                        "open file descriptors once the test's own ends are closed; before %s, after %s",
                        targetsBefore, ProcSelf.descriptorTargets())
                .isLessThanOrEqualTo(before);
    }
}
