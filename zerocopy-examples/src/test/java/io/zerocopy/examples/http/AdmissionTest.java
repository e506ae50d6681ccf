package io.zerocopy.examples.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AdmissionTest {

    @Test
    void admit_servesUpToTheLimit_thenRefuses_thenDrops() {
        Admission admission = new Admission(2);
        assertThat(admission.admit()).isEqualTo(Admission.Verdict.SERVE);
        assertThat(admission.admit()).isEqualTo(Admission.Verdict.SERVE);
        for (int i = 0; i < Admission.MAX_REFUSING; i++) {
            assertThat(admission.admit()).as("refusal %d", i).isEqualTo(Admission.Verdict.REFUSE);
        }
        assertThat(admission.admit()).isEqualTo(Admission.Verdict.DROP);
        assertThat(admission.admit()).as("a drop is not counted").isEqualTo(Admission.Verdict.DROP);
    }

    @Test
    void release_freesTheKindOfPlaceItWasGiven() {
        Admission admission = new Admission(1);
        assertThat(admission.admit()).isEqualTo(Admission.Verdict.SERVE);
        for (int i = 0; i < Admission.MAX_REFUSING; i++) {
            admission.admit();
        }
        admission.release(true);
        assertThat(admission.admit()).as("a refusal's place is free again").isEqualTo(Admission.Verdict.REFUSE);
        admission.release(false);
        assertThat(admission.admit()).as("a served place is free again").isEqualTo(Admission.Verdict.SERVE);
        assertThat(admission.admit()).isEqualTo(Admission.Verdict.DROP);
    }
}
