/** A modular application that uses zerocopy the way the README shows. */
module com.example.modular {
    requires io.zerocopy;

    exports com.example.modular;
}
