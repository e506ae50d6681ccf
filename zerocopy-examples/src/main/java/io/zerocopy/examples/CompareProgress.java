package io.zerocopy.examples;

import java.io.Console;
import java.lang.reflect.Method;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/** {@code compare}'s progress bar on the terminal; nothing at all where no person would see it. */
final class CompareProgress implements AutoCloseable {
    /** Null: no bar. */
    private final ProgressBar bar;

    private CompareProgress(ProgressBar bar) {
        this.bar = bar;
    }

    /** A bar of {@code steps} steps if {@code wanted} and stderr is a terminal, else one that shows nothing. */
    static CompareProgress of(boolean wanted, long steps) {
        if (!wanted || !stderrIsTerminal()) {
            return new CompareProgress(null);
        }
        return new CompareProgress(new ProgressBarBuilder()
                .setTaskName("compare")
                .setInitialMax(steps)
                .setStyle(ProgressBarStyle.ASCII)
                .setUpdateIntervalMillis(250)
                .setMaxRenderedLength(100)
                .clearDisplayOnFinish()
                .build());
    }

    /** One step done; {@code message} says which. */
    void step(String message) {
        if (bar != null) {
            bar.step();
            bar.setExtraMessage(message);
        }
    }

    @Override
    public void close() {
        if (bar != null) {
            bar.close();
        }
    }

    /**
     * Whether the progress bar would reach a person: a console exists (JDK 17 gives none when
     * input or output is redirected) and, on JDK 22+, where a console exists even then, it is a
     * terminal.
     */
    static boolean stderrIsTerminal() {
        Console console = System.console();
        if (console == null) {
            return false;
        }
        try {
            Method isTerminal = Console.class.getMethod("isTerminal");
            return (Boolean) isTerminal.invoke(console);
        } catch (NoSuchMethodException e) {
            return true;
        } catch (ReflectiveOperationException e) {
            return false;
        }
    }
}
