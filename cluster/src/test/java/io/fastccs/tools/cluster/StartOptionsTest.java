package io.fastccs.tools.cluster;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StartOptionsTest {
    @Test
    void defaultsArePluginOnWithASmallHeap() {
        StartOptions options = StartOptions.nodes(3);

        assertThat(options.plugin()).isTrue();
        assertThat(options.heapMin()).isEqualTo("256M");
        assertThat(options.heapMax()).isEqualTo("768M");
        assertThat(options.timeout()).isEqualTo(Duration.ofSeconds(120));
    }

    @Test
    void aHeapBelowTheDefaultMinimumIsBothMinimumAndMaximum() {
        assertThat(StartOptions.nodes(1).withHeap("128M").heapMin()).isEqualTo("128M");
        assertThat(StartOptions.nodes(1).withHeap("2G").heapMin()).isEqualTo("256M");
    }

    @Test
    void badSizesAndCountsAreRefused() {
        assertThatThrownBy(() -> StartOptions.nodes(1).withHeap("768")).hasMessageContaining("like 768M");
        assertThatThrownBy(() -> StartOptions.nodes(1).withHeap("1G", "512M")).hasMessageContaining("exceeds");
        assertThatThrownBy(() -> StartOptions.nodes(0)).hasMessageContaining("1 to 254");
        assertThatThrownBy(() -> StartOptions.nodes(255)).hasMessageContaining("1 to 254");
    }
}
