package io.zerocopy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.verifyNoInteractions;

import io.zerocopy.spi.TransferStrategy;
import io.zerocopy.testing.TransferStrategyContract;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The strategy contract over every strategy the registry knows, not a hand-kept list: the built-in
 * ones (splice too: it declines every case when this JVM cannot run it) and the registered
 * {@link CountingTestStrategy}, which declines these cases because none has its marker target
 * ({@link CountingTestStrategyContractTest} gives it one). The listener of every case is a mock,
 * checked against the listener contract.
 */
// Experimental in JUnit 5.14 but kept: one class runs the whole contract for every registered strategy, none left out
@ParameterizedClass(name = "{0}")
@MethodSource("registry")
class StrategyContractTest extends TransferStrategyContract {

    @Parameter
    TransferStrategy strategy;

    static List<TransferStrategy> registry() {
        return List.copyOf(Strategies.all().values());
    }

    @Override
    protected TransferStrategy strategy() {
        return strategy;
    }

    @Override
    protected TransferListener listener() {
        return ListenerCalls.mockListener();
    }

    @Override
    protected void verifyListener(TransferListener listener, Outcome outcome) {
        if (outcome.declined()) {
            verifyNoInteractions(listener);
        } else if (outcome.failure() != null) {
            ListenerCalls.verifyFailed(listener, outcome.strategy(), outcome.expectedAtStart(), outcome.failure());
        } else {
            ListenerCalls.verifyCompleted(
                    listener, outcome.strategy(), outcome.expectedAtStart(), outcome.bytesTransferred());
        }
    }

    @Test
    void registry_holdsEveryBuiltInAndTheRegisteredTestStrategy() {
        assertThat(registry()).containsAll(Strategies.BUILT_IN);
        assertThat(registry()).extracting(TransferStrategy::name).contains(CountingTestStrategy.NAME);
    }
}
