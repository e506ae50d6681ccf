package io.zerocopy;

import java.nio.ByteBuffer;

/** Looks at a direct buffer pool from tests. */
final class Pools {
    private Pools() {}

    /**
     * Whether {@code pool} can now lend a buffer of {@code size} bytes: one is taken and given back
     * (a new one stays in the pool, idle). Other threads may take it first: for assumptions and
     * checks of a pool no one else uses.
     */
    static boolean canLend(DirectBuffers pool, int size) {
        ByteBuffer b = pool.acquire(size);
        if (b == null) {
            return false;
        }
        pool.release(b);
        return true;
    }
}
