package io.zerocopy;

import java.nio.ByteBuffer;

/**
 * A mapped file region and what unmaps it, as {@link Mappings} made it on this JDK: {@code unmap}
 * runs once, and the buffer must not be touched after it.
 */
record Mapping(ByteBuffer buffer, Runnable unmap) {}
