package io.zerocopy.examples;

import io.zerocopy.TransferListener;
import io.zerocopy.TransferOptions;

/** The three ways {@code compare} sends a file, in the order of its CSV columns and table. */
enum CompareMethod {
    /**
     * The library's {@code buffered} strategy forced to a 4096-byte buffer: the 2008 loop's buffer
     * size (below one loopback segment, so used as given), not a heap array through streams.
     */
    BUFFERED_4K("buffered 4 KiB") {
        @Override
        TransferOptions.Builder options() {
            return TransferOptions.builder().strategy("buffered").bufferSize(4096);
        }
    },
    /** The {@code transferTo} strategy forced. */
    TRANSFER_TO("transferTo") {
        @Override
        TransferOptions.Builder options() {
            return TransferOptions.builder().strategy("transferTo");
        }
    },
    /** The library's own choice. */
    AUTO("auto") {
        @Override
        TransferOptions.Builder options() {
            return TransferOptions.builder();
        }
    };

    /** The name in the runs CSV and the progress line. */
    final String label;

    CompareMethod(String label) {
        this.label = label;
    }

    abstract TransferOptions.Builder options();

    /** This method's options, reporting each transfer to {@code listener}. */
    TransferOptions options(TransferListener listener) {
        return options().listener(listener).build();
    }
}
