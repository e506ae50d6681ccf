package io.zerocopy.benchmarks.scale;

/** What moves where in a cell: the pairs the scale benchmark measures. */
enum Pair {
    /** A cached file to a peer process on 127.0.0.1. */
    LOOPBACK("loopback", "file → loopback socket", true),
    /** A cached file to a peer process in another network namespace, over a veth pair. */
    VETH("veth", "file → veth peer", true),
    /** N peer connections, each sending to a new file of this process. */
    SOCKET_TO_FILE("socketToFile", "loopback socket → file", false);

    final String id;
    final String title;
    final boolean sendsFile;

    Pair(String id, String title, boolean sendsFile) {
        this.id = id;
        this.title = title;
        this.sendsFile = sendsFile;
    }

    static Pair of(String id) {
        return Ids.find(values(), pair -> pair.id, "pair", id);
    }
}
