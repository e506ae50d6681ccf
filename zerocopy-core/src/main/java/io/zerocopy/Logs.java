package io.zerocopy;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The logger operators are told to watch (docs/strategies.md): {@code io.zerocopy.Transfers}, one
 * debug line for each transfer's choice, and the lines its steps add, whichever class writes them.
 */
final class Logs {
    static final Logger TRANSFERS = LoggerFactory.getLogger("io.zerocopy.Transfers");

    private Logs() {}
}
